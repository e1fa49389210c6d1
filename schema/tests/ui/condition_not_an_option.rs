use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Record {
    version: u32,
    #[schema(present_if = version >= 300)]
    extra: i32,
}

fn main() {}
