//! The Sims 1 binary skin (`.bmf`): the `.skn` layout, little-endian.

use serde::{Deserialize, Serialize};

use super::skn::{self, Skn};
use crate::schema::text::TextStyle;
use crate::schema::RawString;
use crate::Schema;

/// The Sims 1 binary skin (`.bmf`): the fields of a `.skn` in the same
/// order, little-endian, with Pascal strings (u8 length) and u32 counts.
/// Blend records store the weight first, then the vertex.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Bmf {
    #[schema(pascal)]
    pub name: RawString,
    /// `x` when the skin has no texture.
    #[schema(pascal)]
    pub texture: RawString,
    #[schema(prefix = u32, pascal)]
    pub bones: Vec<RawString>,
    #[schema(prefix = u32)]
    pub faces: Vec<[i32; 3]>,
    #[schema(prefix = u32)]
    pub bindings: Vec<Binding>,
    #[schema(prefix = u32)]
    #[serde(with = "crate::schema::json::float")]
    pub uvs: Vec<[f32; 2]>,
    #[schema(prefix = u32)]
    pub blends: Vec<Blend>,
    /// Real vertices, then blend vertices.
    #[schema(prefix = u32)]
    pub vertices: Vec<Vertex>,
}

/// `bone, firstVert, vertCount, firstBlend (-1 = none), blendCount`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Binding {
    pub bone: i32,
    pub first_vertex: i32,
    pub vertex_count: i32,
    pub first_blend: i32,
    pub blend_count: i32,
}

/// A blend record: weight first (1/32768ths), then the real vertex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Blend {
    pub raw_weight: i32,
    pub vertex: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Vertex {
    #[serde(with = "crate::schema::json::float")]
    pub position: [f32; 3],
    #[serde(with = "crate::schema::json::float")]
    pub normal: [f32; 3],
}

impl From<&Skn> for Bmf {
    /// The same data; the text style has no place in a `.bmf`.
    fn from(skn: &Skn) -> Self {
        Bmf {
            name: skn.name.clone(),
            texture: skn.texture.clone(),
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
            uvs: skn.uvs.clone(),
            blends: skn
                .blends
                .iter()
                .map(|b| Blend {
                    raw_weight: b.raw_weight,
                    vertex: b.vertex,
                })
                .collect(),
            vertices: skn
                .vertices
                .iter()
                .map(|v| Vertex {
                    position: v.position,
                    normal: v.normal,
                })
                .collect(),
        }
    }
}

impl From<&Bmf> for Skn {
    /// The same data, written in the original tools' style (CRLF, MSVC
    /// `%g`), which is how every known `.skn` was written.
    fn from(bmf: &Bmf) -> Self {
        Skn {
            style: TextStyle::default(),
            name: bmf.name.clone(),
            texture: bmf.texture.clone(),
            bones: bmf.bones.clone(),
            faces: bmf.faces.clone(),
            bindings: bmf
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
            uvs: bmf.uvs.clone(),
            blends: bmf
                .blends
                .iter()
                .map(|b| skn::Blend {
                    vertex: b.vertex,
                    raw_weight: b.raw_weight,
                })
                .collect(),
            vertices: bmf
                .vertices
                .iter()
                .map(|v| skn::Vertex {
                    position: v.position,
                    normal: v.normal,
                })
                .collect(),
        }
    }
}
