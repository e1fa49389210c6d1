//! Text keywords, text enums chosen by a context value, counts on earlier
//! lines or in the context, and lists to the end of the text, with golden
//! text written by hand.

use super::{TextSchema, TextStyle};
use crate::Schema;
use crate::{Count, Layout};

/// How a header says frames are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema)]
#[schema(text)]
enum Representation {
    #[schema(keyword = "Matrix")]
    Matrix,
    #[schema(keyword = "Euler Angles")]
    EulerAngles,
}

/// One bone's transform, as the header's representation says.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text, context(representation: Representation), select = representation)]
enum Transform {
    #[schema(when = Representation::Matrix)]
    Matrix(Matrix),
    #[schema(when = Representation::EulerAngles)]
    Euler(Euler),
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text)]
struct Matrix {
    rows: [[f32; 3]; 1],
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text)]
struct Euler {
    angles: [f32; 3],
}

/// A frame: one transform per bone, as many as the header counts.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text, context(bones: u32, representation: Representation))]
struct Frame {
    #[schema(count = bones, context(representation))]
    transforms: Vec<Transform>,
}

/// A header, then frames to the end of the text.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text)]
struct Animation {
    #[schema(style)]
    style: TextStyle,
    bone_count: u32,
    name_count: Count<u32>,
    representation: Representation,
    #[schema(count = name_count, line)]
    names: Vec<crate::RawString>,
    #[schema(count = name_count)]
    parents: Vec<i32>,
    #[schema(to_end, context(bones = bone_count, representation))]
    frames: Vec<Frame>,
}

const GOLDEN: &str = "2\n\
                      1\n\
                      \"Euler Angles\"\n\
                      Bip01 Pelvis\n\
                      -1\n\
                      1 2 3\n\
                      4 5 6\n\
                      0 0 0\n\
                      0 0 0.5\n";

fn frame(first: [f32; 3], second: [f32; 3]) -> Frame {
    Frame {
        transforms: vec![
            Transform::Euler(Euler { angles: first }),
            Transform::Euler(Euler { angles: second }),
        ],
    }
}

#[test]
fn golden_text_reads_and_comes_back_byte_for_byte() {
    let animation = Animation::from_text(GOLDEN.as_bytes()).unwrap();
    assert_eq!(animation.bone_count, 2);
    assert_eq!(animation.representation, Representation::EulerAngles);
    assert_eq!(animation.names, [crate::RawString::from("Bip01 Pelvis")]);
    assert_eq!(animation.parents, [-1]);
    assert_eq!(
        animation.frames,
        [
            frame([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]),
            frame([0.0; 3], [0.0, 0.0, 0.5])
        ]
    );
    assert_eq!(
        String::from_utf8(animation.to_text().unwrap()).unwrap(),
        GOLDEN
    );
}

#[test]
fn a_keyword_is_written_as_the_file_spelled_it() {
    let unquoted = GOLDEN.replace("\"Euler Angles\"", "  Euler Angles");
    let animation = Animation::from_text(unquoted.as_bytes()).unwrap();
    assert_eq!(
        String::from_utf8(animation.to_text().unwrap()).unwrap(),
        unquoted
    );
    let mut fresh = animation.clone();
    fresh.style = TextStyle {
        line_ending: super::LineEnding::Lf,
        ..TextStyle::default()
    };
    let written = String::from_utf8(fresh.to_text().unwrap()).unwrap();
    assert!(written.contains("\nEuler Angles\n"), "{written}");
}

#[test]
fn a_keyword_enum_tells_its_phrase() {
    use super::Keyword as _;
    assert_eq!(Representation::EulerAngles.keyword(), "Euler Angles");
    assert_eq!(Representation::Matrix.keyword(), "Matrix");
}

#[test]
fn an_unknown_keyword_lists_the_known_ones() {
    let text = GOLDEN.replace("\"Euler Angles\"", "\"Quaternion\"");
    assert_eq!(
        Animation::from_text(text.as_bytes())
            .unwrap_err()
            .to_string(),
        "line 3:1: representation: expected one of `Matrix`, `Euler Angles`, found `\"Quaternion\"`"
    );
}

#[test]
fn lists_sharing_a_count_line_must_agree_on_write() {
    let mut animation = Animation::from_text(GOLDEN.as_bytes()).unwrap();
    animation.parents.push(0);
    assert_eq!(
        animation.to_text().unwrap_err().to_string(),
        "name_count: collections sharing one count differ in length: names has 1, parents has 2"
    );
}

#[test]
fn a_frame_that_disagrees_with_its_context_is_a_write_error() {
    let mut animation = Animation::from_text(GOLDEN.as_bytes()).unwrap();
    animation.frames[1].transforms.pop();
    assert_eq!(
        animation.to_text().unwrap_err().to_string(),
        "frames[1].transforms: 1 entries, but `bones` gives 2"
    );
    let mut animation = Animation::from_text(GOLDEN.as_bytes()).unwrap();
    animation.frames[0].transforms[1] = Transform::Matrix(Matrix {
        rows: [[1.0, 0.0, 0.0]],
    });
    assert_eq!(
        animation.to_text().unwrap_err().to_string(),
        "frames[0].transforms[1]: the value is `Matrix`, but `representation` is EulerAngles, \
         which chooses `Euler`"
    );
}

#[test]
fn a_frame_cut_short_names_its_line_and_path() {
    let text = GOLDEN.trim_end_matches("0 0 0.5\n");
    assert_eq!(
        Animation::from_text(text.as_bytes())
            .unwrap_err()
            .to_string(),
        "line 8:1: frames[1].transforms: count 2 needs at least 2 more lines but only 1 remain"
    );
}

#[test]
fn layouts_say_where_counts_come_from() {
    let counts: Vec<Option<&str>> = Animation::LAYOUT
        .fields
        .iter()
        .map(|field| field.count)
        .collect();
    assert_eq!(
        counts,
        [
            None,
            None,
            None,
            None,
            Some("field `name_count`"),
            Some("field `name_count`"),
            Some("the end of the text")
        ]
    );
    assert_eq!(
        Frame::LAYOUT.fields[0].encoding,
        "`bones` × Transform, given `representation` = `representation`"
    );
    assert_eq!(
        Representation::LAYOUT.fields[1].encoding,
        "line `Euler Angles` (quoted or not)"
    );
}
