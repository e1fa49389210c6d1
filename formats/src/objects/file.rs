//! The container: an IFF 2.5 file's header and its chunks.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::behavior::{ConstantLabels, Constants, Routine, RoutineLabels, RoutineTree};
use super::definition::{EventHandlers, ObjectDefinition};
use super::draw_group::DrawGroup;
use super::image::Image;
use super::interactions::Interactions;
use super::mesh::Reconstruction;
use super::names::{SemiGlobal, SoundEvent};
use super::palette::Palette;
use super::resource_map::ResourceMap;
use super::slots::Slots;
use super::sprites::Sprite;
use super::strings::StringTable;
use super::{Filler, Undescribed};
use crate::schema::{Block, Calc, RawString, Refusal};
use crate::Schema;

/// The header's signature as The Sims and The Sims Online write it (a 0
/// after `SIZE`).
pub const SIGNATURE: &[u8; 60] = b"IFF FILE 2.5:TYPE FOLLOWED BY SIZE\0 JAMIE DOORNBOS & MAXIS 1";

/// The signature of the older version the game also reads.
const SIGNATURE_2_0: &[u8] = b"IFF FILE 2.0:TYPE FOLLOWED BY SIZE JAMIE DOORNBOS & MAXIS 1";

/// An object file (IFF 2.5, `.iff`; The Sims Online's sprite files
/// `.spf`, The Sims' walls `.wll` and floors `.flr` are the same
/// container): a 64-byte header (a 60-byte signature, then the offset of
/// the resource map chunk, 0 where there is none), then chunks to the end
/// of the file. Each chunk has a 76-byte big-endian header (its type, its
/// size with the header, its id, its flags and a 64-byte label) and a
/// little-endian payload; a chunk of a type no layout describes is kept
/// whole.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct IffFile {
    /// `IFF FILE 2.5:TYPE FOLLOWED BY SIZE`, a 0, ` JAMIE DOORNBOS &
    /// MAXIS 1` (or the 2.0 version's, which the game reads too), as
    /// found.
    #[schema(fixed_width = 60, check = signature_known)]
    pub signature: RawString,
    /// The offset of the resource map chunk (`rsmp`) from the start of
    /// the file; 0 where there is none.
    pub resource_map_offset: u32,
    /// The chunks, in file order.
    #[schema(to_end)]
    pub chunks: Vec<Chunk>,
}

/// The game reads a file whose signature, its 0 bytes left out, is the
/// 2.5 or the 2.0 one.
fn signature_known(signature: &RawString) -> Result<(), Refusal> {
    let text: Vec<u8> = signature
        .0
        .iter()
        .copied()
        .filter(|&byte| byte != 0)
        .collect();
    let without_zeros: Vec<u8> = SIGNATURE
        .iter()
        .copied()
        .filter(|&byte| byte != 0)
        .collect();
    if text == without_zeros || text == SIGNATURE_2_0 {
        Ok(())
    } else {
        Err(Refusal::new(format!(
            "not an IFF 2.5 file: the signature is \"{}\"",
            crate::schema::quoted(&signature.0)
        )))
    }
}

/// A chunk type: four bytes, shown as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Schema)]
#[schema(big)]
pub struct ChunkType {
    /// The four bytes (`OBJD`, `SPR2`, ...).
    pub tag: [u8; 4],
}

impl std::fmt::Display for ChunkType {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(&RawString(self.tag.to_vec()).to_text())
    }
}

impl Serialize for ChunkType {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RawString(self.tag.to_vec()).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ChunkType {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = RawString::deserialize(deserializer)?;
        <[u8; 4]>::try_from(text.0.as_slice())
            .map(|tag| ChunkType { tag })
            .map_err(|_| serde::de::Error::custom("a chunk type is four characters"))
    }
}

/// One chunk: its header, big-endian, then its payload.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Chunk {
    /// The chunk's type (`OBJD`, `SPR2`, ...).
    pub kind: ChunkType,
    /// The chunk's size in bytes, this 76-byte header included.
    #[schema(calc = size_of(data) + 76)]
    #[serde(skip)]
    pub size: Calc<u32>,
    /// The chunk's id, unique among the chunks of its type; other chunks
    /// name it by that.
    pub id: u16,
    /// Flags: 0x10 in most chunks; 0, 4 or 20 in some.
    pub flags: u16,
    /// The chunk's label: text, then 0 bytes (or what the writing tool
    /// left there), as found.
    #[schema(fixed_width = 64)]
    pub label: RawString,
    /// The payload, as its type lays it out.
    #[schema(
        size = i64::from(size) - 76,
        context(kind = ChunkKind::of(kind))
    )]
    pub data: ChunkData,
}

