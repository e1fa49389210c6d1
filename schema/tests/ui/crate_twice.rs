use schema::Schema;

#[derive(Schema)]
#[schema(little, crate = "schema", crate = "schema")]
struct Point {
    x: f32,
}

fn main() {}
