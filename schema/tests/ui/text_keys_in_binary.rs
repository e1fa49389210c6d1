use ossuary_schema::RawString;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Bone {
    #[schema(angle_brackets)]
    name: RawString,
    #[schema(none = "*")]
    parent: Option<u32>,
    #[schema(same_line)]
    flags: u8,
    weight: f32,
}

fn main() {}
