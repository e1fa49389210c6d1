use ossuary_schema::{Padding, Schema};

#[derive(Schema)]
#[schema(little)]
struct Name {
    first: u8,
    padding: Padding,
}

fn main() {}
