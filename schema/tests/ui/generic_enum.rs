use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little, tag = u8)]
enum Either<T> {
    #[schema(when = 0)]
    Nothing,
    #[schema(when = 1)]
    Value(T),
}

fn main() {}
