use formats::Schema;

#[derive(Schema)]
#[schema(text)]
struct Named {
    size: u32,
    #[schema(line, context(size))]
    name: formats::schema::RawString,
}

fn main() {}
