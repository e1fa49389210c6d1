use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Table {
    #[schema(align = 4)]
    values: u32,
}

fn main() {}
