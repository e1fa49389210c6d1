use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Word {
    #[schema(word = u8, bits = 5)]
    command: u8,
    #[schema(bits = 4)]
    count: u8,
}

fn main() {}
