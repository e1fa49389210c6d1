use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Mixed {
    #[schema(big, little)]
    value: u32,
}

fn main() {}
