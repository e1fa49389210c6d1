//! `#[derive(Schema)]` as a crate outside the workspace's formats uses it:
//! its only dependency is the runtime, `ossuary-schema` (no game format, no glam),
//! and `cargo test -p derive-outside` runs the
//! round-trip tests the derive generates for each type here.

pub mod commands;
pub mod compressed;
pub mod generic;
pub mod padded;
pub mod pointed;
pub mod sized;
pub mod terminated;

use ossuary_schema::text::TextStyle;
use ossuary_schema::{Magic, RawString, Refusal, Schema};

/// A binary palette: a constant, a name and a list of colours.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Palette {
    #[schema(magic = b"PAL1")]
    pub magic: Magic,
    #[schema(pascal)]
    pub name: RawString,
    #[schema(prefix = u16)]
    pub colours: Vec<Colour>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Colour {
    pub rgb: [u8; 3],
    #[schema(big)]
    pub opacity: f32,
}

/// A text route: a constant line, then a list of named points, one per line.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text)]
pub struct Route {
    #[schema(style)]
    pub style: TextStyle,
    #[schema(magic = "route 1")]
    pub version: Magic,
    #[schema(prefix)]
    pub points: Vec<Waypoint>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text, one_line)]
pub struct Waypoint {
    pub name: RawString,
    #[schema(vector)]
    pub at: [f32; 3],
}

/// A versioned binary header: `flags` exists from version 2 on, and
/// `count` may be at most ten times the version.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Header {
    pub version: u16,
    #[schema(present_if = version >= 2)]
    pub flags: Option<u32>,
    #[schema(check = at_most_ten_per_version(version))]
    pub count: u8,
}

fn at_most_ten_per_version(count: &u8, version: &u16) -> Result<(), Refusal> {
    if u32::from(*count) <= 10 * u32::from(*version) {
        Ok(())
    } else {
        Err(Refusal::new(format!(
            "{count} is more than ten per version (version {version})"
        )))
    }
}

/// A versioned text record: `extra` exists from version 300 on.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text)]
pub struct Record {
    #[schema(style)]
    pub style: TextStyle,
    pub version: u32,
    #[schema(present_if = version >= 300)]
    pub extra: Option<i32>,
    pub value: i32,
}

/// What a [`Shape`] holds, decided by its `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema)]
#[schema(little, tag = u8)]
pub enum Kind {
    #[schema(when = 0)]
    Point,
    #[schema(when = 1)]
    Circle,
}

/// A condition over a field of a derived enum type and over flag bits.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Shape {
    pub kind: Kind,
    pub flags: u8,
    #[schema(present_if = kind == Kind::Circle)]
    pub radius: Option<f32>,
    #[schema(present_if = flags & 4 != 0)]
    pub label: Option<u16>,
}

/// A crate that re-exports the runtime under another path.
pub mod reexported {
    pub use ossuary_schema as runtime;
}

/// Derived through the re-export, as a crate that cannot name `::ossuary_schema`
/// would: `#[schema(crate = "...")]` roots every generated path there.
#[derive(Debug, Clone, PartialEq, crate::reexported::runtime::Schema)]
#[schema(big, crate = "crate::reexported::runtime")]
pub struct Marker {
    pub id: u32,
}

/// Reads `bytes` recording the byte map, and checks that every byte lies
/// in exactly one span.
#[cfg(test)]
fn every_byte_in_one_span<T: std::fmt::Debug>(
    bytes: &[u8],
    read: impl FnOnce() -> Result<T, ossuary_schema::Error>,
) {
    let (value, mut spans) = ossuary_schema::map::record_spans(read);
    value.unwrap();
    spans.sort_by_key(|span| (span.start, span.end));
    let mut covered = 0;
    for span in &spans {
        assert_eq!(span.start, covered, "a gap or an overlap before {span:?}");
        covered = span.end;
    }
    assert_eq!(covered, bytes.len() as u64, "bytes after the last span");
}

#[cfg(test)]
mod tests {
    use ossuary_schema::text::TextSchema;
    use ossuary_schema::BinarySchema;

    use super::*;

    #[test]
    fn a_binary_layout_reads_and_writes_known_bytes() {
        let bytes = b"PAL1\x03red\x01\x00\xff\x00\x00\x3f\x80\x00\x00";
        let palette = Palette::from_bytes(bytes).unwrap();
        assert_eq!(
            palette,
            Palette {
                magic: Magic,
                name: RawString::from("red"),
                colours: vec![Colour {
                    rgb: [0xff, 0, 0],
                    opacity: 1.0,
                }],
            }
        );
        assert_eq!(palette.to_bytes().unwrap(), bytes);
    }

    #[test]
    fn a_text_layout_reads_and_writes_known_text() {
        let text = b"route 1\r\n2\r\nhome | 0 0 0 |\r\nshop | 1.5 -2 1e+006 |\r\n";
        let route = Route::from_text(text).unwrap();
        assert_eq!(route.points[1].name, RawString::from("shop"));
        assert_eq!(route.points[1].at, [1.5, -2.0, 1e6]);
        assert_eq!(route.to_text().unwrap(), text);
    }

