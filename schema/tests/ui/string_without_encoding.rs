use schema::RawString;
use schema::Schema;

#[derive(Schema)]
#[schema(big)]
struct Bone {
    name: RawString,
}

fn main() {}
