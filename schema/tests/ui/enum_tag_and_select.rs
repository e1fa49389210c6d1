use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, tag = u8, context(mode: u8), select = mode)]
enum Token {
    #[schema(when = 0)]
    Full(f32),
}

fn main() {}
