//! Star Wars Galaxies skinned mesh (`.mgn`, a "skeletal mesh generator").
//!
//! An IFF file: `FORM SKMG > FORM 0004` (or `0003`, `0002`) holding chunks
//! and forms in a fixed order. The versions share one layout: each adds
//! optional parts only (`0003` hardpoints, `0004` per-pixel lighting
//! vectors), so one body reads all three and the version is kept by the
//! variant. Payloads are little-endian; IFF sizes are big-endian.
//!
//! The mesh keeps its positions in one list (`POSN`), each with its joint
//! weights (`TWHD`, `TWDT`), and a separate list of normals (`NORM`). Each
//! shader group (`FORM PSDT`) has vertices of its own that pick a position
//! and a normal by index, plus texture coordinates, and triangles of those
//! vertices. Positions lie where the skeleton's bind pose puts them, in the
//! skeleton's axes (y up, left-handed).
//!
//! Layout and meaning as the game's own loader reads them (SOE's
//! `SkeletalMeshGeneratorTemplate`, published in SWG-Source/client-tools)
//! and as the Blender add-on io_scene_swg_msh reads and writes version
//! `0004`; checked against the real files in `shared/corpus/swg`.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::files::Files;
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, Rig, RigError, RigOptions};
use crate::schema::{Count, ListLen, RawChunk, RawString, Refusal};
use crate::swg::skt::{self, Quaternion};
use crate::Schema;

/// A `.mgn` file: `FORM SKMG` holding one version form.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "SKMG")]
pub struct Mesh {
    /// The versioned contents.
    pub version: MeshVersion,
}

/// The mesh versions, chosen by the version form's type. They share one
/// layout: a later version only adds optional parts.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeshVersion {
    /// `FORM 0002`: no hardpoints, no per-pixel lighting vectors (a
    /// `FORM HPTS`, `HPTS` or `DOT3` in it is refused).
    #[schema(form = "0002", context(version = 2u16))]
    V2(MeshBody),
    /// `FORM 0003`: adds hardpoints (`FORM HPTS`, and `HPTS` in blend
    /// targets); a `DOT3` in it is refused.
    #[schema(form = "0003", context(version = 3u16))]
    V3(MeshBody),
    /// `FORM 0004`, the version of every known file: adds per-pixel
    /// lighting vectors (`DOT3` in the mesh, its blend targets and its
    /// shader groups).
    #[schema(form = "0004", context(version = 4u16))]
    V4(MeshBody),
}

/// The contents of the version form, in file order; `version` is the
/// version form's (2 to 4), which gates the parts later versions added.
/// The default is an empty mesh.
#[derive(Debug, Clone, Default, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u16))]
pub struct MeshBody {
    /// `INFO`, first value: the most joints any one position is weighted
    /// to (0 in the known files; the game reads and ignores it).
    #[schema(chunk = "INFO")]
    pub max_joints_per_position: i32,
    /// `INFO`: the most joints any one shader group uses (0 in the known files).
    #[schema(chunk = "INFO")]
    pub max_joints_per_shader: i32,
    /// `INFO`: how many skeleton names `SKTM` holds (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub skeleton_count: Count<i32>,
    /// `INFO`: how many joint names `XFNM` holds (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub joint_count: Count<i32>,
    /// `INFO`: how many positions `POSN` and weight counts `TWHD` hold (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub position_count: Count<i32>,
    /// `INFO`: how many weights `TWDT` holds (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub weight_count: Count<i32>,
    /// `INFO`: how many normals `NORM` holds (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub normal_count: Count<i32>,
    /// `INFO`: how many shader groups (`FORM PSDT`) follow (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub shader_count: Count<i32>,
    /// `INFO`: how many blend targets `FORM BLTS` holds (i32; 0 when it is absent).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub blend_target_count: Count<i32>,
    /// `INFO`: how many occlusion zone names `OZN ` holds (i16).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub zone_count: Count<i16>,
    /// `INFO`: how many zone combinations `OZC ` holds (i16).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub combination_count: Count<i16>,
    /// `INFO`: how many zones `ZTO ` lists (i16).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub occluded_zone_count: Count<i16>,
    /// `INFO`, last value: the layer this mesh is worn at, for occlusion
    /// (0 for skin; clothing worn over it has higher layers).
    #[schema(chunk = "INFO")]
    pub occlusion_layer: i16,
    /// `SKTM`: the skeleton files the mesh is bound to, null-terminated
    /// paths such as `appearance/skeleton/all_b.skt`.
    #[schema(chunk = "SKTM", count = skeleton_count, null_terminated)]
    pub skeletons: Vec<RawString>,
    /// `XFNM`: the joints the weights name, null-terminated (`TWDT` refers
    /// to them by index); found in the skeletons by name, ignoring case.
    #[schema(chunk = "XFNM", count = joint_count, null_terminated)]
    pub joints: Vec<RawString>,
    /// `POSN`: the positions, x, y, z each, where the bind pose puts them.
    #[schema(chunk = "POSN", count = position_count)]
    pub positions: Vec<[f32; 3]>,
    /// `TWHD`: for each position, how many weights of `TWDT` are its own
    /// (the positions' weights follow one another in `TWDT`).
    #[schema(
        chunk = "TWHD",
        count = position_count,
        check = weight_counts_add_up(weight_count)
    )]
    pub weights_per_position: Vec<i32>,
    /// `TWDT`: every position's weights, one position after another.
    #[schema(chunk = "TWDT", count = weight_count, check = weights_name_joints(joint_count))]
    pub weights: Vec<Weight>,
    /// `NORM`: the normals, x, y, z each; the shader groups pick them by index.
    #[schema(chunk = "NORM", count = normal_count)]
    pub normals: Option<Vec<[f32; 3]>>,
    /// `DOT3` (version 4): an i32 count, then per-pixel lighting vectors
    /// the shader groups pick by index.
    #[schema(chunk = "DOT3", prefix = i32, check = from_version_4(version))]
    pub lighting_vectors: Option<Vec<LightingVector>>,
    /// `FORM HPTS` (version 3 on): hardpoints, places on the mesh other
    /// objects attach to.
    #[schema(check = from_version_3(version))]
    pub hardpoints: Option<Hardpoints>,
    /// `FORM BLTS`: the blend targets (shapes the mesh morphs toward),
    /// one `FORM BLT ` each; absent when there are none.
    #[schema(
        form = "BLTS",
        count = blend_target_count,
        context(
            version,
            mesh_positions = position_count,
            mesh_normals = normal_count,
            mesh_vectors = len(lighting_vectors),
            mesh_morphing = len(hardpoints)
        )
    )]
    pub blend_targets: Option<Vec<BlendTarget>>,
    /// `OZN `: the occlusion zones the mesh refers to, null-terminated
    /// names such as `chest`; absent when there are none.
    #[schema(chunk = "OZN ", count = zone_count, null_terminated)]
    pub zones: Option<Vec<RawString>>,
    /// `FOZC`: a u16 count, then zone indices (into `OZN `, i16): when
    /// clothing covers all these zones, the whole mesh is hidden.
    #[schema(chunk = "FOZC", prefix = u16, check = zones_exist(zone_count))]
    pub fully_occluded_by: Option<Vec<i16>>,
    /// `OZC `: zone combinations: each an i16 count and zone indices; an
    /// occluded triangle (`OITL`) is hidden when all zones of its
    /// combination are covered.
    #[schema(
        chunk = "OZC ",
        count = combination_count,
        check = combinations_name_zones(zone_count)
    )]
    pub combinations: Option<Vec<ZoneCombination>>,
    /// `ZTO `: the zones this mesh covers when worn (indices into `OZN `, i16).
    #[schema(chunk = "ZTO ", count = occluded_zone_count, check = zones_exist(zone_count))]
    pub occludes: Option<Vec<i16>>,
    /// One `FORM PSDT` per shader group.
    #[schema(
        count = shader_count,
        context(
            version,
            mesh_positions = position_count,
            mesh_normals = normal_count,
            mesh_vectors = len(lighting_vectors),
            mesh_combinations = combination_count
        )
    )]
    pub shader_groups: Vec<ShaderGroup>,
    /// `FORM TRTS`: texture renderers, which draw customizable textures
    /// (skin colour, tattoos) into the shader groups' texture slots.
    pub texture_renderers: Option<TextureRenderers>,
    /// Any chunks or forms after those, kept as they are.
    #[schema(to_end)]
    pub unknown: Vec<RawChunk>,
}

