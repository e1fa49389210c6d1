use ossuary_schema::Count;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Mesh {
    #[schema(count = vertex_count)]
    vertices: Vec<u32>,
    vertex_count: Count<u32>,
}

fn main() {}
