use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Word {
    #[schema(word = u16, bits = 3)]
    command: u8,
    #[schema(bits = 12)]
    count: u16,
}

fn main() {}
