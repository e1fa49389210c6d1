use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Word {
    #[schema(word = f32, bits = 32)]
    value: u32,
}

fn main() {}
