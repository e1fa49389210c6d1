//! The derive's IFF vocabulary on one small file: fields in a row sharing
//! a chunk, options present by the next tag, a list in a form of its own,
//! chunk structs, an enum of chunks, versions sharing one layout, and
//! unknown children kept as they are; golden bytes written by hand and the
//! errors of corrupted files.

use super::{BinarySchema, Count, ErrorKind, RawChunk, RawString};
use crate::Schema;

/// `FORM DEMO`, in two versions sharing one layout.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, form = "DEMO")]
struct Demo {
    version: DemoVersion,
}

#[derive(Debug, Clone, PartialEq, Schema)]
enum DemoVersion {
    #[schema(form = "0001")]
    V1(Body),
    #[schema(form = "0002")]
    V2(Body),
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct Body {
    #[schema(chunk = "INFO")]
    point_count: Count<u16>,
    #[schema(chunk = "INFO")]
    part_count: Count<i32>,
    #[schema(chunk = "INFO")]
    scale: u8,
    #[schema(chunk = "PNTS", count = point_count)]
    points: Vec<[i8; 2]>,
    /// Absent when there are none, like SWG's normals.
    #[schema(chunk = "WGHT", count = point_count)]
    weights: Option<Vec<u8>>,
    #[schema(chunk = "NOTE", null_terminated)]
    note: Option<RawString>,
    #[schema(form = "PRTS", count = part_count)]
    parts: Vec<Part>,
    marker: Option<Marker>,
    #[schema(to_end)]
    unknown: Vec<RawChunk>,
}

/// A chunk of its own.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, chunk = "PART")]
struct Part {
    id: u16,
    shape: Shape,
}

/// Not a chunk: a part's payload chooses nothing by tag, so `Shape` is a
/// plain value.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct Shape {
    sides: u8,
}

