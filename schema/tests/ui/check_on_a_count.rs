use schema::{Count, Refusal};
use schema::Schema;

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
