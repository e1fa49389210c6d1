//! `//` comments anywhere in a layout that allows them, names in angle
//! brackets and a word standing for none, with golden text written by hand.

use super::{LineEnding, RawLine, TextSchema, TextStyle};
use crate::Schema;
use crate::{Count, Layout, RawString};

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text, comments)]
struct Skeleton {
    #[schema(style)]
    style: TextStyle,
    bone_count: Count<u32>,
    #[schema(count = bone_count)]
    bones: Vec<Bone>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text, comments)]
struct Bone {
    #[schema(angle_brackets)]
    name: RawString,
    #[schema(none = "*")]
    parent: Option<u32>,
    #[schema(line)]
    note: RawString,
}

const GOLDEN: &str = "// a skeleton\r\n\
                      2\t// bones\r\n\
                      <Bip01 Pelvis>\r\n\
                      *\r\n\
                      the root: http://example\r\n\
                      \x20 // indented, between values\r\n\
                      <Bip01 L Thigh>   // parent: bone 0\r\n\
                      0\r\n\
                      left\t\t// a note\r\n\
                      // the end\r\n";

fn bone(name: &str, parent: Option<u32>, note: &str) -> Bone {
    Bone {
        name: RawString::from(name),
        parent,
        note: RawString::from(note),
    }
}

fn read(text: &str) -> Skeleton {
    Skeleton::from_text(text.as_bytes()).unwrap()
}

fn error_of(text: &str) -> String {
    Skeleton::from_text(text.as_bytes())
        .unwrap_err()
        .to_string()
}

#[test]
fn comments_anywhere_are_kept_and_written_back_byte_for_byte() {
    let skeleton = read(GOLDEN);
    assert_eq!(
        skeleton.bones,
        [
            bone("Bip01 Pelvis", None, "the root: http://example"),
            bone("Bip01 L Thigh", Some(0), "left"),
        ]
    );
    let line = |index: usize, text: &str| RawLine {
        index,
        text: RawString::from(text),
    };
    assert_eq!(
        skeleton.style.comment_lines,
        [
            line(0, "// a skeleton"),
            line(5, "  // indented, between values"),
            line(9, "// the end"),
        ]
    );
    assert_eq!(
        skeleton.style.trailing_comments,
        [
            line(1, "\t// bones"),
            line(6, "   // parent: bone 0"),
            line(8, "\t\t// a note"),
        ]
    );
    assert_eq!(
        String::from_utf8(skeleton.to_text().unwrap()).unwrap(),
        GOLDEN
    );
}

#[test]
fn a_file_without_its_comments_is_written_without_them() {
    let mut skeleton = read(GOLDEN);
    skeleton.style.comment_lines.clear();
    skeleton.style.trailing_comments.clear();
    assert_eq!(
        String::from_utf8(skeleton.to_text().unwrap()).unwrap(),
        "2\r\n<Bip01 Pelvis>\r\n*\r\nthe root: http://example\r\n<Bip01 L Thigh>\r\n0\r\nleft\r\n"
    );
}

#[test]
fn names_keep_their_spacing() {
    let text = "1\n<  Bip01   L Thigh >\n*\nx\n";
    let skeleton = read(text);
    assert_eq!(
        skeleton.bones[0].name,
        RawString::from("  Bip01   L Thigh ")
    );
    assert_eq!(
        String::from_utf8(skeleton.to_text().unwrap()).unwrap(),
        text
    );
    // A name edited to other spacing is written as it now is.
    let mut edited = skeleton.clone();
    edited.bones[0].name = RawString::from("Bip01 L Thigh");
    assert_eq!(
        String::from_utf8(edited.to_text().unwrap()).unwrap(),
        "1\n<Bip01 L Thigh>\n*\nx\n"
    );
}

#[test]
fn damaged_names_parents_and_comments_name_line_column_and_field() {
    assert_eq!(
        error_of("1\n<Bip01 Pelvis\n*\nx\n"),
        "line 2:1: bones[0].name: the `<` has no closing `>` on its line"
    );
    assert_eq!(
        error_of("1\nBip01\n*\nx\n"),
        "line 2:1: bones[0].name: expected a `<name>`, found `Bip01`"
    );
    assert_eq!(
        error_of("1\n<a>\n-\nx\n"),
        "line 3:1: bones[0].parent: expected an integer, found `-`"
    );
    assert_eq!(
        error_of("1\n<a> <b>\n*\nx\n"),
        "line 2:5: bones[0].name: unexpected `<b>` after the last value of the line"
    );
    // A comment line cannot stand for a value: the file ends before it.
    assert_eq!(
        error_of("1\n<a>\n*\n// x\n"),
        "line 5:1: bones[0].note: expected a line, found the end of the text"
    );
    assert_eq!(
        error_of("1\n<a>\n*\nx\n// y\r\n"),
        "line 5:5: line ends with CRLF but earlier lines end with LF"
    );
}

#[test]
fn a_value_that_would_read_back_as_a_comment_is_not_written() {
    let mut skeleton = read(GOLDEN);
    skeleton.bones[0].note = RawString::from("see // here");
    assert_eq!(
        skeleton.to_text().unwrap_err().to_string(),
        "bones[0].note: a `//` at the start of the line or after a space would read back as a \
         comment"
    );
    let mut skeleton = read(GOLDEN);
    skeleton.bones[1].name = RawString::from("a //b");
    assert_eq!(
        skeleton.to_text().unwrap_err().to_string(),
        "bones[1].name: a `//` after a space in a `<name>` would read back as a comment"
    );
    let mut skeleton = read(GOLDEN);
    skeleton.bones[1].note = RawString::from("  ");
    assert_eq!(
        skeleton.to_text().unwrap_err().to_string(),
        "bones[1].note: a comment after a blank line would read back as a comment line"
    );
    let mut skeleton = read(GOLDEN);
    skeleton.style.comment_lines[0].text = RawString::from("not a comment");
    assert_eq!(
        skeleton.to_text().unwrap_err().to_string(),
        "bone_count: a comment line holds a `//` comment, maybe after spaces"
    );
    let mut skeleton = read(GOLDEN);
    skeleton.style.trailing_comments[0].text = RawString::from("// glued");
    assert_eq!(
        skeleton.to_text().unwrap_err().to_string(),
        "bone_count: a comment after a line's values starts with spaces or tabs, then `//`, \
         and holds no line break"
    );
}

#[test]
fn comments_are_written_where_they_stood_in_a_fresh_style() {
    let mut skeleton = read(GOLDEN);
    skeleton.style = TextStyle {
        line_ending: LineEnding::Lf,
        comment_lines: vec![RawLine {
            index: 0,
            text: RawString::from("// written by a test"),
        }],
        trailing_comments: vec![RawLine {
            index: 1,
            text: RawString::from(" // bones"),
        }],
        ..TextStyle::default()
    };
    let written = String::from_utf8(skeleton.to_text().unwrap()).unwrap();
    assert_eq!(
        written,
        "// written by a test\n2 // bones\n<Bip01 Pelvis>\n*\nthe root: http://example\n\
         <Bip01 L Thigh>\n0\nleft\n"
    );
    assert_eq!(read(&written), skeleton);
}

#[test]
fn layouts_describe_names_and_none_words() {
    let encodings: Vec<&str> = Bone::LAYOUT
        .fields
        .iter()
        .map(|field| field.encoding)
        .collect();
    assert_eq!(
        encodings,
        [
            "line: `<name>`, spaces allowed",
            "line: u32 or `*` for none",
            "whole line"
        ]
    );
}
