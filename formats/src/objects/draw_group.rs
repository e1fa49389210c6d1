//! Draw groups (`DGRP`): how an object's sprites are laid on top of one
//! another for each direction and zoom.

use serde::{Deserialize, Serialize};

use crate::schema::Count;
use crate::Schema;

/// A draw group (`DGRP`): one tile of an object as drawn from each of its
/// four directions at each of three zooms (twelve images), each image a
/// list of sprite frames placed at offsets, the first drawn first. A u16
/// version chooses the layout: 20000 to 20002 store the counts as u16 and
/// the direction and zoom as bytes, 20003 and 20004 store everything as
/// 32-bit values; 20001 adds a depth to each sprite, 20004 the sprite's
/// offset in the object's frame.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, tag = u16)]
pub enum DrawGroup {
    /// Version 20000.
    #[schema(when = 20000, context(version = 20000u16))]
    V20000(CompactDrawGroup),
    /// Version 20001: each sprite has a depth.
    #[schema(when = 20001, context(version = 20001u16))]
    V20001(CompactDrawGroup),
    /// Version 20002.
    #[schema(when = 20002, context(version = 20002u16))]
    V20002(CompactDrawGroup),
    /// Version 20003: 32-bit fields.
    #[schema(when = 20003, context(version = 20003u16))]
    V20003(WideDrawGroup),
    /// Version 20004 (every known file): 32-bit fields and each sprite's
    /// offset in the object's frame.
    #[schema(when = 20004, context(version = 20004u16))]
    V20004(WideDrawGroup),
}

/// A draw group of version 20000 to 20002.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u16))]
pub struct CompactDrawGroup {
    /// A u16 count, then the images.
    #[schema(prefix = u16, context(version))]
    pub images: Vec<CompactImage>,
    /// Bytes after the images, which the game does not read (none in
    /// known files).
    #[schema(to_end)]
    pub trailing: Vec<u8>,
}

/// One direction and zoom of a compact draw group.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u16))]
pub struct CompactImage {
    /// How many sprites.
    #[serde(skip)]
    pub sprite_count: Count<u16>,
    /// The direction, one bit: 0x01 right back, 0x04 right front, 0x10
    /// left front, 0x40 left back.
    pub direction: u8,
    /// The zoom: 1 far, 2 middle, 3 near.
    pub zoom: u8,
    /// The sprites, the first drawn first.
    #[schema(count = sprite_count, context(version))]
    pub sprites: Vec<CompactSprite>,
}

/// One sprite of a compact draw group.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u16))]
pub struct CompactSprite {
    /// Unknown; the game ignores it.
    pub kind: u16,
    /// The sprite (`SPR2`, else `SPR#`, of this id).
    pub sprite: u16,
    /// The frame of the sprite.
    pub frame: u16,
    /// 0x1 mirrored left to right, 0x4 luminous; other bits unknown.
    pub flags: u16,
    /// Where the frame's origin goes, in pixels from the tile's.
    pub offset: [i16; 2],
    /// Version 20001: the sprite's depth offset.
    #[schema(present_if = version == 20001)]
    pub depth: Option<f32>,
}

/// A draw group of version 20003 or 20004.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u16))]
pub struct WideDrawGroup {
    /// A u32 count, then the images.
    #[schema(prefix = u32, context(version))]
    pub images: Vec<WideImage>,
    /// Bytes after the images, which the game does not read (none in
    /// known files).
    #[schema(to_end)]
    pub trailing: Vec<u8>,
}

/// One direction and zoom of a wide draw group.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u16))]
pub struct WideImage {
    /// The direction, one bit: 0x01 right back, 0x04 right front, 0x10
    /// left front, 0x40 left back.
    pub direction: u32,
    /// The zoom: 1 far, 2 middle, 3 near.
    pub zoom: u32,
    /// A u32 count, then the sprites, the first drawn first.
    #[schema(prefix = u32, context(version))]
    pub sprites: Vec<WideSprite>,
}

/// One sprite of a wide draw group.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u16))]
pub struct WideSprite {
    /// The sprite (`SPR2`, else `SPR#`, of this id).
    pub sprite: u32,
    /// The frame of the sprite.
    pub frame: u32,
    /// Where the frame's origin goes, in pixels from the tile's.
    pub offset: [i32; 2],
    /// The sprite's depth offset.
    pub depth: f32,
    /// 0x1 mirrored left to right, 0x4 luminous; other bits unknown.
    pub flags: u32,
    /// Version 20004: the sprite's offset in the object's frame (x, y).
    #[schema(present_if = version == 20004)]
    pub object_offset: Option<[f32; 2]>,
}
