use ossuary_schema::Refusal;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Header {
    version: u16,
    #[schema(check = at_most(version))]
    count: u8,
}

// Takes the value, not a reference to it, and no version.
fn at_most(count: u8) -> Result<(), Refusal> {
    if count < 10 {
        Ok(())
    } else {
        Err(Refusal::new("too many"))
    }
}

fn main() {}
