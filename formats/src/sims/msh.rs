//! The Sims 1998 prototype's mesh (`.msh`): positions, texture coordinates,
//! faces and vertex records, each vertex in the space of the one bone the
//! suit binds the mesh to.

use serde::{Deserialize, Serialize};

use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, BoneRange, BoneSpace, Rig};
use crate::schema::{
    Count, Encode, Endian, Error, ErrorKind, Magic, RawString, Refusal, Segment, SizeOutput,
};
use crate::Schema;

/// The Sims 1998 prototype's mesh (`.msh`), little-endian: the signature
/// `0xB0B0B0B2`, then five blocks, each an i32 count, an i32 stride (the
/// bytes of one entry) and the entries: positions (stride 12), texture
/// coordinates (8), faces (16), vertex records (24) and the texture's name
/// (one entry as long as the name). A vertex record joins a position, a
/// texture coordinate and a normal, so the position and coordinate lists
/// may be shorter than the vertex list; faces index the vertex records.
/// Every index must fall within its list: a file whose index does not is
/// an error at that index's byte, naming the field (the type's `check`,
/// which runs once the vertex records, read after the faces, are in).
///
/// The mesh names no bone: the suit that names the mesh binds it to one,
/// and every vertex is stored in that bone's space and moves with it alone
/// (as a `.skn` vertex moves with the bone whose range holds it).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, check = indices_within_their_lists)]
pub struct Msh {
    /// `B2 B0 B0 B0`: the u32 0xB0B0B0B2.
    #[schema(magic = 0xB0B0_B0B2u32)]
    #[serde(skip)]
    pub signature: Magic,
    /// How many positions.
    #[serde(skip)]
    pub position_count: Count<i32>,
    /// The bytes of one position: 12.
    #[schema(magic = 12i32)]
    #[serde(skip)]
    pub position_stride: Magic,
    /// Positions (x, y, z) in the space of the suit's bone.
    #[schema(count = position_count)]
    pub positions: Vec<[f32; 3]>,
    /// How many texture coordinates.
    #[serde(skip)]
    pub uv_count: Count<i32>,
    /// The bytes of one texture coordinate: 8.
    #[schema(magic = 8i32)]
    #[serde(skip)]
    pub uv_stride: Magic,
    /// Texture coordinates (u, v), as stored: some lie outside 0 to 1.
    #[schema(count = uv_count)]
    pub uvs: Vec<[f32; 2]>,
    /// How many faces.
    #[serde(skip)]
    pub face_count: Count<i32>,
    /// The bytes of one face: 16.
    #[schema(magic = 16i32)]
    #[serde(skip)]
    pub face_stride: Magic,
    /// Triangles of vertex records.
    #[schema(count = face_count)]
    pub faces: Vec<Face>,
    /// How many vertex records.
    #[serde(skip)]
    pub vertex_count: Count<i32>,
    /// The bytes of one vertex record: 24.
    #[schema(magic = 24i32)]
    #[serde(skip)]
    pub vertex_stride: Magic,
    /// The mesh's vertices, in the order faces index them.
    #[schema(count = vertex_count)]
    pub vertices: Vec<VertexRecord>,
    /// The texture block holds one entry: the name.
    #[schema(magic = 1i32)]
    #[serde(skip)]
    pub texture_count: Magic,
    /// The texture's name without extension (e.g. `mfemhead`): the block's
    /// stride, an i32, is its length, and no 0 byte ends it.
    #[schema(prefix = i32)]
    pub texture: RawString,
}

/// A triangle: three indices into the vertex records, then an integer
/// that is 0 in every known file (kept as data).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Face {
    /// Indices into the vertex records.
    pub corners: [i32; 3],
    /// 0 in every known file.
    pub unknown: i32,
}

/// One vertex: its position and texture coordinate by index, its normal,
/// and an integer that varies without a pattern anyone has found (kept as
/// data).
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct VertexRecord {
    /// Index into the positions.
    pub position: i32,
    /// Index into the texture coordinates.
    pub uv: i32,
    /// The normal (x, y, z), in the bone's space like the position.
    pub normal: [f32; 3],
    /// No meaning found; kept as data. In the 23 sample meshes its low 16 bits
    /// are 0 and its high 16 bits resemble leftover memory (the upper
    /// halves of floats, pairs of ASCII letters).
    pub unknown: u32,
}

