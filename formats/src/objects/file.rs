//! The container: an IFF 2.5 file's header and its chunks.

use std::collections::HashMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::behavior::{ConstantLabels, Constants, Routine, RoutineLabels, RoutineTree};
use super::definition::{EventHandlers, ObjectDefinition};
use super::draw_group::{compose, Composed, DrawGroup, View};
use super::image::Image;
use super::interactions::Interactions;
use super::mesh::{Mesh, PlainMesh, Reconstruction};
use super::names::{SemiGlobal, SoundEvent};
use super::old_sprites::OldSprite;
use super::palette::Palette;
use super::pixels::Pixels;
use super::resource_map::ResourceMap;
use super::slots::Slots;
use super::sprites::{Frame, FrameInfo, Sprite, SpriteError};
use super::strings::StringTable;
use super::{Filler, Undescribed};
use crate::schema::{Block, Calc, Encode, Endian, RawString, Refusal, SizeOutput};
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
    /// the file; 0 where there is none. The writer computes it from where
    /// the chunks land; a file whose offset says otherwise keeps its own.
    #[schema(calc = resource_map_offset(&chunks), keep)]
    #[serde(default)]
    pub resource_map_offset: Calc<u32>,
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

/// The signature as text: its 0 bytes left out.
pub fn signature_text(signature: &RawString) -> String {
    let text: Vec<u8> = signature
        .0
        .iter()
        .copied()
        .filter(|&byte| byte != 0)
        .collect();
    RawString(text).to_text()
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
    OldSprite,
    Image,
    Reconstruction,
    Mesh,
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
            b"SPR#" => ChunkKind::OldSprite,
            b"BMP_" | b"MTEX" => ChunkKind::Image,
            b"FSOR" => ChunkKind::Reconstruction,
            b"FSOM" => ChunkKind::Mesh,
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
    /// `SPR#`.
    #[schema(when = ChunkKind::OldSprite)]
    OldSprite(OldSprite),
    /// `BMP_`, `MTEX`.
    #[schema(when = ChunkKind::Image)]
    Image(Image),
    /// `FSOR`.
    #[schema(when = ChunkKind::Reconstruction)]
    Reconstruction(Reconstruction),
    /// `FSOM`.
    #[schema(when = ChunkKind::Mesh)]
    Mesh(Mesh),
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

/// Bytes of the file's header, before its first chunk.
pub const HEADER_SIZE: u64 = 64;

/// Where each chunk begins, from the start of the file, as the writer
/// lays them out.
pub fn chunk_offsets(chunks: &[Chunk]) -> Vec<u64> {
    let mut at = HEADER_SIZE;
    chunks
        .iter()
        .map(|chunk| {
            let offset = at;
            let mut size = SizeOutput::default();
            // A chunk that cannot be written makes the file fail to write
            // anyway; it counts as its header here.
            at += match chunk.encode_output(&mut size, Endian::Big, &()) {
                Ok(()) => size.counted(),
                Err(_) => 76,
            };
            offset
        })
        .collect()
}

/// The offset of the first resource map chunk, or 0 (past 4 GiB, where
/// no offset reaches: 0).
fn resource_map_offset(chunks: &[Chunk]) -> u32 {
    chunks
        .iter()
        .zip(chunk_offsets(chunks))
        .find(|(chunk, _)| &chunk.kind.tag == b"rsmp")
        .and_then(|(_, offset)| u32::try_from(offset).ok())
        .unwrap_or(0)
}

impl Chunk {
    /// A chunk of this type, id and label (0 bytes after it to 64), flags
    /// 0x10 as the game's tools write them, its size computed.
    pub fn new(tag: &[u8; 4], id: u16, label: &str, data: ChunkData) -> Chunk {
        let mut label = label.as_bytes().to_vec();
        label.resize(64, 0);
        Chunk {
            kind: ChunkType { tag: *tag },
            size: Calc::computed(),
            id,
            flags: 0x10,
            label: RawString(label),
            data,
        }
    }

    /// The label's text: its bytes before the first 0.
    pub fn label_text(&self) -> &[u8] {
        let bytes = self.label.as_bytes();
        bytes.split(|&byte| byte == 0).next().unwrap_or(bytes)
    }

    /// Whether a resource map lists this chunk (all but maps and
    /// fillers).
    fn mapped(&self) -> bool {
        !matches!(&self.kind.tag, b"rsmp" | b"XXXX")
    }
}

/// An object a file defines: its definition's id, GUID and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectSummary {
    pub id: u16,
    pub guid: u32,
    /// The first catalogue string (`CTSS` the definition names), else the
    /// definition's label.
    pub name: RawString,
}

