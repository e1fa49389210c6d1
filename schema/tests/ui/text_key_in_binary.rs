use ossuary_schema::RawString;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Skin {
    #[schema(line)]
    name: RawString,
}

fn main() {}
