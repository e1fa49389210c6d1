//! The BonesPro structure file: bones and the mesh bound to them.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::transform::{rig_matrix, Matrix};
use crate::files::Files;
use crate::format::{self, Describe, Description};
use crate::rig::{self, Axes, Binding, Influence as RigInfluence, Rig, RigError, RigOptions};
use crate::schema::text::{Refusal, TextRead, TextReader, TextStyle};
use crate::schema::{Count, RawString};
use crate::Schema;

/// A BonesPro structure export (3ds Max): the bones, then the vertices bound
/// to them. A line of the bone count, a line of the vertex count, then each
/// bone (its name in angle brackets, spaces allowed; its parent's index,
/// counted from 0 in file order, or `*` for a root; its box size; its bone
/// transform; its node transform) and each vertex (its position, a line of
/// its influence count, then a `bone weight` line per influence). `//`
/// comments may stand on lines of their own and after the values of any
/// line; they are kept, with the file's number style and line ending, so a
/// file comes back byte for byte.
///
/// No real export is public, so this layout is ossuary's reading of the
/// specification: both transforms are 3ds Max matrices (three rotation rows,
/// then the translation row, for row vectors: `v' = v * M`), absolute
/// (world); the bone transform poses and deforms, the node transform is
/// kept as data. Vertex positions are world positions at the time the mesh
/// was attached; a vertex moves by `v' = sum of w_b * v * inverse(B_b) *
/// B_b(f)` over its influences, `B_b` being bone b's transform here and
/// `B_b(f)` at frame f. Weights are used as written (not normalized). Axes
/// are 3ds Max's: right-handed, z up.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, comments)]
pub struct Structure {
    /// How the file was written (comments, line ending, number style), for
    /// byte-exact output.
    #[schema(style)]
    #[serde(default)]
    pub style: TextStyle,
    /// The number of bones.
    #[serde(skip)]
    pub bone_count: Count<u32>,
    /// The number of vertices.
    #[serde(skip)]
    pub vertex_count: Count<u32>,
    /// The bones. Every parent is another bone, and following parents from
    /// any bone reaches a root.
    #[schema(count = bone_count, check = parents_make_a_tree)]
    pub bones: Vec<Bone>,
    /// The mesh's vertices. Every influence names a bone.
    #[schema(count = vertex_count, check = influences_name_bones(bones))]
    pub vertices: Vec<Vertex>,
}

/// One bone: eleven lines.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, comments)]
pub struct Bone {
    /// The bone's name, e.g. `Bip01 L Thigh`.
    #[schema(angle_brackets)]
    pub name: RawString,
    /// The parent bone's index (from 0, in file order); `*` for a root.
    #[schema(none = "*")]
    pub parent: Option<u32>,
    /// The size of the bone's box (x, y, z): kept as data.
    pub box_size: [f32; 3],
    /// The bone's world transform when the mesh was attached: its rest pose.
    pub bone_transform: Matrix,
    /// The world transform of the 3ds Max node: kept as data.
    pub node_transform: Matrix,
}

/// One vertex of the mesh.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, comments)]
pub struct Vertex {
    /// The world position when the mesh was attached.
    pub position: [f32; 3],
    /// The bones that move the vertex, any number of them. The
    /// specification does not say where the `bone weight` pairs break
    /// lines: any whitespace may stand between them (one pair per line,
    /// all on one line, or broken anywhere), written back as read.
    #[schema(prefix, flow)]
    pub influences: Vec<Influence>,
}

/// One `bone weight` pair, on a line of its own unless the file put it
/// elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, one_line)]
pub struct Influence {
    /// The bone's index.
    pub bone: u32,
    /// How much of the bone's motion the vertex follows; finite.
    #[schema(check = weight_is_finite)]
    pub weight: f32,
}

