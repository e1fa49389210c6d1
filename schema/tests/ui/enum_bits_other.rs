use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, tag = u16, bits = 3)]
enum Command {
    #[schema(when = 5)]
    End,
    #[schema(other)]
    Unknown(u16),
}

fn main() {}
