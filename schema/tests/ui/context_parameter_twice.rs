use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, context(records: u32, records: u32))]
struct Frame {
    #[schema(count = records)]
    angles: Vec<i16>,
}

fn main() {}
