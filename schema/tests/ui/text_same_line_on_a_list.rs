use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Group {
    bone: u32,
    #[schema(same_line, prefix)]
    vertices: Vec<u32>,
}

fn main() {}
