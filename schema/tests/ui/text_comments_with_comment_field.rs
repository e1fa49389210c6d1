use ossuary_schema::RawString;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text, comments)]
struct Structure {
    #[schema(comment)]
    header: RawString,
    bone_count: u32,
}

fn main() {}
