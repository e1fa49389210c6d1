//! Types with both encodings (`#[schema(binary(little), text)]`): one set
//! of types read and written as bytes and as text, with golden files of
//! each written by hand, and their two layouts.

use crate::text::TextSchema;
use crate::{BinarySchema, ByteOrder, Endian, HasContext, Layout, RawString, Schema, TextLayout};

/// A twin nested in twins, gated by a version its holder gives.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(binary(little), text, context(version: u32))]
struct Limb {
    #[schema(text(line), binary(pascal))]
    name: RawString,
    #[schema(text(vector))]
    offset: [f32; 2],
    #[schema(prefix = u32)]
    tags: Vec<Tag>,
    #[schema(present_if = version >= 300)]
    weight: Option<i32>,
}

/// A twin whose text is one line of tokens.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(binary(big), text(one_line))]
struct Tag {
    id: u16,
    value: i32,
}

/// The text file: its version line, then the limbs.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text)]
struct TextFile {
    version: u32,
    #[schema(prefix, context(version))]
    limbs: Vec<Limb>,
}

/// The binary file: no version, always version 300's fields.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct BinaryFile {
    #[schema(prefix = u32, context(version = 300))]
    limbs: Vec<Limb>,
}

fn limbs(weight: Option<i32>) -> Vec<Limb> {
    vec![Limb {
        name: RawString::from("arm"),
        offset: [1.0, -0.5],
        tags: vec![Tag { id: 2, value: -3 }],
        weight,
    }]
}

const TEXT_300: &[u8] = b"300\r\n1\r\narm\r\n| 1 -0.5 |\r\n1\r\n2 -3\r\n7\r\n";

#[rustfmt::skip]
const BINARY: &[u8] = &[
    1, 0, 0, 0,                     // limbs: u32 count
    3, b'a', b'r', b'm',            // name: Pascal string
    0, 0, 0x80, 0x3F, 0, 0, 0, 0xBF, // offset (1, -0.5), little-endian
    1, 0, 0, 0,                     // tags: u32 count
    0, 2, 0xFF, 0xFF, 0xFF, 0xFD,   // the tag, big-endian
    7, 0, 0, 0,                     // weight, from version 300
];

#[test]
fn one_value_reads_and_writes_as_text_and_as_bytes() {
    let text = TextFile {
        version: 300,
        limbs: limbs(Some(7)),
    };
    assert_eq!(text.to_text().unwrap(), TEXT_300);
    assert_eq!(TextFile::from_text(TEXT_300).unwrap(), text);
    let binary = BinaryFile {
        limbs: limbs(Some(7)),
    };
    assert_eq!(binary.to_bytes().unwrap(), BINARY);
    assert_eq!(BinaryFile::from_bytes(BINARY).unwrap(), binary);
    assert_eq!(binary.limbs, text.limbs);
}

#[test]
fn a_version_gates_the_field_in_both_encodings() {
    let text = TextFile {
        version: 200,
        limbs: limbs(None),
    };
    let written = text.to_text().unwrap();
    assert_eq!(written, b"200\r\n1\r\narm\r\n| 1 -0.5 |\r\n1\r\n2 -3\r\n");
    assert_eq!(TextFile::from_text(&written).unwrap(), text);
    // The binary file always holds the field: an absent one is refused.
    let error = BinaryFile { limbs: limbs(None) }.to_bytes().unwrap_err();
    assert_eq!(
        error.to_string(),
        "limbs[0].weight: the condition `version >= 300` holds but the value is absent"
    );
}

#[test]
fn errors_name_the_same_field_in_both_encodings() {
    let text =
        TextFile::from_text(b"300\r\n1\r\narm\r\n| 1 x |\r\n1\r\n2 -3\r\n7\r\n").unwrap_err();
    assert_eq!(
        text.to_string(),
        "line 4:5: limbs[0].offset[1]: expected a number, found `x`"
    );
    let binary = BinaryFile::from_bytes(&BINARY[..BINARY.len() - 1]).unwrap_err();
    assert_eq!(binary.path.to_string(), "limbs[0].weight");
}

#[test]
fn the_layout_is_the_binary_one_and_the_text_layout_the_text_one() {
    let binary = <Limb as Layout>::LAYOUT;
    let text = <Limb as TextLayout>::TEXT_LAYOUT;
    assert_eq!(binary.byte_order, ByteOrder::Little);
    assert_eq!(text.byte_order, ByteOrder::Text);
    let encodings = |layout: crate::TypeLayout| {
        layout
            .fields
            .iter()
            .map(|field| (field.name, field.encoding))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        encodings(binary)[0],
        ("name", "Pascal string (u8 length, then bytes)")
    );
    assert_eq!(encodings(text)[0].0, "name");
    assert_ne!(encodings(text)[0].1, encodings(binary)[0].1);
    assert_eq!(binary.min_size, 1 + 8 + 4);
    assert_eq!(<Tag as Layout>::LAYOUT.byte_order, ByteOrder::Big);
}

