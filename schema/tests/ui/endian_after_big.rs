use schema::Schema;

#[derive(Schema)]
#[schema(big, context(order: schema::Endian), endian = order)]
struct Body {
    value: u32,
}

fn main() {}
