//! Context, enums chosen by a tag or a context value, and lists to the end
//! of the input, exercised on small binary layouts with golden bytes
//! written by hand.

use super::{BinarySchema, Count, ErrorKind, Layout, Position};
use crate::Schema;

/// A token of a compressed stream, chosen by its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Schema)]
#[schema(little, tag = u8)]
enum Token {
    /// A full value follows.
    #[schema(when = 0xFF)]
    Full(f32),
    /// The previous value repeats this many times.
    #[schema(when = 0xFE)]
    Repeat(u16),
    /// The byte itself is a delta.
    #[schema(other)]
    Delta(u8),
}

/// Tokens until the input ends.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct Stream {
    #[schema(to_end)]
    tokens: Vec<Token>,
}

#[rustfmt::skip]
const STREAM: &[u8] = &[
    0xFF, 0x00, 0x00, 0x80, 0x3F,   // Full(1.0)
    0xFE, 0x03, 0x00,               // Repeat(3)
    0x7F,                           // Delta(0x7F)
    0x00,                           // Delta(0)
];

#[test]
fn tokens_are_chosen_by_their_tag_and_read_to_the_end() {
    let stream = Stream::from_bytes(STREAM).unwrap();
    assert_eq!(
        stream.tokens,
        [
            Token::Full(1.0),
            Token::Repeat(3),
            Token::Delta(0x7F),
            Token::Delta(0)
        ]
    );
    assert_eq!(stream.to_bytes().unwrap(), STREAM);
}

/// A point, the one variant of [`Shape`].
#[derive(Debug, Clone, Copy, PartialEq, Schema)]
#[schema(little)]
struct Point {
    x: i16,
    y: i16,
}

/// A shape chosen by its first byte, its values a struct of their own.
#[derive(Debug, Clone, Copy, PartialEq, Schema)]
#[schema(little, tag = u8)]
enum Shape {
    #[schema(when = 1)]
    Point(Point),
}

/// Shapes until the input ends: each variant built in the list from its
/// struct's fields (`decode_onto`, `decode_giving`).
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct Shapes {
    #[schema(to_end)]
    shapes: Vec<Shape>,
}

#[rustfmt::skip]
const SHAPES: &[u8] = &[
    0x01, 0x02, 0x00, 0xFD, 0xFF,   // Point { x: 2, y: -3 }
    0x01, 0x05, 0x00, 0x00, 0x01,   // Point { x: 5, y: 256 }
];

#[test]
fn struct_variants_in_a_list_read_and_fail_at_their_field() {
    let shapes = Shapes::from_bytes(SHAPES).unwrap();
    assert_eq!(
        shapes.shapes,
        [
            Shape::Point(Point { x: 2, y: -3 }),
            Shape::Point(Point { x: 5, y: 256 })
        ]
    );
    assert_eq!(shapes.to_bytes().unwrap(), SHAPES);
    // The second point's `y` begins at byte 8 (5, its tag, its `x`).
    let cut = &SHAPES[..SHAPES.len() - 1];
    assert_eq!(
        Shapes::from_bytes(cut).unwrap_err().to_string(),
        "byte 8: shapes[1].Point.y: the input ends 1 byte(s) into a 2-byte value"
    );
}

#[test]
fn the_other_variant_cannot_hold_a_tag_another_variant_owns() {
    let stream = Stream {
        tokens: vec![Token::Delta(1), Token::Delta(0xFE)],
    };
    assert_eq!(
        stream.to_bytes().unwrap_err().to_string(),
        "tokens[1]: the `other` variant holds tag 254, which belongs to `Repeat`"
    );
}

#[test]
fn a_token_cut_short_names_its_index_variant_and_offset() {
    let error = Stream::from_bytes(&STREAM[..7]).unwrap_err();
    assert_eq!(error.position, Some(Position::Byte(6)));
    assert_eq!(error.path.to_string(), "tokens[1].Repeat");
}

/// One joint's angles in a frame.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct Record {
    index: i32,
    angles: [i16; 3],
}

/// A frame: as many records as the header says.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, context(record_count: u32))]
struct Frame {
    #[schema(count = record_count)]
    records: Vec<Record>,
}

/// Frames counted by a derived count, records counted once for all.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct Animation {
    frame_count: Count<u32>,
    records_per_frame: u32,
    #[schema(count = frame_count, context(record_count = records_per_frame))]
    frames: Vec<Frame>,
}

fn record(index: i32) -> Record {
    Record {
        index,
        angles: [1, -1, 0x4000],
    }
}

