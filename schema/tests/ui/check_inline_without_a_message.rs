use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Header {
    #[schema(check = count <= 10)]
    count: u8,
}

fn main() {}
