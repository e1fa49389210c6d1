use ossuary_schema::{Calc, Schema};

#[derive(Schema)]
#[schema(little)]
struct Table {
    #[schema(calc = size_of(names) + 1)]
    length: Calc<u8>,
    #[schema(to_end)]
    names: Vec<u8>,
}

#[derive(Schema)]
#[schema(little)]
struct Counted {
    #[schema(calc = size_of(rest))]
    length: Calc<u8>,
    #[schema(count = length)]
    values: Vec<u8>,
    rest: u8,
}

fn main() {}
