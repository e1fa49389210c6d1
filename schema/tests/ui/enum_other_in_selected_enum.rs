use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, context(mode: u8), select = mode)]
enum Content {
    #[schema(when = 0)]
    Full(f32),
    #[schema(other)]
    Rest(u8),
}

fn main() {}
