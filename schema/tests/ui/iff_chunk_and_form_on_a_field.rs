use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, form = "DEMO")]
struct Demo {
    #[schema(chunk = "INFO", form = "LIST")]
    count: u16,
}

fn main() {}
