use ossuary_schema::{Calc, Schema};

#[derive(Schema)]
#[schema(little)]
struct Chunk {
    size: Calc<u32>,
    #[schema(to_end)]
    payload: Vec<u8>,
}

fn main() {}
