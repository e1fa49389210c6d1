//! The resource map (`rsmp`): where each chunk of the file is.

use serde::{Deserialize, Serialize};

use super::file::ChunkType;
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
    pub size: u32,
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

impl ResourceType {
    /// The chunk type it lists, the right way round.
    pub fn chunk_type(&self) -> ChunkType {
        let [a, b, c, d] = self.kind;
        ChunkType { tag: [d, c, b, a] }
    }
}

impl ResourceEntry {
    /// The chunk's id.
    pub fn id(&self) -> u32 {
        match self.id {
            ResourceId::Short(id) => u32::from(id),
            ResourceId::Long(id) => id,
        }
    }
}

impl ResourceLabel {
    /// The label's text.
    pub fn text(&self) -> &[u8] {
        match self {
            ResourceLabel::Padded(label) => label.text.as_bytes(),
            ResourceLabel::Pascal(label) => label.text.as_bytes(),
        }
    }

    /// A label of this text, as the map's version stores it.
    fn with_text(&self, text: &[u8]) -> ResourceLabel {
        match self {
            ResourceLabel::Padded(_) => ResourceLabel::Padded(PaddedLabel {
                text: RawString(text.to_vec()),
                padding: Padding::default(),
            }),
            ResourceLabel::Pascal(_) => ResourceLabel::Pascal(PascalString {
                text: RawString(text.to_vec()),
            }),
        }
    }
}

/// A chunk as a map lists it: its type, id, flags, label and offset.
pub type Listed = (ChunkType, u16, u16, Vec<u8>, u32);

impl ResourceMap {
    /// Every entry with the chunk type it lists.
    pub fn entries(&self) -> impl Iterator<Item = (ChunkType, &ResourceEntry)> {
        self.types.iter().flat_map(|kind| {
            kind.entries
                .iter()
                .map(move |entry| (kind.chunk_type(), entry))
        })
    }

    /// The map made to list `chunks` (see
    /// [`IffFile::update_resource_map`](super::file::IffFile::update_resource_map)).
    pub(super) fn update(&mut self, chunks: &[Listed]) {
        let wide = self.version >= 1;
        let mut used = vec![false; chunks.len()];
        for kind in &mut self.types {
            let chunk_type = kind.chunk_type();
            kind.entries.retain_mut(|entry| {
                let found = chunks
                    .iter()
                    .zip(&used)
                    .position(|((listed_type, id, ..), used)| {
                        !used && *listed_type == chunk_type && u32::from(*id) == entry.id()
                    });
                let Some(index) = found else {
                    return false;
                };
                used[index] = true;
                let (_, _, flags, label, offset) = &chunks[index];
                entry.offset = *offset;
                entry.flags = *flags;
                if entry.label.text() != label.as_slice() {
                    entry.label = entry.label.with_text(label);
                }
                true
            });
        }
        for (index, (chunk_type, id, flags, label, offset)) in chunks.iter().enumerate() {
            if used[index] {
                continue;
            }
            let entry = ResourceEntry {
                offset: *offset,
                id: if wide {
                    ResourceId::Long(u32::from(*id))
                } else {
                    ResourceId::Short(*id)
                },
                flags: *flags,
                label: if wide {
                    ResourceLabel::Pascal(PascalString {
                        text: RawString(label.clone()),
                    })
                } else {
                    ResourceLabel::Padded(PaddedLabel {
                        text: RawString(label.clone()),
                        padding: Padding::default(),
                    })
                },
            };
            match self
                .types
                .iter_mut()
                .find(|kind| kind.chunk_type() == *chunk_type)
            {
                Some(kind) => kind.entries.push(entry),
                None => {
                    let [a, b, c, d] = chunk_type.tag;
                    self.types.push(ResourceType {
                        kind: [d, c, b, a],
                        entries: vec![entry],
                    });
                }
            }
        }
    }
}
