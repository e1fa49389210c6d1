use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
enum Mode {
    #[schema(keyword = "Mesh  (absolute)")]
    MeshAbsolute,
}

fn main() {}
