use ossuary_schema::{Count, Refusal};
use ossuary_schema::Schema;

// A count's check is given the count read, as a `usize`, not the
// `Count<_>` field (which holds no value).
#[derive(Schema)]
#[schema(little)]
struct Mesh {
    #[schema(check = small)]
    vertex_count: Count<u32>,
    #[schema(count = vertex_count)]
    vertices: Vec<u32>,
}

fn small(_: &Count<u32>) -> Result<(), Refusal> {
    Ok(())
}

fn main() {}
