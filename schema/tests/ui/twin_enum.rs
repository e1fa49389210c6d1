use ossuary_schema::Schema;

// One type with both encodings is a struct.
#[derive(Schema)]
#[schema(binary(little), text)]
enum Mode {
    #[schema(keyword = "on")]
    On,
    #[schema(keyword = "off")]
    Off,
}

fn main() {}
