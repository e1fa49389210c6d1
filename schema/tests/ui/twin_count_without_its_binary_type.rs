use ossuary_schema::Schema;

// Both encodings count the list; the binary one needs the count's type.
#[derive(Schema)]
#[schema(binary(little), text)]
struct Motion {
    #[schema(prefix)]
    frames: Vec<i32>,
}

fn main() {}
