use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Frames {
    #[schema(to_end)]
    values: Vec<f32>,
    last: f32,
}

fn main() {}
