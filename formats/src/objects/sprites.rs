//! Sprites (`SPR2`): frames of paletted pixels with a z-buffer and
//! alpha, run-length encoded in 16-bit command words.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::pixels::{Pixels, TooLarge};
use crate::schema::{At, Block, Calc, Count, Padding, Refusal, Segment};
use crate::Schema;

/// A sprite (`SPR2`): its frames, each a picture of the object (or part
/// of it) from one direction at one zoom, placed by the draw groups. A
/// u32 version chooses how the frames are stored: 1000 (The Sims) by an
/// offset table, 1001 (The Sims Online) one after another, each with its
/// size.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, tag = u32)]
pub enum Sprite {
    /// Version 1000.
    #[schema(when = 1000)]
    V1000(SpriteV1000),
    /// Version 1001.
    #[schema(when = 1001)]
    V1001(SpriteV1001),
}

/// A sprite of version 1000: a u32 count, the default palette, then an
/// offset table (from the payload's start) to the frames. The Sims' tools
/// leave room after the table (filled with 0xA3) and lay the frames out
/// in order, each ending where the next begins.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct SpriteV1000 {
    /// How many frames.
    #[serde(skip)]
    pub count: Count<u32>,
    /// The palette (`PALT` id) of every frame.
    pub default_palette: u32,
    /// The offsets of the frames, and the frames where they point.
    #[schema(count = count, offset = u32)]
    pub frames: Vec<At<Frame>>,
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
    /// The frame, and any bytes of its size after its end command.
    #[schema(size = size)]
    pub frame: Block<Frame>,
}

/// One frame: its header, then its rows of run-length encoded pixels,
/// each row command a 16-bit word (the command in its top 3 bits, a count
/// in its low 13), until the end command.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, check = commands_fit)]
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

impl Sprite {
    /// The palette of frames that name none (at version 1000, of every
    /// frame).
    pub fn default_palette(&self) -> u32 {
        match self {
            Sprite::V1000(sprite) => sprite.default_palette,
            Sprite::V1001(sprite) => sprite.default_palette,
        }
    }

    /// The frames, in order.
    pub fn frames(&self) -> Vec<&Frame> {
        match self {
            Sprite::V1000(sprite) => sprite.frames.iter().map(|at| &at.value).collect(),
            Sprite::V1001(sprite) => sprite
                .frames
                .iter()
                .map(|sized| &sized.frame.value)
                .collect(),
        }
    }

    /// The frames, to change them; written back with their offsets and
    /// sizes recomputed.
    pub fn frames_mut(&mut self) -> Vec<&mut Frame> {
        match self {
            Sprite::V1000(sprite) => sprite.frames.iter_mut().map(|at| &mut at.value).collect(),
            Sprite::V1001(sprite) => sprite
                .frames
                .iter_mut()
                .map(|sized| &mut sized.frame.value)
                .collect(),
        }
    }

    /// The palette (`PALT` id) a frame's colours come from: the sprite's
    /// default at version 1000, or where the frame names 0 or 0xA3A3;
    /// else the frame's own. (One step: a default that is itself 0 or
    /// 0xA3A3 is that id, so no chain of palettes can loop.)
    pub fn palette_of(&self, frame: &Frame) -> u16 {
        match (self, frame.palette) {
            (Sprite::V1000(_), _) | (_, 0 | 0xA3A3) => self.default_palette() as u16,
            (_, id) => id,
        }
    }
}

/// Bytes of a frame's header, before its rows.
const FRAME_HEADER: u64 = 16;

impl RowCommand {
    /// How many rows the command passes.
    fn rows(&self) -> u64 {
        match self {
            RowCommand::ClearRows(clear) => u64::from(clear.rows),
            RowCommand::End(_) => 0,
            _ => 1,
        }
    }

    /// Its size in bytes, its word included.
    fn size(&self) -> u64 {
        match self {
            RowCommand::Row(row) => 2 + row.commands.iter().map(PixelCommand::size).sum::<u64>(),
            _ => 2,
        }
    }
}

impl PixelCommand {
    /// How many pixels it covers.
    fn pixels(&self) -> u64 {
        match self {
            PixelCommand::DepthColor(run) => run.pixels.len() as u64,
            PixelCommand::DepthColorAlpha(run) => run.pixels.len() as u64,
            PixelCommand::Clear(run) => u64::from(run.pixels),
            PixelCommand::Color(run) => run.indices.len() as u64,
            _ => 0,
        }
    }

