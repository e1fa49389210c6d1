use ossuary_schema::{At, BinarySchema, Schema};

#[derive(Debug, Schema)]
#[schema(little)]
struct Pointed {
    #[schema(offset = u32)]
    value: At<u16>,
}

fn main() {
    let bytes: &[u8] = &[4, 0, 0, 0, 1, 0];
    let _ = Pointed::read_from_stream(bytes);
}
