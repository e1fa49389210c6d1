use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Header {
    version: u16,
    #[schema(present_if = version >= 2 && mode == 1)]
    flags: Option<u32>,
}

fn main() {}
