use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(binary(little), text, context(len: u32))]
struct Run {
    #[schema(count = len)]
    values: Vec<i16>,
}

// What `context(...)` passes in both encodings and `binary(context(...))`
// passes in binary add up: `len` is then passed twice there.
#[derive(Schema)]
#[schema(binary(little), text)]
struct Runs {
    len: u32,
    #[schema(context(len), binary(context(len)))]
    run: Run,
}

fn main() {}