/// A twin whose binary encoding alone takes its byte order: its holder
/// says which, its text is never given one.
#[derive(Debug, Clone, Copy, PartialEq, Schema)]
#[schema(binary(context(order: Endian), endian = order), text(one_line))]
struct Span {
    first: i32,
    count: u16,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(big)]
struct BigSpans {
    #[schema(prefix = u8, context(order = Endian::Big))]
    spans: Vec<Span>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct LittleSpans {
    #[schema(prefix = u8, context(order = Endian::Little))]
    spans: Vec<Span>,
}

/// Text passes nothing to a span.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text)]
struct TextSpans {
    #[schema(prefix)]
    spans: Vec<Span>,
}

/// A twin taking a count in both encodings and a byte order in its
/// binary one alone, which it passes on to its span there, and both to a
/// nested run.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(binary(little, context(order: Endian)), text, context(len: u32))]
struct Run {
    #[schema(count = len)]
    values: Vec<i16>,
    #[schema(binary(context(order)))]
    span: Span,
}

/// Passes a count in both encodings and a byte order in binary alone.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(binary(little, context(order: Endian)), text)]
struct Runs {
    len: u32,
    #[schema(context(len), binary(context(order)))]
    run: Run,
}

fn spans() -> Vec<Span> {
    vec![
        Span { first: 1, count: 2 },
        Span {
            first: -1,
            count: 0x0102,
        },
    ]
}

#[test]
fn a_binary_only_byte_order_reads_and_writes_both_endians_and_text_without_it() {
    #[rustfmt::skip]
    let big: &[u8] = &[
        2,                            // spans: u8 count
        0, 0, 0, 1,  0, 2,            // first 1, count 2
        0xFF, 0xFF, 0xFF, 0xFF,  1, 2, // first -1, count 0x0102
    ];
    #[rustfmt::skip]
    let little: &[u8] = &[
        2,
        1, 0, 0, 0,  2, 0,
        0xFF, 0xFF, 0xFF, 0xFF,  2, 1,
    ];
    let text: &[u8] = b"2\r\n1 2\r\n-1 258\r\n";
    assert_eq!(BigSpans::from_bytes(big).unwrap().spans, spans());
    assert_eq!(LittleSpans::from_bytes(little).unwrap().spans, spans());
    assert_eq!(TextSpans::from_text(text).unwrap().spans, spans());
    assert_eq!(BigSpans { spans: spans() }.to_bytes().unwrap(), big);
    assert_eq!(LittleSpans { spans: spans() }.to_bytes().unwrap(), little);
    assert_eq!(TextSpans { spans: spans() }.to_text().unwrap(), text);
}

#[test]
fn a_binary_only_parameter_is_left_out_of_the_text_context() {
    fn text_context_is_unit<T: HasContext<TextContext = ()>>() {}
    text_context_is_unit::<Span>();
    let run = Run {
        values: vec![3, -4],
        span: Span { first: 5, count: 6 },
    };
    #[rustfmt::skip]
    let bytes: &[u8] = &[
        3, 0,  0xFC, 0xFF,         // values, little-endian
        0, 0, 0, 5,  0, 6,         // the span, in the order passed
    ];
    let binary = RunContext {
        len: 2,
        order: Endian::Big,
    };
    assert_eq!(run.to_bytes_with(&binary).unwrap(), bytes);
    assert_eq!(Run::from_bytes_with(bytes, &binary).unwrap(), run);
    let text = RunTextContext { len: 2 };
    let lines: &[u8] = b"3\r\n-4\r\n5 6\r\n";
    assert_eq!(run.to_text_with(&text).unwrap(), lines);
    assert_eq!(Run::from_text_with(lines, &text).unwrap(), run);
    let runs = Runs { len: 2, run };
    let order = RunsContext { order: Endian::Big };
    let bytes_of_runs = [&[2, 0, 0, 0][..], bytes].concat();
    assert_eq!(runs.to_bytes_with(&order).unwrap(), bytes_of_runs);
    assert_eq!(Runs::from_bytes_with(&bytes_of_runs, &order).unwrap(), runs);
    let text_of_runs = [&b"2\r\n"[..], lines].concat();
    assert_eq!(runs.to_text().unwrap(), text_of_runs);
    assert_eq!(Runs::from_text(&text_of_runs).unwrap(), runs);
}
