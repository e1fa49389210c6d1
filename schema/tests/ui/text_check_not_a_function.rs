use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Bone {
    #[schema(check = 5)]
    parent: u32,
}

fn main() {}
