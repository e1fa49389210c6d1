use formats::schema::RawString;
use formats::Schema;

#[derive(Schema)]
#[schema(text)]
struct Skin {
    #[schema(pascal)]
    name: RawString,
}

fn main() {}
