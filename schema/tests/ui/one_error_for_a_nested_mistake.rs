use ossuary_schema::BinarySchema;
use ossuary_schema::Schema;

// The one mistake: `pascal` is a string encoding, on a `u32`. The types
// and code using `Inner` give no errors of their own.
#[derive(Schema)]
#[schema(little)]
struct Inner {
    #[schema(pascal)]
    id: u32,
}

#[derive(Schema)]
#[schema(little)]
struct Outer {
    inner: Inner,
    #[schema(prefix = u8)]
    more: Vec<Inner>,
    #[schema(flag = u8)]
    maybe: Option<Inner>,
}

fn main() {
    let _ = Outer::from_bytes(&[]);
    let _ = Inner::from_bytes(&[]);
}
