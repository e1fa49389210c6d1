//! Values at offsets: a header giving the offset of a table of offsets to
//! items. A file's items out of order, with a gap between them or sharing
//! a target, come back byte for byte; items built by hand are placed after
//! the table, one after another, every offset filled in.

use ossuary_schema::{At, Magic, RawString, Schema};

/// An item file: a signature, then the offset of the table of items.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Items {
    #[schema(magic = b"ITEM")]
    pub magic: Magic,
    /// From the start of the file.
    #[schema(offset = u32)]
    pub table: At<Table>,
}

/// A count, then the offset of each item.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Table {
    #[schema(prefix = u16, offset = u32)]
    pub items: Vec<At<Item>>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Item {
    #[schema(pascal)]
    pub name: RawString,
    pub value: u16,
}

/// Offsets counted from where a field begins: a record's offset to its
/// note counts from the record's own start.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Noted {
    pub tag: u8,
    pub kind: u8,
    #[schema(offset = u8, from = kind)]
    pub note: At<u16>,
}

#[cfg(test)]
mod tests {
    use ossuary_schema::BinarySchema;

    use super::*;
    use crate::every_byte_in_one_span;

    fn item(name: &str, value: u16) -> Item {
        Item {
            name: RawString::from(name),
            value,
        }
    }

    #[rustfmt::skip]
    const IN_ORDER: &[u8] = &[
        b'I', b'T', b'E', b'M',
        8, 0, 0, 0,             // the table, at byte 8
        2, 0,                   // two items
        18, 0, 0, 0,            // the first at byte 18
        23, 0, 0, 0,            // the second at byte 23
        2, b'a', b'b', 1, 0,    // "ab", 1
        1, b'c', 2, 0,          // "c", 2
    ];

    #[rustfmt::skip]
    const OUT_OF_ORDER: &[u8] = &[
        b'I', b'T', b'E', b'M',
        8, 0, 0, 0,
        2, 0,
        24, 0, 0, 0,            // the first item lies after the second
        18, 0, 0, 0,
        1, b'c', 2, 0,          // the second item, at 18
        0xEE, 0xEE,             // a gap, kept as found
        2, b'a', b'b', 1, 0,    // the first item, at 24
    ];

    #[rustfmt::skip]
    const SHARED: &[u8] = &[
        b'I', b'T', b'E', b'M',
        8, 0, 0, 0,
        2, 0,
        18, 0, 0, 0,            // both items are the one at 18
        18, 0, 0, 0,
        1, b'c', 2, 0,
    ];

    #[test]
    fn values_are_read_where_their_offsets_point() {
        let items = Items::from_bytes(IN_ORDER).unwrap();
        let values: Vec<&Item> = items.table.value.items.iter().map(|at| &at.value).collect();
        assert_eq!(values, [&item("ab", 1), &item("c", 2)]);
        assert_eq!(items.table.offset, Some(8));
        assert_eq!(items.to_bytes().unwrap(), IN_ORDER);
        every_byte_in_one_span(IN_ORDER, || Items::from_bytes(IN_ORDER));
    }

    #[test]
    fn a_file_out_of_order_with_a_gap_comes_back_byte_for_byte() {
        let items = Items::from_bytes(OUT_OF_ORDER).unwrap();
        let table = &items.table.value.items;
        assert_eq!(
            (&table[0].value, table[0].offset),
            (&item("ab", 1), Some(24))
        );
        assert_eq!(table[0].gap, [0xEE, 0xEE]);
        assert_eq!(items.to_bytes().unwrap(), OUT_OF_ORDER);
        every_byte_in_one_span(OUT_OF_ORDER, || Items::from_bytes(OUT_OF_ORDER));
    }

    #[test]
    fn the_byte_map_shows_each_value_where_its_offset_points() {
        let (_, spans) = ossuary_schema::map::record_spans(|| Items::from_bytes(OUT_OF_ORDER));
        let at = |path: &str| {
            let span = spans.iter().find(|span| span.path.to_string() == path);
            span.map(|span| (span.start, span.end))
        };
        assert_eq!(at("table.items[0].name"), Some((24, 27)));
        assert_eq!(at("table.items[1].name"), Some((18, 20)));
        assert_eq!(at("table.items[1].value"), Some((20, 22)));
    }

    #[test]
    fn items_sharing_a_target_come_back_byte_for_byte() {
        let items = Items::from_bytes(SHARED).unwrap();
        let table = &items.table.value.items;
        assert_eq!(
            (&table[0].value, &table[1].value),
            (&item("c", 2), &item("c", 2))
        );
        assert_eq!(items.to_bytes().unwrap(), SHARED);
        every_byte_in_one_span(SHARED, || Items::from_bytes(SHARED));
    }

    #[test]
    fn a_value_built_with_its_offsets_unset_writes_every_offset() {
        let items = Items {
            magic: Magic,
            table: At::new(Table {
                items: vec![At::new(item("ab", 1)), At::new(item("c", 2))],
            }),
        };
        assert_eq!(items.to_bytes().unwrap(), IN_ORDER);
    }

    #[test]
    fn an_offset_past_the_end_is_an_error_at_it() {
        let mut bytes = IN_ORDER.to_vec();
        bytes[14] = 200;
        assert_eq!(
            Items::from_bytes(&bytes).unwrap_err().to_string(),
            "byte 14: table.items[1]: offset 200 from byte 0 points outside the data (bytes 0 to 27)"
        );
    }

    #[test]
    fn offsets_count_from_the_field_they_name() {
        // The note lies 3 bytes after `kind`, at byte 4.
        let bytes = [9, 1, 3, 0, 0x34, 0x12];
        let noted = Noted::from_bytes(&bytes).unwrap();
        assert_eq!((noted.note.offset, noted.note.value), (Some(3), 0x1234));
        assert_eq!(noted.note.gap, [0]);
        assert_eq!(noted.to_bytes().unwrap(), bytes);
        let built = Noted {
            tag: 9,
            kind: 1,
            note: At::new(0x1234),
        };
        assert_eq!(built.to_bytes().unwrap(), [9, 1, 2, 0x34, 0x12]);
    }
}

/// Frames placed by a table of offsets, each kept as its bytes (to the
/// next frame, or the end) and decoded when asked for, as FreeSO reads a
/// sprite's frames.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Frames {
    #[schema(prefix = u8, offset = u16)]
    pub frames: Vec<At<ossuary_schema::Lazy<Frame>>>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Frame {
    pub width: u8,
    pub height: u8,
}

#[cfg(test)]
mod lazy_tests {
    use ossuary_schema::{BinarySchema, Endian};

    use super::*;
    use crate::every_byte_in_one_span;

    #[rustfmt::skip]
    const FRAMES: &[u8] = &[
        2,                  // two frames
        5, 0,               // the first at byte 5
        8, 0,               // the second at byte 8
        4, 3, 0xAA,         // the first frame, and a byte after it
        2, 2,               // the second frame
    ];

    #[test]
    fn frames_are_their_bytes_to_the_next_decoded_when_asked() {
        let frames = Frames::from_bytes(FRAMES).unwrap();
        let first = &frames.frames[0].value;
        assert_eq!(first.bytes, [4, 3, 0xAA]);
        assert_eq!(
            first.decode_with(Endian::Little, &()).unwrap(),
            Frame {
                width: 4,
                height: 3
            }
        );
        assert_eq!(frames.to_bytes().unwrap(), FRAMES);
        every_byte_in_one_span(FRAMES, || Frames::from_bytes(FRAMES));
    }
}
