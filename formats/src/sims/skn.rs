//! The Sims 1 skin (`.skn`, text): a mesh bound to the bones of a skeleton.

use serde::{Deserialize, Serialize};

use crate::files::Files;
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, BoneRange, BoneSpace, Rig, RigError, RigOptions};
use crate::schema::text::{TextSchema, TextStyle};
use crate::schema::{Endian, Error, RawString, Refusal};
use crate::Schema;

/// The Sims 1 skin (`.skn`). One value or record per line, CRLF, numbers
/// as MSVC `printf("%g")` and `%d`. No header comment and no version line.
///
/// The vertex list holds the `uvs.len()` real vertices, then one blend
/// vertex per blend entry. Vertices are stored in their bone's space.
///
/// In glTF (`ossuary convert`), a vertex no blend vertex pulls follows its
/// bone with weight 1 and deforms exactly as the game deforms it. A pulled
/// vertex follows its bone and the blend vertex's bone with weights
/// `(1 - w, w)`, placed where the game puts it at rest. glTF moves that one
/// point by both bones, where the game moves each stored point by its own
/// bone, so in a pose the two part by `w (1 - w)` times the difference of
/// the two bones' turns applied to the rest gap between the vertex and its
/// blend vertex. In the real skins the gap reaches 0.27 units; in 30 poses
/// turning every joint by up to 46 degrees, the largest departure was
/// 0.054 units (the adult's joints span 5 units from feet to head), and in
/// every frame of the game's own idle and walk 0.036 units.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct Skn {
    /// How the file was written (line ending, number style), for byte-exact output.
    #[schema(style)]
    #[serde(default)]
    pub style: TextStyle,
    /// The skin's name, e.g. `xskin-b001fafat_01-PELVIS-BODY`.
    #[schema(line)]
    pub name: RawString,
    /// The texture's name; `x` when the skin has none.
    #[schema(line)]
    pub texture: RawString,
    /// The bones the bindings refer to, by index.
    #[schema(prefix, line)]
    pub bones: Vec<RawString>,
    /// Triangles as three vertex indices (`a b c`).
    #[schema(prefix)]
    pub faces: Vec<[i32; 3]>,
    /// Which bone moves which real and blend vertices.
    #[schema(prefix)]
    pub bindings: Vec<Binding>,
    /// Texture coordinates (`u v`), one per real vertex.
    #[schema(prefix)]
    pub uvs: Vec<[f32; 2]>,
    /// Blend entries (`vertex weight`): blend vertex `uvs.len() + i` pulls
    /// real vertex `vertex` toward itself by `raw_weight / 32768`; each
    /// affects a real vertex.
    #[schema(prefix, check = blends_affect_real_vertices(uvs))]
    pub blends: Vec<Blend>,
    /// Real vertices, then blend vertices (`x y z nx ny nz`): one per uv
    /// and one per blend.
    #[schema(prefix, check = one_vertex_per_uv_and_blend(uvs, blends))]
    pub vertices: Vec<Vertex>,
}

/// Each blend's vertex is one of the real vertices (one per uv).
fn blends_affect_real_vertices(blends: &[Blend], uvs: &[[f32; 2]]) -> Result<(), Refusal> {
    let real = uvs.len();
    let outside = blends
        .iter()
        .position(|blend| usize::try_from(blend.vertex).map_or(true, |vertex| vertex >= real));
    match outside.and_then(|index| Some((index, blends.get(index)?))) {
        Some((index, blend)) => Err(Refusal::at_element(
            index,
            format!(
                "vertex {} is not one of the {real} real vertices",
                blend.vertex
            ),
        )),
        None => Ok(()),
    }
}

/// The vertex list holds the real vertices, then one blend vertex per blend.
fn one_vertex_per_uv_and_blend(
    vertices: &[Vertex],
    uvs: &[[f32; 2]],
    blends: &[Blend],
) -> Result<(), Refusal> {
    let expected = uvs.len() + blends.len();
    if vertices.len() == expected {
        return Ok(());
    }
    Err(Refusal::new(format!(
        "{} vertices, but {} uvs and {} blends need {expected}",
        vertices.len(),
        uvs.len(),
        blends.len()
    )))
}

/// Which bone carries which real and blend vertices: `bone firstVert
/// vertCount firstBlend blendCount`, one line in a `.skn`; five `i32`s in a
/// `.bmf` (and The Sims Online's `.mesh`), in the byte order of the body
/// holding them, which the text is never given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(binary(context(order: Endian), endian = order), text(one_line))]
pub struct Binding {
    /// Index into the skin's bones.
    pub bone: i32,
    pub first_vertex: i32,
    pub vertex_count: i32,
    /// Counted from the first blend vertex; -1 when `blend_count` is 0.
    pub first_blend: i32,
    pub blend_count: i32,
}