    /// Its size in bytes, its word and padding included.
    fn size(&self) -> u64 {
        2 + match self {
            PixelCommand::DepthColor(run) => 2 * run.pixels.len() as u64,
            // Each padded to an even length.
            PixelCommand::DepthColorAlpha(run) => (3 * run.pixels.len() as u64).next_multiple_of(2),
            PixelCommand::Color(run) => (run.indices.len() as u64).next_multiple_of(2),
            _ => 0,
        }
    }
}

/// Every row within the frame's height and every row's pixels within
/// its width, as the game needs to draw it (it writes past the frame's
/// pixels otherwise). A refusal is at the command that overflows; where
/// that lies is counted only then, so the check walks each row once.
fn commands_fit(frame: &Frame) -> Result<(), Refusal> {
    let (width, height) = (u64::from(frame.width), u64::from(frame.height));
    let mut y = 0;
    for (index, command) in frame.rows.iter().enumerate() {
        let draws = matches!(command, RowCommand::Row(_) | RowCommand::ClearRows(_));
        if draws && y + command.rows() > height {
            return Err(Refusal::new(format!(
                "rows {y} to {} are past the frame's {height}",
                y + command.rows() - 1
            ))
            .inside([Segment::Field("rows"), Segment::Index(index)])
            .bytes_in(row_at(frame, index)));
        }
        if let RowCommand::Row(row) = command {
            let mut x = 0;
            for (pixel_index, command) in row.commands.iter().enumerate() {
                x += command.pixels();
                if x > width {
                    let before = row.commands.iter().take(pixel_index);
                    let pixel_at =
                        row_at(frame, index) + 2 + before.map(PixelCommand::size).sum::<u64>();
                    return Err(Refusal::new(format!(
                        "row {y} has {x} pixels, past the frame's width of {width}"
                    ))
                    .inside([Segment::Field("rows"), Segment::Index(index)])
                    .bytes_in(pixel_at));
                }
            }
        }
        y += command.rows();
    }
    Ok(())
}

/// Where the frame's row command `index` begins, from the frame's start.
fn row_at(frame: &Frame, index: usize) -> u64 {
    let before = frame.rows.iter().take(index);
    FRAME_HEADER + before.map(RowCommand::size).sum::<u64>()
}

/// Why a frame cannot be drawn or made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpriteError {
    /// The palette a frame names is not in the file.
    #[error("palette {0} is not in the file")]
    MissingPalette(u16),
    /// A pixel names a colour past its palette's.
    #[error("row {y}: palette index {index} is past the palette's {colors} colours")]
    PastPalette { y: u32, index: u16, colors: usize },
    /// A command reaches past the frame (a frame not read from a file,
    /// whose layout's check has not run).
    #[error("row {y}: the commands reach past the frame's {width} x {height} pixels")]
    PastFrame { y: u64, width: u16, height: u16 },
    /// A frame too large to draw.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// A colour to encode that the palette lacks.
    #[error("pixel ({x}, {y}): colour #{:02x}{:02x}{:02x} is not in the palette", color[0], color[1], color[2])]
    NotInPalette { x: u32, y: u32, color: [u8; 3] },
    /// An image with more colours than a palette holds.
    #[error("the image has more than 255 colours")]
    TooManyColors,
    /// An image whose side a frame cannot hold.
    #[error("an image of {0} x {1} pixels is too large for a frame")]
    TooLargeForFrame(u32, u32),
    /// No sprite of this id in the file.
    #[error("no sprite (SPR2 or SPR#) has the id {0}")]
    NoSprite(u16),
    /// No frame of this index in the sprite.
    #[error("sprite {sprite} has {frames} frame(s), not a frame {frame}")]
    NoFrame {
        sprite: u16,
        frame: usize,
        frames: usize,
    },
    /// No draw group of this id in the file.
    #[error("no draw group (DGRP) has the id {0}")]
    NoDrawGroup(u16),
}

/// The 5-bit alpha of an alpha pixel (0 to 31) on the 0 to 255 scale, as
/// the game scales it (rounded down).
pub fn alpha_from_5_bits(alpha: u8) -> u8 {
    (u32::from(alpha) * 255 / 31).min(255) as u8
}

/// The 5-bit alpha nearest an 8-bit one: the inverse of
/// [`alpha_from_5_bits`] on its 32 values.
pub fn alpha_to_5_bits(alpha: u8) -> u8 {
    ((u32::from(alpha) * 31 + 127) / 255) as u8
}

impl Frame {
    /// Whether the frame has a z-buffer (flag 0x2).
    pub fn has_depth(&self) -> bool {
        self.flags & 2 != 0
    }

