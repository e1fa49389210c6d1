//! The derive's vocabulary exercised on one struct, with golden bytes written
//! by hand and the error paths a corrupted file takes.

use std::io::{Read, Seek, Write};

use super::{BinarySchema, ByteOrder, Count, Endian, Error, ErrorKind, Magic, Position, RawString};
use crate::Schema;

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct Everything {
    #[schema(magic = b"EVRY")]
    tag: Magic,
    #[schema(big, magic = 7u16)]
    version: Magic,
    little: u32,
    #[schema(big)]
    big: u32,
    #[schema(big)]
    pair: [f32; 2],
    #[schema(null_terminated)]
    title: RawString,
    #[schema(fixed_width = 4)]
    code: RawString,
    point_count: Count<u16>,
    #[schema(count = point_count)]
    xs: Vec<i16>,
    #[schema(count = point_count, pascal)]
    labels: Vec<RawString>,
    #[schema(flag = u8)]
    extra: Option<Inner>,
    #[schema(flag = u8, prefix = u8)]
    extras: Option<Vec<u8>>,
    has_note: u8,
    #[schema(present_if = has_note, pascal)]
    note: Option<RawString>,
    #[schema(with = reversed_bytes)]
    reversed: u32,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(big)]
struct Inner {
    id: u16,
}

/// A hand-written codec: a u32 stored with its bytes reversed from the
/// requested order.
mod reversed_bytes {
    use super::*;

    pub fn read<R: Read + Seek>(reader: &mut R, endian: Endian) -> Result<u32, Error> {
        <u32 as super::super::Decode>::decode(reader, endian, &()).map(u32::swap_bytes)
    }

    pub fn write<W: Write + Seek>(
        value: &u32,
        writer: &mut W,
        endian: Endian,
    ) -> Result<(), Error> {
        super::super::Encode::encode(&value.swap_bytes(), writer, endian, &())
    }

    /// Values for the generated round-trip test.
    pub fn strategy() -> crate::testing::proptest::strategy::BoxedStrategy<u32> {
        use crate::testing::proptest::strategy::Strategy as _;
        crate::testing::proptest::arbitrary::any::<u32>().boxed()
    }
}

fn sample() -> Everything {
    Everything {
        tag: Magic,
        version: Magic,
        little: 0x0403_0201,
        big: 0x0102_0304,
        pair: [1.0, -0.0],
        title: RawString::from("hi"),
        code: RawString(b"ab\0\0".to_vec()),
        point_count: Count::new(),
        xs: vec![-2, 3],
        labels: vec![RawString::from("a"), RawString::from("")],
        extra: Some(Inner { id: 0x0102 }),
        extras: None,
        has_note: 2,
        note: Some(RawString::from("n")),
        reversed: 0x0A0B_0C0D,
    }
}

#[rustfmt::skip]
const GOLDEN: &[u8] = &[
    b'E', b'V', b'R', b'Y',         // tag: magic "EVRY"
    0x00, 0x07,                     // version: magic 7, u16 big-endian
    0x01, 0x02, 0x03, 0x04,         // little: u32 LE 0x04030201
    0x01, 0x02, 0x03, 0x04,         // big: u32 BE 0x01020304
    0x3F, 0x80, 0x00, 0x00,         // pair[0]: f32 BE 1.0
    0x80, 0x00, 0x00, 0x00,         // pair[1]: f32 BE -0.0
    b'h', b'i', 0x00,               // title: "hi", NUL-terminated
    b'a', b'b', 0x00, 0x00,         // code: 4 bytes, kept with padding
    0x02, 0x00,                     // point_count: u16 LE 2 (xs and labels)
    0xFE, 0xFF, 0x03, 0x00,         // xs: i16 LE -2, 3
    0x01, b'a', 0x00,               // labels: "a", "" as Pascal strings
    0x01, 0x01, 0x02,               // extra: flag 1, Inner { id: u16 BE 0x0102 }
    0x00,                           // extras: flag 0, absent
    0x02,                           // has_note: 2 (any non-zero means present)
    0x01, b'n',                     // note: Pascal "n"
    0x0A, 0x0B, 0x0C, 0x0D,         // reversed: 0x0A0B0C0D byte-swapped, then LE
];

