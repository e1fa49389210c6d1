//! Draw groups (`DGRP`): how an object's sprites are laid on top of one
//! another for each direction and zoom.

use serde::{Deserialize, Serialize};

use super::pixels::{Pixels, TooLarge};
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
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
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
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
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

/// One direction and zoom of a draw group, whatever its version.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    /// The direction, one bit: 0x01 right back, 0x04 right front, 0x10
    /// left front, 0x40 left back.
    pub direction: u32,
    /// The zoom: 1 far, 2 middle, 3 near.
    pub zoom: u32,
    /// The sprites, the first drawn first.
    pub sprites: Vec<PlacedSprite>,
}

/// A sprite frame as a view places it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedSprite {
    /// The sprite's chunk id.
    pub sprite: u32,
    /// The frame's index in the sprite.
    pub frame: u32,
    /// Where the frame goes: x from the tile's centre to the frame's left
    /// edge, y from the baseline to the frame's bottom edge, in pixels.
    pub offset: [i32; 2],
    /// Mirrored left to right (flag 0x1).
    pub flipped: bool,
}

impl DrawGroup {
    /// The views (direction and zoom) in file order.
    pub fn views(&self) -> Vec<View> {
        match self {
            DrawGroup::V20000(group) | DrawGroup::V20001(group) | DrawGroup::V20002(group) => group
                .images
                .iter()
                .map(|image| View {
                    direction: u32::from(image.direction),
                    zoom: u32::from(image.zoom),
                    sprites: image
                        .sprites
                        .iter()
                        .map(|sprite| PlacedSprite {
                            sprite: u32::from(sprite.sprite),
                            frame: u32::from(sprite.frame),
                            offset: sprite.offset.map(i32::from),
                            flipped: sprite.flags & 1 != 0,
                        })
                        .collect(),
                })
                .collect(),
            DrawGroup::V20003(group) | DrawGroup::V20004(group) => group
                .images
                .iter()
                .map(|image| View {
                    direction: image.direction,
                    zoom: image.zoom,
                    sprites: image
                        .sprites
                        .iter()
                        .map(|sprite| PlacedSprite {
                            sprite: sprite.sprite,
                            frame: sprite.frame,
                            offset: sprite.offset,
                            flipped: sprite.flags & 1 != 0,
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

/// A view drawn: its image, and where in it the tile's centre and
/// baseline lie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composed {
    pub pixels: Pixels,
    /// The pixel (x, y) of the tile's centre on its baseline; may lie
    /// outside the image.
    pub origin: [i64; 2],
}

/// A view drawn as the game draws it: each sprite's frame (`frame` gives
/// it, or `None` for one the file lacks, which the game leaves out) with
/// its bottom-left corner at its offset from the tile's centre and
/// baseline, mirrored where flagged, the first drawn first and each later
/// one over it (alpha blended). The image is as large as the frames
/// placed need, at most [`MAX_SIDE`](super::pixels::MAX_SIDE) each way. The frames' depths order
/// an object against others on a lot, not its own sprites, and are not
/// used.
pub fn compose<'a>(
    view: &View,
    mut frame: impl FnMut(u32, u32) -> Option<&'a Pixels>,
) -> Result<Composed, TooLarge> {
    let placed: Vec<(&PlacedSprite, &Pixels)> = view
        .sprites
        .iter()
        .filter_map(|sprite| frame(sprite.sprite, sprite.frame).map(|pixels| (sprite, pixels)))
        .collect();
    // Each frame's top-left corner, relative to the origin.
    let corner = |sprite: &PlacedSprite, pixels: &Pixels| {
        [
            i64::from(sprite.offset[0]),
            i64::from(sprite.offset[1]) - i64::from(pixels.height),
        ]
    };
    let mut low = [i64::MAX; 2];
    let mut high = [i64::MIN; 2];
    for &(sprite, pixels) in &placed {
        let [x, y] = corner(sprite, pixels);
        low = [low[0].min(x), low[1].min(y)];
        high = [
            high[0].max(x + i64::from(pixels.width)),
            high[1].max(y + i64::from(pixels.height)),
        ];
    }
    if placed.is_empty() {
        low = [0, 0];
        high = [0, 0];
    }
    let (width, height) = (high[0] - low[0], high[1] - low[1]);
    let too_large = TooLarge {
        width: width as u64,
        height: height as u64,
    };
    let side = |length: i64| u32::try_from(length).map_err(|_| too_large.clone());
    let mut canvas = Pixels::clear(side(width)?, side(height)?, false)?;
    for (sprite, pixels) in placed {
        let [x, y] = corner(sprite, pixels);
        let (left, top) = ((x - low[0]) as u32, (y - low[1]) as u32);
        for row in 0..pixels.height {
            for column in 0..pixels.width {
                let source_column = if sprite.flipped {
                    pixels.width - 1 - column
                } else {
                    column
                };
                let (Some(from), Some(to)) = (
                    pixels.index(source_column, row),
                    canvas.index(left + column, top + row),
                ) else {
                    continue;
                };
                canvas.rgba[to] = over(pixels.rgba[from], canvas.rgba[to]);
            }
        }
    }
    Ok(Composed {
        pixels: canvas,
        origin: [-low[0], -low[1]],
    })
}

/// `top` drawn over `bottom` (colours not premultiplied).
fn over(top: [u8; 4], bottom: [u8; 4]) -> [u8; 4] {
    match (top[3], bottom[3]) {
        (255, _) | (_, 0) => top,
        (0, _) => bottom,
        (top_alpha, bottom_alpha) => {
            let top_alpha = u32::from(top_alpha);
            let bottom_weight = u32::from(bottom_alpha) * (255 - top_alpha);
            // In 255ths of 255ths: the top's share and the bottom's.
            let alpha = top_alpha * 255 + bottom_weight;
            let channel = |index: usize| {
                let blended = u32::from(top[index]) * top_alpha * 255
                    + u32::from(bottom[index]) * bottom_weight;
                ((blended + alpha / 2) / alpha) as u8
            };
            [
                channel(0),
                channel(1),
                channel(2),
                ((alpha + 127) / 255) as u8,
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solid(width: u32, height: u32, color: [u8; 4]) -> Pixels {
        let mut pixels = Pixels::clear(width, height, false).unwrap();
        pixels.rgba.fill(color);
        pixels
    }

    fn placed(sprite: u32, offset: [i32; 2], flipped: bool) -> PlacedSprite {
        PlacedSprite {
            sprite,
            frame: 0,
            offset,
            flipped,
        }
    }

    #[test]
    fn sprites_stand_on_the_baseline_at_their_offsets_later_ones_on_top() {
        let red = solid(2, 3, [255, 0, 0, 255]);
        let mut half_blue = solid(2, 1, [0, 0, 255, 128]);
        half_blue.rgba[1] = [0, 0, 0, 0];
        let view = View {
            direction: 4,
            zoom: 3,
            sprites: vec![
                placed(1, [-1, 0], false),
                placed(2, [0, -1], false),
                placed(9, [50, 50], false),
            ],
        };
        let composed = compose(&view, |sprite, _| match sprite {
            1 => Some(&red),
            2 => Some(&half_blue),
            _ => None,
        })
        .unwrap();
        // Red spans x -1..1, y -3..0; blue x 0..2, y -2..-1.
        assert_eq!((composed.pixels.width, composed.pixels.height), (3, 3));
        assert_eq!(composed.origin, [1, 3]);
        let at = |x, y| composed.pixels.rgba[composed.pixels.index(x, y).unwrap()];
        assert_eq!(at(0, 0), [255, 0, 0, 255]);
        assert_eq!(at(1, 1), [127, 0, 128, 255]);
        assert_eq!(at(2, 1), [0, 0, 0, 0]);
        assert_eq!(at(2, 2), [0, 0, 0, 0]);
    }

    #[test]
    fn a_flipped_sprite_is_mirrored_in_place() {
        let mut frame = solid(3, 1, [0, 0, 0, 255]);
        frame.rgba[0] = [9, 9, 9, 255];
        let view = View {
            direction: 1,
            zoom: 1,
            sprites: vec![placed(1, [0, 0], true)],
        };
        let composed = compose(&view, |_, _| Some(&frame)).unwrap();
        assert_eq!(composed.pixels.rgba[2], [9, 9, 9, 255]);
        assert_eq!(composed.pixels.rgba[0], [0, 0, 0, 255]);
    }

    #[test]
    fn offsets_far_apart_are_refused_before_anything_is_drawn() {
        let frame = solid(1, 1, [1, 2, 3, 255]);
        let view = View {
            direction: 1,
            zoom: 1,
            sprites: vec![
                placed(1, [i32::MIN, 0], false),
                placed(1, [i32::MAX, 0], false),
            ],
        };
        assert!(compose(&view, |_, _| Some(&frame)).is_err());
    }
}
