use formats::Schema;

#[derive(Schema)]
#[schema(little, crate = "formats", crate = "formats")]
struct Point {
    x: f32,
}

fn main() {}
