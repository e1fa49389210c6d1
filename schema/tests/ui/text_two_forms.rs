use schema::RawString;
use schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Skin {
    #[schema(line, vector)]
    name: RawString,
}

fn main() {}
