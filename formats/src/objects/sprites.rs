//! Sprites (`SPR2`): frames of paletted pixels with a z-buffer and
//! alpha, run-length encoded in 16-bit command words.

use serde::{Deserialize, Serialize};

use crate::schema::{Calc, Count, Padding};
use crate::Schema;

/// A sprite (`SPR2`): its frames, each a picture of the object (or part
/// of it) from one direction at one zoom, placed by the draw groups. A
/// u32 version chooses how the frames are stored: 1000 (The Sims) by an
/// offset table, 1001 (The Sims Online) one after another, each with its
/// size.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, tag = u32)]
pub enum Sprite {
    /// Version 1001.
    #[schema(when = 1001)]
    V1001(SpriteV1001),
}

/// A sprite of version 1001: the default palette, a u32 count, then the
/// frames, each after a u32 version (1001) and a u32 size.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct SpriteV1001 {
    /// The palette (`PALT` id) of frames that name 0 or 0xA3A3.
    pub default_palette: u32,
    /// A u32 count, then the frames.
    #[schema(prefix = u32)]
    pub frames: Vec<SizedFrame>,
    /// Bytes after the frames, which the game does not read.
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// A frame of a version 1001 sprite: its version and size, then the
/// frame in exactly that many bytes.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct SizedFrame {
    /// 1001 in known files.
    pub version: u32,
    /// The frame's size in bytes.
    #[schema(calc = size_of(frame))]
    #[serde(skip)]
    pub size: Calc<u32>,
    /// The frame.
    #[schema(size = size)]
    pub frame: Frame,
}

/// One frame: its header, then its rows of run-length encoded pixels,
/// each row command a 16-bit word (the command in its top 3 bits, a count
/// in its low 13), until the end command.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Frame {
    /// The width in pixels.
    pub width: u16,
    /// The height in pixels.
    pub height: u16,
    /// 0x1 the frame has colours, 0x2 a z-buffer, 0x4 alpha.
    pub flags: u32,
    /// The palette (`PALT` id); at version 1000, and where 0 or 0xA3A3,
    /// the sprite's default is used instead.
    pub palette: u16,
    /// The palette index drawn clear.
    pub transparent_index: u16,
    /// Where the frame is drawn from the draw group's offset: y, then x.
    pub position: [i16; 2],
    /// The rows, until the end command.
    #[schema(until = |command: &RowCommand| matches!(command, RowCommand::End(_)))]
    pub rows: Vec<RowCommand>,
    /// Bytes after the end command, which the game does not read.
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// A row command: the top 3 bits of a 16-bit word choose it, the other
/// 13 begin it. Commands 1 to 3, 6 and 7 mean nothing between rows: the
/// game reads the word and moves on to the next row, as they do here.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, tag = u16, bits = 3)]
pub enum RowCommand {
    /// 0: a row of pixel commands.
    #[schema(when = 0)]
    Row(Row),
    /// 1: nothing; a row passes.
    #[schema(when = 1)]
    Unused1(Unused),
    /// 2: nothing; a row passes.
    #[schema(when = 2)]
    Unused2(Unused),
    /// 3: nothing; a row passes.
    #[schema(when = 3)]
    Unused3(Unused),
    /// 4: rows left clear.
    #[schema(when = 4)]
    ClearRows(ClearRows),
    /// 5: the end of the frame.
    #[schema(when = 5)]
    End(Unused),
    /// 6: nothing; a row passes.
    #[schema(when = 6)]
    Unused6(Unused),
    /// 7: nothing; a row passes.
    #[schema(when = 7)]
    Unused7(Unused),
}

/// A row: its size in bytes (its command word included), then its pixel
/// commands in the rest, from the left; the row's pixels past the last
/// command are clear.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Row {
    /// The row's size in bytes, its command word included.
    #[schema(bits = 13, calc = size_of(commands) + 2)]
    #[serde(skip)]
    pub size: Calc<u16>,
    /// The pixel commands.
    #[schema(size = i64::from(size) - 2, to_end)]
    pub commands: Vec<PixelCommand>,
}

/// A command word's 13 bits where they mean nothing (0 in known files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Unused {
    /// The bits, as found.
    #[schema(bits = 13)]
    pub value: u16,
}

/// Rows left clear (colour the transparent index, alpha 0, depth 255).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct ClearRows {
    /// How many.
    #[schema(bits = 13)]
    pub rows: u16,
}

/// A pixel command: the top 3 bits of a 16-bit word choose it, the low 13
/// count its pixels. Commands 0, 4, 5 and 7 draw nothing (the game reads
/// their word and moves on).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, tag = u16, bits = 3)]
pub enum PixelCommand {
    /// 0: nothing.
    #[schema(when = 0)]
    Unused0(Unused),
    /// 1: pixels with a depth and a colour.
    #[schema(when = 1)]
    DepthColor(DepthColor),
    /// 2: pixels with a depth, a colour and an alpha, padded to an even
    /// length.
    #[schema(when = 2)]
    DepthColorAlpha(DepthColorAlpha),
    /// 3: clear pixels (the transparent index, alpha 0, depth 255).
    #[schema(when = 3)]
    Clear(ClearPixels),
    /// 4: nothing.
    #[schema(when = 4)]
    Unused4(Unused),
    /// 5: nothing.
    #[schema(when = 5)]
    Unused5(Unused),
    /// 6: pixels with a colour only (depth 0), padded to an even length.
    #[schema(when = 6)]
    Color(ColorOnly),
    /// 7: nothing.
    #[schema(when = 7)]
    Unused7(Unused),
}

/// Pixels of depth and colour index.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct DepthColor {
    /// How many.
    #[schema(bits = 13)]
    #[serde(skip)]
    pub count: Count<u16>,
    /// Each pixel's depth (0 nearest) and palette index.
    #[schema(count = count)]
    pub pixels: Vec<[u8; 2]>,
}

/// Pixels of depth, colour index and alpha.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct DepthColorAlpha {
    /// How many.
    #[schema(bits = 13)]
    #[serde(skip)]
    pub count: Count<u16>,
    /// Each pixel's depth, palette index and alpha (0 to 31).
    #[schema(count = count)]
    pub pixels: Vec<[u8; 3]>,
    /// To an even length within the row.
    #[schema(align = 2)]
    pub padding: Padding,
}

/// A run of clear pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct ClearPixels {
    /// How many.
    #[schema(bits = 13)]
    pub pixels: u16,
}

/// Pixels of colour index alone.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct ColorOnly {
    /// How many.
    #[schema(bits = 13)]
    #[serde(skip)]
    pub count: Count<u16>,
    /// Each pixel's palette index.
    #[schema(count = count)]
    pub indices: Vec<u8>,
    /// To an even length within the row.
    #[schema(align = 2)]
    pub padding: Padding,
}