impl IffFile {
    /// The chunk of this type and id (the first, where several share it,
    /// as the game takes it).
    pub fn chunk(&self, tag: &[u8; 4], id: u16) -> Option<&Chunk> {
        self.chunks
            .iter()
            .find(|chunk| &chunk.kind.tag == tag && chunk.id == id)
    }

    /// The colours of the palette (`PALT`) of this id.
    pub fn palette(&self, id: u16) -> Option<&[[u8; 3]]> {
        match &self.chunk(b"PALT", id)?.data {
            ChunkData::Palette(palette) => Some(&palette.colors),
            _ => None,
        }
    }

    /// The sprite (`SPR2`) of this id.
    pub fn sprite(&self, id: u16) -> Option<&Sprite> {
        match &self.chunk(b"SPR2", id)?.data {
            ChunkData::Sprite(sprite) => Some(sprite),
            _ => None,
        }
    }

    /// The older sprite (`SPR#`) of this id.
    pub fn old_sprite(&self, id: u16) -> Option<&OldSprite> {
        match &self.chunk(b"SPR#", id)?.data {
            ChunkData::OldSprite(sprite) => Some(sprite),
            _ => None,
        }
    }

    /// Frame `index` of the sprite of this id (`SPR2`, else `SPR#`, as the
    /// game looks it up) drawn with its palette: RGBA, and its z-buffer
    /// where it has one. A palette the file lacks is an error.
    pub fn frame_pixels(&self, sprite: u16, index: usize) -> Result<Pixels, SpriteError> {
        let no_frame = |frames: usize| SpriteError::NoFrame {
            sprite,
            frame: index,
            frames,
        };
        if let Some(found) = self.sprite(sprite) {
            let frames = found.frames();
            let frame = frames.get(index).ok_or_else(|| no_frame(frames.len()))?;
            let palette = found.palette_of(frame);
            let colors = self
                .palette(palette)
                .ok_or(SpriteError::MissingPalette(palette))?;
            return frame.pixels(colors);
        }
        let found = self
            .old_sprite(sprite)
            .ok_or(SpriteError::NoSprite(sprite))?;
        let frames = found.frames();
        let frame = frames.get(index).ok_or_else(|| no_frame(frames.len()))?;
        let colors = self
            .palette(found.palette())
            .ok_or(SpriteError::MissingPalette(found.palette()))?;
        frame.pixels(colors)
    }

    /// Every view (direction and zoom) of the draw group of this id,
    /// composed as the game draws it ([`compose`]): sprites or frames the
    /// file lacks are left out, as the game leaves them out; a frame that
    /// cannot be drawn (its palette missing) is an error.
    pub fn compose_draw_group(&self, id: u16) -> Result<Vec<(View, Composed)>, SpriteError> {
        let group = self.draw_group(id).ok_or(SpriteError::NoDrawGroup(id))?;
        let mut frames: HashMap<(u32, u32), Pixels> = HashMap::new();
        let mut composed = Vec::new();
        for view in group.views() {
            for placed in &view.sprites {
                let key = (placed.sprite, placed.frame);
                if frames.contains_key(&key) {
                    continue;
                }
                let (Ok(sprite), Ok(frame)) =
                    (u16::try_from(placed.sprite), usize::try_from(placed.frame))
                else {
                    continue;
                };
                match self.frame_pixels(sprite, frame) {
                    Ok(pixels) => {
                        frames.insert(key, pixels);
                    }
                    Err(SpriteError::NoSprite(_) | SpriteError::NoFrame { .. }) => {}
                    Err(error) => return Err(error),
                }
            }
            let image = compose(&view, |sprite, frame| frames.get(&(sprite, frame)))?;
            composed.push((view, image));
        }
        Ok(composed)
    }

    /// Replaces frame `index` of the sprite (`SPR2`) of this id by
    /// `image`, its colours looked up in the frame's palette (one it
    /// lacks is an error naming the pixel), and brings the resource map
    /// up to date: written, the sprite's offsets and sizes and every
    /// chunk's place come out right.
    pub fn replace_frame(
        &mut self,
        sprite: u16,
        index: usize,
        image: &Pixels,
    ) -> Result<(), SpriteError> {
        let (palette, info) = {
            let found = self.sprite(sprite).ok_or(SpriteError::NoSprite(sprite))?;
            let frames = found.frames();
            let frame = frames.get(index).ok_or(SpriteError::NoFrame {
                sprite,
                frame: index,
                frames: frames.len(),
            })?;
            let info = FrameInfo {
                palette: frame.palette,
                transparent_index: frame.transparent_index,
                position: frame.position,
            };
            (found.palette_of(frame), info)
        };
        let colors = self
            .palette(palette)
            .ok_or(SpriteError::MissingPalette(palette))?;
        let frame = Frame::from_pixels(image, colors, info)?;
        let chunk = self
            .chunks
            .iter_mut()
            .find(|chunk| &chunk.kind.tag == b"SPR2" && chunk.id == sprite);
        if let Some(Chunk {
            data: ChunkData::Sprite(found),
            ..
        }) = chunk
        {
            if let Some(slot) = found.frames_mut().into_iter().nth(index) {
                *slot = frame;
            }
        }
        self.update_resource_map();
        Ok(())
    }

