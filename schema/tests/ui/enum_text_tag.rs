use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text, tag = u8)]
enum Token {
    #[schema(when = 0)]
    Full(f32),
}

fn main() {}
