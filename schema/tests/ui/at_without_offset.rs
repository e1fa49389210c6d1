use ossuary_schema::{At, Schema};

#[derive(Schema)]
#[schema(little)]
struct Header {
    table: At<u16>,
}

fn main() {}
