use formats::schema::RawString;
use formats::Schema;

#[derive(Schema)]
#[schema(little)]
struct Skin {
    #[schema(line)]
    name: RawString,
}

fn main() {}
