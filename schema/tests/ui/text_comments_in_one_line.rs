use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text, one_line, comments)]
struct Influence {
    bone: u32,
    weight: f32,
}

fn main() {}
