use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, one_line)]
struct Face {
    a: u32,
}

fn main() {}
