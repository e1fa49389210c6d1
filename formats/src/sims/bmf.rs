//! The Sims 1 binary skin (`.bmf`): the `.skn` layout, little-endian.

use std::any::Any;

use serde::{Deserialize, Serialize};

use super::skn::{self, Skn};
/// The vertex and binding of both skins: one type each, their binary
/// encodings here.
pub use super::skn::{Binding, Vertex};
use crate::files::Files;
use crate::format::{self, Conversion, Describe, Description, Document, Format, Sample};
use crate::rig::{self, Rig, RigError, RigOptions};
use crate::schema::text::TextStyle;
use crate::schema::{Count, Endian, RawString, Refusal, Segment};
use crate::Schema;

/// The Sims 1 binary skin (`.bmf`): the fields of a `.skn` in the same
/// order, little-endian, with Pascal strings (u8 length) and u32 counts: the
/// skin's name and texture, then the [`Body`] The Sims Online's `.mesh`
/// shares. Exported to glTF as a `.skn` is (see its page for how far blend
/// vertices can depart).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Bmf {
    #[schema(pascal)]
    pub name: RawString,
    /// `x` when the skin has no texture.
    #[schema(pascal)]
    pub texture: RawString,
    /// Bones, faces, bindings, texture coordinates, blends and vertices.
    #[schema(context(order = Endian::Little))]
    pub body: Body,
}

/// A Sims skin's body, in the byte order its holder gives (a `.bmf`
/// little-endian; The Sims Online's `.mesh` big-endian, its floats still
/// little-endian): bone names, faces, bindings, texture coordinates,
/// blends, then a vertex count and the vertices: one real vertex per
/// texture coordinate, then one blend vertex per blend.
///
/// The stored vertex count is kept as data: The Sims' tools and
/// ts1-blender-io store the real and blend vertices' total, FreeSO's
/// `.mesh` writer the real vertices' alone, and every reader ignores it,
/// reading as many vertices as there are texture coordinates and blends.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(context(order: Endian), endian = order)]
pub struct Body {
    /// The bones the bindings refer to, by index.
    #[schema(prefix = u32, pascal)]
    pub bones: Vec<RawString>,
    /// Triangles as three indices into the real vertices.
    #[schema(prefix = u32)]
    pub faces: Vec<[i32; 3]>,
    /// Which bone carries which real and blend vertices; each names one of
    /// the bones.
    #[schema(prefix = u32, context(order), check = bindings_name_bones(bones))]
    pub bindings: Vec<Binding>,
    /// How many texture coordinates, and real vertices.
    #[serde(skip)]
    pub real_count: Count<u32>,
    /// Texture coordinates (u, v), one per real vertex; little-endian in
    /// both files.
    #[schema(little, count = real_count)]
    pub uvs: Vec<[f32; 2]>,
    /// How many blends, and blend vertices.
    #[serde(skip)]
    pub blend_count: Count<u32>,
    /// Blend `i`: blend vertex `i` pulls real vertex `vertex` toward itself
    /// by `raw_weight / 32768`; each pulls one of the real vertices.
    #[schema(
        count = blend_count,
        context(order),
        check = blends_pull_real_vertices(real_count)
    )]
    pub blends: Vec<Blend>,
    /// The vertex count as stored (see the type's documentation).
    pub vertex_count: u32,
    /// The real vertices, one per texture coordinate; little-endian in
    /// both files.
    #[schema(little, count = real_count)]
    pub vertices: Vec<Vertex>,
    /// The blend vertices, one per blend.
    #[schema(little, count = blend_count)]
    pub blend_vertices: Vec<Vertex>,
}

/// A blend record: weight first (1/32768ths), then the real vertex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(context(order: Endian), endian = order)]
pub struct Blend {
    pub raw_weight: i32,
    pub vertex: i32,
}

/// Each binding's bone is one of the body's bones.
fn bindings_name_bones(bindings: &[Binding], bones: &[RawString]) -> Result<(), Refusal> {
    let outside = bindings.iter().enumerate().find(|(_, binding)| {
        usize::try_from(binding.bone).map_or(true, |bone| bone >= bones.len())
    });
    match outside {
        Some((index, binding)) => Err(Refusal::at_element(
            index,
            format!(
                "bone {} is not one of the {} bones",
                binding.bone,
                bones.len()
            ),
        )
        .inside([Segment::Field("bone")])),
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
            format!(
                "vertex {} is not one of the {real} real vertices",
                blend.vertex
            ),
        )
        .inside([Segment::Field("vertex")])),
        None => Ok(()),
    }
}

impl Body {
    /// The body of a `.skn`'s lists: its vertex list is split after the
    /// real vertices (one per uv), and its length is the stored vertex
    /// count.
    pub fn from_skn(skn: &Skn) -> Body {
        let real = skn.real_vertex_count();
        Body {
            bones: skn.bones.clone(),
            faces: skn.faces.clone(),
            bindings: skn.bindings.clone(),
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
            vertex_count: u32::try_from(skn.vertices.len()).unwrap_or(u32::MAX),
            vertices: skn.vertices.iter().take(real).copied().collect(),
            blend_vertices: skn.vertices.iter().skip(real).copied().collect(),
        }
    }

    /// The `.skn` holding this body under `name` and `texture`, written in
    /// the original tools' style (CRLF, MSVC `%g`), which is how every
    /// known `.skn` was written. Its vertex count is its vertices' total,
    /// whatever this body stores (the two agree in every known file).
    pub fn to_skn(&self, name: RawString, texture: RawString) -> Skn {
        Skn {
            style: TextStyle::default(),
            name,
            texture,
            bones: self.bones.clone(),
            faces: self.faces.clone(),
            bindings: self.bindings.clone(),
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
                .copied()
                .collect(),
        }
    }
}

