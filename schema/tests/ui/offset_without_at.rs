use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Header {
    #[schema(offset = u32)]
    table: u16,
}

fn main() {}
