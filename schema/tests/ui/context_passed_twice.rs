use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, context(records: u32))]
struct Frame {
    #[schema(count = records)]
    angles: Vec<i16>,
}

#[derive(Schema)]
#[schema(little)]
struct Animation {
    records: u32,
    #[schema(prefix = u32, context(records, records = records))]
    frames: Vec<Frame>,
}

fn main() {}