/// Each bone's parent is another bone and no chain of parents loops.
fn parents_make_a_tree(bones: &[Bone]) -> Result<(), Refusal> {
    let count = bones.len();
    let parent_of = |bone: usize| {
        bones
            .get(bone)
            .and_then(|bone| bone.parent)
            .and_then(|parent| usize::try_from(parent).ok())
    };
    for (index, bone) in bones.iter().enumerate() {
        if let Some(parent) = bone.parent {
            if parent_of(index).is_none_or(|parent| parent >= count) {
                return Err(Refusal::at_element(
                    index,
                    format!(
                        "parent {parent} is not one of the {count} bones (0 to {})",
                        count.saturating_sub(1)
                    ),
                ));
            }
        }
    }
    #[derive(Clone, Copy, PartialEq)]
    enum Visit {
        Not,
        OnWalk,
        Done,
    }
    let mut visits = vec![Visit::Not; count];
    for start in 0..count {
        let mut walk = Vec::new();
        let mut at = Some(start);
        while let Some(bone) = at {
            match visits.get(bone).copied() {
                Some(Visit::Not) => {}
                Some(Visit::OnWalk) => {
                    let first = walk.iter().position(|&on| on == bone).unwrap_or(0);
                    let path: Vec<String> = walk
                        .get(first..)
                        .unwrap_or_default()
                        .iter()
                        .chain([&bone])
                        .map(usize::to_string)
                        .collect();
                    return Err(Refusal::at_element(
                        bone,
                        format!("its parents loop back to it: bones {}", path.join(" -> ")),
                    ));
                }
                Some(Visit::Done) | None => break,
            }
            if let Some(visit) = visits.get_mut(bone) {
                *visit = Visit::OnWalk;
            }
            walk.push(bone);
            at = parent_of(bone);
        }
        for bone in walk {
            if let Some(visit) = visits.get_mut(bone) {
                *visit = Visit::Done;
            }
        }
    }
    Ok(())
}

/// Every influence names one of the bones.
fn influences_name_bones(vertices: &[Vertex], bones: &[Bone]) -> Result<(), Refusal> {
    let count = bones.len();
    for (index, vertex) in vertices.iter().enumerate() {
        let outside = vertex.influences.iter().enumerate().find(|(_, influence)| {
            usize::try_from(influence.bone).map_or(true, |bone| bone >= count)
        });
        if let Some((number, influence)) = outside {
            return Err(Refusal::at_element(
                index,
                format!(
                    "influence {number} names bone {}, but there are {count} bones",
                    influence.bone
                ),
            ));
        }
    }
    Ok(())
}

fn weight_is_finite(weight: &f32) -> Result<(), Refusal> {
    if weight.is_finite() {
        Ok(())
    } else {
        Err(Refusal::new(format!(
            "weight {weight} is not a finite number"
        )))
    }
}

impl Structure {
    /// Bone `index`'s parent, when it is one of the bones.
    fn parent_of(&self, index: usize) -> Option<usize> {
        let parent = usize::try_from(self.bones.get(index)?.parent?).ok()?;
        (parent < self.bones.len()).then_some(parent)
    }
}

impl Describe for Structure {
    /// Counts and the bone tree (a parent that is no bone shows as a root).
    fn describe(&self) -> Description {
        let influences: usize = self
            .vertices
            .iter()
            .map(|vertex| vertex.influences.len())
            .sum();
        Description {
            facts: vec![
                ("bones", self.bones.len().to_string()),
                ("vertices", self.vertices.len().to_string()),
                ("influences", influences.to_string()),
            ],
            joints: self
                .bones
                .iter()
                .enumerate()
                .map(|(index, bone)| format::Joint {
                    name: bone.name.to_string(),
                    parent: self.parent_of(index),
                })
                .collect(),
        }
    }
}

