use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Skin {
    faces: Vec<[i32; 3]>,
}

fn main() {}
