use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, context(mode: u8), select = mdoe)]
enum Shape {
    #[schema(when = 0)]
    Point,
    #[schema(when = 1)]
    Circle(f32),
}

fn main() {}
