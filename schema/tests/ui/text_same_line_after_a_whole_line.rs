use ossuary_schema::RawString;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Group {
    #[schema(line)]
    name: RawString,
    #[schema(same_line)]
    bone: u32,
}

fn main() {}
