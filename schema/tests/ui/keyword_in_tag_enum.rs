use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, tag = u8)]
enum Token {
    #[schema(keyword = "Full")]
    Full(f32),
}

fn main() {}
