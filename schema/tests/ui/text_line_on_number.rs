use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Skin {
    #[schema(line)]
    vertex_count: i32,
}

fn main() {}
