use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Group {
    #[schema(same_line)]
    bone: u32,
}

fn main() {}