/// `TWDT` entry: one joint's share of a position.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Weight {
    /// Index into `XFNM`.
    pub joint: i32,
    /// The joint's share; a position's shares add up to 1.
    pub weight: f32,
}

/// A per-pixel lighting vector (`DOT3`): a tangent-space direction and
/// whether the texture is mirrored there.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct LightingVector {
    /// x, y, z.
    pub vector: [f32; 3],
    /// The flip state: 1 or -1.
    pub flip: f32,
}

/// `FORM HPTS`: static and morphing hardpoints. Passed as
/// `len(hardpoints)`, it is the count of morphing hardpoints, which blend
/// targets move by index.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "HPTS")]
pub struct Hardpoints {
    /// `STAT`: an i16 count, then hardpoints that stay where they are.
    #[schema(chunk = "STAT", prefix = i16)]
    pub fixed: Option<Vec<Hardpoint>>,
    /// `DYN `: an i16 count, then hardpoints the blend targets move
    /// (`HPTS` in a blend target refers to them by index).
    #[schema(chunk = "DYN ", prefix = i16)]
    pub morphing: Option<Vec<Hardpoint>>,
}

/// A place on the mesh, relative to a joint.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Hardpoint {
    /// The hardpoint's name, null-terminated.
    #[schema(null_terminated)]
    pub name: RawString,
    /// The joint it hangs under, null-terminated.
    #[schema(null_terminated)]
    pub joint: RawString,
    /// Rotation relative to the joint, stored w, x, y, z.
    pub rotation: Quaternion,
    /// Position relative to the joint.
    pub position: [f32; 3],
}

/// `FORM BLT `: a blend target, offsets to add to some positions, normals
/// and lighting vectors, scaled by the target's weight. Given the mesh's
/// version and the lengths of the lists its offsets index.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(
    little,
    form = "BLT ",
    context(
        version: u16,
        mesh_positions: usize,
        mesh_normals: usize,
        mesh_vectors: usize,
        mesh_morphing: usize
    )
)]
pub struct BlendTarget {
    /// `INFO`, first value: how many offsets `POSN` holds (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub position_count: Count<i32>,
    /// `INFO`: how many offsets `NORM` holds (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub normal_count: Count<i32>,
    /// `INFO`, last: the target's name, null-terminated, e.g.
    /// `blend_fat`; the game weights it by the customization variable
    /// `/shared_owner/` + name.
    #[schema(chunk = "INFO", null_terminated)]
    pub name: RawString,
    /// `POSN`: offsets to positions (`index` into the mesh's `POSN`).
    #[schema(chunk = "POSN", count = position_count, check = offsets_of_positions(mesh_positions))]
    pub positions: Option<Vec<Offset>>,
    /// `NORM`: offsets to normals (`index` into the mesh's `NORM`).
    #[schema(chunk = "NORM", count = normal_count, check = offsets_of_normals(mesh_normals))]
    pub normals: Option<Vec<Offset>>,
    /// `DOT3` (version 4): an i32 count, then offsets to lighting vectors
    /// (`index` into the mesh's `DOT3`).
    #[schema(chunk = "DOT3", prefix = i32, check = offsets_of_vectors(version, mesh_vectors))]
    pub lighting_vectors: Option<Vec<Offset>>,
    /// `HPTS` (version 3 on): an i16 count, then moves of morphing hardpoints.
    #[schema(chunk = "HPTS", prefix = i16, check = moves_of_hardpoints(version, mesh_morphing))]
    pub hardpoints: Option<Vec<HardpointOffset>>,
}