#[rustfmt::skip]
const ANIMATION: &[u8] = &[
    0x02, 0x00, 0x00, 0x00,         // frame_count: 2
    0x01, 0x00, 0x00, 0x00,         // records_per_frame: 1
    0x00, 0x00, 0x00, 0x00,         // frames[0].records[0].index: 0
    0x01, 0x00, 0xFF, 0xFF, 0x00, 0x40, // angles: 1, -1, 0x4000
    0x05, 0x00, 0x00, 0x00,         // frames[1].records[0].index: 5
    0x01, 0x00, 0xFF, 0xFF, 0x00, 0x40, // angles
];

#[test]
fn a_count_from_the_header_reaches_every_frame() {
    let animation = Animation::from_bytes(ANIMATION).unwrap();
    assert_eq!(animation.records_per_frame, 1);
    assert_eq!(
        animation.frames,
        [
            Frame {
                records: vec![record(0)]
            },
            Frame {
                records: vec![record(5)]
            }
        ]
    );
    assert_eq!(animation.to_bytes().unwrap(), ANIMATION);
}

#[test]
fn a_count_given_as_context_is_data_even_without_elements() {
    let bytes = [0, 0, 0, 0, 6, 0, 0, 0];
    let animation = Animation::from_bytes(&bytes).unwrap();
    assert_eq!(animation.records_per_frame, 6);
    assert!(animation.frames.is_empty());
    assert_eq!(animation.to_bytes().unwrap(), bytes);
}

#[test]
fn a_frame_that_disagrees_with_its_context_is_a_write_error() {
    let mut animation = Animation::from_bytes(ANIMATION).unwrap();
    animation.frames[1].records.push(record(6));
    assert_eq!(
        animation.to_bytes().unwrap_err().to_string(),
        "frames[1].records: 2 entries, but `record_count` gives 1"
    );
}

#[test]
fn a_type_with_context_reads_and_writes_with_it() {
    let bytes = &ANIMATION[8..18];
    let context = FrameContext { record_count: 1 };
    let frame = Frame::from_bytes_with(bytes, &context).unwrap();
    assert_eq!(frame.records, [record(0)]);
    assert_eq!(frame.to_bytes_with(&context).unwrap(), bytes);
    let error = Frame::from_bytes_with(bytes, &FrameContext { record_count: 4 }).unwrap_err();
    assert!(
        matches!(error.kind, ErrorKind::CountTooLarge { count: 4, .. }),
        "{error}"
    );
}

#[cfg(feature = "binrw")]
#[test]
fn binrw_passes_the_context_as_args() {
    use binrw::{BinRead, BinWrite};
    let bytes = &ANIMATION[8..18];
    let args = FrameContext { record_count: 1 };
    let frame = Frame::read_le_args(&mut std::io::Cursor::new(bytes), args.clone()).unwrap();
    assert_eq!(frame.records, [record(0)]);
    let mut out = std::io::Cursor::new(Vec::new());
    frame.write_le_args(&mut out, args).unwrap();
    assert_eq!(out.into_inner(), bytes);
}

/// A transform stored as a matrix or as angles, as the header's mode says.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, context(mode: u8, scaled: u8), select = mode)]
enum Transform {
    #[schema(when = 0)]
    Matrix([f32; 4]),
    #[schema(when = 1, context(scaled))]
    Angles(Angles),
    #[schema(when = 2)]
    Identity,
}

/// Angles, with a scale only when the header says so.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, context(scaled: u8))]
struct Angles {
    turn: [i16; 3],
    #[schema(present_if = scaled)]
    scale: Option<f32>,
}

/// A header choosing how every transform is stored.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct Pose {
    mode: u8,
    scaled: u8,
    #[schema(prefix = u8, context(mode, scaled))]
    transforms: Vec<Transform>,
}

#[rustfmt::skip]
const POSE: &[u8] = &[
    0x01,                           // mode: 1, angles
    0x01,                           // scaled: yes
    0x01,                           // transforms: 1
    0x01, 0x00, 0x02, 0x00, 0x03, 0x00, // turn: 1, 2, 3
    0x00, 0x00, 0x00, 0x40,         // scale: 2.0
];

#[test]
fn a_context_value_chooses_the_variant_and_reaches_its_value() {
    let pose = Pose::from_bytes(POSE).unwrap();
    assert_eq!(
        pose.transforms,
        [Transform::Angles(Angles {
            turn: [1, 2, 3],
            scale: Some(2.0)
        })]
    );
    assert_eq!(pose.to_bytes().unwrap(), POSE);
}

#[test]
fn a_variant_its_selector_does_not_choose_is_a_write_error() {
    let mut pose = Pose::from_bytes(POSE).unwrap();
    pose.transforms.push(Transform::Identity);
    assert_eq!(
        pose.to_bytes().unwrap_err().to_string(),
        "transforms[1]: the value is `Identity`, but `mode` is 1, which chooses `Angles`"
    );
    pose.mode = 9;
    pose.transforms.truncate(1);
    assert_eq!(
        pose.to_bytes().unwrap_err().to_string(),
        "transforms[0]: the value is `Angles`, but `mode` is 9, which chooses no variant"
    );
}