#[test]
fn golden_bytes_decode_to_known_values() {
    assert_eq!(Everything::from_bytes(GOLDEN).unwrap(), sample());
}

#[test]
fn writer_reproduces_golden_bytes() {
    assert_eq!(sample().to_bytes().unwrap(), GOLDEN);
}

#[test]
fn collections_sharing_a_count_must_agree_on_write() {
    let mut value = sample();
    value.labels.pop();
    let error = value.to_bytes().unwrap_err();
    assert_eq!(
        error.to_string(),
        "point_count: collections sharing one count differ in length: xs has 2, labels has 1"
    );
}

#[test]
fn presence_must_agree_with_its_flag_on_write() {
    let mut value = sample();
    value.has_note = 0;
    let error = value.to_bytes().unwrap_err();
    assert_eq!(
        error.to_string(),
        "note: flag field `has_note` says absent but the value is present"
    );
}

/// `to_bytes` counts before it writes, and the count leaves this check to
/// the pass that writes: the error must come all the same, from every
/// output.
#[test]
fn a_0_byte_inside_a_null_terminated_string_is_a_write_error() {
    let mut value = sample();
    value.title = RawString(b"ab\0cd".to_vec());
    let expected = "title: a null-terminated string cannot contain a 0 byte";
    assert_eq!(value.to_bytes().unwrap_err().to_string(), expected);
    let mut stream = std::io::Cursor::new(Vec::new());
    assert_eq!(
        value.write_to(&mut stream).unwrap_err().to_string(),
        expected
    );
}

#[test]
fn a_wrong_constant_names_field_and_offset() {
    let mut bytes = GOLDEN.to_vec();
    bytes[5] = 8;
    let error = Everything::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 4: version: expected the constant 7, found 8"
    );
}

#[test]
fn a_flag_other_than_0_or_1_is_an_error() {
    let mut bytes = GOLDEN.to_vec();
    let flag_at = 38;
    assert_eq!(bytes[flag_at], 0x01, "the extra flag");
    bytes[flag_at] = 5;
    let error = Everything::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 38: extra: flag value 5 is neither 0 nor 1"
    );
}

#[test]
fn a_count_beyond_the_input_fails_before_reading_elements() {
    let mut bytes = GOLDEN.to_vec();
    bytes[29] = 0xFF;
    bytes[30] = 0xFF;
    let error = Everything::from_bytes(&bytes).unwrap_err();
    assert!(
        matches!(error.kind, ErrorKind::CountTooLarge { count: 65535, .. }),
        "{error}"
    );
    assert_eq!(error.path.to_string(), "xs");
}

#[test]
fn every_truncation_is_an_error_with_a_path() {
    for len in 0..GOLDEN.len() {
        let error = Everything::from_bytes(&GOLDEN[..len]).unwrap_err();
        assert!(
            matches!(error.position, Some(Position::Byte(offset)) if offset <= len as u64),
            "{len}: {error}"
        );
        assert!(!error.path.is_empty(), "{len}: {error}");
    }
}

#[test]
fn trailing_bytes_are_an_error() {
    let mut bytes = GOLDEN.to_vec();
    bytes.push(0);
    let error = Everything::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 49: 1 byte(s) follow the end of the data"
    );
}

#[cfg(feature = "binrw")]
#[test]
fn schema_types_nest_inside_binrw_types() {
    use binrw::{BinRead, BinWrite};

    #[derive(BinRead, BinWrite, Debug, PartialEq)]
    #[brw(little)]
    struct Wrapper {
        before: u8,
        inner: Inner,
    }

    let wrapper = Wrapper::read(&mut std::io::Cursor::new([9u8, 0x01, 0x02])).unwrap();
    assert_eq!(
        wrapper,
        Wrapper {
            before: 9,
            inner: Inner { id: 0x0102 }
        }
    );
    let mut out = std::io::Cursor::new(Vec::new());
    wrapper.write(&mut out).unwrap();
    assert_eq!(out.into_inner(), [9, 0x01, 0x02]);
}

