use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, form = "0002")]
struct VersionTwo {
    #[schema(chunk = "INFO")]
    joint_count: u32,
}

#[derive(Schema)]
#[schema(little)]
enum Version {
    V2(VersionTwo),
}

fn main() {}
