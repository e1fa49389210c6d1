//! A character's own files, carried whole in the glTF scene's `extras`
//! for what glTF has no place for: a Star Wars Galaxies mesh's occlusion
//! zones, lighting vectors (`DOT3`), hardpoints, vertex colours, texture
//! renderers and integers of unknown meaning, its other levels of detail,
//! the skeleton's three stored rotations per joint. The import starts from
//! the carried file and takes from the glTF every value it holds that an
//! edit changed, so an unchanged character comes back as the bytes it was
//! and an edited one with exactly its edits.
//!
//! Blender keeps scene `extras` as the scene's custom properties and writes
//! them back when its exporter's "Include: Custom Properties" is on. With
//! its defaults it writes no `extras`, but it writes a PNG texture it
//! imported as the bytes it read: so the files also ride in a private PNG
//! chunk ([`PNG_CHUNK`]) of the asset's first texture, which image viewers
//! pass over, compressed.

use std::io::Read;

use base64::Engine;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};

use super::document::Asset;
use crate::texture::{png_chunk, png_chunk_bytes, png_chunk_checksum};

/// The scene `extras` key of the carried files.
pub const FILES_EXTRAS: &str = "ossuary_files";

/// One carried file: its path as the files refer to each other
/// (`appearance/mesh/twk_f_body_l0.mgn`), and its bytes in base64.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct CarriedFile {
    path: String,
    bytes: String,
}

/// A file a character was exported from: its path as the files refer to
/// each other, and its bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Original {
    pub path: String,
    pub bytes: Vec<u8>,
}

impl Original {
    /// The file's name without folders.
    pub fn file_name(&self) -> &str {
        file_name(&self.path)
    }
}

/// `appearance/mesh/twk_f_body_l0.mgn` as `twk_f_body_l0.mgn`.
pub fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The scene extras carrying `files`.
pub fn files_extras(files: &[Original]) -> serde_json::Value {
    let carried: Vec<CarriedFile> = files
        .iter()
        .map(|file| CarriedFile {
            path: file.path.clone(),
            bytes: base64::engine::general_purpose::STANDARD.encode(&file.bytes),
        })
        .collect();
    serde_json::json!({ FILES_EXTRAS: carried })
}

/// The kind of the PNG chunk carrying the files: ancillary, private,
/// safe to copy (the case of its letters says so), "ossuary files".
pub const PNG_CHUNK: &[u8; 4] = b"osSf";

/// Carried files take at most this many times their compressed bytes: a
/// chunk that inflates past it (a decompression bomb) carries nothing.
const MAX_INFLATION: u64 = 64;

/// The PNG chunk carrying `files`: their scene extras as JSON, compressed.
pub fn carrier_chunk(files: &[Original]) -> Vec<u8> {
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
    // Writing into a vector cannot fail; plain JSON always serializes.
    let data = serde_json::to_writer(&mut encoder, &files_extras(files))
        .ok()
        .and_then(|()| encoder.finish().ok())
        .unwrap_or_default();
    png_chunk_bytes(PNG_CHUNK, &data)
}

/// The files the asset carries, in its scene's `extras` or else in a PNG
/// chunk of one of its images; none when it carries none (a glTF made
/// elsewhere) or what it carries cannot be read, which leaves the import to
/// derive everything from the glTF.
pub fn originals(asset: &Asset) -> Vec<Original> {
    let document = &asset.document;
    let from_scene = document
        .default_scene()
        .or_else(|| document.scenes().next())
        .and_then(|scene| {
            scene
                .extras()
                .as_ref()
                .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        });
    let carried: Option<Vec<CarriedFile>> = from_scene
        .or_else(|| from_png(asset))
        .and_then(|value| value.get(FILES_EXTRAS).cloned())
        .and_then(|value| serde_json::from_value(value).ok());
    carried
        .into_iter()
        .flatten()
        .filter_map(|file| {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(file.bytes.as_bytes())
                .ok()?;
            Some(Original {
                path: file.path,
                bytes,
            })
        })
        .collect()
}

/// The carried files' extras from the first image in a buffer view whose
/// PNG chunks hold [`PNG_CHUNK`] (with its checksum right, inflating within
/// [`MAX_INFLATION`]).
fn from_png(asset: &Asset) -> Option<serde_json::Value> {
    asset.document.images().find_map(|image| {
        let gltf::image::Source::View { view, .. } = image.source() else {
            return None;
        };
        let png = asset.view_bytes(&view)?;
        let mut chunks = png.get(8..)?;
        while let Some((chunk, after)) = png_chunk(chunks) {
            if chunk.kind == PNG_CHUNK {
                let data = chunk.data;
                if chunk.checksum != png_chunk_checksum(chunk.kind, data) {
                    return None;
                }
                let limit = (data.len() as u64).saturating_mul(MAX_INFLATION);
                let mut json = Vec::new();
                ZlibDecoder::new(data)
                    .take(limit.saturating_add(1))
                    .read_to_end(&mut json)
                    .ok()?;
                if json.len() as u64 > limit {
                    return None;
                }
                return serde_json::from_slice(&json).ok();
            }
            chunks = after;
        }
        None
    })
}