#[test]
fn layout_lists_fields_with_fixed_offsets() {
    use super::Layout;
    let layout = Everything::LAYOUT;
    assert_eq!(layout.byte_order, ByteOrder::Little);
    let offsets: Vec<_> = layout
        .fields
        .iter()
        .map(|field| (field.name, field.offset))
        .collect();
    assert_eq!(
        &offsets[..6],
        &[
            ("tag", Some(0)),
            ("version", Some(4)),
            ("little", Some(6)),
            ("big", Some(10)),
            ("pair", Some(14)),
            ("title", Some(22)),
        ]
    );
    // After a variable-length string nothing has a fixed offset.
    assert_eq!(offsets[6], ("code", None));
    let labels = layout
        .fields
        .iter()
        .find(|field| field.name == "labels")
        .unwrap();
    assert_eq!(labels.count, Some("field `point_count`"));
    assert_eq!(
        labels.encoding,
        "`point_count` × Pascal string (u8 length, then bytes)"
    );
    assert_eq!(layout.fields[4].rust_type, "[f32; 2]");
    // Collections by an earlier count, `present_if` values and `with` fields
    // may take no bytes; flags, counts and NUL terminators always do.
    assert_eq!(
        Everything::LAYOUT.min_size,
        4 + 2 + 4 + 4 + 8 + 1 + 4 + 2 + 1 + 1 + 1
    );
    assert_eq!(Inner::LAYOUT.fixed_size, Some(2));
}

#[test]
fn layout_fields_refer_to_the_schema_types_they_hold() {
    use super::Layout;
    let nested: Vec<_> = Everything::LAYOUT
        .fields
        .iter()
        .map(|field| (field.name, field.nested.map(|layout| layout().name)))
        .filter(|(_, nested)| nested.is_some())
        .collect();
    // `extra` is an `Option<Inner>`; numbers, strings, constants, counts
    // and the `with` field hold no schema type.
    assert_eq!(nested, [("extra", Some("Inner"))]);
}

/// Indices into a list read before them, and a rule across fields.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, check = first_below_last)]
struct Checked {
    #[schema(prefix = u8)]
    names: Vec<u16>,
    #[schema(prefix = u8, check = below_len(names))]
    indices: Vec<u8>,
    first: u8,
    last: u8,
}

fn below_len(indices: &[u8], names: &[u16]) -> Result<(), crate::Refusal> {
    match indices
        .iter()
        .position(|&index| usize::from(index) >= names.len())
    {
        Some(at) => Err(crate::Refusal::at_element(
            at,
            format!("index {} is past the {} names", indices[at], names.len()),
        )
        .bytes_in(1 + at as u64)),
        None => Ok(()),
    }
}

fn first_below_last(value: &Checked) -> Result<(), crate::Refusal> {
    if value.first < value.last {
        Ok(())
    } else {
        Err(crate::Refusal::new("first is not below last"))
    }
}

#[test]
fn the_writer_refuses_what_the_reader_would_at_the_same_byte_and_path() {
    // Two names, then indices 1 and 2: 2 is past them, at byte 7.
    let bytes = [2, 1, 0, 2, 0, 2, 1, 2, 3, 4];
    let read = Checked::from_bytes(&bytes).unwrap_err().to_string();
    let value = crate::without_checks(|| Checked::from_bytes(&bytes)).unwrap();
    let written = value.to_bytes().unwrap_err().to_string();
    assert_eq!(read, written);
    assert!(read.starts_with("byte 7: indices[1]:"), "{read}");
    assert_eq!(crate::without_checks(|| value.to_bytes()).unwrap(), bytes);

    // A rule across fields: at the value's first byte, both ways.
    let bytes = [1, 1, 0, 1, 0, 4, 3];
    let read = Checked::from_bytes(&bytes).unwrap_err().to_string();
    let value = crate::without_checks(|| Checked::from_bytes(&bytes)).unwrap();
    assert_eq!(value.to_bytes().unwrap_err().to_string(), read);
    assert!(read.starts_with("byte 0:"), "{read}");
}