/// A blend target's change to one entry of a list.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Offset {
    /// The entry it changes.
    pub index: i32,
    /// The change at weight 1 (x, y, z).
    pub offset: [f32; 3],
}

/// A blend target's move of one morphing hardpoint.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct HardpointOffset {
    /// Index into `DYN `.
    pub hardpoint: i16,
    /// Added to its position at weight 1.
    pub position: [f32; 3],
    /// Turned toward at weight 1 (w, x, y, z).
    pub rotation: Quaternion,
}

/// An `OZC ` entry: zones that, all covered, hide a triangle.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct ZoneCombination {
    /// An i16 count, then zone indices into `OZN ` (i16).
    #[schema(prefix = i16)]
    pub zones: Vec<i16>,
}

/// `FORM PSDT`: one shader group: its vertices and triangles. Given the
/// mesh's version and the lengths of the lists its vertices index.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(
    little,
    form = "PSDT",
    context(
        version: u16,
        mesh_positions: usize,
        mesh_normals: usize,
        mesh_vectors: usize,
        mesh_combinations: usize
    )
)]
pub struct ShaderGroup {
    /// `NAME`: the shader template, a null-terminated path such as
    /// `shader/twk_f_body.sht`.
    #[schema(chunk = "NAME", null_terminated)]
    pub shader: RawString,
    /// `PIDX`, first: the group's vertex count (i32), which also counts
    /// `NIDX`, `DOT3` and `VDCL`.
    #[schema(chunk = "PIDX")]
    #[serde(skip)]
    pub vertex_count: Count<i32>,
    /// `PIDX`: each vertex's position, by index into the mesh's `POSN`.
    #[schema(chunk = "PIDX", count = vertex_count, check = indices_of_positions(mesh_positions))]
    pub position_indices: Vec<i32>,
    /// `NIDX`: each vertex's normal, by index into the mesh's `NORM`.
    #[schema(chunk = "NIDX", count = vertex_count, check = indices_of_normals(mesh_normals))]
    pub normal_indices: Option<Vec<i32>>,
    /// `DOT3` (version 4): each vertex's lighting vector, by index into the
    /// mesh's `DOT3`.
    #[schema(
        chunk = "DOT3",
        count = vertex_count,
        check = indices_of_vectors(version, mesh_vectors)
    )]
    pub lighting_vector_indices: Option<Vec<i32>>,
    /// `VDCL`: each vertex's colour.
    #[schema(chunk = "VDCL", count = vertex_count)]
    pub colors: Option<Vec<Color>>,
    /// `TXCI`: an i32 count of texture coordinate sets, then each set's
    /// dimension (i32: 1 to 3 values per vertex).
    #[schema(chunk = "TXCI", prefix = i32)]
    pub coordinate_dimensions: Option<Vec<i32>>,
    /// `FORM TCSF`: the texture coordinate sets, one `TCSD` each, as
    /// many as `TXCI` gives dimensions, each with that many values per
    /// vertex.
    #[schema(
        form = "TCSF",
        to_end,
        check = sets_fit_the_vertices(coordinate_dimensions, vertex_count)
    )]
    pub coordinate_sets: Option<Vec<CoordinateSet>>,
    /// `FORM PRIM`: the triangles.
    #[schema(context(vertices = vertex_count, combinations = mesh_combinations))]
    pub primitives: Primitives,
}

/// A vertex colour (`VDCL`).
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Color {
    pub alpha: u8,
    pub red: u8,
    pub green: u8,
    pub blue: u8,
}

/// `TCSD`: one texture coordinate set: per vertex, as many floats as the
/// set's dimension in `TXCI` (u, v for the usual two).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, chunk = "TCSD")]
pub struct CoordinateSet {
    /// Every vertex's values, one vertex after another.
    #[schema(to_end)]
    pub values: Vec<f32>,
}

/// `FORM PRIM`: the group's triangle lists, given the group's vertex
/// count and the mesh's zone combination count their indices fall within.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "PRIM", context(vertices: usize, combinations: usize))]
pub struct Primitives {
    /// `INFO`: how many lists follow (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub list_count: Count<i32>,
    /// The lists, each an `ITL ` or `OITL` chunk.
    #[schema(count = list_count, context(vertices, combinations))]
    pub lists: Vec<TriangleList>,
}

/// A triangle list, chosen by its chunk's tag.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[schema(context(vertices: usize, combinations: usize))]
pub enum TriangleList {
    /// `ITL `: plain triangles.
    #[schema(context(vertices))]
    Indexed(IndexedTriangles),
    /// `OITL`: triangles that clothing can hide.
    #[schema(context(vertices, combinations))]
    Occluded(OccludedTriangles),
}

/// `ITL `: an i32 count, then triangles, each three vertex indices (i32)
/// into the group's vertices.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, chunk = "ITL ", context(vertices: usize))]
pub struct IndexedTriangles {
    #[schema(prefix = i32, check = corners_among(vertices))]
    pub triangles: Vec<[i32; 3]>,
}

