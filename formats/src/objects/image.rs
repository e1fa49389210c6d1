//! Images embedded in chunks (`BMP_`, and FreeSO's mesh textures,
//! `MTEX`): a Windows bitmap or a PNG, the header described and the
//! pixels kept as the image data they are.

use serde::{Deserialize, Serialize};

use crate::schema::{Count, Magic};
use crate::Schema;

/// An embedded image, chosen by its first two bytes: `BM` a Windows
/// bitmap, `89 50` a PNG (a JPEG, which FreeSO also reads, is in no
/// known file and refused).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, tag = [u8; 2])]
pub enum Image {
    /// A Windows bitmap.
    #[schema(when = *b"BM")]
    Bitmap(Bitmap),
    /// A PNG.
    #[schema(when = [0x89, b'P'])]
    Png(Png),
}

/// A Windows bitmap after `BM` (little-endian): the file header's size,
/// reserved bytes and pixels' offset, the information header (40 bytes,
/// or a later version's longer one), the colour table (for 8 bits per
/// pixel or fewer: the header's count of colours used, else one per
/// value), any bytes before the pixels (bit masks), then the pixels,
/// bottom row first, each row padded to four bytes.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Bitmap {
    /// The file's size, as stored (0 in some).
    pub file_size: u32,
    /// 0 in known files.
    pub reserved: u32,
    /// Where the pixels start, from the `BM`.
    pub pixels_offset: u32,
    /// The information header's size: 40, or a later version's.
    #[schema(check = header_size >= 40, "an information header is at least 40 bytes")]
    pub header_size: u32,
    /// The width in pixels.
    pub width: i32,
    /// The height in pixels; negative for rows stored top first.
    pub height: i32,
    /// 1.
    pub planes: u16,
    /// Bits per pixel: 1, 4, 8, 16, 24 or 32.
    pub bits_per_pixel: u16,
    /// 0 uncompressed, 1 and 2 run-length encoded, 3 bit masks.
    pub compression: u32,
    /// The pixels' size in bytes (0 where uncompressed, in some).
    pub image_size: u32,
    /// Horizontal resolution, pixels per metre.
    pub x_pixels_per_metre: i32,
    /// Vertical resolution.
    pub y_pixels_per_metre: i32,
    /// Colours in the table (0: every value's, at 8 bits or fewer).
    pub colors_used: u32,
    /// Colours that matter (0: all).
    pub colors_important: u32,
    /// The rest of a longer information header.
    #[schema(count = (header_size as usize).saturating_sub(40))]
    pub header_rest: Vec<u8>,
    /// The colour table: blue, green, red, 0.
    #[schema(count = color_count(bits_per_pixel, colors_used))]
    pub colors: Vec<[u8; 4]>,
    /// The bytes between the colour table and the pixels (the bit masks
    /// of compression 3).
    #[schema(count = gap_len(pixels_offset, header_size, color_count(bits_per_pixel, colors_used)))]
    pub gap: Vec<u8>,
    /// The pixels: the image data.
    #[schema(to_end)]
    pub pixels: Vec<u8>,
}

/// How many colours a bitmap's table holds.
fn color_count(bits_per_pixel: u16, colors_used: u32) -> usize {
    match (colors_used, bits_per_pixel) {
        (0, 1..=8) => 1 << bits_per_pixel,
        (used, _) => used as usize,
    }
}

/// The bytes between a bitmap's colour table and its pixels (none where
/// the pixels' offset lies inside the headers).
fn gap_len(pixels_offset: u32, header_size: u32, colors: usize) -> usize {
    let before_pixels = 14 + u64::from(header_size) + 4 * colors as u64;
    u64::from(pixels_offset).saturating_sub(before_pixels) as usize
}

/// A PNG after its first two bytes: the rest of the signature, then
/// chunks (big-endian: a u32 length, a 4-byte type, the data, a CRC-32
/// of type and data) until `IEND`. `IHDR` holds the size and colour type;
/// the `IDAT` chunks' data is the compressed pixels, the image data.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Png {
    /// `4E 47 0D 0A 1A 0A`: the rest of the PNG signature.
    #[schema(magic = b"NG\r\n\x1a\n")]
    #[serde(skip)]
    pub signature: Magic,
    /// The chunks, in file order.
    #[schema(to_end)]
    pub chunks: Vec<PngChunk>,
}

/// One chunk of a PNG.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct PngChunk {
    /// The data's length.
    #[serde(skip)]
    pub len: Count<u32>,
    /// The chunk's type (`IHDR`, `PLTE`, `IDAT`, `IEND`, ...).
    pub kind: [u8; 4],
    /// The chunk's data: for `IDAT`, the compressed pixels.
    #[schema(count = len)]
    pub data: Vec<u8>,
    /// The CRC-32 of the type and the data, as stored.
    pub crc: u32,
}
