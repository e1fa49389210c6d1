use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Bone {
    #[schema(prefix, none = "*")]
    children: Option<Vec<u32>>,
}

fn main() {}
