use ossuary_schema::text::Refusal;
use ossuary_schema::Schema;

fn below(_: &u32, _: &u32) -> Result<(), Refusal> {
    Ok(())
}

#[derive(Schema)]
#[schema(text)]
struct Bone {
    #[schema(check = below(bone_count))]
    parent: u32,
}

fn main() {}
