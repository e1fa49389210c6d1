use formats::Schema;

#[derive(Schema)]
#[schema(text, chunk = "NAME")]
struct Name {
    #[schema(line)]
    name: formats::schema::RawString,
}

fn main() {}