/// `OITL`: an i32 count, then triangles with their zone combinations.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, chunk = "OITL", context(vertices: usize, combinations: usize))]
pub struct OccludedTriangles {
    #[schema(prefix = i32, check = occluded_corners_among(vertices, combinations))]
    pub triangles: Vec<OccludedTriangle>,
}

/// An `OITL` triangle.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct OccludedTriangle {
    /// Index into `OZC `: the zones that, all covered, hide it (negative: none).
    pub combination: i16,
    /// Three vertex indices into the group's vertices.
    pub corners: [i32; 3],
}

/// `FORM TRTS`: texture renderers and the shader texture slots they fill.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "TRTS")]
pub struct TextureRenderers {
    /// `INFO`, first: how many `TRT ` chunks follow (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub renderer_count: Count<i32>,
    /// `INFO`, second: the number of slots all `TRT ` chunks fill together
    /// (i32; the game only sizes a buffer with it, so it is kept as data).
    #[schema(chunk = "INFO")]
    pub slot_total: i32,
    /// The renderers, one `TRT ` chunk each.
    #[schema(count = renderer_count)]
    pub renderers: Vec<TextureRenderer>,
}

/// `TRT `: a texture renderer template and the slots it fills.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, chunk = "TRT ")]
pub struct TextureRenderer {
    /// The texture renderer template, a null-terminated path such as
    /// `texturerenderer/twk_f_face.trt`.
    #[schema(null_terminated)]
    pub template: RawString,
    /// An i32 count, then the slots.
    #[schema(prefix = i32)]
    pub slots: Vec<TextureSlot>,
}

/// A shader texture slot a texture renderer fills.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct TextureSlot {
    /// Index of the shader group.
    pub shader_group: i32,
    /// The slot's tag as the game packs it in a little-endian u32 (the
    /// bytes read `NIAM` for the slot `MAIN`).
    pub slot: u32,
}

impl Mesh {
    /// The contents, whatever the version.
    pub fn body(&self) -> &MeshBody {
        match &self.version {
            MeshVersion::V2(body) | MeshVersion::V3(body) | MeshVersion::V4(body) => body,
        }
    }

    /// The version form's type.
    pub fn version_tag(&self) -> [u8; 4] {
        match &self.version {
            MeshVersion::V2(_) => *b"0002",
            MeshVersion::V3(_) => *b"0003",
            MeshVersion::V4(_) => *b"0004",
        }
    }

    /// The mesh's skins, one per shader group; `list` names the file's
    /// position list, which they share.
    pub fn skins(&self, list: &str) -> Result<Vec<rig::Skin>, RigError> {
        self.body().skins(list)
    }
}

/// The first index not below `len`, refused as its list's element.
fn indices_below(
    indices: impl IntoIterator<Item = i32>,
    len: usize,
    what: &str,
) -> Result<(), Refusal> {
    for (at, index) in indices.into_iter().enumerate() {
        if usize::try_from(index).map_or(true, |index| index >= len) {
            let message = format!("index {index} is outside the {len} {what}");
            return Err(Refusal::at_element(at, message));
        }
    }
    Ok(())
}

/// A part the version form's type says the file cannot hold: `first` is
/// the version that added it.
fn added_in<T>(part: &Option<T>, version: u16, first: u16) -> Result<(), Refusal> {
    if part.is_none() || version >= first {
        return Ok(());
    }
    Err(Refusal::new(format!(
        "a version {version} mesh holds none: this part came with version {first}"
    )))
}

/// `DOT3` (lighting vectors) came with version 4.
fn from_version_4<T>(part: &Option<T>, version: &u16) -> Result<(), Refusal> {
    added_in(part, *version, 4)
}

/// `HPTS` (hardpoints) came with version 3.
fn from_version_3<T>(part: &Option<T>, version: &u16) -> Result<(), Refusal> {
    added_in(part, *version, 3)
}

/// `TWHD`: each count is a count, and together they count `TWDT`'s weights.
fn weight_counts_add_up(counts: &[i32], weights: &usize) -> Result<(), Refusal> {
    let mut counted = 0usize;
    for (position, &count) in counts.iter().enumerate() {
        counted = usize::try_from(count)
            .ok()
            .and_then(|count| counted.checked_add(count))
            .ok_or_else(|| {
                Refusal::at_element(position, format!("{count} is no count of weights"))
            })?;
    }
    if counted == *weights {
        return Ok(());
    }
    Err(Refusal::new(format!(
        "the positions' weight counts add up to {counted}, but TWDT holds {weights}"
    )))
}

/// `TWDT`: each weight names a joint of `XFNM`.
fn weights_name_joints(weights: &[Weight], joints: &usize) -> Result<(), Refusal> {
    let named = weights.iter().map(|weight| weight.joint);
    indices_below(named, *joints, "joints of XFNM")
}

/// `FOZC` and `ZTO `: each index names a zone of `OZN `.
fn zones_exist(zones: &Option<Vec<i16>>, zone_count: &usize) -> Result<(), Refusal> {
    let indices = zones.iter().flatten().map(|&zone| i32::from(zone));
    indices_below(indices, *zone_count, "zones of OZN")
}

/// `OZC `: each combination's zones are zones of `OZN `.
fn combinations_name_zones(
    combinations: &Option<Vec<ZoneCombination>>,
    zone_count: &usize,
) -> Result<(), Refusal> {
    for (at, combination) in combinations.iter().flatten().enumerate() {
        let zones = combination.zones.iter().map(|&zone| i32::from(zone));
        indices_below(zones, *zone_count, "zones of OZN")
            .map_err(|refusal| Refusal::at_element(at, refusal.message))?;
    }
    Ok(())
}

