use schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Named {
    size: u32,
    #[schema(pascal, context(size))]
    name: schema::RawString,
}

fn main() {}
