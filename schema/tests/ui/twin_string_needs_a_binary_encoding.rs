use ossuary_schema::{RawString, Schema};

// The text encoding has the string as a line; the binary one needs its own.
#[derive(Schema)]
#[schema(binary(little), text)]
struct Property {
    #[schema(text(line))]
    key: RawString,
}

fn main() {}
