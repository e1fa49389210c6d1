use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, context(mode: u8, scale: u8), select = mode)]
enum Content {
    #[schema(when = 0)]
    Full(f32),
}

fn main() {}
