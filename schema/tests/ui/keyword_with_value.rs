use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
enum Mode {
    #[schema(keyword = "Bones")]
    Bones(u32),
}

fn main() {}
