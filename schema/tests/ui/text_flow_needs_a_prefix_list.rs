use ossuary_schema::Count;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Vertex {
    pair_count: Count<u32>,
    // `flow` reads a count line, then tokens in any whitespace: the count
    // must be the list's own `prefix`.
    #[schema(count = pair_count, flow)]
    pairs: Vec<u32>,
}

fn main() {}