/// Every index within its list, in file order: the faces' corners among
/// the vertex records, each record's position and texture coordinate among
/// theirs. A refusal names the index's field; the runtime places it at
/// that field's bytes.
fn indices_within_their_lists(msh: &Msh) -> Result<(), Refusal> {
    let vertex_count = msh.vertices.len();
    for (index, face) in msh.faces.iter().enumerate() {
        for (corner, &vertex) in face.corners.iter().enumerate() {
            let place = [
                Segment::Field("faces"),
                Segment::Index(index),
                Segment::Field("corners"),
                Segment::Index(corner),
            ];
            in_range(vertex, vertex_count, "vertex records")
                .map_err(|refusal| refusal.inside(place))?;
        }
    }
    for (index, record) in msh.vertices.iter().enumerate() {
        let fields = [
            (
                record.position,
                msh.positions.len(),
                "positions",
                "position",
            ),
            (record.uv, msh.uvs.len(), "texture coordinates", "uv"),
        ];
        for (value, len, list, field) in fields {
            let place = [
                Segment::Field("vertices"),
                Segment::Index(index),
                Segment::Field(field),
            ];
            in_range(value, len, list).map_err(|refusal| refusal.inside(place))?;
        }
    }
    Ok(())
}

impl Msh {
    /// The mesh as neutral rig data, every vertex in the space of `bone`
    /// (the one the suit names) and moving with it alone. Indices out of
    /// range are errors, as when reading (the writer's checks, counting
    /// the bytes it would write, give the same error).
    pub fn skin(&self, name: &str, bone: &str) -> Result<rig::Skin, Error> {
        self.encode_output(&mut SizeOutput::default(), Endian::Little, &())?;
        let position = |record: &VertexRecord| {
            usize::try_from(record.position)
                .ok()
                .and_then(|index| self.positions.get(index))
                .copied()
                .unwrap_or_default()
        };
        let uv = |record: &VertexRecord| {
            usize::try_from(record.uv)
                .ok()
                .and_then(|index| self.uvs.get(index))
                .copied()
                .unwrap_or_default()
        };
        let corner = |vertex: i32| u32::try_from(vertex).unwrap_or_default();
        let vertex_count = u32::try_from(self.vertices.len()).map_err(|_| {
            Error::new(ErrorKind::Invalid(format!(
                "{} vertex records; a mesh holds at most {}",
                self.vertices.len(),
                u32::MAX
            )))
            .in_field("vertices")
        })?;
        Ok(rig::Skin {
            name: name.to_owned(),
            texture: Some(self.texture.to_text()),
            positions: self.vertices.iter().map(position).collect(),
            normals: self.vertices.iter().map(|record| record.normal).collect(),
            uvs: self.vertices.iter().map(uv).collect(),
            triangles: self
                .faces
                .iter()
                .map(|face| face.corners.map(corner))
                .collect(),
            binding: rig::Binding::BoneSpace(BoneSpace {
                bones: vec![bone.to_owned()],
                ranges: vec![BoneRange {
                    bone: 0,
                    vertices: 0..vertex_count,
                    blends: 0..0,
                }],
                blend_positions: Vec::new(),
                blend_normals: Vec::new(),
                blends: Vec::new(),
            }),
            morph_targets: Vec::new(),
            shared_positions: None,
        })
    }
}

/// `index` is one of a list's `len` entries.
fn in_range(index: i32, len: usize, list: &str) -> Result<(), Refusal> {
    if usize::try_from(index).is_ok_and(|index| index < len) {
        return Ok(());
    }
    Err(Refusal::new(format!(
        "index {index} is not one of the {len} {list}"
    )))
}

