use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, chunk = "PART")]
struct Part {
    id: u16,
    extra: Option<u8>,
}

fn main() {}
