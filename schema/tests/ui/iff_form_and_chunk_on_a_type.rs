use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, form = "DEMO", chunk = "DEMO")]
struct Demo {
    id: u16,
}

fn main() {}
