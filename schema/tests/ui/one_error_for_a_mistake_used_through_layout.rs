use ossuary_schema::{Layout, Schema, TypeLayout};

// The one mistake: `pascal` is a string encoding, on a `u32`. Reading the
// broken type's layout, as a format registration does
// (`layout: Header::LAYOUT`), gives no error of its own.
#[derive(Schema)]
#[schema(little)]
struct Header {
    #[schema(pascal)]
    id: u32,
}

static LAYOUT: TypeLayout = Header::LAYOUT;

fn main() {
    let _ = LAYOUT.name;
    let _ = <Header as Layout>::LAYOUT.fields;
}