/// One blend line: `vertex weight` (the binary `.bmf` stores them the other
/// way round).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(text, one_line)]
pub struct Blend {
    /// The real vertex this blend vertex affects.
    pub vertex: i32,
    /// Weight in 1/32768ths (0x8000 = 1.0), kept as stored.
    pub raw_weight: i32,
}

impl Blend {
    /// The weight as the game used it: `raw_weight / 32768`.
    pub fn weight(&self) -> f32 {
        self.raw_weight as f32 / 32768.0
    }
}

/// A vertex: position and normal, in the space of the bone whose binding
/// holds it. One line in a `.skn`; six little-endian floats in a `.bmf`
/// (and in The Sims Online's `.mesh`).
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(binary(little), text(one_line))]
pub struct Vertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
}

impl Skn {
    /// Reads a `.skn`.
    pub fn from_text(text: &[u8]) -> Result<Self, Error> {
        <Self as TextSchema>::from_text(text)
    }

    /// Writes the `.skn` in its recorded style.
    pub fn to_text(&self) -> Result<Vec<u8>, Error> {
        <Self as TextSchema>::to_text(self)
    }

    /// Vertices with a uv (the first part of [`Skn::vertices`]).
    pub fn real_vertex_count(&self) -> usize {
        self.uvs.len()
    }
}

impl Describe for Skn {
    fn describe(&self) -> Description {
        Description {
            facts: vec![
                ("name", self.name.to_string()),
                ("texture", self.texture.to_string()),
                ("bones", self.bones.len().to_string()),
                ("faces", self.faces.len().to_string()),
                ("bindings", self.bindings.len().to_string()),
                ("real vertices", self.real_vertex_count().to_string()),
                ("blends", self.blends.len().to_string()),
                ("vertices", self.vertices.len().to_string()),
            ],
            joints: Vec::new(),
        }
    }
}

impl Rig for Skn {
    fn skins(&self, _: &Files, options: RigOptions) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Some(
            options
                .single_level()
                .and_then(|()| self.skin().map(|skin| vec![skin])),
        )
    }
}

impl Skn {
    /// The skin as neutral rig data: real vertices in their bone's space,
    /// carried by the bindings' ranges; blend vertices after them; the
    /// blend weight `raw_weight / 32768`. A value the file's signed
    /// integers cannot mean (a negative index or count) is an error; ranges
    /// past the vertices are for the consumer to refuse.
    pub fn skin(&self) -> Result<rig::Skin, RigError> {
        let real = self.real_vertex_count();
        let (vertices, blend_vertices) = self.vertices.split_at_checked(real).ok_or_else(|| {
            RigError::Invalid(format!(
                "vertices: {} vertices, but the {real} uvs need as many",
                self.vertices.len()
            ))
        })?;
        let triangles = self
            .faces
            .iter()
            .enumerate()
            .map(|(face, corners)| {
                let vertex = |corner: i32| {
                    u32::try_from(corner)
                        .ok()
                        .filter(|&vertex| (vertex as usize) < real)
                        .ok_or_else(|| {
                            RigError::Invalid(format!(
                                "faces[{face}]: vertex {corner} is not one of the {real} real vertices"
                            ))
                        })
                };
                let [a, b, c] = *corners;
                Ok([vertex(a)?, vertex(b)?, vertex(c)?])
            })
            .collect::<Result<Vec<_>, RigError>>()?;
        let ranges = self
            .bindings
            .iter()
            .enumerate()
            .map(|(index, binding)| {
                let field = |name: &str, value: i32| {
                    u32::try_from(value).map_err(|_| {
                        RigError::Invalid(format!("bindings[{index}].{name}: {value} is negative"))
                    })
                };
                // A range without entries stores -1 as its start.
                let range = |first: (&str, i32), count: (&str, i32)| {
                    let count = field(count.0, count.1)?;
                    if count == 0 {
                        return Ok(0..0);
                    }
                    let first = field(first.0, first.1)?;
                    first
                        .checked_add(count)
                        .map(|end| first..end)
                        .ok_or_else(|| {
                            RigError::Invalid(format!(
                                "bindings[{index}]: the range ends past 2^32"
                            ))
                        })
                };
                Ok(BoneRange {
                    bone: field("bone", binding.bone)?,
                    vertices: range(
                        ("first_vertex", binding.first_vertex),
                        ("vertex_count", binding.vertex_count),
                    )?,
                    blends: range(
                        ("first_blend", binding.first_blend),
                        ("blend_count", binding.blend_count),
                    )?,
                })
            })
            .collect::<Result<Vec<_>, RigError>>()?;
        let blends = self
            .blends
            .iter()
            .enumerate()
            .map(|(index, blend)| {
                let vertex = u32::try_from(blend.vertex).map_err(|_| {
                    RigError::Invalid(format!(
                        "blends[{index}].vertex: {} is negative",
                        blend.vertex
                    ))
                })?;
                Ok(rig::Blend {
                    vertex,
                    weight: blend.weight(),
                })
            })
            .collect::<Result<Vec<_>, RigError>>()?;
        Ok(rig::Skin {
            name: self.name.to_text(),
            texture: (self.texture.as_bytes() != NO_TEXTURE).then(|| self.texture.to_text()),
            morph_targets: Vec::new(),
            shared_positions: None,
            positions: vertices.iter().map(|vertex| vertex.position).collect(),
            normals: vertices.iter().map(|vertex| vertex.normal).collect(),
            uvs: self.uvs.clone(),
            triangles,
            binding: rig::Binding::BoneSpace(BoneSpace {
                bones: self.bones.iter().map(RawString::to_text).collect(),
                ranges,
                blend_positions: blend_vertices
                    .iter()
                    .map(|vertex| vertex.position)
                    .collect(),
                blend_normals: blend_vertices.iter().map(|vertex| vertex.normal).collect(),
                blends,
            }),
        })
    }
}