    /// The frame drawn with `colors` (its palette's): RGBA and, where it
    /// has one, its z-buffer, as the game decodes it. Pixels no command
    /// covers are clear; a clear run or clear rows are clear with depth
    /// 255, as is the rest of a row after its last command; a colour-only
    /// pixel has depth 0; alpha pixels' 5-bit alpha is scaled to 0..255,
    /// other coloured pixels are opaque (the transparent index too, as the
    /// game draws it).
    pub fn pixels(&self, colors: &[[u8; 3]]) -> Result<Pixels, SpriteError> {
        let (width, height) = (u32::from(self.width), u32::from(self.height));
        let mut image = Pixels::clear(width, height, self.has_depth())?;
        if let Some(depth) = image.depth.as_mut() {
            // The game's z-buffer starts at 0 where no command reaches.
            depth.fill(0);
        }
        let past = |y: u64| SpriteError::PastFrame {
            y,
            width: self.width,
            height: self.height,
        };
        let mut y: u64 = 0;
        for command in &self.rows {
            match command {
                RowCommand::Row(row) => {
                    let row_y = u32::try_from(y).map_err(|_| past(y))?;
                    let mut x = 0u32;
                    for command in &row.commands {
                        draw(&mut image, command, &mut x, row_y, colors)?;
                    }
                    if let Some(depth) = image.depth.as_mut() {
                        for x in x..width {
                            let index = row_y as usize * width as usize + x as usize;
                            *depth.get_mut(index).ok_or_else(|| past(y))? = 255;
                        }
                    }
                }
                RowCommand::ClearRows(clear) => {
                    for row in y..y + u64::from(clear.rows) {
                        let row = u32::try_from(row).map_err(|_| past(row))?;
                        for x in 0..width {
                            let index = image.index(x, row).ok_or_else(|| past(u64::from(row)))?;
                            image.rgba[index] = [0; 4];
                            if let Some(depth) = image.depth.as_mut() {
                                depth[index] = 255;
                            }
                        }
                    }
                }
                RowCommand::End(_) => break,
                _ => {}
            }
            y += command.rows();
        }
        Ok(image)
    }
}

/// How a frame's pixels are stored, from the image they are made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameInfo {
    /// The palette (`PALT` id) the frame names.
    pub palette: u16,
    /// The palette index drawn clear.
    pub transparent_index: u16,
    /// Where the frame is drawn: y, then x.
    pub position: [i16; 2],
}

impl Frame {
    /// A frame of `image`, its colours looked up in `colors` (its
    /// palette's): run-length encoded as the game's tools write frames
    /// (rows of runs, clear rows counted, runs padded to even lengths),
    /// so that [`Frame::pixels`] gives `image` back where its alpha values
    /// are among the 32 a frame stores ([`alpha_from_5_bits`]) and its
    /// colours in the palette. A clear pixel (alpha 0) is stored clear,
    /// an opaque one with its depth (colour only where the image has no
    /// depth, or its depth is 0), any other (an alpha 0 with a depth
    /// other than 255 among them) with its depth and 5-bit alpha.
    pub fn from_pixels(
        image: &Pixels,
        colors: &[[u8; 3]],
        info: FrameInfo,
    ) -> Result<Frame, SpriteError> {
        let too_large = || SpriteError::TooLargeForFrame(image.width, image.height);
        let width = u16::try_from(image.width).map_err(|_| too_large())?;
        let height = u16::try_from(image.height).map_err(|_| too_large())?;
        if image.width >= 1 << 13
            || image.rgba.len() != image.width as usize * image.height as usize
        {
            return Err(too_large());
        }
        // The first index of each colour, as a lookup searching the
        // palette would find it.
        let mut indices = HashMap::new();
        for (index, &color) in colors.iter().enumerate().take(256).rev() {
            indices.insert(color, index as u8);
        }
        let mut rows = Vec::new();
        let mut clear_rows = 0u16;
        for y in 0..image.height {
            let start = y as usize * image.width as usize;
            let row = &image.rgba[start..start + image.width as usize];
            let depth = image
                .depth
                .as_ref()
                .and_then(|depth| depth.get(start..start + image.width as usize));
            let commands = encode_row(row, depth, &indices, y)?;
            if commands.is_empty() {
                clear_rows += 1;
                continue;
            }
            if clear_rows > 0 {
                rows.push(RowCommand::ClearRows(ClearRows { rows: clear_rows }));
                clear_rows = 0;
            }
            rows.push(RowCommand::Row(Row {
                size: Calc::computed(),
                commands,
            }));
        }
        if clear_rows > 0 {
            rows.push(RowCommand::ClearRows(ClearRows { rows: clear_rows }));
        }
        rows.push(RowCommand::End(Unused::default()));
        let alpha = image.rgba.iter().any(|pixel| pixel[3] != 255);
        Ok(Frame {
            width,
            height,
            flags: 1 | if image.depth.is_some() { 2 } else { 0 } | if alpha { 4 } else { 0 },
            palette: info.palette,
            transparent_index: info.transparent_index,
            position: info.position,
            rows,
        })
    }
}

