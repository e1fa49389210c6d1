use ossuary_schema::{At, Schema};

#[derive(Schema)]
#[schema(little)]
struct Table {
    #[schema(to_end, offset = u8)]
    items: Vec<At<u16>>,
}

fn main() {}
