use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, context(mode: u8), select = mode, bits = 3)]
enum Command {
    #[schema(when = 0)]
    End,
}

fn main() {}
