use schema::Schema;

#[derive(Schema)]
#[schema(text, chunk = "NAME")]
struct Name {
    #[schema(line)]
    name: schema::RawString,
}

fn main() {}