/// The texture line of a skin without one.
const NO_TEXTURE: &[u8] = b"x";

/// The `.skn` registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "xskin-humanoid-L_ARM-ARM.skn",
            document: format::text_document(arm_skin()),
        }]
    },
    ..Format::text::<Skn>(
        "sims-skn",
        "The Sims skin",
        &["skn"],
        // Text whose third line is the bone count.
        |bytes| {
            !bytes.contains(&0)
                && bytes
                    .split(|&b| b == b'\n')
                    .nth(2)
                    .and_then(|line| std::str::from_utf8(line).ok())
                    .is_some_and(|line| line.trim().parse::<u32>().is_ok())
        },
    )
};

/// A square tube from the left shoulder to the hand: four vertices on the
/// arm, four on the hand, and two blend vertices (in hand space) pulling
/// two of the arm's far corners toward the hand, at half and quarter weight.
pub fn arm_skin() -> Skn {
    let vertex = |x: f32, y: f32, z: f32| Vertex {
        position: [x, y, z],
        normal: [x.signum(), 0.0, z.signum()],
    };
    let ring = |y: f32| {
        [
            vertex(-0.1, y, -0.1),
            vertex(0.1, y, -0.1),
            vertex(0.1, y, 0.1),
            vertex(-0.1, y, 0.1),
        ]
    };
    let mut vertices: Vec<Vertex> = ring(0.0).into_iter().chain(ring(0.0)).collect();
    vertices.push(vertex(0.1, 0.3, 0.1));
    vertices.push(vertex(-0.1, 0.3, 0.1));
    let side = |a: i32, b: i32| [[a, b, b + 4], [a, b + 4, a + 4]];
    Skn {
        style: TextStyle::default(),
        name: RawString::from("xskin-humanoid-L_ARM-ARM"),
        texture: RawString::from("x"),
        bones: vec![RawString::from("L_ARM"), RawString::from("L_HAND")],
        faces: [side(0, 1), side(1, 2), side(2, 3), side(3, 0)].concat(),
        bindings: vec![
            Binding {
                bone: 0,
                first_vertex: 0,
                vertex_count: 4,
                first_blend: -1,
                blend_count: 0,
            },
            Binding {
                bone: 1,
                first_vertex: 4,
                vertex_count: 4,
                first_blend: 0,
                blend_count: 2,
            },
        ],
        uvs: (0..8)
            .map(|index| [(index % 4) as f32 / 4.0, (index / 4) as f32])
            .collect(),
        blends: vec![
            Blend {
                vertex: 2,
                raw_weight: 16384,
            },
            Blend {
                vertex: 3,
                raw_weight: 8192,
            },
        ],
        vertices,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Position;

    /// A small skin written by hand from the layout, one entry per line.
    const GOLDEN_LINES: &[&str] = &[
        "xskin-test-PELVIS-BODY", // 1 name
        "x",                      // 2 texture: none
        "2",                      // 3 bone count
        "PELVIS",                 // 4
        "SPINE",                  // 5
        "1",                      // 6 face count
        "0 1 2",                  // 7
        "2",                      // 8 binding count
        "0 0 2 0 1",              // 9 PELVIS: vertices 0..2, blend 0
        "1 2 1 -1 0",             // 10 SPINE: vertex 2, no blends
        "3",                      // 11 uv count = real vertices
        "0.5 1",                  // 12
        "0 0",                    // 13
        "1 -0.25",                // 14
        "1",                      // 15 blend count
        "2 16384",                // 16 vertex 2, weight 0.5
        "4",                      // 17 vertex count = 3 + 1
        "0 1 2 0 0 1",            // 18
        "-1 0.5 2.5e-005 1 0 0",  // 19 MSVC %g exponent
        "1 1 1 0 1 0",            // 20
        "0.5 0.5 0.5 0 0 1",      // 21 the blend vertex
    ];

    fn golden() -> String {
        GOLDEN_LINES
            .iter()
            .map(|line| format!("{line}\r\n"))
            .collect()
    }

    fn replaced(from: &str, to: &str) -> String {
        let text = golden();
        assert!(text.contains(from), "{from}");
        text.replacen(from, to, 1)
    }

    fn error_of(text: &str) -> String {
        Skn::from_text(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn golden_text_reads_to_known_values_and_back() {
        let skn = Skn::from_text(golden().as_bytes()).unwrap();
        assert_eq!(skn.style, TextStyle::default());
        assert_eq!(skn.texture, RawString::from("x"));
        assert_eq!(
            skn.bones,
            [RawString::from("PELVIS"), RawString::from("SPINE")]
        );
        assert_eq!(skn.faces, [[0, 1, 2]]);
        assert_eq!(
            skn.bindings[1],
            Binding {
                bone: 1,
                first_vertex: 2,
                vertex_count: 1,
                first_blend: -1,
                blend_count: 0
            }
        );
        assert_eq!(skn.uvs[2], [1.0, -0.25]);
        assert_eq!(skn.blends[0].vertex, 2);
        assert_eq!(skn.blends[0].weight(), 0.5);
        assert_eq!(skn.real_vertex_count(), 3);
        assert_eq!(skn.vertices[1].position, [-1.0, 0.5, 2.5e-5]);
        assert_eq!(String::from_utf8(skn.to_text().unwrap()).unwrap(), golden());
    }

    #[test]
    fn malformed_files_name_line_column_and_field() {
        assert_eq!(
            error_of(&replaced("\r\n2 16384\r\n", "\r\n3 16384\r\n")),
            "line 16:1: blends[0]: vertex 3 is not one of the 3 real vertices"
        );
        assert_eq!(
            error_of(&replaced("\r\n2 16384\r\n", "\r\n-1 16384\r\n")),
            "line 16:1: blends[0]: vertex -1 is not one of the 3 real vertices"
        );
        assert_eq!(
            error_of(&replaced("\r\n0 0\r\n", "\r\n0 O\r\n")),
            "line 13:3: uvs[1][1]: expected a number, found `O`"
        );
        assert_eq!(
            error_of(&replaced("\r\n1\r\n0 1 2\r\n", "\r\n40\r\n0 1 2\r\n")),
            "line 6:1: faces: count 40 needs at least 40 more lines but only 15 remain"
        );
        assert_eq!(
            error_of(&replaced("0.5 0.5 0.5 0 0 1\r\n", "")),
            "line 17:1: vertices: count 4 needs at least 4 more lines but only 3 remain"
        );
        assert_eq!(
            error_of(&replaced("\r\n0 0\r\n", "\r\n")),
            "line 14:2: uvs[2][1]: expected a number, found the end of the line"
        );
        assert_eq!(
            error_of(&replaced("\r\n4\r\n", "\r\n3\r\n").replace("0.5 0.5 0.5 0 0 1\r\n", "")),
            "line 17:1: vertices: 3 vertices, but 3 uvs and 1 blends need 4"
        );
        assert_eq!(
            error_of(&replaced("0 0 2 0 1", "0 0 2 0")),
            "line 9:8: bindings[0].blend_count: expected an integer, found the end of the line"
        );
    }

    #[test]
    fn every_truncation_is_an_error() {
        let text = golden();
        let last_line = text.len() - "0.5 0.5 0.5 0 0 1\r\n".len();
        for len in 0..last_line {
            let error = Skn::from_text(&text.as_bytes()[..len]).unwrap_err();
            assert!(
                matches!(error.position, Some(Position::Text { line, .. }) if line <= GOLDEN_LINES.len()),
                "{len}: {error}"
            );
            assert!(!error.path.is_empty(), "{len}: {error}");
        }
    }
}
