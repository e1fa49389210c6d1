use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, form = "SKT")]
struct Skeleton {
    #[schema(chunk = "INFO")]
    joint_count: u32,
}

fn main() {}
