use ossuary_schema::{Endian, Schema};

#[derive(Schema)]
#[schema(binary(context(order: Endian), endian = order), text(one_line))]
struct Span {
    first: i32,
}

// A text record cannot give a span the byte order only its binary takes.
#[derive(Schema)]
#[schema(text)]
struct Spans {
    #[schema(prefix, context(order = Endian::Big))]
    spans: Vec<Span>,
}

fn main() {}
