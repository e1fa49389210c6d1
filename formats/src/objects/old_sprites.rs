//! The older sprites (`SPR#`): frames of paletted pixels without depth or
//! alpha, run-length encoded in byte pairs.

use serde::{Deserialize, Serialize};

use super::pixels::Pixels;
use super::sprites::SpriteError;
use crate::schema::{At, Block, Calc, Count, Endian, Padding};
use crate::Schema;

/// An older sprite (`SPR#`): a u32 version (502 to 505, or 1001), in
/// either byte order (big-endian when its first two bytes are 0), a
/// count, the palette (`PALT` id) of every frame, then the frames: by an
/// offset table, or at version 1001 one after another, each after its
/// version and size. Frames have no z-buffer and no alpha.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct OldSprite {
    /// The version's bytes, as stored.
    pub version: [u8; 4],
    /// The rest, in the version's byte order.
    #[schema(context(order = order_of(version), sequential = version_of(version) == 1001))]
    pub body: OldSpriteBody,
}

/// The byte order of a sprite whose version has these bytes: big-endian
/// when the first two are 0 (no version needs more than two).
pub fn order_of(version: [u8; 4]) -> Endian {
    match version {
        [0, 0, ..] => Endian::Big,
        _ => Endian::Little,
    }
}

/// The version these bytes hold in their byte order.
pub fn version_of(version: [u8; 4]) -> u32 {
    match order_of(version) {
        Endian::Big => u32::from_be_bytes(version),
        Endian::Little => u32::from_le_bytes(version),
    }
}

/// An older sprite after its version.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(context(order: Endian, sequential: bool), select = sequential, endian = order)]
pub enum OldSpriteBody {
    /// Frames by an offset table.
    #[schema(when = false, context(order))]
    Table(OldSpriteTable),
    /// Version 1001: frames one after another.
    #[schema(when = true, context(order))]
    Sequential(OldSpriteSequence),
}

/// An older sprite's frames by an offset table (from the payload's
/// start).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(context(order: Endian), endian = order)]
pub struct OldSpriteTable {
    /// How many frames.
    #[serde(skip)]
    pub count: Count<u32>,
    /// The palette (`PALT` id, as a u32) of every frame.
    pub palette: u32,
    /// The offsets of the frames, and the frames where they point.
    #[schema(count = count, offset = u32, context(order))]
    pub frames: Vec<At<OldFrame>>,
}

/// An older sprite's frames one after another (version 1001).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(context(order: Endian), endian = order)]
pub struct OldSpriteSequence {
    /// How many frames (the game reads frames to the chunk's end).
    pub count: u32,
    /// The palette (`PALT` id, as a u32) of every frame.
    pub palette: u32,
    /// The frames, to the chunk's end.
    #[schema(to_end, context(order))]
    pub frames: Vec<SizedOldFrame>,
}

/// A frame after its version and size.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(context(order: Endian), endian = order)]
pub struct SizedOldFrame {
    /// The frame's version.
    pub version: u32,
    /// The frame's size in bytes.
    #[schema(calc = size_of(frame))]
    #[serde(skip)]
    pub size: Calc<u32>,
    /// The frame, and any bytes of its size after its end command.
    #[schema(size = size, context(order))]
    pub frame: Block<OldFrame>,
}

/// One frame: a reserved u32, the height and width, then byte pairs of
/// commands (the command, then a count) until the end command.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(context(order: Endian), endian = order)]
pub struct OldFrame {
    /// Unknown; kept as data.
    pub reserved: u32,
    /// The height in pixels.
    pub height: u16,
    /// The width in pixels.
    pub width: u16,
    /// The commands, until the end command.
    #[schema(until = |command: &OldCommand| matches!(command.body, OldCommandBody::End(_)))]
    pub commands: Vec<OldCommand>,
}

/// What an older frame's command is, by its byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OldCommandKind {
    Start,
    Row,
    End,
    SkipRows,
    Other,
}

impl OldCommandKind {
    /// The kind of the command of this byte.
    pub fn of(command: u8) -> OldCommandKind {
        match command {
            0x00 | 0x10 => OldCommandKind::Start,
            0x04 => OldCommandKind::Row,
            0x05 => OldCommandKind::End,
            0x09 => OldCommandKind::SkipRows,
            _ => OldCommandKind::Other,
        }
    }
}

/// A command of an older frame: its byte, then what it holds.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct OldCommand {
    /// 0x00 or 0x10 start, 0x04 a row, 0x05 the end, 0x09 rows left
    /// clear; any other the game reads past.
    pub command: u8,
    /// Its count, and a row's pixel commands.
    #[schema(context(kind = OldCommandKind::of(command)))]
    pub body: OldCommandBody,
}

/// What an older frame's command holds.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(kind: OldCommandKind), select = kind)]
pub enum OldCommandBody {
    /// A start marker's count, which the game ignores.
    #[schema(when = OldCommandKind::Start)]
    Start(u8),
    /// A row.
    #[schema(when = OldCommandKind::Row)]
    Row(OldRow),
    /// The end; its count (0 in known files), which the game ignores.
    #[schema(when = OldCommandKind::End)]
    End(u8),
    /// How many rows are left clear.
    #[schema(when = OldCommandKind::SkipRows)]
    SkipRows(u8),
    /// Another command's count, which the game ignores.
    #[schema(when = OldCommandKind::Other)]
    Other(u8),
}