/// What a chunk type's payload is, by its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChunkKind {
    Strings,
    Definition,
    EventHandlers,
    Routine,
    Constants,
    RoutineLabels,
    RoutineTree,
    ConstantLabels,
    Interactions,
    SemiGlobal,
    SoundEvent,
    Slots,
    Palette,
    DrawGroup,
    Sprite,
    Image,
    Reconstruction,
    Filler,
    Undescribed,
    ResourceMap,
    Unknown,
}

impl ChunkKind {
    /// The kind of a chunk of this type.
    pub fn of(kind: ChunkType) -> ChunkKind {
        match &kind.tag {
            b"STR#" | b"CTSS" | b"TTAs" => ChunkKind::Strings,
            b"OBJD" => ChunkKind::Definition,
            b"OBJf" => ChunkKind::EventHandlers,
            b"BHAV" => ChunkKind::Routine,
            b"BCON" => ChunkKind::Constants,
            b"TPRP" => ChunkKind::RoutineLabels,
            b"TREE" => ChunkKind::RoutineTree,
            b"TRCN" => ChunkKind::ConstantLabels,
            b"TTAB" => ChunkKind::Interactions,
            b"GLOB" => ChunkKind::SemiGlobal,
            b"FWAV" => ChunkKind::SoundEvent,
            b"SLOT" => ChunkKind::Slots,
            b"PALT" => ChunkKind::Palette,
            b"DGRP" => ChunkKind::DrawGroup,
            b"SPR2" => ChunkKind::Sprite,
            b"BMP_" | b"MTEX" => ChunkKind::Image,
            b"FSOR" => ChunkKind::Reconstruction,
            b"XXXX" => ChunkKind::Filler,
            b"POSI" => ChunkKind::Undescribed,
            b"rsmp" => ChunkKind::ResourceMap,
            _ => ChunkKind::Unknown,
        }
    }
}

/// A chunk's payload, as its type lays it out.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(kind: ChunkKind), select = kind)]
pub enum ChunkData {
    /// `STR#`, `CTSS`, `TTAs`.
    #[schema(when = ChunkKind::Strings)]
    Strings(StringTable),
    /// `OBJD`.
    #[schema(when = ChunkKind::Definition)]
    Definition(ObjectDefinition),
    /// `OBJf`.
    #[schema(when = ChunkKind::EventHandlers)]
    EventHandlers(EventHandlers),
    /// `BHAV`.
    #[schema(when = ChunkKind::Routine)]
    Routine(Routine),
    /// `BCON`.
    #[schema(when = ChunkKind::Constants)]
    Constants(Constants),
    /// `TPRP`.
    #[schema(when = ChunkKind::RoutineLabels)]
    RoutineLabels(RoutineLabels),
    /// `TREE`.
    #[schema(when = ChunkKind::RoutineTree)]
    RoutineTree(RoutineTree),
    /// `TRCN`.
    #[schema(when = ChunkKind::ConstantLabels)]
    ConstantLabels(ConstantLabels),
    /// `TTAB`.
    #[schema(when = ChunkKind::Interactions)]
    Interactions(Interactions),
    /// `GLOB`.
    #[schema(when = ChunkKind::SemiGlobal)]
    SemiGlobal(SemiGlobal),
    /// `FWAV`.
    #[schema(when = ChunkKind::SoundEvent)]
    SoundEvent(SoundEvent),
    /// `SLOT`.
    #[schema(when = ChunkKind::Slots)]
    Slots(Slots),
    /// `PALT`.
    #[schema(when = ChunkKind::Palette)]
    Palette(Palette),
    /// `DGRP`.
    #[schema(when = ChunkKind::DrawGroup)]
    DrawGroup(DrawGroup),
    /// `SPR2`.
    #[schema(when = ChunkKind::Sprite)]
    Sprite(Sprite),
    /// `BMP_`, `MTEX`.
    #[schema(when = ChunkKind::Image)]
    Image(Image),
    /// `FSOR`.
    #[schema(when = ChunkKind::Reconstruction)]
    Reconstruction(Reconstruction),
    /// `XXXX`.
    #[schema(when = ChunkKind::Filler)]
    Filler(Filler),
    /// `POSI`.
    #[schema(when = ChunkKind::Undescribed)]
    Undescribed(Undescribed),
    /// `rsmp`.
    #[schema(when = ChunkKind::ResourceMap)]
    ResourceMap(ResourceMap),
    /// A chunk of a type no layout describes, kept whole.
    #[schema(when = ChunkKind::Unknown)]
    Unknown(Block<Nothing>),
}

/// Nothing: the value of a chunk kept whole, all of whose bytes its
/// block keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Nothing {}
