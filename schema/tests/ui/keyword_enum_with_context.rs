use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text, context(mode: u8))]
enum Mode {
    #[schema(keyword = "Bones")]
    Bones,
}

fn main() {}
