use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Header {
    base: u8,
    #[schema(from = base)]
    value: u16,
}

fn main() {}