/// The kind of run a pixel belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Run {
    Clear,
    DepthColorAlpha,
    DepthColor,
    Color,
}

/// One row's pixel commands: runs of pixels of one kind, a row's clear
/// end left out (the game clears it).
fn encode_row(
    row: &[[u8; 4]],
    depth: Option<&[u8]>,
    indices: &HashMap<[u8; 3], u8>,
    y: u32,
) -> Result<Vec<PixelCommand>, SpriteError> {
    let kind = |x: usize| {
        let z = depth.and_then(|depth| depth.get(x)).copied();
        match (row[x][3], z) {
            // A clear pixel, unless it has a depth a clear run cannot give.
            (0, None | Some(255)) => Run::Clear,
            (255, Some(z)) if z > 0 => Run::DepthColor,
            (255, _) => Run::Color,
            _ => Run::DepthColorAlpha,
        }
    };
    let index = |x: usize| {
        let [r, g, b, _] = row[x];
        indices
            .get(&[r, g, b])
            .copied()
            .ok_or(SpriteError::NotInPalette {
                x: x as u32,
                y,
                color: [r, g, b],
            })
    };
    let z = |x: usize| depth.and_then(|depth| depth.get(x)).copied().unwrap_or(0);
    let mut commands = Vec::new();
    let mut x = 0;
    let last = (0..row.len()).rev().find(|&x| kind(x) != Run::Clear);
    let Some(last) = last else {
        return Ok(commands);
    };
    while x <= last {
        let run = kind(x);
        let end = (x..=last).find(|&end| kind(end) != run).unwrap_or(last + 1);
        commands.push(match run {
            Run::Clear => PixelCommand::Clear(ClearPixels {
                pixels: (end - x) as u16,
            }),
            Run::DepthColor => PixelCommand::DepthColor(DepthColor {
                count: Count::new(),
                pixels: (x..end)
                    .map(|x| Ok([z(x), index(x)?]))
                    .collect::<Result<_, SpriteError>>()?,
            }),
            Run::DepthColorAlpha => PixelCommand::DepthColorAlpha(DepthColorAlpha {
                count: Count::new(),
                pixels: (x..end)
                    .map(|x| Ok([z(x), index(x)?, alpha_to_5_bits(row[x][3])]))
                    .collect::<Result<_, SpriteError>>()?,
                padding: Padding::default(),
            }),
            Run::Color => PixelCommand::Color(ColorOnly {
                count: Count::new(),
                indices: (x..end).map(index).collect::<Result<_, SpriteError>>()?,
                padding: Padding::default(),
            }),
        });
        x = end;
    }
    Ok(commands)
}

/// A palette for an image: its opaque and partly clear pixels' colours in
/// the order first met (at most 255), then black to 256 entries; the
/// last, 255, is the one to name as the transparent index.
pub fn palette_for(image: &Pixels) -> Result<Vec<[u8; 3]>, SpriteError> {
    let mut colors: Vec<[u8; 3]> = Vec::new();
    let mut seen = HashSet::new();
    for &[r, g, b, alpha] in &image.rgba {
        if alpha != 0 && seen.insert([r, g, b]) {
            if colors.len() == 255 {
                return Err(SpriteError::TooManyColors);
            }
            colors.push([r, g, b]);
        }
    }
    colors.resize(256, [0; 3]);
    Ok(colors)
}

