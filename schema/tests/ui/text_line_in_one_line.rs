use ossuary_schema::RawString;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text, one_line)]
struct Bone {
    #[schema(line)]
    name: RawString,
}

fn main() {}
