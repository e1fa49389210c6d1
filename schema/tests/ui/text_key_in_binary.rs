use schema::RawString;
use schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Skin {
    #[schema(line)]
    name: RawString,
}

fn main() {}