/// A blend target's `POSN` changes positions of the mesh's `POSN`.
fn offsets_of_positions(offsets: &Option<Vec<Offset>>, positions: &usize) -> Result<(), Refusal> {
    let indices = offsets.iter().flatten().map(|offset| offset.index);
    indices_below(indices, *positions, "positions of POSN")
}

/// A blend target's `NORM` changes normals of the mesh's `NORM`.
fn offsets_of_normals(offsets: &Option<Vec<Offset>>, normals: &usize) -> Result<(), Refusal> {
    let indices = offsets.iter().flatten().map(|offset| offset.index);
    indices_below(indices, *normals, "normals of NORM")
}

/// A blend target's `DOT3` (version 4) changes lighting vectors of the
/// mesh's `DOT3`.
fn offsets_of_vectors(
    offsets: &Option<Vec<Offset>>,
    version: &u16,
    vectors: &usize,
) -> Result<(), Refusal> {
    from_version_4(offsets, version)?;
    let indices = offsets.iter().flatten().map(|offset| offset.index);
    indices_below(indices, *vectors, "lighting vectors of DOT3")
}

/// A blend target's `HPTS` (version 3 on) moves morphing hardpoints of
/// the mesh's `DYN `.
fn moves_of_hardpoints(
    moves: &Option<Vec<HardpointOffset>>,
    version: &u16,
    morphing: &usize,
) -> Result<(), Refusal> {
    from_version_3(moves, version)?;
    let indices = moves
        .iter()
        .flatten()
        .map(|moved| i32::from(moved.hardpoint));
    indices_below(indices, *morphing, "morphing hardpoints of DYN ")
}

/// `PIDX`: each vertex's position is one of the mesh's `POSN`.
fn indices_of_positions(indices: &[i32], positions: &usize) -> Result<(), Refusal> {
    indices_below(indices.iter().copied(), *positions, "positions of POSN")
}

/// `NIDX`: each vertex's normal is one of the mesh's `NORM`.
fn indices_of_normals(indices: &Option<Vec<i32>>, normals: &usize) -> Result<(), Refusal> {
    let indices = indices.iter().flatten().copied();
    indices_below(indices, *normals, "normals of NORM")
}

/// A shader group's `DOT3` (version 4): each vertex's lighting vector is
/// one of the mesh's `DOT3`.
fn indices_of_vectors(
    indices: &Option<Vec<i32>>,
    version: &u16,
    vectors: &usize,
) -> Result<(), Refusal> {
    from_version_4(indices, version)?;
    let indices = indices.iter().flatten().copied();
    indices_below(indices, *vectors, "lighting vectors of DOT3")
}

/// `TCSF`: as many coordinate sets as `TXCI` gives dimensions, each with
/// that many values per vertex.
fn sets_fit_the_vertices(
    sets: &Option<Vec<CoordinateSet>>,
    dimensions: &Option<Vec<i32>>,
    vertices: &usize,
) -> Result<(), Refusal> {
    let dimensions = dimensions.as_deref().unwrap_or_default();
    let sets = sets.as_deref().unwrap_or_default();
    if dimensions.len() != sets.len() {
        return Err(Refusal::new(format!(
            "TXCI gives {} texture coordinate sets, but TCSF holds {}",
            dimensions.len(),
            sets.len()
        )));
    }
    for (at, (&dimension, set)) in dimensions.iter().zip(sets).enumerate() {
        let expected = usize::try_from(dimension)
            .ok()
            .filter(|dimension| (1..=3).contains(dimension))
            .and_then(|dimension| dimension.checked_mul(*vertices));
        if expected != Some(set.values.len()) {
            let message = format!(
                "a set of dimension {dimension} for {vertices} vertices cannot hold {} values",
                set.values.len()
            );
            return Err(Refusal::at_element(at, message));
        }
    }
    Ok(())
}

/// `ITL `: each corner is one of the shader group's vertices.
fn corners_among(triangles: &[[i32; 3]], vertices: &usize) -> Result<(), Refusal> {
    for (at, corners) in triangles.iter().enumerate() {
        indices_below(*corners, *vertices, "vertices of the shader group")
            .map_err(|refusal| Refusal::at_element(at, refusal.message))?;
    }
    Ok(())
}

/// `OITL`: each corner is one of the shader group's vertices, and each
/// combination (negative: none, as the game reads it) one of the mesh's
/// `OZC `.
fn occluded_corners_among(
    triangles: &[OccludedTriangle],
    vertices: &usize,
    combinations: &usize,
) -> Result<(), Refusal> {
    let corners: Vec<[i32; 3]> = triangles.iter().map(|triangle| triangle.corners).collect();
    corners_among(&corners, vertices)?;
    for (at, triangle) in triangles.iter().enumerate() {
        if triangle.combination >= 0 {
            let combination = [i32::from(triangle.combination)];
            indices_below(combination, *combinations, "zone combinations of OZC")
                .map_err(|refusal| Refusal::at_element(at, refusal.message))?;
        }
    }
    Ok(())
}

impl ListLen for Hardpoints {
    /// The morphing hardpoints (`DYN `), which blend targets move by index.
    fn list_len(&self) -> usize {
        self.morphing.as_ref().map_or(0, Vec::len)
    }
}

/// A value out of range while building rig data: reading refuses such
/// files (the fields' checks), but a value built in code may hold one.
fn out_of_range(what: &str, index: impl std::fmt::Display) -> RigError {
    RigError::Invalid(format!("{what} {index} is out of range"))
}

