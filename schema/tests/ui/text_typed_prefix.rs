use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Skin {
    #[schema(prefix = u32)]
    faces: Vec<[i32; 3]>,
}

fn main() {}
