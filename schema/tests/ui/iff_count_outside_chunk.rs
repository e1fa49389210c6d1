use ossuary_schema::Count;
use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, form = "0002")]
struct Skeleton {
    joint_count: Count<u32>,
    #[schema(chunk = "PRNT", count = joint_count)]
    parents: Vec<i32>,
}

fn main() {}
