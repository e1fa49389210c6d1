use ossuary_schema::Schema;

#[derive(Schema)]
struct Header {
    size: u32,
}

fn main() {}
