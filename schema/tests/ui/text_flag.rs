use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Bone {
    #[schema(flag = u8)]
    parent: Option<u32>,
}

fn main() {}
