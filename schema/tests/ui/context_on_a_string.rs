use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Named {
    size: u32,
    #[schema(pascal, context(size))]
    name: ossuary_schema::RawString,
}

fn main() {}
