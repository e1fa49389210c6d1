use ossuary_schema::text::TextSchema;
use ossuary_schema::Schema;

// The one mistake: `prefix = u8` is a binary count, in a text record. The
// text layout holding the broken record on a line of its own gives no
// error of its own.
#[derive(Schema)]
#[schema(text, one_line)]
struct Point {
    #[schema(prefix = u8)]
    x: Vec<f32>,
}

#[derive(Schema)]
#[schema(text)]
struct Path {
    name: u32,
    #[schema(same_line)]
    at: Point,
    #[schema(prefix)]
    more: Vec<Point>,
}

fn main() {
    let _ = Path::from_text(b"");
}
