use ossuary_schema::{Count, Magic, Schema};

#[derive(Schema, serde::Serialize, serde::Deserialize)]
#[schema(little)]
struct Tagged {
    #[schema(magic = b"TAGL")]
    #[serde(rename = "tag")]
    tag: Magic,
    #[serde(skip)]
    value_count: Count<u8>,
    #[schema(count = value_count)]
    values: Vec<u8>,
}

fn main() {}
