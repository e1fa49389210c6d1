//! The Sims 1 binary skin (`.bmf`): the `.skn` layout, little-endian.

use serde::{Deserialize, Serialize};

use super::skn::{self, Skn};
use crate::files::Files;
use crate::format::{self, Conversion, Describe, Description, Encoding, Format, Sample};
use crate::rig::{self, Rig, RigError, RigOptions};
use crate::schema::text::TextStyle;
use crate::schema::Layout;
use crate::schema::RawString;
use crate::Schema;

/// The Sims 1 binary skin (`.bmf`): the fields of a `.skn` in the same
/// order, little-endian, with Pascal strings (u8 length) and u32 counts.
/// Blend records store the weight first, then the vertex. Exported to
/// glTF as a `.skn` is (see its page for how far blend vertices can depart).
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
    pub position: [f32; 3],
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

impl Describe for Bmf {
    /// Described as the `.skn` it converts to.
    fn describe(&self) -> Description {
        Skn::from(self).describe()
    }
}

/// Skinned as the `.skn` it converts to.
impl Rig for Bmf {
    fn skins(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Skn::from(self).skins(files, options)
    }
}

/// The `.bmf` registration. Binary with no signature: found by extension only.
pub static FORMAT: Format = Format {
    name: "sims-bmf",
    title: "The Sims binary skin",
    extensions: &["bmf"],
    encoding: Encoding::Binary,
    sniff: |_| false,
    decode: format::decode_binary::<Bmf>,
    from_json: format::binary_from_json::<Bmf>,
    layout: Bmf::LAYOUT,
    samples: || {
        vec![Sample {
            file_name: "xskin-humanoid-L_ARM-ARM.bmf",
            document: format::binary_document(Bmf::from(&skn::arm_skin())),
        }]
    },
    conversions: &[
        Conversion {
            from: &skn::FORMAT,
            to: &FORMAT,
            convert: format::convert_to_binary::<Skn, Bmf>,
        },
        Conversion {
            from: &FORMAT,
            to: &skn::FORMAT,
            convert: format::convert_to_text::<Bmf, Skn>,
        },
    ],
};

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
        assert_eq!(Bmf::from(&skn).to_bytes().unwrap(), BMF);
    }

    #[test]
    fn golden_bmf_bytes_become_skn_text() {
        let bmf = Bmf::from_bytes(BMF).unwrap();
        assert_eq!(
            bmf.blends,
            [Blend {
                raw_weight: 32768,
                vertex: 1
            }]
        );
        let text = Skn::from(&bmf).to_text().unwrap();
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
