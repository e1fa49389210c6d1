use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(binary(little), text, one_line)]
struct Blend {
    vertex: i32,
    weight: i32,
}

fn main() {}
