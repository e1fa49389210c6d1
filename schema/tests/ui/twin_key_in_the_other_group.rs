use ossuary_schema::{RawString, Schema};

#[derive(Schema)]
#[schema(binary(little), text)]
struct Property {
    #[schema(text(pascal), binary(line))]
    key: RawString,
}

fn main() {}
