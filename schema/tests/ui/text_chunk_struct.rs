use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text, chunk = "NAME")]
struct Name {
    #[schema(line)]
    name: ossuary_schema::RawString,
}

fn main() {}