/// The carried file `path` names (the games find files without regard to
/// case).
pub fn find<'a>(originals: &'a [Original], path: &str) -> Option<&'a Original> {
    originals
        .iter()
        .find(|original| original.path.eq_ignore_ascii_case(path))
}

/// Values this close are one value: a change below it is no edit (export
/// poses vertices at rest, scales weights to sum to 1 and keeps unit
/// normals and rotations, which moves numbers by far less).
pub const SAME: f32 = 1e-5;

/// Whether two lists of numbers are one within [`SAME`].
pub fn near(a: &[f32], b: &[f32]) -> bool {
    within(a, b, SAME)
}

/// Unit directions this close are one (a third of a degree): Blender keeps
/// a mesh's custom normals in a packed form, and gives the Twi'lek's body's
/// back moved by 5e-5 mostly and 2e-3 at most.
pub const SAME_DIRECTION: f32 = 5e-3;

/// Whether two unit directions are one within [`SAME_DIRECTION`].
pub fn same_direction(a: &[f32; 3], b: &[f32; 3]) -> bool {
    within(a, b, SAME_DIRECTION)
}

fn within(a: &[f32], b: &[f32], tolerance: f32) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tolerance)
}

/// `vector` scaled to unit length (as it is when it has none): what glTF
/// holds of a stored normal or rotation.
pub fn unit<const N: usize>(vector: [f32; N]) -> [f32; N] {
    let length = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    if length > 0.0 {
        vector.map(|x| x / length)
    } else {
        vector
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A glTF of one image whose PNG bytes are `png`, in a buffer given as
    /// a data URI.
    fn asset_of_image(png: &[u8]) -> Asset {
        let encoded = base64::engine::general_purpose::STANDARD.encode(png);
        let json = serde_json::json!({
            "asset": { "version": "2.0" },
            "buffers": [{
                "byteLength": png.len(),
                "uri": format!("data:application/octet-stream;base64,{encoded}"),
            }],
            "bufferViews": [{ "buffer": 0, "byteLength": png.len() }],
            "images": [{ "bufferView": 0, "mimeType": "image/png" }],
        });
        Asset::read(&serde_json::to_vec(&json).unwrap(), &|_| None).unwrap()
    }

    /// A PNG's signature and the chunks given, whole (no pixels: the
    /// carrier is looked for among the chunks only).
    fn png_of(chunks: &[&[u8]]) -> Vec<u8> {
        [b"\x89PNG\r\n\x1a\n".as_slice(), &chunks.concat()].concat()
    }

    fn carried() -> Vec<Original> {
        vec![Original {
            path: "appearance/mesh/twk_f_body_l0.mgn".to_owned(),
            bytes: b"FORM\0\0\0\x04SKMG".to_vec(),
        }]
    }

    #[test]
    fn files_carried_in_a_png_chunk_are_read_back() {
        let other = png_chunk_bytes(b"tEXt", b"Comment\0made elsewhere");
        let png = png_of(&[&other, &carrier_chunk(&carried())]);
        assert_eq!(originals(&asset_of_image(&png)), carried());
    }

    #[test]
    fn a_carrier_with_a_wrong_checksum_carries_nothing() {
        let mut carrier = carrier_chunk(&carried());
        let last = carrier.len() - 1;
        carrier[last] ^= 1;
        assert_eq!(originals(&asset_of_image(&png_of(&[&carrier]))), []);
    }

    #[test]
    fn a_carrier_inflating_past_its_bound_carries_nothing() {
        // Carried files in JSON followed by 16 MiB of spaces, which JSON
        // allows: compressed to about 16 KiB, a thousand times over.
        let mut encoder = ZlibEncoder::new(Vec::new(), Compression::best());
        let json = serde_json::to_vec(&files_extras(&carried())).unwrap();
        std::io::Write::write_all(&mut encoder, &json).unwrap();
        std::io::Write::write_all(&mut encoder, &vec![b' '; 16 << 20]).unwrap();
        let bomb = png_chunk_bytes(PNG_CHUNK, &encoder.finish().unwrap());
        assert_eq!(originals(&asset_of_image(&png_of(&[&bomb]))), []);
    }
}
