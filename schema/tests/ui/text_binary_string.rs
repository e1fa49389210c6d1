use ossuary_schema::RawString;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Skin {
    #[schema(pascal)]
    name: RawString,
}

fn main() {}