    /// FreeSO's meshes (`FSOM`), each with its id (its draw group's), as
    /// plain arrays.
    pub fn meshes(&self) -> Vec<(u16, Vec<PlainMesh>)> {
        self.chunks
            .iter()
            .filter_map(|chunk| match &chunk.data {
                ChunkData::Mesh(mesh) => Some((chunk.id, mesh.mesh.value.plain())),
                _ => None,
            })
            .collect()
    }

    /// The draw group (`DGRP`) of this id.
    pub fn draw_group(&self, id: u16) -> Option<&DrawGroup> {
        match &self.chunk(b"DGRP", id)?.data {
            ChunkData::DrawGroup(group) => Some(group),
            _ => None,
        }
    }

    /// The objects the file defines, in file order.
    pub fn objects(&self) -> Vec<ObjectSummary> {
        self.chunks
            .iter()
            .filter_map(|chunk| match &chunk.data {
                ChunkData::Definition(definition) => Some((chunk, definition)),
                _ => None,
            })
            .map(|(chunk, definition)| {
                let catalog = match self
                    .chunk(b"CTSS", definition.catalog_strings)
                    .map(|c| &c.data)
                {
                    Some(ChunkData::Strings(table)) => table.strings().first().map(|s| s.to_vec()),
                    _ => None,
                };
                ObjectSummary {
                    id: chunk.id,
                    guid: definition.guid,
                    name: RawString(catalog.unwrap_or_else(|| chunk.label_text().to_vec())),
                }
            })
            .collect()
    }

    /// Where the resource maps disagree with the chunks, one line each:
    /// an entry whose offset holds no chunk of its type and id, or whose
    /// flags or label differ from that chunk's; a chunk no map lists.
    /// Empty where the maps agree (or there are none).
    pub fn resource_map_disagreements(&self) -> Vec<String> {
        let offsets = chunk_offsets(&self.chunks);
        let mut problems = Vec::new();
        let mut listed = vec![false; self.chunks.len()];
        for map in self.resource_maps() {
            for (kind, entry) in map.entries() {
                let found = self
                    .chunks
                    .iter()
                    .zip(&offsets)
                    .position(|(chunk, &offset)| {
                        chunk.kind == kind && offset == u64::from(entry.offset)
                    });
                let Some(index) = found else {
                    problems.push(format!(
                        "{kind} {}: no such chunk at byte {}",
                        entry.id(),
                        entry.offset
                    ));
                    continue;
                };
                listed[index] = true;
                let chunk = &self.chunks[index];
                if u32::from(chunk.id) != entry.id()
                    || chunk.flags != entry.flags
                    || chunk.label_text() != entry.label.text()
                {
                    problems.push(format!("{kind} {} at byte {}: the map's id, flags or label differ from the chunk's", chunk.id, entry.offset));
                }
            }
        }
        if self.resource_maps().next().is_some() {
            for (chunk, listed) in self.chunks.iter().zip(listed) {
                if chunk.mapped() && !listed {
                    problems.push(format!(
                        "{} {}: not in the resource map",
                        chunk.kind, chunk.id
                    ));
                }
            }
        }
        problems
    }

    fn resource_maps(&self) -> impl Iterator<Item = &ResourceMap> {
        self.chunks.iter().filter_map(|chunk| match &chunk.data {
            ChunkData::ResourceMap(map) => Some(map),
            _ => None,
        })
    }

    /// Rewrites every resource map from the chunks, where they now lie:
    /// each entry's offset, flags and label from the chunk of its type
    /// and id (in order, where ids repeat); entries of chunks no longer
    /// in the file dropped, chunks not yet listed added at the end of
    /// their type's entries (or in a new type at the end). A map that
    /// agrees with the chunks is left as it was, byte for byte.
    pub fn update_resource_map(&mut self) {
        let offsets = chunk_offsets(&self.chunks);
        let listed: Vec<(ChunkType, u16, u16, Vec<u8>, u32)> = self
            .chunks
            .iter()
            .zip(&offsets)
            .filter(|(chunk, _)| chunk.mapped())
            .map(|(chunk, &offset)| {
                let offset = u32::try_from(offset).unwrap_or(u32::MAX);
                (
                    chunk.kind,
                    chunk.id,
                    chunk.flags,
                    chunk.label_text().to_vec(),
                    offset,
                )
            })
            .collect();
        for chunk in &mut self.chunks {
            if let ChunkData::ResourceMap(map) = &mut chunk.data {
                map.update(&listed);
            }
        }
    }
}
