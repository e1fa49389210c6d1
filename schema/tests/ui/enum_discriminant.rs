use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, tag = u8)]
enum Token {
    #[schema(when = 0)]
    Empty = 3,
}

fn main() {}
