use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Chunk {
    #[schema(calc = size_of(payload) + 8)]
    size: u32,
    #[schema(to_end)]
    payload: Vec<u8>,
}

fn main() {}
