use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, form = "DEMO")]
struct Demo {
    #[schema(chunk = "INFO")]
    id: u16,
    scale: Option<Scale>,
}

#[derive(Schema)]
#[schema(little)]
struct Scale {
    factor: u8,
}

fn main() {}
