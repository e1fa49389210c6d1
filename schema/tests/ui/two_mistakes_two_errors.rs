use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Header {
    #[schema(pascal)]
    id: u32,
    #[schema(present_if = nothing)]
    flags: Option<u32>,
}

fn main() {}
