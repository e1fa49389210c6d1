//! The Sims Online mesh (`.mesh`): a version, then the body of a `.bmf`
//! skin with big-endian integers.

use serde::{Deserialize, Serialize};

use super::file_id::FileId;
use super::skn::{self, Skn};
use crate::files::{Files, FoundFile};
use crate::format::{self, Describe, Description, Encoding, Format, Sample};
use crate::rig::{self, Rig, RigError, RigOptions};
use crate::schema::text::TextStyle;
use crate::schema::{BinarySchema, Count, Layout, RawString, Refusal};
use crate::Schema;

/// The Sims Online mesh (`.mesh`): integers big-endian, floats
/// little-endian (as in `.skel`), strings Pascal (a u8 length). A version
/// (2), then the fields of a `.bmf` after its name and texture: bone names,
/// faces, bindings, texture coordinates, blends, then a vertex count and
/// the vertices: one real vertex per texture coordinate, then one blend
/// vertex per blend, each a position and a normal in its bone's space.
///
/// The stored vertex count is kept as data: The Sims' tools and
/// ts1-blender-io write the real and blend vertices' total, FreeSO's
/// writer the real vertices' alone, and every reader ignores it, reading
/// as many vertices as there are texture coordinates and blends.
///
/// The mesh names neither itself nor its texture: a binding (`.bnd`) pairs
/// it with a texture, by file id. Posed as a `.skn` is.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Mesh {
    /// Format version; 2 in every known file. Kept as data: the readers
    /// know no other layout.
    pub version: u32,
    /// The bones the bindings refer to, by index.
    #[schema(prefix = u32, pascal)]
    pub bones: Vec<RawString>,
    /// Triangles as three indices into the real vertices.
    #[schema(prefix = u32)]
    pub faces: Vec<[i32; 3]>,
    /// Which bone carries which real and blend vertices.
    #[schema(prefix = u32, check = bindings_name_bones(bones))]
    pub bindings: Vec<Binding>,
    /// How many texture coordinates, and real vertices.
    #[serde(skip)]
    pub real_count: Count<u32>,
    /// Texture coordinates (u, v), one per real vertex.
    #[schema(little, count = real_count)]
    pub uvs: Vec<[f32; 2]>,
    /// How many blends, and blend vertices.
    #[serde(skip)]
    pub blend_count: Count<u32>,
    /// Blend `i`: blend vertex `i` pulls real vertex `vertex` toward itself
    /// by `raw_weight / 32768`.
    #[schema(count = blend_count, check = blends_pull_real_vertices(real_count))]
    pub blends: Vec<Blend>,
    /// The vertex count as stored (see the type's documentation).
    pub vertex_count: u32,
    /// The real vertices, one per texture coordinate.
    #[schema(little, count = real_count)]
    pub vertices: Vec<Vertex>,
    /// The blend vertices, one per blend.
    #[schema(little, count = blend_count)]
    pub blend_vertices: Vec<Vertex>,
}

/// `bone, first vertex, vertex count, first blend (-1 = none), blend count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Binding {
    /// Index into the mesh's bones.
    pub bone: i32,
    pub first_vertex: i32,
    pub vertex_count: i32,
    /// Counted from the first blend vertex; -1 when `blend_count` is 0.
    pub first_blend: i32,
    pub blend_count: i32,
}

/// A blend: its weight first (1/32768ths), then the real vertex it pulls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Blend {
    pub raw_weight: i32,
    pub vertex: i32,
}

/// A position and a normal (x, y, z each), in the space of the bone whose
/// binding holds the vertex.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Vertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
}

/// Each binding's bone is one of the mesh's bones.
fn bindings_name_bones(bindings: &[Binding], bones: &[RawString]) -> Result<(), Refusal> {
    let outside = bindings
        .iter()
        .enumerate()
        .find(|(_, binding)| usize::try_from(binding.bone).map_or(true, |bone| bone >= bones.len()));
    match outside {
        Some((index, binding)) => Err(Refusal::at_element(
            index,
            format!(
                "bone {} is not one of the mesh's {} bones",
                binding.bone,
                bones.len()
            ),
        )),
        None => Ok(()),
    }
}

/// Each blend pulls one of the real vertices.
fn blends_pull_real_vertices(blends: &[Blend], real: &usize) -> Result<(), Refusal> {
    let outside = blends
        .iter()
        .enumerate()
        .find(|(_, blend)| usize::try_from(blend.vertex).map_or(true, |vertex| vertex >= *real));
    match outside {
        Some((index, blend)) => Err(Refusal::at_element(
            index,
            format!("vertex {} is not one of the {real} real vertices", blend.vertex),
        )),
        None => Ok(()),
    }
}

