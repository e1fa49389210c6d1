use ossuary_schema::{RawString, Schema};

#[derive(Schema)]
#[schema(little)]
struct Named {
    #[schema(pascal, map = u8)]
    name: RawString,
}

fn main() {}
