use formats::Schema;

#[derive(Schema)]
struct Header {
    size: u32,
}

fn main() {}
