use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Grid {
    width: u8,
    #[schema(count = size_of(width))]
    cells: Vec<u8>,
}

fn main() {}
