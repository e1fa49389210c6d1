use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Bone {
    has_parent: u8,
    #[schema(present_if = has_parent, none = "*")]
    parent: Option<u32>,
}

fn main() {}
