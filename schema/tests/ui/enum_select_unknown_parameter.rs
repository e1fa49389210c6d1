use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, context(mode: u8), select = kind)]
enum Content {
    #[schema(when = 0, context(mode))]
    Full(f32),
}

fn main() {}
