use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(binary(little, context(mode: u8)), select = mode)]
enum Sample {
    #[schema(when = 0)]
    Short(u16),
    #[schema(when = 1)]
    Long(u32),
}

fn main() {}
