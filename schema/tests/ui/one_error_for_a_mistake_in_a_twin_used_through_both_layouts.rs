use ossuary_schema::text::TextSchema;
use ossuary_schema::{BinarySchema, Layout, RawString, Schema, TextLayout, TypeLayout};

// The one mistake: `line` is a text form, written in `binary(...)`. Using
// the broken type with both encodings, through either layout or either
// codec, gives no error of its own.
#[derive(Schema)]
#[schema(binary(little), text)]
struct Property {
    #[schema(binary(line))]
    key: RawString,
}

static BINARY: TypeLayout = Property::LAYOUT;
static TEXT: TypeLayout = Property::TEXT_LAYOUT;

fn main() {
    let _ = (BINARY.name, TEXT.name);
    let _ = <Property as Layout>::LAYOUT.fields;
    let _ = <Property as TextLayout>::TEXT_LAYOUT.fields;
    let _ = Property::from_bytes(&[]);
    let _ = Property::from_text(b"");
}
