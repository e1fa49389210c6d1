use ossuary_schema::Magic;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Character {
    #[schema(magic = 300u32)]
    version: Magic,
}

fn main() {}