impl Describe for Msh {
    fn describe(&self) -> Description {
        Description {
            facts: vec![
                ("texture", self.texture.to_string()),
                ("positions", self.positions.len().to_string()),
                ("texture coordinates", self.uvs.len().to_string()),
                ("faces", self.faces.len().to_string()),
                ("vertices", self.vertices.len().to_string()),
            ],
            joints: Vec::new(),
        }
    }
}

/// Posed only through the suit that names it, which gives its bone.
impl Rig for Msh {}

/// The `.msh` registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "xskin-humanoid_proto-L_ARM-ARM.msh",
            document: format::binary_document(arm_block()),
        }]
    },
    ..Format::binary::<Msh>(
        "sims-msh",
        "The Sims 1998 prototype mesh",
        &["msh"],
        |bytes| bytes.starts_with(&0xB0B0_B0B2u32.to_le_bytes()),
    )
};

/// A box along the humanoid's left arm, 0.2 across and 0.3 long, in the
/// arm bone's space: 8 corners, 12 triangles, one texture coordinate per
/// corner of a face's square (4, shared by the vertex records).
pub fn arm_block() -> Msh {
    let positions: Vec<[f32; 3]> = (0..8)
        .map(|corner| {
            let x = if corner & 1 == 0 { -0.1 } else { 0.1 };
            let y = if corner & 2 == 0 { 0.0 } else { 0.3 };
            let z = if corner & 4 == 0 { -0.1 } else { 0.1 };
            [x, y, z]
        })
        .collect();
    let vertices = positions
        .iter()
        .enumerate()
        .map(|(index, &[x, y, z])| VertexRecord {
            position: index as i32,
            uv: (index % 4) as i32,
            normal: normalized([x, y - 0.15, z]),
            unknown: 0x00EF_0000 + index as u32,
        })
        .collect();
    // Each side of the box as two triangles, wound as the game winds them.
    let square = |a: i32, b: i32, c: i32, d: i32| {
        [
            Face {
                corners: [a, b, c],
                unknown: 0,
            },
            Face {
                corners: [a, c, d],
                unknown: 0,
            },
        ]
    };
    Msh {
        signature: Magic,
        position_count: Count::new(),
        position_stride: Magic,
        positions,
        uv_count: Count::new(),
        uv_stride: Magic,
        uvs: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
        face_count: Count::new(),
        face_stride: Magic,
        faces: [
            square(0, 1, 3, 2),
            square(4, 6, 7, 5),
            square(0, 4, 5, 1),
            square(2, 3, 7, 6),
            square(0, 2, 6, 4),
            square(1, 5, 7, 3),
        ]
        .concat(),
        vertex_count: Count::new(),
        vertex_stride: Magic,
        vertices,
        texture_count: Magic,
        texture: RawString::from("humanoid-arm"),
    }
}

