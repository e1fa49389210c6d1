use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, context(records: u32))]
struct Frame {
    #[schema(count = record)]
    angles: Vec<i16>,
}

fn main() {}
