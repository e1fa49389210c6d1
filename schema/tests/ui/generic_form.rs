use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(big, form = "LIST")]
struct List<T> {
    #[schema(chunk = "ITEM")]
    item: T,
}

fn main() {}
