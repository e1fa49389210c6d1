use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Header {
    #[schema(present_if = version >= 2)]
    flags: Option<u32>,
    version: u16,
}

fn main() {}