impl Mesh {
    /// Decodes a found file, naming it in the error.
    pub fn from_file(found: &FoundFile) -> Result<Mesh, RigError> {
        Mesh::from_bytes(&found.bytes).map_err(|source| RigError::Referenced {
            path: found.path.clone(),
            source: Box::new(source),
        })
    }

    /// The mesh as the `.skn` holding the same skin, named `name`, without
    /// a texture (`x`).
    fn to_skn(&self, name: &str) -> Skn {
        Skn {
            style: TextStyle::default(),
            name: RawString::from(name),
            texture: RawString::from("x"),
            bones: self.bones.clone(),
            faces: self.faces.clone(),
            bindings: self
                .bindings
                .iter()
                .map(|b| skn::Binding {
                    bone: b.bone,
                    first_vertex: b.first_vertex,
                    vertex_count: b.vertex_count,
                    first_blend: b.first_blend,
                    blend_count: b.blend_count,
                })
                .collect(),
            uvs: self.uvs.clone(),
            blends: self
                .blends
                .iter()
                .map(|b| skn::Blend {
                    vertex: b.vertex,
                    raw_weight: b.raw_weight,
                })
                .collect(),
            vertices: self
                .vertices
                .iter()
                .chain(&self.blend_vertices)
                .map(|v| skn::Vertex {
                    position: v.position,
                    normal: v.normal,
                })
                .collect(),
        }
    }

    /// The mesh as neutral rig data with the Sims' conventions (see
    /// `.skn`), named `name`, with the texture `texture` names.
    pub fn skin(&self, name: String, texture: Option<String>) -> Result<rig::Skin, RigError> {
        let mut skin = self.to_skn(&name).skin()?;
        skin.texture = texture;
        Ok(skin)
    }
}

impl Describe for Mesh {
    fn describe(&self) -> Description {
        Description {
            facts: vec![
                ("version", self.version.to_string()),
                ("bones", self.bones.len().to_string()),
                ("faces", self.faces.len().to_string()),
                ("bindings", self.bindings.len().to_string()),
                ("real vertices", self.vertices.len().to_string()),
                ("blends", self.blends.len().to_string()),
                ("vertex count stored", self.vertex_count.to_string()),
            ],
            joints: Vec::new(),
        }
    }
}

/// A mesh on its own has no name and no texture: its skin is named `mesh`
/// and untextured. Through a binding it gets both.
impl Rig for Mesh {
    fn skins(&self, _: &Files, options: RigOptions) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Some(
            options
                .single_level()
                .and_then(|()| self.skin("mesh".to_owned(), None).map(|skin| vec![skin])),
        )
    }
}

/// The `.mesh` registration. Its version (2) is a TSO `.anim`'s too: found
/// by extension only.
pub static FORMAT: Format = Format {
    name: "tso-mesh",
    title: "The Sims Online mesh",
    extensions: &["mesh"],
    encoding: Encoding::Binary,
    sniff: |_| false,
    decode: format::decode_binary::<Mesh>,
    from_json: format::binary_from_json::<Mesh>,
    layout: Mesh::LAYOUT,
    conversions: &[],
    samples: || {
        vec![Sample {
            file_name: "humanoid-arm.0000100000000009.mesh",
            document: format::binary_document(arm()),
        }]
    },
};

/// The ids of the sample mesh, as its file name and the sample binding
/// give them.
pub const ARM_ID: FileId = FileId {
    file: 0x0000_1000,
    kind: 9,
};

/// The synthetic sample: `.skn`'s arm tube (eight vertices on the arm and
/// the hand, two blend vertices), as a `.mesh`.
pub fn arm() -> Mesh {
    let skn = skn::arm_skin();
    let real = skn.real_vertex_count();
    let vertex = |v: &skn::Vertex| Vertex {
        position: v.position,
        normal: v.normal,
    };
    Mesh {
        version: 2,
        bones: skn.bones.clone(),
        faces: skn.faces.clone(),
        bindings: skn
            .bindings
            .iter()
            .map(|b| Binding {
                bone: b.bone,
                first_vertex: b.first_vertex,
                vertex_count: b.vertex_count,
                first_blend: b.first_blend,
                blend_count: b.blend_count,
            })
            .collect(),
        real_count: Count::new(),
        uvs: skn.uvs.clone(),
        blend_count: Count::new(),
        blends: skn
            .blends
            .iter()
            .map(|b| Blend {
                raw_weight: b.raw_weight,
                vertex: b.vertex,
            })
            .collect(),
        vertex_count: skn.vertices.len() as u32,
        vertices: skn.vertices.iter().take(real).map(vertex).collect(),
        blend_vertices: skn.vertices.iter().skip(real).map(vertex).collect(),
    }
}