/// An index or count from the file as a `usize`.
fn to_index(value: i32, what: &str) -> Result<usize, RigError> {
    usize::try_from(value).map_err(|_| out_of_range(what, value))
}

/// One entry of `list` by an index from the file.
fn entry<T: Copy>(list: &[T], index: usize, what: &str) -> Result<T, RigError> {
    list.get(index)
        .copied()
        .ok_or_else(|| out_of_range(what, index))
}

impl MeshBody {
    /// One skin per shader group. A vertex takes its position, weights and
    /// normal from the mesh's lists by the group's indices, and its
    /// texture coordinates from the group's first two-dimensional set;
    /// every group shares the position list `list` (the `POSN` entries).
    /// Blend targets become morph targets of the vertices standing at the
    /// positions (and normals) they change. The skin is named and textured
    /// by its shader template.
    pub fn skins(&self, list: &str) -> Result<Vec<rig::Skin>, RigError> {
        // Where each position's weights start in `TWDT`.
        let mut first_weights = Vec::with_capacity(self.weights_per_position.len());
        let mut next = 0usize;
        for &count in &self.weights_per_position {
            first_weights.push(next);
            next = next.saturating_add(to_index(count, "weight count")?);
        }
        self.shader_groups
            .iter()
            .map(|group| self.group_skin(group, list, &first_weights))
            .collect()
    }

    fn group_skin(
        &self,
        group: &ShaderGroup,
        list: &str,
        first_weights: &[usize],
    ) -> Result<rig::Skin, RigError> {
        let normals = self.normals.as_deref().unwrap_or_default();
        let to_indices = |indices: &[i32], what: &str| {
            indices
                .iter()
                .map(|&index| to_index(index, what))
                .collect::<Result<Vec<usize>, _>>()
        };
        let vertex_positions = to_indices(&group.position_indices, "position index")?;
        let vertex_normals = to_indices(
            group.normal_indices.as_deref().unwrap_or_default(),
            "normal index",
        )?;
        let mut counts = Vec::with_capacity(vertex_positions.len());
        let mut influences = Vec::new();
        for &position in &vertex_positions {
            let count = to_index(
                entry(&self.weights_per_position, position, "position")?,
                "weight count",
            )?;
            let first = entry(first_weights, position, "position")?;
            let own = first
                .checked_add(count)
                .and_then(|end| self.weights.get(first..end))
                .ok_or_else(|| out_of_range("weights of position", position))?;
            for weight in own {
                let joint =
                    u32::try_from(weight.joint).map_err(|_| out_of_range("joint", weight.joint))?;
                influences.push(rig::Influence {
                    joint,
                    weight: weight.weight,
                });
            }
            counts.push(u32::try_from(count).map_err(|_| out_of_range("weight count", count))?);
        }
        let triangles = group
            .triangles()
            .map(|corners| {
                let [a, b, c] = corners.map(u32::try_from);
                Ok([a?, b?, c?])
            })
            .collect::<Result<Vec<[u32; 3]>, std::num::TryFromIntError>>()
            .map_err(|_| RigError::Invalid("a triangle has a negative corner".to_owned()))?;
        let entries = vertex_positions
            .iter()
            .map(|&position| {
                u32::try_from(position).map_err(|_| out_of_range("position", position))
            })
            .collect::<Result<_, _>>()?;
        let shader = group.shader.to_text();
        Ok(rig::Skin {
            name: shader.clone(),
            texture: (!shader.is_empty()).then_some(shader),
            positions: vertex_positions
                .iter()
                .map(|&position| entry(&self.positions, position, "position"))
                .collect::<Result<_, _>>()?,
            normals: vertex_normals
                .iter()
                .map(|&normal| entry(normals, normal, "normal"))
                .collect::<Result<_, _>>()?,
            uvs: group.uvs(),
            triangles,
            binding: rig::Binding::Weighted(rig::Weights {
                joints: self.joints.iter().map(RawString::to_text).collect(),
                counts,
                influences,
            }),
            morph_targets: self.morph_targets(&vertex_positions, &vertex_normals),
            shared_positions: Some(rig::SharedPositions {
                list: list.to_owned(),
                count: u32::try_from(self.positions.len())
                    .map_err(|_| out_of_range("position count", self.positions.len()))?,
                entries,
            }),
        })
    }

    /// The blend targets as morph targets of the vertices standing at the
    /// positions and normals (by the mesh's indices) they change.
    fn morph_targets(&self, positions: &[usize], normals: &[usize]) -> Vec<rig::MorphTarget> {
        // The vertices at each index of the mesh's list.
        let vertices_at = |indices: &[usize]| {
            let mut at: HashMap<usize, Vec<u32>> = HashMap::new();
            for (vertex, &index) in (0u32..).zip(indices) {
                at.entry(index).or_default().push(vertex);
            }
            at
        };
        let (position_vertices, normal_vertices) = (vertices_at(positions), vertices_at(normals));
        let offsets = |list: &Option<Vec<Offset>>, vertices: &HashMap<usize, Vec<u32>>| {
            list.iter()
                .flatten()
                .flat_map(|offset| {
                    let standing = usize::try_from(offset.index)
                        .ok()
                        .and_then(|index| vertices.get(&index));
                    standing
                        .into_iter()
                        .flatten()
                        .map(|&vertex| rig::MorphOffset {
                            vertex,
                            offset: offset.offset,
                        })
                })
                .collect()
        };
        self.blend_targets
            .iter()
            .flatten()
            .map(|target| rig::MorphTarget {
                name: target.name.to_text(),
                positions: offsets(&target.positions, &position_vertices),
                normals: offsets(&target.normals, &normal_vertices),
            })
            .collect()
    }
}

