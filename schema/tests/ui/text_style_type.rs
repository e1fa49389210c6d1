use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Skin {
    #[schema(style)]
    style: u32,
}

fn main() {}
