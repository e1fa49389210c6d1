use ossuary_schema::Schema;

#[derive(Schema)]
#[schema(little)]
struct Borrowed<'a> {
    bytes: [u8; 4],
    marker: std::marker::PhantomData<&'a ()>,
}

fn main() {}
