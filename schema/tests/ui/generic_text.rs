use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Pair<T> {
    first: T,
    second: T,
}

fn main() {}
