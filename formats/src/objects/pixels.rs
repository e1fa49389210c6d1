//! Decoded images: a sprite frame's pixels, or a draw group composed.

use serde::Serialize;

/// The largest image decoded or composed, in either direction: as the
/// other images ossuary reads, a bound checked before anything is
/// allocated (no real frame is larger than a few hundred pixels).
pub const MAX_SIDE: u32 = 4096;

/// An RGBA image, row by row from the top, with a depth per pixel where
/// its source has one (0 nearest, 255 farthest).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    /// Red, green, blue, alpha (not premultiplied); a clear pixel is
    /// `[0, 0, 0, 0]`.
    pub rgba: Vec<[u8; 4]>,
    /// The z-buffer, one byte per pixel, where there is one.
    pub depth: Option<Vec<u8>>,
}

/// An image too large to make, or empty where pixels were needed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an image of {width} x {height} pixels is larger than {MAX_SIDE} x {MAX_SIDE}")]
pub struct TooLarge {
    pub width: u64,
    pub height: u64,
}

impl Pixels {
    /// A clear image of this size, with a z-buffer of 255 (farthest)
    /// when `with_depth`; refused past [`MAX_SIDE`].
    pub fn clear(width: u32, height: u32, with_depth: bool) -> Result<Pixels, TooLarge> {
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(TooLarge {
                width: u64::from(width),
                height: u64::from(height),
            });
        }
        let len = width as usize * height as usize;
        Ok(Pixels {
            width,
            height,
            rgba: vec![[0; 4]; len],
            depth: with_depth.then(|| vec![255; len]),
        })
    }

    /// The index of pixel (x, y), if it lies inside.
    pub fn index(&self, x: u32, y: u32) -> Option<usize> {
        (x < self.width && y < self.height).then(|| y as usize * self.width as usize + x as usize)
    }
}
