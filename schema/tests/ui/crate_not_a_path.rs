use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, crate = "my formats")]
struct Point {
    x: f32,
}

fn main() {}
