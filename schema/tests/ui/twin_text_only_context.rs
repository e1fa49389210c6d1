use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(binary(little), text(context(len: u32)))]
struct Run {
    #[schema(count = len)]
    values: Vec<i16>,
}

fn main() {}
