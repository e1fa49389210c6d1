use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Grid {
    width: u8,
    height: u8,
    #[schema(count = usize::from(widht) * usize::from(height))]
    cells: Vec<u8>,
}

fn main() {}
