use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Record {
    length: u8,
    #[schema(size = length)]
    body: u16,
}

fn main() {}
