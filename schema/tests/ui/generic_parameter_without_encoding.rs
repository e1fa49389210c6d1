use ossuary_schema::{BinarySchema, Schema};

#[derive(Debug, Schema)]
#[schema(little)]
struct Pair<T> {
    first: T,
    second: T,
}

fn main() {
    let _ = Pair::<String>::from_bytes(&[]);
}
