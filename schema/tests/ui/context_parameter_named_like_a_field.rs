use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, context(angles: u32))]
struct Frame {
    #[schema(count = angles)]
    angles: Vec<i16>,
}

fn main() {}
