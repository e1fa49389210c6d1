use schema::Magic;
use schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Character {
    #[schema(magic = 300u32)]
    version: Magic,
}

fn main() {}
