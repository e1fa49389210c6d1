//! FreeSO's 3D reconstruction of an object: its parameters (`FSOR`) and
//! its meshes (`FSOM`, one per draw group, of the draw group's id).

use serde::{Deserialize, Serialize};

use crate::schema::{Count, Gzip, RawString, Refusal, Segment, Transformed};
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

/// A draw group rebuilt in 3D by FreeSO (`FSOM`, the `DGRP` of the same
/// id's): a gzip stream of the mesh.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Mesh {
    /// The mesh, gzip-compressed.
    pub mesh: Transformed<Gzip, MeshData>,
}

/// A mesh, once decompressed: `FSOm`, an i32 version (1 positions and
/// texture coordinates, 2 normals too, 3 a depth mask), the version of
/// the reconstruction that made it, the object's name, the geometry in
/// groups (one per dynamic sprite, the first the object's own), a depth
/// mask from version 3 on, then the bounds.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct MeshData {
    /// `FSOm`; kept as found.
    pub signature: [u8; 4],
    /// 1 to 3 (3 in every known file).
    pub version: i32,
    /// The reconstruction's version (0: none recorded).
    pub reconstruction_version: i32,
    /// The name, a Pascal string (`fso_game_door_iff_100`).
    #[schema(pascal)]
    pub name: RawString,
    /// An i32 count, then the groups.
    #[schema(prefix = i32, context(version))]
    pub groups: Vec<GeometryGroup>,
    /// Version 3 on: the depth mask (sinks, fireplaces).
    #[schema(present_if = version > 2, context(version))]
    pub depth_mask: Option<DepthMask>,
    /// The bounds: the least x, y, z, then the greatest.
    pub bounds: [f32; 6],
}

/// The geometry of one group, a piece per texture.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: i32))]
pub struct GeometryGroup {
    /// An i32 count, then the pieces.
    #[schema(prefix = i32, context(version))]
    pub pieces: Vec<Geometry>,
}

/// A piece of a mesh with one texture: a sprite of the draw group, or a
/// texture chunk (`MTEX`).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: i32), check = indices_within_vertices)]
pub struct Geometry {
    /// With `direction` 65535, the texture chunk (`MTEX` id); else the
    /// sprite's index in the draw group's view.
    pub texture: u16,
    /// The draw group's direction whose sprite is the texture (the near
    /// zoom's), or 65535 for a texture chunk.
    pub direction: u16,
    /// How many vertices.
    #[serde(skip)]
    pub vertex_count: Count<i32>,
    /// The vertices.
    #[schema(count = vertex_count, context(version))]
    pub vertices: Vec<Vertex>,
    /// An i32 count, then the triangles' corners, three by three: indices
    /// into the vertices.
    #[schema(prefix = i32)]
    pub indices: Vec<i32>,
}

/// One vertex.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: i32))]
pub struct Vertex {
    /// Its position.
    pub position: [f32; 3],
    /// Its texture coordinate (v from the top).
    pub uv: [f32; 2],
    /// Version 2 on: its normal.
    #[schema(present_if = version > 1)]
    pub normal: Option<[f32; 3]>,
}

/// The depth mask: an i32 kind (0 none), then its geometry.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: i32))]
pub struct DepthMask {
    /// 0 none; else the kind of mask.
    pub kind: i32,
    /// Where there is one: its geometry.
    #[schema(present_if = kind > 0, context(version))]
    pub geometry: Option<Geometry>,
}

/// Every index names a vertex of its piece.
fn indices_within_vertices(geometry: &Geometry) -> Result<(), Refusal> {
    let vertices = geometry.vertices.len();
    match geometry
        .indices
        .iter()
        .position(|&index| usize::try_from(index).map_or(true, |index| index >= vertices))
    {
        Some(at) => Err(Refusal::at_element(
            at,
            format!(
                "index {} is not one of the {vertices} vertices",
                geometry.indices[at]
            ),
        )
        .inside([Segment::Field("indices")])),
        None => Ok(()),
    }
}

/// What a piece of mesh is textured with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MeshTexture {
    /// The sprite of this index in the near view of this direction of the
    /// draw group of the mesh's id.
    Sprite { direction: u16, index: u16 },
    /// The texture chunk (`MTEX`) of this id.
    Chunk(u16),
}

/// A piece of mesh as plain arrays, ready for a 3D format.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlainMesh {
    /// The group it belongs to (0 the object's own; then one per dynamic
    /// sprite).
    pub group: usize,
    pub positions: Vec<[f32; 3]>,
    /// One per position (version 2 on; none before).
    pub normals: Option<Vec<[f32; 3]>>,
    pub uvs: Vec<[f32; 2]>,
    /// Triangles of indices into the positions (a last incomplete one
    /// left out, as FreeSO leaves it).
    pub triangles: Vec<[u32; 3]>,
    pub texture: MeshTexture,
}

impl Geometry {
    /// The piece as plain arrays.
    fn plain(&self, group: usize) -> PlainMesh {
        PlainMesh {
            group,
            positions: self.vertices.iter().map(|vertex| vertex.position).collect(),
            normals: self
                .vertices
                .iter()
                .map(|vertex| vertex.normal)
                .collect::<Option<Vec<_>>>(),
            uvs: self.vertices.iter().map(|vertex| vertex.uv).collect(),
            // The layout's check keeps every index within the vertices.
            triangles: self
                .indices
                .chunks_exact(3)
                .map(|corners| [corners[0] as u32, corners[1] as u32, corners[2] as u32])
                .collect(),
            texture: match self.direction {
                0xFFFF => MeshTexture::Chunk(self.texture),
                direction => MeshTexture::Sprite {
                    direction,
                    index: self.texture,
                },
            },
        }
    }
}

impl MeshData {
    /// Every piece of every group, as plain arrays (the depth mask, which
    /// draws no colour, left out).
    pub fn plain(&self) -> Vec<PlainMesh> {
        self.groups
            .iter()
            .enumerate()
            .flat_map(|(group, pieces)| pieces.pieces.iter().map(move |piece| piece.plain(group)))
            .collect()
    }
}