    #[test]
    fn errors_name_the_field_and_where() {
        let error = Palette::from_bytes(b"PAL2").unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"byte 0: magic: expected the constant b"PAL1", found b"PAL2""#
        );
        let error = Route::from_text(b"route 1\r\n1\r\nhome | 0 0 |\r\n").unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 3:12: points[0].at[2]: expected a number, found `|`"
        );
    }

    #[test]
    fn a_version_decides_whether_a_binary_field_exists() {
        let old = Header::from_bytes(&[1, 0, 5]).unwrap();
        assert_eq!(
            old,
            Header {
                version: 1,
                flags: None,
                count: 5,
            }
        );
        assert_eq!(old.to_bytes().unwrap(), [1, 0, 5]);
        let new = Header::from_bytes(&[2, 0, 9, 0, 0, 0, 5]).unwrap();
        assert_eq!(new.flags, Some(9));
        assert_eq!(new.to_bytes().unwrap(), [2, 0, 9, 0, 0, 0, 5]);
    }

    #[test]
    fn a_value_its_condition_rules_out_is_not_written() {
        let wrong = Header {
            version: 1,
            flags: Some(9),
            count: 5,
        };
        let error = wrong.to_bytes().unwrap_err();
        assert_eq!(
            error.to_string(),
            "flags: the condition `version >= 2` does not hold but the value is present"
        );
        let missing = Header {
            version: 2,
            flags: None,
            count: 5,
        };
        assert_eq!(
            missing.to_bytes().unwrap_err().to_string(),
            "flags: the condition `version >= 2` holds but the value is absent"
        );
    }

    #[test]
    fn a_binary_check_refuses_at_the_value_with_its_message() {
        let error = Header::from_bytes(&[1, 0, 200]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 2: count: 200 is more than ten per version (version 1)"
        );
    }

    #[test]
    fn a_version_decides_whether_a_text_field_exists() {
        let old = Record::from_text(b"200\r\n7\r\n").unwrap();
        assert_eq!((old.version, old.extra, old.value), (200, None, 7));
        assert_eq!(old.to_text().unwrap(), b"200\r\n7\r\n");
        let new = Record::from_text(b"300\r\n-1\r\n7\r\n").unwrap();
        assert_eq!((new.version, new.extra, new.value), (300, Some(-1), 7));
        assert_eq!(new.to_text().unwrap(), b"300\r\n-1\r\n7\r\n");
        let wrong = Record {
            extra: Some(1),
            ..old
        };
        assert_eq!(
            wrong.to_text().unwrap_err().to_string(),
            "extra: the condition `version >= 300` does not hold but the value is present"
        );
    }

    #[test]
    fn conditions_test_enum_values_and_flag_bits() {
        let circle = Shape::from_bytes(&[1, 4, 0, 0, 0x80, 0x3f, 7, 0]).unwrap();
        assert_eq!(circle.radius, Some(1.0));
        assert_eq!(circle.label, Some(7));
        let point = Shape::from_bytes(&[0, 0]).unwrap();
        assert_eq!((point.radius, point.label), (None, None));
        assert_eq!(point.to_bytes().unwrap(), [0, 0]);
    }

    /// The layout docs of each new kind of field say how it is stored.
    #[test]
    fn layouts_describe_offsets_bits_padding_blocks_and_transforms() {
        use ossuary_schema::Layout;
        let encoding = |layout: ossuary_schema::TypeLayout, field: &str| {
            let row = layout.fields.iter().find(|row| row.name == field);
            row.map(|row| row.encoding)
        };
        assert_eq!(
            encoding(pointed::Table::LAYOUT, "items"),
            Some(
                "u16 count, then that many × u32 offset from the start of the enclosing block; \
                 each `Item` lies at its offset"
            )
        );
        assert_eq!(
            encoding(commands::Row::LAYOUT, "bytes"),
            Some("u16, computed by the writer: `size_of(commands) + 2`, bits 12..=0 of the word")
        );
        assert_eq!(
            commands::RowCommand::LAYOUT.chosen_by,
            Some(
                "the top 3 bits of a leading `u16` word, whose other 13 bits begin the variant's \
                 value"
            )
        );
        assert_eq!(
            encoding(padded::Name::LAYOUT, "padding"),
            Some(
                "padding to a multiple of 2 bytes from the start of the enclosing block: zeros, \
                 kept as found otherwise"
            )
        );
        assert_eq!(
            encoding(sized::Record::LAYOUT, "body"),
            Some("Body, then the rest of its block, kept, in a block of `length` bytes")
        );
        assert_eq!(
            encoding(compressed::Packed::LAYOUT, "mesh"),
            Some("every byte left in the input, decoded by `Gzip`, holding Mesh")
        );
        assert_eq!(
            encoding(terminated::Path::LAYOUT, "points"),
            Some(
                "[i8; 2], repeated until one satisfies `|point: &[i8; 2]| *point == [0, 0]` \
                 (that one included)"
            )
        );
    }

    #[test]
    fn a_type_derived_through_a_reexport_works_alike() {
        let marker = Marker::from_bytes(&[0, 0, 1, 2]).unwrap();
        assert_eq!(marker, Marker { id: 0x0102 });
    }
}
