use ossuary_schema::Schema;

// Both encodings read the condition; its mistake is reported once.
#[derive(Schema)]
#[schema(binary(little), text)]
struct Bone {
    can_translate: i32,
    #[schema(present_if = version >= 300)]
    can_blend: Option<i32>,
}

fn main() {}
