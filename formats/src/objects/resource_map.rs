//! The resource map (`rsmp`): where each chunk of the file is.

use serde::{Deserialize, Serialize};

use super::strings::PascalString;
use crate::schema::{Padding, RawString};
use crate::Schema;

/// The resource map (`rsmp`), the last chunk of most files: for each
/// chunk type, each chunk's offset in the file, id, flags and label (all
/// but the map itself and filler chunks), so that the game finds a chunk
/// without reading the others. A u32 0, a u32 version (0, The Sims'; 1,
/// with u32 ids and Pascal labels), `pmsr`, a u32 size (the chunk's, or
/// 0, or another number: kept as found), then a u32 count of types.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct ResourceMap {
    /// 0 in every known file.
    pub reserved: u32,
    /// 0 or 1.
    pub version: u32,
    /// `pmsr` (`rsmp` backwards); kept as found.
    pub signature: [u8; 4],
    /// The chunk's size with its header, in some files; 0 or another
    /// number in others.
    pub declared_size: u32,
    /// A u32 count, then the types.
    #[schema(prefix = u32, context(wide = version >= 1))]
    pub types: Vec<ResourceType>,
    /// Bytes after the map, which the game does not read.
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// The chunks of one type.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(wide: bool))]
pub struct ResourceType {
    /// The chunk type, backwards (`DJBO` for `OBJD`).
    pub kind: [u8; 4],
    /// A u32 count, then the chunks, in the order they were listed.
    #[schema(prefix = u32, context(wide))]
    pub entries: Vec<ResourceEntry>,
}

/// Where one chunk is.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(wide: bool))]
pub struct ResourceEntry {
    /// The chunk's offset from the start of the file.
    pub offset: u32,
    /// The chunk's id: a u16 at version 0, a u32 at 1.
    #[schema(context(wide))]
    pub id: ResourceId,
    /// The chunk's flags.
    pub flags: u16,
    /// The chunk's label: null-terminated and padded to an even length
    /// at version 0, a Pascal string at 1.
    #[schema(context(wide))]
    pub label: ResourceLabel,
}

/// A chunk id in the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(wide: bool), select = wide)]
pub enum ResourceId {
    /// Version 0.
    #[schema(when = false)]
    Short(u16),
    /// Version 1.
    #[schema(when = true)]
    Long(u32),
}

/// A chunk label in the map.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(wide: bool), select = wide)]
pub enum ResourceLabel {
    /// Version 0: null-terminated, padded to an even length from the
    /// chunk's start (0xA3 in real files, kept).
    #[schema(when = false)]
    Padded(PaddedLabel),
    /// Version 1.
    #[schema(when = true)]
    Pascal(PascalString),
}

/// A null-terminated label padded to an even length.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct PaddedLabel {
    /// The label.
    #[schema(null_terminated)]
    pub text: RawString,
    /// To an even length.
    #[schema(align = 2)]
    pub padding: Padding,
}
