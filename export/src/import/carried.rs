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
//! them back when its exporter's "Include: Custom Properties" is on.

use base64::Engine;
use serde::{Deserialize, Serialize};

use super::document::Asset;

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

/// The files the asset's scene carries; none when it carries none (a glTF
/// made elsewhere) or what it carries cannot be read, which leaves the
/// import to derive everything from the glTF.
pub fn originals(asset: &Asset) -> Vec<Original> {
    let document = &asset.document;
    let Some(scene) = document
        .default_scene()
        .or_else(|| document.scenes().next())
    else {
        return Vec::new();
    };
    let carried: Option<Vec<CarriedFile>> = scene
        .extras()
        .as_ref()
        .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
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
