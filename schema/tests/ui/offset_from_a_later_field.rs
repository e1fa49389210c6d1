use ossuary_schema::{At, Schema};

#[derive(Schema)]
#[schema(little)]
struct Header {
    #[schema(offset = u8, from = base)]
    table: At<u16>,
    base: u8,
}

fn main() {}
