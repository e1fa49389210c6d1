use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Record {
    length: u8,
    #[schema(flag = u8, size = length)]
    body: Option<u16>,
}

fn main() {}
