use ossuary_schema::Count;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Mesh {
    #[schema(line)]
    vertex_count: Count<u32>,
    #[schema(count = vertex_count)]
    vertices: Vec<f32>,
}

fn main() {}
