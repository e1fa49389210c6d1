use formats::schema::RawString;
use formats::Schema;

#[derive(Schema)]
#[schema(text)]
struct Skin {
    #[schema(line, vector)]
    name: RawString,
}

fn main() {}