impl ShaderGroup {
    /// Every triangle of every list, as the file gives them.
    pub fn triangles(&self) -> impl Iterator<Item = [i32; 3]> + '_ {
        self.primitives.lists.iter().flat_map(|list| {
            let corners: Vec<[i32; 3]> = match list {
                TriangleList::Indexed(list) => list.triangles.clone(),
                TriangleList::Occluded(list) => list
                    .triangles
                    .iter()
                    .map(|triangle| triangle.corners)
                    .collect(),
            };
            corners
        })
    }

    /// The texture coordinates of the first two-dimensional set, one
    /// (u, v) per vertex as stored; none without such a set.
    pub fn uvs(&self) -> Vec<[f32; 2]> {
        let dimensions = self.coordinate_dimensions.iter().flatten();
        let sets = self.coordinate_sets.iter().flatten();
        dimensions
            .zip(sets)
            .find(|(&dimension, _)| dimension == 2)
            .map(|(_, set)| {
                set.values
                    .chunks_exact(2)
                    .filter_map(|uv| <[f32; 2]>::try_from(uv).ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// How many triangles the group has.
    pub fn triangle_count(&self) -> usize {
        self.primitives
            .lists
            .iter()
            .map(|list| match list {
                TriangleList::Indexed(list) => list.triangles.len(),
                TriangleList::Occluded(list) => list.triangles.len(),
            })
            .sum()
    }
}

/// Names joined for `ossuary info`, after their count.
fn listing(names: impl Iterator<Item = String>) -> String {
    let names: Vec<String> = names.collect();
    match names.len() {
        0 => "0".to_owned(),
        count => format!("{count}: {}", names.join(", ")),
    }
}

impl Describe for Mesh {
    fn describe(&self) -> Description {
        let body = self.body();
        let mut facts = vec![
            (
                "version",
                String::from_utf8_lossy(&self.version_tag()).into_owned(),
            ),
            (
                "skeletons",
                listing(body.skeletons.iter().map(RawString::to_text)),
            ),
            (
                "joints",
                listing(body.joints.iter().map(RawString::to_text)),
            ),
            ("positions", body.positions.len().to_string()),
            ("weights", body.weights.len().to_string()),
            (
                "normals",
                body.normals.as_ref().map_or(0, Vec::len).to_string(),
            ),
            (
                "shader groups",
                listing(body.shader_groups.iter().map(|group| {
                    format!(
                        "{} ({} vertices, {} triangles)",
                        group.shader,
                        group.position_indices.len(),
                        group.triangle_count()
                    )
                })),
            ),
            (
                "blend targets",
                listing(
                    body.blend_targets
                        .iter()
                        .flatten()
                        .map(|target| target.name.to_text()),
                ),
            ),
            (
                "occlusion zones",
                body.zones.as_ref().map_or(0, Vec::len).to_string(),
            ),
        ];
        if let Some(vectors) = &body.lighting_vectors {
            facts.push(("lighting vectors", vectors.len().to_string()));
        }
        if let Some(hardpoints) = &body.hardpoints {
            let names = hardpoints
                .fixed
                .iter()
                .chain(&hardpoints.morphing)
                .flatten()
                .map(|hardpoint| hardpoint.name.to_text())
                .collect::<Vec<_>>();
            facts.push(("hardpoints", listing(names.into_iter())));
        }
        if let Some(renderers) = &body.texture_renderers {
            facts.push((
                "texture renderers",
                listing(
                    renderers
                        .renderers
                        .iter()
                        .map(|renderer| renderer.template.to_text()),
                ),
            ));
        }
        Description {
            facts,
            joints: Vec::new(),
        }
    }
}

/// What a mesh loaded on its own calls its position list.
const OWN_POSITIONS: &str = "POSN";

impl Rig for Mesh {
    /// One skin per shader group; a mesh has one level of detail.
    fn skins(&self, _: &Files, options: RigOptions) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Some(
            options
                .single_level()
                .and_then(|()| self.skins(OWN_POSITIONS)),
        )
    }
}

/// The `.mgn` registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "humanoid.mgn",
            document: format::binary_document(humanoid()),
        }]
    },
    ..Format::binary::<Mesh>(
        "swg-mgn",
        "Star Wars Galaxies skinned mesh",
        &["mgn"],
        // `FORM`, a size, then `SKMG`.
        |bytes| bytes.starts_with(b"FORM") && bytes.get(8..12) == Some(b"SKMG"),
    )
};

/// Where the `.skt` sample humanoid's bind pose puts each joint (model space).
fn bind_positions(joints: &[skt::Joint]) -> Vec<glam::Vec3> {
    let mut world: Vec<glam::Affine3A> = Vec::with_capacity(joints.len());
    for joint in joints {
        let quat = |q: Quaternion| glam::Quat::from_xyzw(q.x, q.y, q.z, q.w);
        let local = glam::Affine3A::from_rotation_translation(
            quat(joint.post_rotation) * quat(joint.bind_rotation) * quat(joint.pre_rotation),
            glam::Vec3::from_array(joint.bind_translation),
        );
        let parent = usize::try_from(joint.parent)
            .ok()
            .and_then(|parent| world.get(parent).copied());
        world.push(parent.map_or(local, |parent| parent * local));
    }
    world
        .iter()
        .map(|model| glam::Vec3::from(model.translation))
        .collect()
}

