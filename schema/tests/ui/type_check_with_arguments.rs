use ossuary_schema::Refusal;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, check = fits(count))]
struct Points {
    count: u8,
    #[schema(prefix = u8)]
    points: Vec<u8>,
}

fn fits(_: &Points, _: &u8) -> Result<(), Refusal> {
    Ok(())
}

fn main() {}
