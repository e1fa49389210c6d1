use ossuary_schema::Count;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Mesh {
    vertex_count: Count<u32>,
    #[schema(prefix, count = vertex_count)]
    vertices: Vec<f32>,
}

fn main() {}