/// Strings after a length of their own integer type, in the field's byte
/// order (the generated round-trip tests draw them up to what the type
/// can count).
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(big)]
struct PrefixedStrings {
    #[schema(prefix = u16)]
    name: RawString,
    #[schema(prefix = i16, little)]
    short: RawString,
    #[schema(prefix = u32, pascal)]
    names: Vec<RawString>,
}

#[test]
fn a_string_after_its_own_length_reads_and_writes_in_the_field_s_order() {
    let bytes = b"\x00\x02ab\x01\x00c\x00\x00\x00\x00";
    let value = PrefixedStrings::from_bytes(bytes).unwrap();
    assert_eq!(value.name, RawString::from("ab"));
    assert_eq!(value.short, RawString::from("c"));
    assert_eq!(value.to_bytes().unwrap(), bytes);
    let long = PrefixedStrings {
        short: RawString(vec![b'x'; 32768]),
        ..value
    };
    let error = long.to_bytes().unwrap_err();
    assert!(
        matches!(
            error.kind,
            ErrorKind::TooLong {
                len: 32768,
                count_type: "i16",
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().starts_with("short: "), "{error}");
}

/// `!=` in every expression key: the names before it are values read
/// earlier, not macros.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
struct NotEqual {
    #[schema(check = kind != 0xFF, "kind 0xFF is reserved")]
    kind: u8,
    #[schema(present_if = kind != 0)]
    extra: Option<u16>,
    #[schema(count = if kind != 2 { usize::from(kind % 4) } else { 0 })]
    items: Vec<u8>,
    #[schema(calc = u8::from(kind != 1))]
    kind_is_not_1: crate::Calc<u8>,
}

#[test]
fn not_equal_reads_and_writes_in_every_expression_key() {
    // kind 3: an extra, three items, and 1 for `kind != 1`.
    let bytes = [3, 0x34, 0x12, 7, 8, 9, 1];
    let value = NotEqual::from_bytes(&bytes).unwrap();
    assert_eq!(value.extra, Some(0x1234));
    assert_eq!(value.items, [7, 8, 9]);
    assert_eq!(value.to_bytes().unwrap(), bytes);

    // kind 0: no extra, no items, and 1 again.
    let none = NotEqual::from_bytes(&[0, 1]).unwrap();
    assert_eq!(none.extra, None);
    assert!(none.items.is_empty());
    assert_eq!(none.to_bytes().unwrap(), [0, 1]);

    // kind 2: an extra but no items (`kind != 2` is false).
    let two = NotEqual::from_bytes(&[2, 5, 0, 1]).unwrap();
    assert_eq!(two.extra, Some(5));
    assert!(two.items.is_empty());

    // kind 1: the calc's `kind != 1` is 0, and a stored 1 disagrees.
    assert!(NotEqual::from_bytes(&[1, 5, 0, 4, 0]).is_ok());
    assert!(NotEqual::from_bytes(&[1, 5, 0, 4, 1]).is_err());
    // The check `kind != 0xFF` refuses 0xFF both ways.
    let bytes = [0xFF, 0, 0, 0, 0, 0, 1];
    assert_eq!(
        NotEqual::from_bytes(&bytes).unwrap_err().to_string(),
        "byte 0: kind: kind 0xFF is reserved"
    );
    let unchecked = crate::without_checks(|| NotEqual::from_bytes(&bytes)).unwrap();
    assert!(unchecked.to_bytes().is_err());
}
