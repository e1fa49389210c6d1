use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Bone {
    #[schema(angle_brackets)]
    index: u32,
}

fn main() {}
