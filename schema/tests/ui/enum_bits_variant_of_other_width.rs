use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Skip {
    #[schema(bits = 12)]
    rows: u16,
}

#[derive(Schema)]
#[schema(little, tag = u16, bits = 3)]
enum Command {
    #[schema(when = 4)]
    Skip(Skip),
}

fn main() {}
