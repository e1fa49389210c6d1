//! The text vocabulary exercised on a few structs, with golden text written
//! by hand and the errors a damaged file gives.

use super::{FloatStyle, LineEnding, RawLine, RawNumber, TextSchema, TextStyle};
use crate::Schema;
use crate::{ByteOrder, Layout, Magic, Position, RawString};

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text)]
struct Document {
    #[schema(style)]
    style: TextStyle,
    #[schema(comment)]
    header: RawString,
    #[schema(magic = "version 2")]
    version: Magic,
    #[schema(line)]
    title: RawString,
    code: RawString,
    count: i32,
    scale: f32,
    #[schema(vector)]
    position: [f32; 3],
    pair: [i32; 2],
    #[schema(prefix, line)]
    names: Vec<RawString>,
    #[schema(prefix)]
    points: Vec<Point>,
    #[schema(prefix)]
    groups: Vec<Group>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text, one_line)]
struct Point {
    id: i32,
    #[schema(vector)]
    at: [f32; 2],
    label: RawString,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text)]
struct Group {
    #[schema(line)]
    name: RawString,
    #[schema(prefix)]
    weights: Vec<f32>,
}

fn sample() -> Document {
    Document {
        style: TextStyle::default(),
        header: RawString::from(" hand-written sample"),
        version: Magic,
        title: RawString::from("Title with  spaces "),
        code: RawString::from("word"),
        count: -7,
        scale: -5.88894e-5,
        position: [1.0, 0.5, -2.0],
        pair: [3, 4],
        names: vec![RawString::from("first name"), RawString::from("second")],
        points: vec![
            Point {
                id: 1,
                at: [0.25, 1e6],
                label: RawString::from("a"),
            },
            Point {
                id: 2,
                at: [0.0, -1.0],
                label: RawString::from("b"),
            },
        ],
        groups: vec![Group {
            name: RawString::from("g"),
            weights: vec![1.5, -0.001],
        }],
    }
}

/// Lines of the golden text, one per entry; joined with CRLF below.
const GOLDEN_LINES: &[&str] = &[
    "// hand-written sample", // header: comment, text after `//` kept
    "version 2",              // version: constant line
    "Title with  spaces ",    // title: whole line, spaces kept
    "word",                   // code: one word
    "-7",                     // count: %d
    "-5.88894e-005",          // scale: MSVC %g, 3-digit exponent
    "| 1 0.5 -2 |",           // position: vector
    "3 4",                    // pair: [i32; 2] on one line
    "2",                      // names: count line
    "first name",             // names[0]: whole line
    "second",                 // names[1]
    "2",                      // points: count line
    "1 | 0.25 1e+006 | a",    // points[0]: one-line record, vector inside
    "2 | 0 -1 | b",           // points[1]
    "1",                      // groups: count line
    "g",                      // groups[0].name
    "2",                      // groups[0].weights: count line
    "1.5",                    // weights[0]
    "-0.001",                 // weights[1]
];

