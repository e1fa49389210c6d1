use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Stream {
    #[schema(to_end)]
    tokens: Vec<u8>,
    checksum: u32,
}

fn main() {}
