use ossuary_schema::Schema;

// The parameter `endian` names must be an `Endian`.
#[derive(Schema)]
#[schema(context(order: u8), endian = order)]
struct Body {
    value: u32,
}

fn main() {}
