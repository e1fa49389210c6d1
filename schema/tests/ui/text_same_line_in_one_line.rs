use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text, one_line)]
struct Influence {
    bone: u32,
    #[schema(same_line)]
    weight: f32,
}

fn main() {}
