use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, tag = u8)]
enum Shape {
    #[schema(when = 1, chunk = "CIRC")]
    Circle(u16),
}

fn main() {}
