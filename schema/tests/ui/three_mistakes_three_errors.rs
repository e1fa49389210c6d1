use ossuary_schema::Schema;

// Three independent mistakes: two keys in one attribute, and a name in
// another field.
#[derive(Schema)]
#[schema(little)]
struct Mesh {
    #[schema(lenght = 4, prefx = u16)]
    vertices: Vec<u32>,
    version: u16,
    #[schema(present_if = verison >= 2)]
    flags: Option<u32>,
}

fn main() {}
