use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(big)]
struct Bone {
    #[schema(flag = u8)]
    properties: Vec<u32>,
}

fn main() {}
