use ossuary_schema::RawString;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(big)]
struct Bone {
    name: RawString,
}

fn main() {}
