use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Bone {
    #[schema(none = "no parent")]
    parent: Option<u32>,
}

fn main() {}
