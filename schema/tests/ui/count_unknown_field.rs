use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Mesh {
    #[schema(count = vertex_count)]
    vertices: Vec<u32>,
}

fn main() {}
