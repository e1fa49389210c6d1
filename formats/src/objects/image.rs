//! Images embedded in chunks: PNG (FreeSO's mesh textures, `MTEX`).

use serde::{Deserialize, Serialize};

use crate::schema::{Count, Magic};
use crate::Schema;

/// A PNG image, as FreeSO embeds its meshes' textures: the eight-byte
/// signature, then chunks (big-endian: a u32 length, a 4-byte type, the
/// data, a CRC-32 of type and data) until `IEND`. `IHDR` holds the size
/// and colour type; the `IDAT` chunks' data is the compressed pixels,
/// kept as the image data it is.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Png {
    /// `89 50 4E 47 0D 0A 1A 0A`.
    #[schema(magic = b"\x89PNG\r\n\x1a\n")]
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
