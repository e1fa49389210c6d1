use ossuary_schema::Schema;

// `endian` names a context parameter of type `Endian`; `order` is a field.
#[derive(Schema)]
#[schema(endian = order)]
struct Body {
    order: u8,
    value: u32,
}

fn main() {}
