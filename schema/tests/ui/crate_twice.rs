use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, crate = "ossuary_schema", crate = "ossuary_schema")]
struct Point {
    x: f32,
}

fn main() {}
