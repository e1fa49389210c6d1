use ossuary_schema::{Magic, Refusal};
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Header {
    #[schema(magic = 1u32, check = anything)]
    version: Magic,
}

fn anything(_: &Magic) -> Result<(), Refusal> {
    Ok(())
}

fn main() {}
