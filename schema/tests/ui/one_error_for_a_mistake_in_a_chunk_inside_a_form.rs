use schema::{BinarySchema, RawString, Schema};

// The one mistake: `prefix` gives a list its count, on a string. The form
// holding the broken chunk, the enum choosing among forms and chunks, and
// the code reading them give no errors of their own.
#[derive(Schema)]
#[schema(big, chunk = "NAME")]
struct Name {
    #[schema(prefix = u8)]
    value: RawString,
}

#[derive(Schema)]
#[schema(big, chunk = "SIZE")]
struct Size {
    value: u32,
}

#[derive(Schema)]
#[schema(big, form = "DEMO")]
struct Demo {
    name: Name,
    maybe: Option<Name>,
    #[schema(form = "LIST", to_end)]
    names: Vec<Name>,
}

#[derive(Schema)]
enum Element {
    Name(Name),
    Size(Size),
}

fn main() {
    let _ = Demo::from_bytes(&[]);
    let _ = Element::from_bytes(&[]);
}
