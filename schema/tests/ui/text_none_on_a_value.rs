use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Bone {
    #[schema(none = "*")]
    parent: u32,
}

fn main() {}
