use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text, one_line, context(scale: u32))]
struct Point {
    #[schema(count = scale)]
    x: Vec<f32>,
}

fn main() {}
