use ossuary_schema::text::Refusal;
use ossuary_schema::Count;
use ossuary_schema::Schema;

fn small(_: &Count<u32>) -> Result<(), Refusal> {
    Ok(())
}

#[derive(Schema)]
#[schema(text)]
struct Bones {
    #[schema(check = small)]
    bone_count: Count<u32>,
    #[schema(count = bone_count)]
    parents: Vec<i32>,
}

fn main() {}
