use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Path {
    end: u8,
    #[schema(until = |byte: &u8| *byte == end)]
    bytes: Vec<u8>,
}

fn main() {}
