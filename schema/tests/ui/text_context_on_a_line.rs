use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Named {
    size: u32,
    #[schema(line, context(size))]
    name: ossuary_schema::RawString,
}

fn main() {}
