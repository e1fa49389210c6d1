use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Word {
    version: u8,
    #[schema(bits = 4)]
    count: u8,
}

fn main() {}