#[test]
fn a_selector_that_chooses_no_variant_is_a_read_error() {
    let mut bytes = POSE.to_vec();
    bytes[0] = 7;
    assert_eq!(
        Pose::from_bytes(&bytes).unwrap_err().to_string(),
        "byte 3: transforms[0]: `mode` is 7, which chooses no variant; known: 0 (`Matrix`), \
         1 (`Angles`), 2 (`Identity`)"
    );
}

#[test]
fn layouts_name_the_context_and_what_chooses_a_variant() {
    let frame = Frame::LAYOUT;
    assert_eq!(frame.context.len(), 1);
    assert_eq!(frame.context[0].name, "record_count");
    assert_eq!(frame.context[0].rust_type, "u32");
    assert_eq!(frame.fields[0].count, Some("context `record_count`"));
    let frames = &Animation::LAYOUT.fields[2];
    assert_eq!(
        frames.encoding,
        "`frame_count` × Frame, given `record_count` = `records_per_frame`"
    );
    let token = Token::LAYOUT;
    assert_eq!(token.chosen_by, Some("a leading `u8` tag"));
    let encodings: Vec<&str> = token.fields.iter().map(|row| row.encoding).collect();
    assert_eq!(
        encodings,
        [
            "tag `0xFF`, then f32",
            "tag `0xFE`, then u16",
            "any other tag, kept as the value"
        ]
    );
    assert_eq!(
        Transform::LAYOUT.chosen_by,
        Some("the context value `mode`")
    );
    assert_eq!(Stream::LAYOUT.fields[0].count, Some("the end of the input"));
}

/// A byte stored shifted by an earlier field's amount: a hand-written codec
/// given a value by `context(...)`.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct Shifted {
    shift: u8,
    #[schema(with = shifted_byte, context(shift))]
    value: u8,
}

mod shifted_byte {
    use std::io::{Read, Seek, Write};

    use crate::{Decode, Encode, Endian, Error};

    pub fn read<R: Read + Seek>(reader: &mut R, endian: Endian, shift: u8) -> Result<u8, Error> {
        u8::decode(reader, endian, &()).map(|stored| stored.wrapping_sub(shift))
    }

    pub fn write<W: Write + Seek>(
        value: &u8,
        writer: &mut W,
        endian: Endian,
        shift: u8,
    ) -> Result<(), Error> {
        value.wrapping_add(shift).encode(writer, endian, &())
    }

    /// Any byte, whatever the shift.
    pub fn strategy(_shift: u8) -> crate::testing::proptest::strategy::BoxedStrategy<u8> {
        crate::testing::strategy::<u8>()
    }
}

#[test]
fn a_codec_receives_the_values_passed_to_it() {
    let shifted = Shifted::from_bytes(&[3, 10]).unwrap();
    assert_eq!(shifted, Shifted { shift: 3, value: 7 });
    assert_eq!(shifted.to_bytes().unwrap(), [3, 10]);
    assert_eq!(
        Shifted::LAYOUT.fields[1].encoding,
        "custom codec `shifted_byte`, given `shift` = `shift`"
    );
}

/// A body whose byte order its holder chooses: counts, numbers, nested
/// values and a tag enum all follow it; `little` on a field still fixes
/// that field's.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(context(order: crate::Endian), endian = order)]
struct OrderedBody {
    #[schema(prefix = u16)]
    values: Vec<u32>,
    #[schema(context(order))]
    token: OrderedToken,
    #[schema(little)]
    scale: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Schema)]
#[schema(context(order: crate::Endian), endian = order, tag = u16)]
enum OrderedToken {
    #[schema(when = 1)]
    Short(u16),
    #[schema(other)]
    Other(u16),
}

/// The body twice, once in each order, as two formats would hold it; a
/// field takes the order from an earlier field too.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(big)]
struct BothOrders {
    #[schema(context(order = crate::Endian::Little))]
    little: OrderedBody,
    #[schema(context(order = crate::Endian::Big))]
    big: OrderedBody,
}

#[test]
fn a_byte_order_given_as_context_orders_counts_numbers_and_tags() {
    #[rustfmt::skip]
    let bytes: &[u8] = &[
        // Little-endian: one value, tag 1 (Short), 0x0203, scale 1 (little).
        0x01, 0x00, 0x04, 0x03, 0x02, 0x01, 0x01, 0x00, 0x03, 0x02, 0x01, 0x00,
        // Big-endian: the same values, scale still little.
        0x00, 0x01, 0x01, 0x02, 0x03, 0x04, 0x00, 0x01, 0x02, 0x03, 0x01, 0x00,
    ];
    let body = OrderedBody {
        values: vec![0x0102_0304],
        token: OrderedToken::Short(0x0203),
        scale: 1,
    };
    let both = BothOrders::from_bytes(bytes).unwrap();
    assert_eq!(
        both,
        BothOrders {
            little: body.clone(),
            big: body.clone(),
        }
    );
    assert_eq!(both.to_bytes().unwrap(), bytes);
    let context = OrderedBodyContext {
        order: crate::Endian::Big,
    };
    assert_eq!(
        OrderedBody::from_bytes_with(&bytes[12..], &context).unwrap(),
        body
    );
    assert_eq!(
        <OrderedBody as Layout>::LAYOUT.byte_order,
        crate::ByteOrder::Context("order")
    );
}

