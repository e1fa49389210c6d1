use formats::Schema;

#[derive(Schema)]
#[schema(little)]
struct Named {
    size: u32,
    #[schema(pascal, context(size))]
    name: formats::schema::RawString,
}

fn main() {}
