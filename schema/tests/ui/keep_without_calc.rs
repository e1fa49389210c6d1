use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Header {
    #[schema(keep)]
    sum: u8,
}

fn main() {}
