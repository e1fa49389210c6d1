use ossuary_schema::Schema;

// `len` is given to the binary encoding alone, so the text cannot count by it.
#[derive(Schema)]
#[schema(binary(little, context(len: u32)), text)]
struct Run {
    #[schema(count = len)]
    values: Vec<i16>,
}

fn main() {}
