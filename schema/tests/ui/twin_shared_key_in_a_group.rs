use ossuary_schema::Schema;

// `present_if` means the same in both encodings: it is written once.
#[derive(Schema)]
#[schema(binary(little), text, context(version: u32))]
struct Bone {
    #[schema(binary(present_if = version >= 300))]
    can_blend: Option<i32>,
}

fn main() {}
