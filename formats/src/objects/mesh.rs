//! FreeSO's 3D reconstruction of an object: its parameters (`FSOR`).

use serde::{Deserialize, Serialize};

use crate::Schema;

/// How FreeSO rebuilt the object's sprites as 3D meshes (`FSOR`): an i32
/// version (1), then the parameters its reconstruction took.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Reconstruction {
    /// 1 in every known file.
    pub version: i32,
    /// For each of the four rotations, non-zero when a mesh is made for
    /// it.
    pub rotations: [u8; 4],
    /// Non-zero: some rotations are left out depending on the tile, to
    /// fix doors.
    pub door_fix: u8,
    /// Fixes, one bit each: 0x01 counters, 0x02 no mesh for mirrored
    /// sprites, 0x04 back faces pushed out, 0x08 denser meshes, 0x10
    /// tiles, 0x20 object fences, 0x40 six-graphic fences, 0x80 counters
    /// without their corners.
    pub flags: u8,
    /// The first draw group rebuilt (with `last_draw_group`, 0 and 0:
    /// all of them).
    pub first_draw_group: i32,
    /// The last draw group rebuilt.
    pub last_draw_group: i32,
    /// Non-zero: meshes made for Blender's exporter.
    pub blender_tweak: u8,
    /// Non-zero: meshes simplified.
    pub simplify: u8,
    /// Bytes after the parameters, which FreeSO does not read (none in
    /// known files).
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}