impl Bmf {
    /// The `.bmf` of a `.skn`'s data: the text style has no place in it,
    /// and its body is [`Body::from_skn`].
    pub fn from_skn(skn: &Skn) -> Bmf {
        Bmf {
            name: skn.name.clone(),
            texture: skn.texture.clone(),
            body: Body::from_skn(skn),
        }
    }

    /// The `.skn` of the same data (see [`Body::to_skn`]).
    pub fn to_skn(&self) -> Skn {
        self.body.to_skn(self.name.clone(), self.texture.clone())
    }
}

impl Describe for Bmf {
    /// Described as the `.skn` it converts to.
    fn describe(&self) -> Description {
        self.to_skn().describe()
    }
}

/// Skinned as the `.skn` it converts to.
impl Rig for Bmf {
    fn skins(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<Vec<rig::Skin>, RigError>> {
        self.to_skn().skins(files, options)
    }
}

/// The `.bmf` registration. Binary with no signature: found by extension only.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "xskin-humanoid-L_ARM-ARM.bmf",
            document: format::binary_document(Bmf::from_skn(&skn::arm_skin())),
        }]
    },
    conversions: &[
        Conversion {
            from: &skn::FORMAT,
            to: &FORMAT,
            convert: skn_to_bmf,
        },
        Conversion {
            from: &FORMAT,
            to: &skn::FORMAT,
            convert: bmf_to_skn,
        },
    ],
    ..Format::binary::<Bmf>("sims-bmf", "The Sims binary skin", &["bmf"], |_| false)
};

/// [`Bmf::from_skn`], as a conversion between registered formats.
fn skn_to_bmf(source: &dyn Any) -> Option<Box<dyn Document>> {
    format::converted(source, |skn: &Skn| {
        format::binary_document(Bmf::from_skn(skn))
    })
}

/// [`Bmf::to_skn`], as a conversion between registered formats.
fn bmf_to_skn(source: &dyn Any) -> Option<Box<dyn Document>> {
    format::converted(source, |bmf: &Bmf| format::text_document(bmf.to_skn()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{BinarySchema, Position};

    /// A small skin as `.skn` text, written by hand.
    const SKN: &str = "s\r\n\
                       x\r\n\
                       1\r\nB\r\n\
                       1\r\n0 1 2\r\n\
                       1\r\n0 0 2 0 1\r\n\
                       2\r\n0.5 1\r\n0 0\r\n\
                       1\r\n1 32768\r\n\
                       3\r\n1 0 0 0 1 0\r\n0 0 0 0 0 1\r\n0 2 0 0 0 -1\r\n";

    /// The same skin as `.bmf` bytes, written by hand from the layout.
    #[rustfmt::skip]
    const BMF: &[u8] = &[
        0x01, b's',                                     // name: Pascal "s"
        0x01, b'x',                                     // texture: "x"
        0x01, 0, 0, 0,  0x01, b'B',                     // bones: u32 1, "B"
        0x01, 0, 0, 0,  0, 0, 0, 0,  1, 0, 0, 0,  2, 0, 0, 0, // faces: 1 × (0, 1, 2)
        0x01, 0, 0, 0,                                  // bindings: 1
        0, 0, 0, 0,  0, 0, 0, 0,  2, 0, 0, 0,  0, 0, 0, 0,  1, 0, 0, 0, // (0, 0, 2, 0, 1)
        0x02, 0, 0, 0,                                  // uvs: 2
        0x00, 0x00, 0x00, 0x3F,  0x00, 0x00, 0x80, 0x3F, // (0.5, 1.0)
        0, 0, 0, 0,  0, 0, 0, 0,                        // (0, 0)
        0x01, 0, 0, 0,                                  // blends: 1
        0x00, 0x80, 0x00, 0x00,  0x01, 0, 0, 0,         // weight 32768 first, then vertex 1
        0x03, 0, 0, 0,                                  // vertices: 3
        0x00, 0x00, 0x80, 0x3F,  0, 0, 0, 0,  0, 0, 0, 0, // position (1, 0, 0)
        0, 0, 0, 0,  0x00, 0x00, 0x80, 0x3F,  0, 0, 0, 0, // normal (0, 1, 0)
        0, 0, 0, 0,  0, 0, 0, 0,  0, 0, 0, 0,            // position (0, 0, 0)
        0, 0, 0, 0,  0, 0, 0, 0,  0x00, 0x00, 0x80, 0x3F, // normal (0, 0, 1)
        0, 0, 0, 0,  0x00, 0x00, 0x00, 0x40,  0, 0, 0, 0, // position (0, 2, 0)
        0, 0, 0, 0,  0, 0, 0, 0,  0x00, 0x00, 0x80, 0xBF, // normal (0, 0, -1)
    ];

    #[test]
    fn skn_text_becomes_golden_bmf_bytes() {
        let skn = Skn::from_text(SKN.as_bytes()).unwrap();
        assert_eq!(Bmf::from_skn(&skn).to_bytes().unwrap(), BMF);
    }

    #[test]
    fn golden_bmf_bytes_become_skn_text() {
        let bmf = Bmf::from_bytes(BMF).unwrap();
        assert_eq!(
            bmf.body.blends,
            [Blend {
                raw_weight: 32768,
                vertex: 1
            }]
        );
        let text = bmf.to_skn().to_text().unwrap();
        assert_eq!(String::from_utf8(text).unwrap(), SKN);
    }

    #[test]
    fn every_truncation_is_an_error_with_a_path() {
        for len in 0..BMF.len() {
            let error = Bmf::from_bytes(&BMF[..len]).unwrap_err();
            assert!(
                matches!(error.position, Some(Position::Byte(offset)) if offset <= len as u64),
                "{len}: {error}"
            );
        }
    }
}
