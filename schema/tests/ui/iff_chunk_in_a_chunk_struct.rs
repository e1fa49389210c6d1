use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, chunk = "PART")]
struct Part {
    #[schema(chunk = "INFO")]
    id: u16,
}

fn main() {}
