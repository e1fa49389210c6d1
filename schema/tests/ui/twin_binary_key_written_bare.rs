use ossuary_schema::{RawString, Schema};

// On a type with both encodings, a key only one of them has is placed in
// its group: `pascal` is the binary string encoding.
#[derive(Schema)]
#[schema(binary(little), text)]
struct Property {
    #[schema(text(line), pascal)]
    key: RawString,
}

fn main() {}
