use formats::schema::RawString;
use formats::Schema;

#[derive(Schema)]
#[schema(big)]
struct Bone {
    name: RawString,
}

fn main() {}
