use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, tag = u8)]
enum Token {
    #[schema(other)]
    Delta(u8),
    #[schema(other)]
    Again(u8),
}

fn main() {}
