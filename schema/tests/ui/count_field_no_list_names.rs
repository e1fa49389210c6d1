use ossuary_schema::{Count, Schema};

#[derive(Schema)]
#[schema(little)]
struct Mesh {
    vertex_count: Count<u16>,
    vertices: Vec<u32>,
}

fn main() {}
