use ossuary_schema::{BinarySchema, Schema};

// The one mistake: `pascal` is a string encoding, on a `u32`. The form
// holding the broken chunk, the enum choosing among forms and chunks, and
// the code reading them give no errors of their own.
#[derive(Schema)]
#[schema(big, chunk = "NAME")]
struct Name {
    #[schema(pascal)]
    value: u32,
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
