use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Stream {
    #[schema(to_end)]
    token: u8,
}

fn main() {}
