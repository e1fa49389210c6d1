use ossuary_schema::{RawString, Schema};

// A text type has no binary encoding for `binary(...)` to describe.
#[derive(Schema)]
#[schema(text)]
struct Property {
    #[schema(binary(pascal))]
    key: RawString,
}

fn main() {}
