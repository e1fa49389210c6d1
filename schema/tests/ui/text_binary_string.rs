use schema::RawString;
use schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Skin {
    #[schema(pascal)]
    name: RawString,
}

fn main() {}
