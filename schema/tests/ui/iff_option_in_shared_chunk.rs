use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, form = "DEMO")]
struct Demo {
    #[schema(chunk = "INFO")]
    count: u16,
    #[schema(chunk = "INFO")]
    scale: Option<u8>,
}

fn main() {}
