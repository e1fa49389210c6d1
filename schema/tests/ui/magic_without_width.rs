use ossuary_schema::Magic;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(big)]
struct Header {
    #[schema(magic = 1)]
    version: Magic,
}

fn main() {}