/// A small mesh over the `.skt` sample humanoid, in its bind pose: a flat
/// ribbon along each bone, facing +z, the neck in a shader group of its own, with a
/// blend target, occlusion zones, a hardpoint and a texture renderer, so
/// that every part of the layout holds something.
pub fn humanoid() -> Mesh {
    let joints = skt::humanoid_joints();
    let world = bind_positions(&joints);
    // (parent, child) joint indices of every bone.
    let bones: Vec<(usize, usize)> = joints
        .iter()
        .enumerate()
        .filter_map(|(child, joint)| Some((usize::try_from(joint.parent).ok()?, child)))
        .collect();
    let mut positions = Vec::new();
    let mut weights_per_position = Vec::new();
    let mut weights = Vec::new();
    let mut normals = Vec::new();
    for &(parent, child) in &bones {
        let (from, to) = (world[parent], world[child]);
        // Across the bone, in the front view's plane.
        let half_width = 0.04 * (to - from).cross(glam::Vec3::Z).normalize_or(glam::Vec3::X);
        for end in [from - half_width, from + half_width] {
            positions.push(end.to_array());
            weights_per_position.push(1);
            weights.push(Weight {
                joint: parent as i32,
                weight: 1.0,
            });
        }
        for end in [to - half_width, to + half_width] {
            positions.push(end.to_array());
            weights_per_position.push(2);
            weights.extend([
                Weight {
                    joint: child as i32,
                    weight: 0.5,
                },
                Weight {
                    joint: parent as i32,
                    weight: 0.5,
                },
            ]);
        }
        normals.push(glam::Vec3::Z.to_array());
    }
    let neck = bones
        .iter()
        .position(|&(_, child)| joints[child].name.to_text() == "head")
        .unwrap_or_default();
    let group = |shader: &str, members: Vec<usize>, occluded: bool| {
        let position_indices: Vec<i32> = members
            .iter()
            .flat_map(|&bone| (0..4).map(move |corner| (4 * bone + corner) as i32))
            .collect();
        let vertex_count = position_indices.len();
        let triangles: Vec<[i32; 3]> = (0..members.len() as i32)
            .flat_map(|local| {
                let first = 4 * local;
                [
                    [first, first + 1, first + 2],
                    [first + 2, first + 1, first + 3],
                ]
            })
            .collect();
        let lists = if occluded {
            vec![TriangleList::Occluded(OccludedTriangles {
                triangles: triangles
                    .iter()
                    .enumerate()
                    .map(|(at, &corners)| OccludedTriangle {
                        combination: if at < 4 { 0 } else { -1 },
                        corners,
                    })
                    .collect(),
            })]
        } else {
            vec![TriangleList::Indexed(IndexedTriangles { triangles })]
        };
        ShaderGroup {
            shader: RawString::from(shader),
            vertex_count: Count::new(),
            position_indices,
            normal_indices: Some(members.iter().flat_map(|&bone| [bone as i32; 4]).collect()),
            lighting_vector_indices: Some(vec![0; vertex_count]),
            colors: None,
            coordinate_dimensions: Some(vec![2]),
            coordinate_sets: Some(vec![CoordinateSet {
                values: members
                    .iter()
                    .flat_map(|_| [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0])
                    .collect(),
            }]),
            primitives: Primitives {
                list_count: Count::new(),
                lists,
            },
        }
    };
    let body_bones = (0..bones.len()).filter(|&bone| bone != neck).collect();
    let spine = 4 * bones
        .iter()
        .position(|&(_, child)| joints[child].name.to_text() == "spine1")
        .unwrap_or_default() as i32;
    let fat = BlendTarget {
        position_count: Count::new(),
        normal_count: Count::new(),
        name: RawString::from("blend_fat"),
        positions: Some(
            (spine..spine + 4)
                .map(|index| Offset {
                    index,
                    offset: [0.0, 0.0, 0.02],
                })
                .collect(),
        ),
        normals: Some(vec![Offset {
            index: spine / 4,
            offset: [0.0, 0.0, 0.1],
        }]),
        lighting_vectors: None,
        hardpoints: None,
    };
    let identity = Quaternion {
        w: 1.0,
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };
    Mesh {
        version: MeshVersion::V4(MeshBody {
            max_joints_per_position: 2,
            max_joints_per_shader: joints.len() as i32,
            skeletons: vec![RawString::from("appearance/skeleton/humanoid.skt")],
            joints: joints.iter().map(|joint| joint.name.clone()).collect(),
            positions,
            weights_per_position,
            weights,
            normals: Some(normals),
            lighting_vectors: Some(vec![LightingVector {
                vector: [1.0, 0.0, 0.0],
                flip: 1.0,
            }]),
            hardpoints: Some(Hardpoints {
                fixed: Some(vec![Hardpoint {
                    name: RawString::from("hold_r"),
                    joint: RawString::from("rHand"),
                    rotation: identity,
                    position: [0.0, -0.1, 0.0],
                }]),
                morphing: None,
            }),
            blend_targets: Some(vec![fat]),
            zones: Some(vec![RawString::from("chest"), RawString::from("head")]),
            fully_occluded_by: Some(vec![0, 1]),
            combinations: Some(vec![ZoneCombination { zones: vec![0] }]),
            occludes: Some(vec![1]),
            shader_groups: vec![
                group("shader/humanoid_body.sht", body_bones, true),
                group("shader/humanoid_neck.sht", vec![neck], false),
            ],
            texture_renderers: Some(TextureRenderers {
                renderer_count: Count::new(),
                slot_total: 1,
                renderers: vec![TextureRenderer {
                    template: RawString::from("texturerenderer/humanoid_body.trt"),
                    slots: vec![TextureSlot {
                        shader_group: 0,
                        slot: u32::from_le_bytes(*b"NIAM"),
                    }],
                }],
            }),
            ..MeshBody::default()
        }),
    }
}
