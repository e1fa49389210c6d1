use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Mesh {
    version: u16,
    #[schema(presnt_if = version >= 2)]
    flags: Option<u32>,
}

fn main() {}
