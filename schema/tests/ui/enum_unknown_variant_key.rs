use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, tag = u8)]
enum Token {
    #[schema(tag = 0)]
    Full(f32),
}

fn main() {}
