use schema::RawString;
use schema::Schema;

#[derive(Schema)]
#[schema(text, one_line)]
struct Bone {
    #[schema(line)]
    name: RawString,
}

fn main() {}
