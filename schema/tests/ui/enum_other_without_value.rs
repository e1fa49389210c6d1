use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, tag = u8)]
enum Token {
    #[schema(when = 0)]
    Full(f32),
    #[schema(other)]
    Delta,
}

fn main() {}
