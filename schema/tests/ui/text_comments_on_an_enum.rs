use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(text, comments)]
enum Units {
    #[schema(keyword = "Degrees")]
    Degrees,
    #[schema(keyword = "Radians")]
    Radians,
}

fn main() {}
