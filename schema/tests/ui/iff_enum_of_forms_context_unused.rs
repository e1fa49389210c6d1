use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(context(mode: u8))]
enum Version {
    V2(Skeleton),
}

#[derive(Schema)]
#[schema(little, form = "0002")]
struct Skeleton {
    #[schema(chunk = "INFO")]
    count: u32,
}

fn main() {}