fn golden(ending: &str) -> Vec<u8> {
    GOLDEN_LINES
        .iter()
        .flat_map(|line| [*line, ending])
        .collect::<String>()
        .into_bytes()
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn golden_text_reads_to_known_values() {
    assert_eq!(Document::from_text(&golden("\r\n")).unwrap(), sample());
}

#[test]
fn writer_reproduces_golden_text() {
    assert_eq!(
        text_of(&sample().to_text().unwrap()),
        text_of(&golden("\r\n"))
    );
}

#[test]
fn line_feed_files_and_a_missing_final_ending_come_back() {
    let lf = golden("\n");
    let document = Document::from_text(&lf).unwrap();
    assert_eq!(document.style.line_ending, LineEnding::Lf);
    assert_eq!(document.to_text().unwrap(), lf);

    let mut unterminated = golden("\r\n");
    unterminated.truncate(unterminated.len() - 2);
    let document = Document::from_text(&unterminated).unwrap();
    assert!(!document.style.final_line_ending);
    assert_eq!(document.to_text().unwrap(), unterminated);
}

#[test]
fn tokens_and_lines_outside_the_style_are_kept_verbatim() {
    let text = golden("\r\n");
    let text = text_of(&text)
        .replace("\r\n-7\r\n", "\r\n+7\r\n")
        .replace("\r\n3 4\r\n", "\r\n3\t 4 \r\n")
        .replace("\r\n1.5\r\n", "\r\n1.50\r\n");
    let document = Document::from_text(text.as_bytes()).unwrap();
    assert_eq!(document.count, 7);
    assert_eq!(document.style.float_style, FloatStyle::Msvc);
    assert_eq!(
        document.style.raw_numbers,
        [
            RawNumber {
                index: 0,
                text: "+7".to_owned()
            },
            RawNumber {
                index: 17,
                text: "1.50".to_owned()
            },
        ]
    );
    assert_eq!(
        document.style.raw_lines,
        [RawLine {
            index: 7,
            text: RawString::from("3\t 4 ")
        }]
    );
    assert_eq!(text_of(&document.to_text().unwrap()), text);

    // A value changed since reading is written in the style.
    let mut changed = document;
    changed.count = 8;
    changed.pair = [3, 5];
    let written = text_of(&changed.to_text().unwrap());
    assert!(written.contains("\r\n8\r\n-5.88894e-005\r\n"), "{written}");
    assert!(written.contains("\r\n3 5\r\n"), "{written}");
    assert!(written.contains("\r\n1.50\r\n"), "{written}");
}

#[test]
fn a_file_in_shortest_style_is_detected() {
    let text = text_of(&golden("\n"))
        .replace("-5.88894e-005", "-0.0000588894")
        .replace("1e+006", "1000000");
    let document = Document::from_text(text.as_bytes()).unwrap();
    assert_eq!(document.style.float_style, FloatStyle::Shortest);
    assert!(document.style.raw_numbers.is_empty());
    assert_eq!(text_of(&document.to_text().unwrap()), text);
}

fn error_of(text: &str) -> String {
    Document::from_text(text.as_bytes())
        .unwrap_err()
        .to_string()
}

fn golden_with(from: &str, to: &str) -> String {
    let text = text_of(&golden("\r\n"));
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

#[test]
fn damaged_text_gives_line_column_and_field_path() {
    assert_eq!(
        error_of(&golden_with("\r\n-7\r\n", "\r\nx7\r\n")),
        "line 5:1: count: expected an integer, found `x7`"
    );
    assert_eq!(
        error_of(&golden_with("| 1 0.5 -2 |", "| 1 0.5 -2")),
        "line 7:11: position: expected |, found the end of the line"
    );
    assert_eq!(
        error_of(&golden_with("2 | 0 -1 | b", "2 | 0 one | b")),
        "line 14:7: points[1].at[1]: expected a number, found `one`"
    );
    assert_eq!(
        error_of(&golden_with("3 4", "3 4 5")),
        "line 8:5: pair: unexpected `5` after the last value of the line"
    );
    assert_eq!(
        error_of(&golden_with("version 2", "version 3")),
        "line 2:9: version: expected 2, found `3`"
    );
    assert_eq!(
        error_of(&golden_with("// hand", "hand")),
        "line 1:1: header: expected a `//` comment line, found `hand-written sample`"
    );
    assert_eq!(
        error_of(&golden_with("\r\n1\r\ng\r\n", "\r\n9\r\ng\r\n")),
        "line 15:1: groups: count 9 needs at least 18 more lines but only 4 remain"
    );
    assert_eq!(
        error_of(&golden_with("2\r\nfirst", "2\nfirst")),
        "line 9:2: names: line ends with LF but earlier lines end with CRLF"
    );
    assert_eq!(
        error_of(&format!("{}extra\r\n", text_of(&golden("\r\n")))),
        "line 20:1: text follows the end of the data"
    );
}

#[test]
fn a_huge_count_fails_before_allocating() {
    let error = error_of(&golden_with(
        "\r\n1\r\ng\r\n",
        "\r\n99999999999999999\r\ng\r\n",
    ));
    assert!(error.contains("count 99999999999999999 needs"), "{error}");
}

#[test]
fn every_truncation_is_an_error_with_a_position() {
    let text = golden("\r\n");
    // Cuts inside the last line may leave a shorter valid number (`-0.00`).
    let last_line = text.len() - "-0.001\r\n".len();
    for len in 0..text.len() {
        let result = Document::from_text(&text[..len]);
        if len < last_line {
            let error = result.unwrap_err();
            assert!(
                matches!(
                    error.position,
                    Some(Position::Text { line, column })
                        if line >= 1 && line <= GOLDEN_LINES.len() && column >= 1
                ),
                "{len}: {error}"
            );
            assert!(!error.path.is_empty(), "{len}: {error}");
        }
    }
}

#[test]
fn words_and_lines_that_cannot_be_written_are_write_errors() {
    let mut document = sample();
    document.code = RawString::from("two words");
    assert_eq!(
        document.to_text().unwrap_err().to_string(),
        "code: a word cannot be empty or hold spaces, tabs or line breaks"
    );
    let mut document = sample();
    document.names[1] = RawString::from("line\nbreak");
    assert_eq!(
        document.to_text().unwrap_err().to_string(),
        "names[1]: a line cannot hold a line break"
    );
}

#[test]
fn layout_describes_text_fields() {
    let layout = Document::LAYOUT;
    assert_eq!(layout.byte_order, ByteOrder::Text);
    let encodings: Vec<_> = layout
        .fields
        .iter()
        .map(|field| (field.name, field.encoding))
        .collect();
    assert_eq!(
        encodings,
        [
            (
                "style",
                "not stored: the file's line ending and number style"
            ),
            ("header", "`//` comment line"),
            ("version", "constant line `version 2`"),
            ("title", "whole line"),
            ("code", "line: one word"),
            ("count", "line: i32"),
            ("scale", "line: f32"),
            ("position", "line: `| … |` of [f32; 3]"),
            ("pair", "line: [i32; 2]"),
            ("names", "count line, then that many × whole line"),
            ("points", "count line, then that many × Point"),
            ("groups", "count line, then that many × Group"),
        ]
    );
    assert_eq!(Point::LAYOUT.fields[1].encoding, "`| … |` of [f32; 2]");
    let nested: Vec<_> = layout
        .fields
        .iter()
        .filter_map(|field| field.nested.map(|nested| (field.name, nested().name)))
        .collect();
    assert_eq!(nested, [("points", "Point"), ("groups", "Group")]);
}

/// A text record whose rule spans fields: the type's own `check`, run once
/// both lists are read, refusing at the record's first token.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text, check = links_within_points)]
struct Links {
    #[schema(prefix)]
    links: Vec<u32>,
    #[schema(prefix)]
    points: Vec<f32>,
}

fn links_within_points(value: &Links) -> Result<(), crate::Refusal> {
    match value
        .links
        .iter()
        .position(|&link| link as usize >= value.points.len())
    {
        Some(at) => Err(crate::Refusal::new("a link is past the points")
            .inside([crate::Segment::Field("links"), crate::Segment::Index(at)])),
        None => Ok(()),
    }
}

#[test]
fn a_type_check_runs_on_the_whole_text_record() {
    let links = Links::from_text(b"1\n0\n1\n2.5\n").unwrap();
    assert_eq!(
        links,
        Links {
            links: vec![0],
            points: vec![2.5]
        }
    );
    let error = Links::from_text(b"1\n3\n1\n2.5\n").unwrap_err();
    assert_eq!(error.position, Some(Position::Text { line: 1, column: 1 }));
    assert_eq!(error.path.to_string(), "links[0]");
}