/// A frame of as many angles as its holder's count says.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, context(records: u32))]
struct CountedFrame {
    #[schema(count = records)]
    angles: Vec<i16>,
}

/// A record whose indices must fall among a count its holder passes.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, context(vertices: usize))]
struct Corner {
    #[schema(check = below(vertices))]
    vertex: u16,
}

fn below(vertex: &u16, vertices: &usize) -> Result<(), crate::Refusal> {
    if usize::from(*vertex) < *vertices {
        Ok(())
    } else {
        Err(crate::Refusal::new(format!(
            "vertex {vertex} is not one of the {vertices}"
        )))
    }
}

/// A count stored once, passed to the types that need it: as a `u32` to
/// count a frame's angles, as a `usize` to check indices against.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct CountedAnimation {
    record_count: Count<u32>,
    #[schema(count = record_count)]
    indices: Vec<i32>,
    #[schema(prefix = u8, context(records = record_count))]
    frames: Vec<CountedFrame>,
    #[schema(prefix = u8, context(vertices = record_count))]
    corners: Vec<Corner>,
}

#[test]
fn a_count_passes_its_value_as_context_both_ways() {
    #[rustfmt::skip]
    let bytes: &[u8] = &[
        2, 0, 0, 0,             // record_count
        7, 0, 0, 0, 8, 0, 0, 0, // indices
        1, 1, 0, 2, 0,          // one frame of two angles
        1, 1, 0,                // one corner: vertex 1
    ];
    let animation = CountedAnimation::from_bytes(bytes).unwrap();
    assert_eq!(animation.frames[0].angles, [1, 2]);
    assert_eq!(animation.to_bytes().unwrap(), bytes);

    // Vertex 2 is not one of the two: refused at its byte, both ways.
    let mut bad = bytes.to_vec();
    bad[18] = 2;
    let message = "byte 18: corners[0].vertex: vertex 2 is not one of the 2";
    assert_eq!(
        CountedAnimation::from_bytes(&bad).unwrap_err().to_string(),
        message
    );
    let mut written = animation.clone();
    written.corners[0].vertex = 2;
    assert_eq!(written.to_bytes().unwrap_err().to_string(), message);
}

/// A chunk of indices into a list the form holds elsewhere.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, chunk = "IDX ", context(len: usize))]
struct Indices {
    #[schema(to_end, check = all_below(len))]
    indices: Vec<u16>,
}

fn all_below(indices: &[u16], len: &usize) -> Result<(), crate::Refusal> {
    match indices.iter().position(|&index| usize::from(index) >= *len) {
        Some(at) => Err(crate::Refusal::at_element(
            at,
            format!("not one of the {len}"),
        )),
        None => Ok(()),
    }
}

/// An enum of chunks passing its own parameter on to a variant.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(context(len: usize))]
enum Part {
    #[schema(context(len))]
    Indices(Indices),
}

/// A form whose optional list's length (none when absent) its parts check
/// their indices against.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, form = "LIST")]
struct Listing {
    #[schema(chunk = "ITEM", prefix = u8)]
    items: Option<Vec<u8>>,
    #[schema(to_end, context(len = len(items)))]
    parts: Vec<Part>,
}

#[test]
fn an_enum_of_chunks_passes_its_parameter_and_a_length_counts_an_absent_list_as_none() {
    let bytes = b"FORM\0\0\0\x1bLISTITEM\0\0\0\x03\x02\x07\x08IDX \0\0\0\x04\x01\0\x02\0";
    let error = Listing::from_bytes(bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 33: LIST/IDX [0][1]: not one of the 2"
    );
    let mut fixed = bytes.to_vec();
    fixed[33] = 0;
    let listing = Listing::from_bytes(&fixed).unwrap();
    assert_eq!(listing.to_bytes().unwrap(), fixed);
    // Without the list, every index is out of range.
    let empty = Listing {
        items: None,
        parts: listing.parts,
    };
    assert_eq!(
        empty.to_bytes().unwrap_err().to_string(),
        "byte 20: LIST/IDX [0][0]: not one of the 0"
    );
    assert_eq!(
        Part::LAYOUT.context.first().map(|param| param.name),
        Some("len")
    );
}
