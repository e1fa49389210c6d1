use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text, little)]
struct Skin {
    vertex_count: i32,
}

fn main() {}
