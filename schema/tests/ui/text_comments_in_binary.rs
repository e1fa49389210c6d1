use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, comments)]
struct Header {
    count: u32,
}

fn main() {}