/// A row: its size in bytes (its command's two included), then its pixel
/// commands.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct OldRow {
    /// The row's size in bytes.
    #[schema(calc = size_of(pixels) + 2)]
    #[serde(skip)]
    pub size: Calc<u8>,
    /// The pixel commands.
    #[schema(size = i64::from(size) - 2, to_end)]
    pub pixels: Vec<OldPixelCommand>,
}

/// What a row's pixel command is, by its byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OldPixelKind {
    Clear,
    Fill,
    Colors,
    Other,
}

impl OldPixelKind {
    /// The kind of the pixel command of this byte.
    pub fn of(command: u8) -> OldPixelKind {
        match command {
            0x01 => OldPixelKind::Clear,
            0x02 => OldPixelKind::Fill,
            0x03 => OldPixelKind::Colors,
            _ => OldPixelKind::Other,
        }
    }
}

/// A pixel command: its byte, then what it holds.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct OldPixelCommand {
    /// 0x01 clear pixels, 0x02 pixels of one colour, 0x03 pixels of a
    /// colour each; any other the game reads past.
    pub command: u8,
    /// What it holds.
    #[schema(context(kind = OldPixelKind::of(command)))]
    pub body: OldPixels,
}

/// What a pixel command holds.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(kind: OldPixelKind), select = kind)]
pub enum OldPixels {
    /// How many clear pixels.
    #[schema(when = OldPixelKind::Clear)]
    Clear(u8),
    /// Pixels of one colour.
    #[schema(when = OldPixelKind::Fill)]
    Fill(OldFill),
    /// Pixels of a colour each.
    #[schema(when = OldPixelKind::Colors)]
    Colors(OldColors),
    /// Another command's count, which the game ignores.
    #[schema(when = OldPixelKind::Other)]
    Other(u8),
}

/// A run of one colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct OldFill {
    /// How many pixels.
    pub count: u8,
    /// The palette index.
    pub index: u8,
    /// A byte to an even length.
    pub padding: u8,
}

/// Pixels of a colour each.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct OldColors {
    /// How many pixels.
    #[serde(skip)]
    pub count: Count<u8>,
    /// Their palette indices.
    #[schema(count = count)]
    pub indices: Vec<u8>,
    /// To an even length within the row.
    #[schema(align = 2)]
    pub padding: Padding,
}

impl OldSprite {
    /// The palette (`PALT` id) of every frame.
    pub fn palette(&self) -> u16 {
        match &self.body {
            OldSpriteBody::Table(table) => table.palette as u16,
            OldSpriteBody::Sequential(sequence) => sequence.palette as u16,
        }
    }

    /// The frames, in order.
    pub fn frames(&self) -> Vec<&OldFrame> {
        match &self.body {
            OldSpriteBody::Table(table) => table.frames.iter().map(|at| &at.value).collect(),
            OldSpriteBody::Sequential(sequence) => sequence
                .frames
                .iter()
                .map(|sized| &sized.frame.value)
                .collect(),
        }
    }
}

impl OldFrame {
    /// The frame drawn with `colors` (its palette's), as the game draws
    /// it: coloured pixels opaque, the rest clear.
    pub fn pixels(&self, colors: &[[u8; 3]]) -> Result<Pixels, SpriteError> {
        let mut image = Pixels::clear(u32::from(self.width), u32::from(self.height), false)?;
        let past = |y: u32| SpriteError::PastFrame {
            y: u64::from(y),
            width: self.width,
            height: self.height,
        };
        let mut y = 0u32;
        for command in &self.commands {
            match &command.body {
                OldCommandBody::Row(row) => {
                    let mut x = 0u32;
                    for pixels in &row.pixels {
                        let mut put = |index: u8, x: &mut u32| -> Result<(), SpriteError> {
                            let [r, g, b] = *colors.get(usize::from(index)).ok_or(
                                SpriteError::PastPalette {
                                    y,
                                    index: u16::from(index),
                                    colors: colors.len(),
                                },
                            )?;
                            let at = image.index(*x, y).ok_or_else(|| past(y))?;
                            image.rgba[at] = [r, g, b, 255];
                            *x += 1;
                            Ok(())
                        };
                        match &pixels.body {
                            OldPixels::Clear(count) => x += u32::from(*count),
                            OldPixels::Fill(fill) => {
                                for _ in 0..fill.count {
                                    put(fill.index, &mut x)?;
                                }
                            }
                            OldPixels::Colors(run) => {
                                for &index in &run.indices {
                                    put(index, &mut x)?;
                                }
                            }
                            OldPixels::Other(_) => {}
                        }
                    }
                    y += 1;
                }
                OldCommandBody::SkipRows(rows) => y += u32::from(*rows),
                OldCommandBody::End(_) => break,
                _ => {}
            }
        }
        Ok(image)
    }
}