fn normalized([x, y, z]: [f32; 3]) -> [f32; 3] {
    let length = (x * x + y * y + z * z).sqrt();
    [x / length, y / length, z / length]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{BinarySchema, Position};

    /// A mesh of one triangle, written by hand from the layout: three
    /// positions, two texture coordinates, three vertex records.
    #[rustfmt::skip]
    const GOLDEN: &[u8] = &[
        0xB2, 0xB0, 0xB0, 0xB0,  // 0 signature 0xB0B0B0B2
        0x03, 0x00, 0x00, 0x00,  // 4 position count: 3
        0x0C, 0x00, 0x00, 0x00,  // 8 stride: 12
        0x00, 0x00, 0x00, 0x00,  // 12 positions[0]: 0,
        0x00, 0x00, 0x80, 0x3F,  //   1,
        0x00, 0x00, 0x00, 0x00,  //   0
        0x00, 0x00, 0x80, 0x3F,  // 24 positions[1]: 1,
        0x00, 0x00, 0x00, 0x00,  //   0,
        0x00, 0x00, 0x00, 0x00,  //   0
        0x00, 0x00, 0x00, 0xBF,  // 36 positions[2]: -0.5,
        0x00, 0x00, 0x00, 0x00,  //   0,
        0x00, 0x00, 0x20, 0x41,  //   10
        0x02, 0x00, 0x00, 0x00,  // 48 uv count: 2
        0x08, 0x00, 0x00, 0x00,  // 52 stride: 8
        0x00, 0x00, 0x00, 0x00,  // 56 uvs[0]: 0,
        0x00, 0x00, 0x80, 0x3F,  //   1
        0x00, 0x00, 0xC0, 0x3F,  // 64 uvs[1]: 1.5 (outside 0 to 1),
        0x00, 0x00, 0x00, 0x00,  //   0
        0x01, 0x00, 0x00, 0x00,  // 72 face count: 1
        0x10, 0x00, 0x00, 0x00,  // 76 stride: 16
        0x00, 0x00, 0x00, 0x00,  // 80 faces[0].corners: 0,
        0x01, 0x00, 0x00, 0x00,  // 84   1,
        0x02, 0x00, 0x00, 0x00,  // 88   2
        0x00, 0x00, 0x00, 0x00,  // 92   unknown: 0
        0x03, 0x00, 0x00, 0x00,  // 96 vertex count: 3
        0x18, 0x00, 0x00, 0x00,  // 100 stride: 24
        0x00, 0x00, 0x00, 0x00,  // 104 vertices[0].position: 0
        0x00, 0x00, 0x00, 0x00,  // 108   uv: 0
        0x00, 0x00, 0x00, 0x00,  //   normal: 0,
        0x00, 0x00, 0x00, 0x00,  //     0,
        0x00, 0x00, 0x80, 0xBF,  //     -1
        0x78, 0x56, 0x34, 0x12,  //   unknown: 0x12345678
        0x01, 0x00, 0x00, 0x00,  // 128 vertices[1].position: 1
        0x01, 0x00, 0x00, 0x00,  // 132   uv: 1
        0x00, 0x00, 0x00, 0x00,  //   normal: 0,
        0x00, 0x00, 0x00, 0x00,  //     0,
        0x00, 0x00, 0x80, 0xBF,  //     -1
        0x00, 0x00, 0xEF, 0x00,  //   unknown: 0x00EF0000
        0x02, 0x00, 0x00, 0x00,  // 152 vertices[2].position: 2
        0x00, 0x00, 0x00, 0x00,  // 156   uv: 0 (shared with vertices[0])
        0x00, 0x00, 0x00, 0x00,  //   normal: 0,
        0x00, 0x00, 0x00, 0x00,  //     0,
        0x00, 0x00, 0x80, 0xBF,  //     -1
        0x00, 0x00, 0x00, 0x00,  //   unknown: 0
        0x01, 0x00, 0x00, 0x00,  // 176 texture block count: 1
        0x04, 0x00, 0x00, 0x00,  // 180 stride: the name's length, 4
        b'h', b'e', b'a', b'd',  // 184 texture: "head", no 0 after it
    ];

    fn with(offset: usize, bytes: [u8; 4]) -> Vec<u8> {
        let mut changed = GOLDEN.to_vec();
        changed[offset..offset + 4].copy_from_slice(&bytes);
        changed
    }

    fn error_of(bytes: &[u8]) -> String {
        Msh::from_bytes(bytes).unwrap_err().to_string()
    }

    #[test]
    fn golden_bytes_read_to_known_values_and_back() {
        let msh = Msh::from_bytes(GOLDEN).unwrap();
        assert_eq!(
            msh.positions,
            [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [-0.5, 0.0, 10.0]]
        );
        assert_eq!(msh.uvs, [[0.0, 1.0], [1.5, 0.0]]);
        assert_eq!(
            msh.faces,
            [Face {
                corners: [0, 1, 2],
                unknown: 0
            }]
        );
        assert_eq!(msh.vertices[0].unknown, 0x1234_5678);
        assert_eq!(msh.vertices[2].uv, 0);
        assert_eq!(msh.texture, RawString::from("head"));
        assert_eq!(msh.to_bytes().unwrap(), GOLDEN);
        assert_eq!(
            msh.describe().facts,
            [
                ("texture", "head".to_owned()),
                ("positions", "3".to_owned()),
                ("texture coordinates", "2".to_owned()),
                ("faces", "1".to_owned()),
                ("vertices", "3".to_owned()),
            ]
        );
    }

    #[test]
    fn the_skin_puts_every_vertex_on_the_suits_bone() {
        let skin = Msh::from_bytes(GOLDEN)
            .unwrap()
            .skin("xskin-a-HEAD-HEAD", "HEAD")
            .unwrap();
        assert_eq!(skin.name, "xskin-a-HEAD-HEAD");
        assert_eq!(skin.texture.as_deref(), Some("head"));
        assert_eq!(
            skin.positions,
            [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [-0.5, 0.0, 10.0]]
        );
        assert_eq!(skin.uvs, [[0.0, 1.0], [1.5, 0.0], [0.0, 1.0]]);
        assert_eq!(skin.normals, [[0.0, 0.0, -1.0]; 3]);
        assert_eq!(skin.triangles, [[0, 1, 2]]);
        assert_eq!(
            skin.binding,
            rig::Binding::BoneSpace(BoneSpace {
                bones: vec!["HEAD".to_owned()],
                ranges: vec![BoneRange {
                    bone: 0,
                    vertices: 0..3,
                    blends: 0..0,
                }],
                blend_positions: Vec::new(),
                blend_normals: Vec::new(),
                blends: Vec::new(),
            })
        );
    }

    #[test]
    fn indices_out_of_range_are_errors_at_their_byte() {
        assert_eq!(
            error_of(&with(88, [3, 0, 0, 0])),
            "byte 88: faces[0].corners[2]: index 3 is not one of the 3 vertex records"
        );
        assert_eq!(
            error_of(&with(84, [0xFF, 0xFF, 0xFF, 0xFF])),
            "byte 84: faces[0].corners[1]: index -1 is not one of the 3 vertex records"
        );
        assert_eq!(
            error_of(&with(128, [3, 0, 0, 0])),
            "byte 128: vertices[1].position: index 3 is not one of the 3 positions"
        );
        assert_eq!(
            error_of(&with(156, [2, 0, 0, 0])),
            "byte 156: vertices[2].uv: index 2 is not one of the 2 texture coordinates"
        );
    }

    #[test]
    fn strides_and_the_signature_are_checked_where_they_stand() {
        assert_eq!(
            Msh::from_bytes(&with(52, [12, 0, 0, 0]))
                .unwrap_err()
                .path
                .to_string(),
            "uv_stride"
        );
        assert_eq!(
            Msh::from_bytes(&with(52, [12, 0, 0, 0]))
                .unwrap_err()
                .position,
            Some(Position::Byte(52))
        );
        assert_eq!(
            Msh::from_bytes(&with(0, *b"B0B0"))
                .unwrap_err()
                .path
                .to_string(),
            "signature"
        );
        assert_eq!(
            Msh::from_bytes(&with(176, [2, 0, 0, 0]))
                .unwrap_err()
                .path
                .to_string(),
            "texture_count"
        );
        let negative = error_of(&with(180, [0xFF, 0xFF, 0xFF, 0xFF]));
        assert_eq!(negative, "byte 180: texture: the i32 count is negative");
    }

    #[test]
    fn every_cut_of_the_golden_bytes_is_an_error_within_them() {
        for len in 0..GOLDEN.len() {
            let error = Msh::from_bytes(&GOLDEN[..len]).unwrap_err();
            assert!(
                matches!(error.position, Some(Position::Byte(offset)) if offset <= len as u64),
                "{len}: {error}"
            );
        }
    }

    #[test]
    fn the_sample_is_a_closed_box_that_reads_back() {
        let block = arm_block();
        let bytes = block.to_bytes().unwrap();
        assert_eq!(Msh::from_bytes(&bytes).unwrap(), block);
        // Every edge of a closed surface borders two triangles.
        let mut edges = std::collections::HashMap::new();
        for face in &block.faces {
            let [a, b, c] = face.corners;
            for (from, to) in [(a, b), (b, c), (c, a)] {
                *edges.entry((from.min(to), from.max(to))).or_insert(0) += 1;
            }
        }
        assert!(edges.values().all(|&count| count == 2), "{edges:?}");
    }
}
