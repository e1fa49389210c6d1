use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Word {
    #[schema(word = u8, bits = 8, prefix = u8)]
    counts: Vec<u8>,
}

fn main() {}
