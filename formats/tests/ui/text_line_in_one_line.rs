use formats::schema::RawString;
use formats::Schema;

#[derive(Schema)]
#[schema(text, one_line)]
struct Bone {
    #[schema(line)]
    name: RawString,
}

fn main() {}
