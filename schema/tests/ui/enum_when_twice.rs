use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, tag = u8)]
enum Token {
    #[schema(when = 0, when = 1)]
    Full(f32),
}

fn main() {}
