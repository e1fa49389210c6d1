use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Bone {
    has_parent: u8,
    #[schema(present_if = has_parent)]
    parent: u32,
}

fn main() {}
