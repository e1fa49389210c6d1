use ossuary_schema::Refusal;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, tag = u8, check = known)]
enum Shape {
    #[schema(when = 1)]
    Dot,
    #[schema(when = 2)]
    Line(u8),
}

fn known(_: &Shape) -> Result<(), Refusal> {
    Ok(())
}

fn main() {}
