use ossuary_schema::{Calc, Schema};

#[derive(Schema)]
#[schema(little)]
struct Chunk {
    #[schema(calc = size_of(paylaod) + 8)]
    size: Calc<u32>,
    #[schema(to_end)]
    payload: Vec<u8>,
}

fn main() {}