/// Draws one pixel command at (`x`, `y`) of a row, moving `x` past it.
fn draw(
    image: &mut Pixels,
    command: &PixelCommand,
    x: &mut u32,
    y: u32,
    colors: &[[u8; 3]],
) -> Result<(), SpriteError> {
    let color = |index: u8, alpha: u8| {
        colors
            .get(usize::from(index))
            .map(|&[r, g, b]| [r, g, b, alpha])
            .ok_or(SpriteError::PastPalette {
                y,
                index: u16::from(index),
                colors: colors.len(),
            })
    };
    let mut put = |rgba: [u8; 4], depth: u8| -> Result<(), SpriteError> {
        let index = image.index(*x, y).ok_or(SpriteError::PastFrame {
            y: u64::from(y),
            width: image.width as u16,
            height: image.height as u16,
        })?;
        *x += 1;
        image.rgba[index] = rgba;
        if let Some(buffer) = image.depth.as_mut() {
            buffer[index] = depth;
        }
        Ok(())
    };
    match command {
        PixelCommand::DepthColor(run) => {
            for &[depth, index] in &run.pixels {
                put(color(index, 255)?, depth)?;
            }
        }
        PixelCommand::DepthColorAlpha(run) => {
            for &[depth, index, alpha] in &run.pixels {
                put(color(index, alpha_from_5_bits(alpha))?, depth)?;
            }
        }
        PixelCommand::Clear(run) => {
            for _ in 0..run.pixels {
                put([0; 4], 255)?;
            }
        }
        PixelCommand::Color(run) => {
            for &index in &run.indices {
                put(color(index, 255)?, 0)?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::BinarySchema;

    const COLORS: [[u8; 3]; 3] = [[10, 20, 30], [200, 100, 0], [1, 2, 3]];

    /// A 5 x 4 image: a clear row, a row of every kind of pixel, a row
    /// ending clear, a clear row.
    fn image() -> Pixels {
        let mut image = Pixels::clear(5, 4, true).unwrap();
        let depth = image.depth.as_mut().unwrap();
        depth.fill(255);
        let pixels = [
            (5, [10, 20, 30, 255], 0),
            (6, [200, 100, 0, 255], 9),
            (7, [1, 2, 3, alpha_from_5_bits(16)], 12),
            (9, [10, 20, 30, 255], 3),
            (10, [1, 2, 3, 255], 0),
            (11, [200, 100, 0, alpha_from_5_bits(31)], 7),
        ];
        for (index, rgba, z) in pixels {
            image.rgba[index] = rgba;
            image.depth.as_mut().unwrap()[index] = z;
        }
        image
    }

    fn info() -> FrameInfo {
        FrameInfo {
            palette: 7,
            transparent_index: 255,
            position: [0, 0],
        }
    }

    #[test]
    fn a_frame_made_of_an_image_draws_as_that_image() {
        let frame = Frame::from_pixels(&image(), &COLORS, info()).unwrap();
        let bytes = frame.to_bytes().unwrap();
        let read = Frame::from_bytes(&bytes).unwrap();
        assert_eq!(read, frame);
        assert_eq!(read.pixels(&COLORS).unwrap(), image());
        // Rows: 1 clear, the pixels, one more, then 1 clear, the end.
        assert!(matches!(
            read.rows[0],
            RowCommand::ClearRows(ClearRows { rows: 1 })
        ));
        assert!(matches!(
            read.rows[3],
            RowCommand::ClearRows(ClearRows { rows: 1 })
        ));
        assert!(matches!(read.rows[4], RowCommand::End(_)));
    }

    #[test]
    fn a_colour_the_palette_lacks_is_refused_naming_the_pixel() {
        let mut image = image();
        image.rgba[6] = [9, 9, 9, 255];
        assert_eq!(
            Frame::from_pixels(&image, &COLORS, info())
                .unwrap_err()
                .to_string(),
            "pixel (1, 1): colour #090909 is not in the palette"
        );
        let palette = palette_for(&image).unwrap();
        assert_eq!(palette.len(), 256);
        let frame = Frame::from_pixels(&image, &palette, info()).unwrap();
        assert_eq!(frame.pixels(&palette).unwrap(), image);
    }

    #[test]
    fn a_row_past_the_frame_is_refused_at_its_command() {
        let frame = Frame::from_pixels(&image(), &COLORS, info()).unwrap();
        let refusal = |frame: Frame| {
            let bytes = crate::schema::without_checks(|| frame.to_bytes()).unwrap();
            Frame::from_bytes(&bytes).unwrap_err().to_string()
        };
        // The header (16), a clear-rows word (2), the row's word (2),
        // its first two runs of a pixel each (4 bytes each), then the
        // third, which reaches past 2 pixels.
        assert_eq!(
            refusal(Frame {
                width: 2,
                ..frame.clone()
            }),
            "byte 28: rows[1]: row 1 has 3 pixels, past the frame's width of 2"
        );
        // The header (16), the clear-rows word of row 0 (2), then the
        // word of row 1, past a frame of one row.
        assert_eq!(
            refusal(Frame { height: 1, ..frame }),
            "byte 18: rows[1]: rows 1 to 1 are past the frame's 1"
        );
    }

    #[test]
    fn five_bit_alpha_scales_as_the_game_scales_it() {
        assert_eq!(
            (
                alpha_from_5_bits(0),
                alpha_from_5_bits(1),
                alpha_from_5_bits(31)
            ),
            (0, 8, 255)
        );
        assert!((0..32).all(|alpha| alpha_to_5_bits(alpha_from_5_bits(alpha)) == alpha));
    }
}
