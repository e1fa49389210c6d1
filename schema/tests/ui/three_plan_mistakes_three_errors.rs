use ossuary_schema::{Count, Schema};

// Three independent mistakes the plan finds, one per field.
#[derive(Schema)]
#[schema(little)]
struct Mesh {
    #[schema(prefix = u16)]
    vertex: u32,
    faces: Count<u16>,
    #[schema(calc = 3)]
    size: u8,
}

fn main() {}
