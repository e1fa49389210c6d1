use schema::Schema;

#[derive(Schema)]
#[schema(text)]
struct Named {
    size: u32,
    #[schema(line, context(size))]
    name: schema::RawString,
}

fn main() {}
