use schema::Count;
use schema::Schema;

#[derive(Schema)]
#[schema(little, context(records: u32))]
struct Frame {
    #[schema(count = records)]
    angles: Vec<i16>,
}

#[derive(Schema)]
#[schema(little)]
struct Animation {
    record_count: Count<u32>,
    #[schema(count = record_count)]
    indices: Vec<i32>,
    #[schema(prefix = u32, context(records = record_count))]
    frames: Vec<Frame>,
}

fn main() {}