/// A marker chunk, one of two kinds.
#[derive(Debug, Clone, PartialEq, Schema)]
enum Marker {
    Dot(Dot),
    #[schema(chunk = "LINE")]
    Line(Line),
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, chunk = "DOT ")]
struct Dot {
    at: i8,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct Line {
    from: i8,
    to: i8,
}

fn sample() -> Demo {
    Demo {
        version: DemoVersion::V2(Body {
            point_count: Count::new(),
            part_count: Count::new(),
            scale: 3,
            points: vec![[1, -1], [2, -2]],
            weights: None,
            note: Some(RawString::from("hi")),
            parts: vec![Part {
                id: 0x0102,
                shape: Shape { sides: 4 },
            }],
            marker: Some(Marker::Line(Line { from: 5, to: 6 })),
            unknown: vec![
                RawChunk {
                    tag: *b"XTRA",
                    data: vec![9],
                },
                RawChunk {
                    tag: *b"FORM",
                    data: b"EMPT".to_vec(),
                },
            ],
        }),
    }
}

#[rustfmt::skip]
const GOLDEN: &[u8] = &[
    b'F', b'O', b'R', b'M', 0, 0, 0, 108,   // 4 (DEMO) + 104 (FORM 0002)
    b'D', b'E', b'M', b'O',
    b'F', b'O', b'R', b'M', 0, 0, 0, 96,    // 4 (0002) + 15 + 12 + 11 + 23 + 10 + 9 + 12
    b'0', b'0', b'0', b'2',
    b'I', b'N', b'F', b'O', 0, 0, 0, 7,     // one chunk, three fields:
    2, 0,                                   //   point_count: u16 2
    1, 0, 0, 0,                             //   part_count: i32 1
    3,                                      //   scale
    b'P', b'N', b'T', b'S', 0, 0, 0, 4,     // points, two [i8; 2]
    1, 0xFF, 2, 0xFE,
                                            // weights: no WGHT, so absent
    b'N', b'O', b'T', b'E', 0, 0, 0, 3,     // note, present
    b'h', b'i', 0,
    b'F', b'O', b'R', b'M', 0, 0, 0, 15,    // parts: 4 (PRTS) + 11 (one PART)
    b'P', b'R', b'T', b'S',
    b'P', b'A', b'R', b'T', 0, 0, 0, 3,     //   id: u16 0x0102, sides 4
    2, 1, 4,
    b'L', b'I', b'N', b'E', 0, 0, 0, 2,     // marker: a LINE from 5 to 6
    5, 6,
    b'X', b'T', b'R', b'A', 0, 0, 0, 1,     // unknown: a chunk
    9,
    b'F', b'O', b'R', b'M', 0, 0, 0, 4,     // and an empty form, kept as they are
    b'E', b'M', b'P', b'T',
];

#[test]
fn golden_bytes_decode_to_known_values_and_back() {
    assert_eq!(Demo::from_bytes(GOLDEN).unwrap(), sample());
    assert_eq!(sample().to_bytes().unwrap(), GOLDEN);
}

/// The same form with its parts in version 1, and every option absent.
#[test]
fn absent_options_write_nothing_and_the_version_is_kept() {
    let Demo {
        version: DemoVersion::V2(mut body),
    } = sample()
    else {
        unreachable!("the sample is version 2");
    };
    body.note = None;
    body.marker = None;
    body.unknown.clear();
    body.weights = Some(vec![7, 8]);
    let demo = Demo {
        version: DemoVersion::V1(body),
    };
    let bytes = demo.to_bytes().unwrap();
    assert_eq!(bytes.get(20..24), Some(&b"0001"[..]));
    let weights = bytes.windows(4).position(|window| window == b"WGHT");
    assert!(weights.is_some());
    assert!(!bytes.windows(4).any(|window| window == b"NOTE"));
    assert_eq!(Demo::from_bytes(&bytes).unwrap(), demo);
}

/// Overwrites `value.len()` bytes at `at`.
fn patched(at: usize, value: &[u8]) -> Vec<u8> {
    let mut bytes = GOLDEN.to_vec();
    bytes.splice(at..at + value.len(), value.iter().copied());
    bytes
}

#[test]
fn a_child_no_marker_begins_with_is_kept_as_unknown() {
    // `LINE` becomes `ARC `, which no marker is: it joins the unknown children.
    let bytes = patched(85, b"ARC ");
    let Demo {
        version: DemoVersion::V2(body),
    } = Demo::from_bytes(&bytes).unwrap()
    else {
        panic!("version 2 expected");
    };
    assert_eq!(body.marker, None);
    assert_eq!(body.unknown.len(), 3);
    assert_eq!(body.unknown.first().map(|chunk| chunk.tag), Some(*b"ARC "));
}

#[test]
fn corrupted_files_fail_with_the_tag_path() {
    let cases: [(Vec<u8>, &str); 4] = [
        // The version form's type.
        (
            patched(20, b"0003"),
            "byte 20: DEMO: unknown FORM 0003; known: 0001, 0002",
        ),
        // INFO counts three points, PNTS holds two.
        (
            patched(32, &[3]),
            "byte 47: DEMO/0002/PNTS: count 3 needs at least 6 bytes but only 4 remain",
        ),
        // PRTS counts one part but holds a chunk that is not one.
        (
            patched(74, b"PRTX"),
            "byte 74: DEMO/0002/PRTS[0]: expected chunk PART, found PRTX",
        ),
        // INFO counts no points, PNTS holds two.
        (
            patched(32, &[0]),
            "byte 47: DEMO/0002/PNTS: 4 byte(s) are left over inside the chunk",
        ),
    ];
    for (bytes, message) in cases {
        let error = Demo::from_bytes(&bytes).unwrap_err();
        assert_eq!(error.to_string(), message);
    }
}

/// A list its count's chunk governs, absent when the file leaves it out.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, form = "OPTL")]
struct OptionalList {
    #[schema(chunk = "INFO")]
    count: Count<u8>,
    #[schema(chunk = "LIST", count = count)]
    list: Option<Vec<u8>>,
}

#[test]
fn a_count_whose_collections_are_all_absent_must_be_zero() {
    let bytes = b"FORM\0\0\0\x0dOPTLINFO\0\0\0\x01\x02";
    let error = OptionalList::from_bytes(bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "OPTL: INFO counts 2 entries, but LIST is absent"
    );
}

#[test]
fn an_enum_of_chunks_names_the_ones_it_knows() {
    let error = Marker::from_bytes(b"ARC \0\0\0\0").unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 0: expected one of chunk DOT , chunk LINE, found chunk ARC "
    );
    let error = Marker::from_bytes(b"").unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 0: expected one of chunk DOT , chunk LINE, found the end of the input"
    );
    assert!(matches!(
        Marker::from_bytes(b"DOT \0\0\0\x02\x01\x02")
            .unwrap_err()
            .kind,
        ErrorKind::BytesLeftInChunk(1)
    ));
}

#[test]
fn the_layout_tells_how_each_part_is_framed() {
    use super::Layout;
    let fields = Body::LAYOUT.fields;
    let encoding = |name: &str| {
        fields
            .iter()
            .find(|field| field.name == name)
            .map(|field| (field.chunk, field.encoding))
    };
    assert_eq!(
        encoding("weights"),
        Some((
            Some("WGHT"),
            "`point_count` × u8, present when the next child is chunk `WGHT`"
        ))
    );
    assert_eq!(
        encoding("parts"),
        Some((None, "FORM `PRTS` holding `part_count` × Part"))
    );
    assert_eq!(Part::LAYOUT.chunk, Some("PART"));
    assert_eq!(
        DemoVersion::LAYOUT
            .fields
            .first()
            .map(|field| field.encoding),
        Some("FORM `0001` holding Body")
    );
}
