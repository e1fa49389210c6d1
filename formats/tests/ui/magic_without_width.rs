use formats::schema::Magic;
use formats::Schema;

#[derive(Schema)]
#[schema(big)]
struct Header {
    #[schema(magic = 1)]
    version: Magic,
}

fn main() {}
