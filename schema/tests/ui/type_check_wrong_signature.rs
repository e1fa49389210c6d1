use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, check = small)]
struct Count {
    value: u8,
}

fn small(count: &Count) -> bool {
    count.value < 10
}

fn main() {}
