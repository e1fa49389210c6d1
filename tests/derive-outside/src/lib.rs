//! `#[derive(Schema)]` as a crate outside `formats` uses it: its only
//! dependency is `formats`, and `cargo test -p derive-outside` runs the
//! round-trip tests the derive generates for each type here.

use formats::schema::text::TextStyle;
use formats::schema::{Magic, RawString};
use formats::Schema;

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

/// A crate that re-exports `formats` under another path.
pub mod reexported {
    pub use formats;
}

/// Derived through the re-export, as a crate that cannot name `::formats`
/// would: `#[schema(crate = "...")]` roots every generated path there.
#[derive(Debug, Clone, PartialEq, crate::reexported::formats::Schema)]
#[schema(big, crate = "crate::reexported::formats")]
pub struct Marker {
    pub id: u32,
}

#[cfg(test)]
mod tests {
    use formats::schema::text::TextSchema;
    use formats::schema::BinarySchema;

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
            "byte 0: magic: expected the constant [80, 65, 76, 49], found [80, 65, 76, 50]"
        );
        let error = Route::from_text(b"route 1\r\n1\r\nhome | 0 0 |\r\n").unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 3:12: points[0].at[2]: expected a number, found `|`"
        );
    }

    #[test]
    fn a_type_derived_through_a_reexport_works_alike() {
        let marker = Marker::from_bytes(&[0, 0, 1, 2]).unwrap();
        assert_eq!(marker, Marker { id: 0x0102 });
    }
}
