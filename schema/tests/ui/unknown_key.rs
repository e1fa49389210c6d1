use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Mesh {
    #[schema(lenght = 4)]
    vertex: u32,
}

fn main() {}
