use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Mesh {
    #[schema(prefix = u16)]
    vertex: u32,
}

fn main() {}