impl Rig for Structure {
    /// Each bone's rest local transform is the one that puts it at its bone
    /// transform under its parent's: `inverse(parent) * bone` in
    /// column-vector math (the row-vector matrices transposed).
    fn skeleton(&self, _: &Files, options: RigOptions) -> Option<Result<rig::Skeleton, RigError>> {
        if let Err(error) = options.single_level() {
            return Some(Err(error));
        }
        let joints = self
            .bones
            .iter()
            .enumerate()
            .map(|(index, bone)| {
                let world = bone.bone_transform.to_affine();
                let parent = match bone.parent {
                    None => None,
                    Some(parent) => Some(self.parent_of(index).ok_or_else(|| {
                        RigError::Invalid(format!(
                            "bones[{index}].parent: {parent} is not one of the {} bones",
                            self.bones.len()
                        ))
                    })?),
                };
                let local = match parent.and_then(|parent| self.bones.get(parent)) {
                    Some(parent) => parent.bone_transform.to_affine().inverse() * world,
                    None => world,
                };
                Ok(rig::Joint {
                    name: bone.name.to_text(),
                    parent,
                    rest: rig_matrix(&local),
                })
            })
            .collect::<Result<Vec<_>, RigError>>();
        Some(joints.map(|joints| rig::Skeleton {
            joints,
            axes: Axes::RightHandedZUp,
        }))
    }

    /// The mesh: its vertices where the bones' transforms put them, each
    /// following its influences' bones by their weights. It has no faces.
    fn skins(&self, _: &Files, options: RigOptions) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Some(
            options
                .single_level()
                .and_then(|()| self.skin().map(|skin| vec![skin])),
        )
    }
}

impl Structure {
    /// The mesh as neutral rig data. The skinning finds bones by name, so an
    /// influence on a bone that shares its name with an earlier bone is an
    /// error, as is one on a bone that does not exist.
    pub fn skin(&self) -> Result<rig::Skin, RigError> {
        let mut first_named: HashMap<&[u8], usize> = HashMap::with_capacity(self.bones.len());
        for (index, bone) in self.bones.iter().enumerate() {
            first_named.entry(bone.name.as_bytes()).or_insert(index);
        }
        let mut influences = Vec::new();
        for (index, vertex) in self.vertices.iter().enumerate() {
            for (number, influence) in vertex.influences.iter().enumerate() {
                let bone = usize::try_from(influence.bone)
                    .ok()
                    .and_then(|bone| self.bones.get(bone).map(|found| (bone, found)));
                let fail = |problem: String| {
                    RigError::Invalid(format!(
                        "vertices[{index}].influences[{number}].bone: {problem}"
                    ))
                };
                let (bone, found) = bone.ok_or_else(|| {
                    fail(format!(
                        "{} is not one of the {} bones",
                        influence.bone,
                        self.bones.len()
                    ))
                })?;
                let first = first_named.get(found.name.as_bytes()).copied();
                if let Some(first) = first.filter(|&first| first != bone) {
                    return Err(fail(format!(
                        "bone {bone} has the name of bone {first} ({}), and the mesh finds its \
                         bones by name",
                        found.name.quoted()
                    )));
                }
                influences.push(RigInfluence {
                    joint: influence.bone,
                    weight: influence.weight,
                });
            }
        }
        Ok(rig::Skin {
            name: "mesh".to_owned(),
            texture: None,
            morph_targets: Vec::new(),
            shared_positions: None,
            positions: self.vertices.iter().map(|vertex| vertex.position).collect(),
            normals: Vec::new(),
            uvs: Vec::new(),
            triangles: Vec::new(),
            binding: Binding::Weighted(rig::Weights {
                joints: self.bones.iter().map(|bone| bone.name.to_text()).collect(),
                counts: self
                    .vertices
                    .iter()
                    .map(|vertex| vertex.influences.len() as u32)
                    .collect(),
                influences,
            }),
        })
    }
}

/// The first values of a structure file: enough to tell one from other text.
#[derive(Debug, Schema)]
#[schema(text, comments)]
struct Head {
    bone_count: u32,
    vertex_count: u32,
    #[schema(angle_brackets)]
    first_bone: RawString,
}

/// Whether `bytes` begin as a structure file does: two counts, then a
/// bone's `<name>` (a file without bones needs `--format`).
pub(super) fn sniff(bytes: &[u8]) -> bool {
    Head::read_text(&mut TextReader::new(bytes), &()).is_ok()
}
