use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Skin {
    #[schema(prefix)]
    faces: Vec<u32>,
}

fn main() {}
