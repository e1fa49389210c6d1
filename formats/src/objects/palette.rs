//! Colour palettes (`PALT`).

use serde::{Deserialize, Serialize};

use crate::schema::Count;
use crate::Schema;

/// A colour palette (`PALT`): a u32 version (0 or 1), a u32 entry count,
/// eight reserved bytes, then red, green and blue for each entry. A
/// sprite's frames index it; their transparent index and alpha come from
/// the sprite, not from here.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Palette {
    /// 0 or 1; the game reads both alike.
    pub version: u32,
    /// How many colours (256 in every known file).
    #[serde(skip)]
    pub count: Count<u32>,
    /// 0 in every known file.
    pub reserved: [u8; 8],
    /// The colours: red, green, blue.
    #[schema(count = count)]
    pub colors: Vec<[u8; 3]>,
    /// Bytes after the colours, which the game does not read (none in
    /// known files).
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}
