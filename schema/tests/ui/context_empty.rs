use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, context())]
struct Frame {
    angle: i16,
}

fn main() {}
