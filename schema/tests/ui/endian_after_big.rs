use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(big, context(order: ossuary_schema::Endian), endian = order)]
struct Body {
    value: u32,
}

fn main() {}
