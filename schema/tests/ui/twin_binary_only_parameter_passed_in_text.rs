use ossuary_schema::{Endian, Schema};

#[derive(Schema)]
#[schema(binary(context(order: Endian), endian = order), text(one_line))]
struct Span {
    first: i32,
}

// The holder's own byte order, passed on in both encodings: its text has none.
#[derive(Schema)]
#[schema(binary(context(order: Endian), endian = order), text)]
struct Spans {
    #[schema(prefix = u32, context(order))]
    spans: Vec<Span>,
}

fn main() {}
