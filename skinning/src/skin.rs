//! Skin deformation: a rig skin is bound to a skeleton once (its joints
//! found by name, every index and range checked, the vertices laid out in
//! groups of 16 for the deformation's loops, as `groups.rs` describes, the
//! blend vertices as `pulls.rs` does), then deformed by any pose of that
//! skeleton. A [`Deformer`] keeps its scratch
//! and the caller's output buffers from one pose to the next, writes each
//! output once, and splits large meshes across rayon's threads.
//!
//! Two bindings:
//! - weighted: vertices stored where the rest pose puts them, each moved by
//!   `sum of w * model(pose) * inverse(model(rest))`;
//! - bone space (the Sims): each vertex stored in the space of the one bone
//!   whose range holds it, moved by that bone's model matrix; blend vertices,
//!   moved the same way by their own bones, then pull the vertices they name:
//!   `final = (1 - w) * vertex + w * blend vertex`.
//!
//! A vertex no range or weight moves keeps its stored values.
//!
//! Morph targets (blend shapes) change the stored vertices first, by
//! weights given by name ([`BoundSkin::morphed`]).

use std::ops::Range;

use formats::rig::{self, Binding};
use glam::{Affine3A, Vec3};
use rayon::prelude::*;
use thiserror::Error;

use crate::groups::{Arithmetic, Influences, Isa, Job, Table};
use crate::lanes::Vec3Groups;
use crate::pose::JobError;
use crate::pulls::Pulls;
use crate::skeleton::Skeleton;

/// Why a skin does not fit a skeleton or is not a consistent mesh.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SkinError {
    #[error("the mesh is bound to bone {0:?}, which the skeleton does not have")]
    UnknownJoint(String),
    #[error("the mesh has {positions} vertices but {count} {what}")]
    VertexData {
        positions: usize,
        what: &'static str,
        count: usize,
    },
    #[error("triangle {triangle} uses vertex {vertex}, but the mesh has only {count} vertices")]
    TriangleOutOfRange {
        triangle: usize,
        vertex: u32,
        count: usize,
    },
    #[error("range {range} uses bone {bone}, but the mesh names only {count} bones")]
    BoneOutOfRange {
        range: usize,
        bone: u32,
        count: usize,
    },
    #[error("range {range} covers {what} {start} to {end}, outside the {count} {what}")]
    RangeOutOfBounds {
        range: usize,
        what: &'static str,
        start: u32,
        end: u32,
        count: usize,
    },
    #[error("blend {blend} pulls vertex {vertex}, but the mesh has only {count} vertices")]
    BlendVertexOutOfRange {
        blend: usize,
        vertex: u32,
        count: usize,
    },
    #[error("the mesh has {blend_vertices} blend vertices but {blends} blends")]
    BlendCount {
        blend_vertices: usize,
        blends: usize,
    },
    #[error("the weights cover {covered} vertices, but the mesh has {count}")]
    WeightCount { covered: usize, count: usize },
    #[error("vertex {vertex} has {influences} influences, more than the {left} left in the list")]
    InfluencesPastTheEnd {
        vertex: usize,
        influences: u32,
        left: usize,
    },
    #[error("an influence of vertex {vertex} names joint {joint}, but the weights name only {count} joints")]
    InfluenceOutOfRange {
        vertex: usize,
        joint: u32,
        count: usize,
    },
    #[error("the weights name joint {joint} of the skeleton, but a weighted mesh reaches only its first 65536 joints")]
    JointPastTheWeightedLimit { joint: usize },
    #[error("morph target {target:?} moves the {what} of vertex {vertex}, but the mesh has only {count} {what}s")]
    MorphOutOfRange {
        target: String,
        what: &'static str,
        vertex: u32,
        count: usize,
    },
    #[error("vertex {vertex} stands at entry {entry} of the shared positions, but the list has only {count}")]
    SharedPositionOutOfRange {
        vertex: usize,
        entry: u32,
        count: u32,
    },
    #[error(transparent)]
    Pose(#[from] JobError),
}

/// How a blend vertex is combined with the vertex it pulls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlendRule {
    /// What the Sims did: `final = (1 - w) * vertex + w * blend`, with
    /// `w = raw / 32768` (the rig's weight).
    #[default]
    Game,
    /// An alternative reading, kept only to compare against:
    /// `TARGET = TARGET + (TARGET - ANCHOR) * w` with `w = raw / 65536`
    /// (half the rig's weight), reading TARGET as the vertex and ANCHOR as
    /// the blend vertex.
    SeedDocument,
}

/// A deformed mesh, in model space and the file's own axes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PosedSkin {
    pub positions: Vec<Vec3>,
    /// One per vertex, or none when the skin has none.
    pub normals: Vec<Vec3>,
}

/// A skin checked against a skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundSkin {
    positions: Vec3Groups,
    normals: Vec3Groups,
    joint_count: usize,
    kind: Kind,
    morph_targets: Vec<BoundMorph>,
}

/// A morph target with its vertices checked.
#[derive(Clone, Debug, PartialEq)]
struct BoundMorph {
    name: String,
    positions: Vec<(usize, Vec3)>,
    normals: Vec<(usize, Vec3)>,
}

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Weighted {
        influences: Influences,
        /// Per skeleton joint, the inverse of its rest model matrix.
        inverse_rest: Vec<Affine3A>,
    },
    BoneSpace {
        /// Each vertex on the joint of the last range holding it, weight
        /// 1, or on none.
        influences: Influences,
        pulls: Box<Pulls>,
    },
}

/// The joint of the last range holding each index of `0..count` (the range
/// an item listed twice ends up following), or none. Every range must lie
/// within `count`.
fn owners(count: usize, ranges: impl Iterator<Item = (usize, Range<usize>)>) -> Vec<Option<usize>> {
    let mut owners = vec![None; count];
    for (joint, items) in ranges {
        // `bind` checked every range against `count`.
        owners[items].fill(Some(joint));
    }
    owners
}

/// A bone range with its bone resolved to a skeleton joint and its bounds checked.
struct CheckedRange {
    joint: usize,
    vertices: Range<usize>,
    blends: Range<usize>,
}

/// Per-vertex data must be one per vertex, or absent where allowed.
fn check_per_vertex(
    positions: usize,
    what: &'static str,
    count: usize,
    optional: bool,
) -> Result<(), SkinError> {
    if count == positions || (optional && count == 0) {
        Ok(())
    } else {
        Err(SkinError::VertexData {
            positions,
            what,
            count,
        })
    }
}

/// Each name's joint in the skeleton.
fn find_joints(names: &[String], skeleton: &Skeleton) -> Result<Vec<usize>, SkinError> {
    names
        .iter()
        .map(|name| {
            skeleton
                .find(name)
                .ok_or_else(|| SkinError::UnknownJoint(name.clone()))
        })
        .collect()
}

fn checked_range(
    range: usize,
    what: &'static str,
    bounds: &Range<u32>,
    count: usize,
) -> Result<Range<usize>, SkinError> {
    let (start, end) = (bounds.start as usize, bounds.end as usize);
    if bounds.is_empty() {
        return Ok(0..0);
    }
    if end > count {
        return Err(SkinError::RangeOutOfBounds {
            range,
            what,
            start: bounds.start,
            end: bounds.end,
            count,
        });
    }
    Ok(start..end)
}

impl BoundSkin {
    /// Checks `skin` and finds its joints in `skeleton`.
    pub fn bind(skin: &rig::Skin, skeleton: &Skeleton) -> Result<BoundSkin, SkinError> {
        let count = skin.positions.len();
        check_per_vertex(count, "normals", skin.normals.len(), true)?;
        check_per_vertex(count, "uvs", skin.uvs.len(), true)?;
        for (triangle, corners) in skin.triangles.iter().enumerate() {
            if let Some(&vertex) = corners.iter().find(|&&vertex| vertex as usize >= count) {
                return Err(SkinError::TriangleOutOfRange {
                    triangle,
                    vertex,
                    count,
                });
            }
        }
        if let Some(shared) = &skin.shared_positions {
            check_per_vertex(
                count,
                "shared position entries",
                shared.entries.len(),
                false,
            )?;
            if let Some((vertex, &entry)) = shared
                .entries
                .iter()
                .enumerate()
                .find(|(_, &entry)| entry >= shared.count)
            {
                return Err(SkinError::SharedPositionOutOfRange {
                    vertex,
                    entry,
                    count: shared.count,
                });
            }
        }
        let kind = match &skin.binding {
            Binding::Weighted(weights) => bind_weights(weights, count, skeleton)?,
            Binding::BoneSpace(bone_space) => {
                bind_bone_space(bone_space, count, !skin.normals.is_empty(), skeleton)?
            }
        };
        let morph_targets = skin
            .morph_targets
            .iter()
            .map(|target| bind_morph(target, count, skin.normals.len()))
            .collect::<Result<_, _>>()?;
        Ok(BoundSkin {
            positions: Vec3Groups::new(skin.positions.iter().copied()),
            normals: Vec3Groups::new(skin.normals.iter().copied()),
            joint_count: skeleton.len(),
            kind,
            morph_targets,
        })
    }

    /// The skin with its morph targets added to the stored vertices at
    /// `weights`, given by target name: a target not named has weight 0, a
    /// name no target has changes nothing. When some weight is not 0, every
    /// normal is renormalized.
    pub fn morphed(&self, weights: &[(String, f32)]) -> BoundSkin {
        self.morphed_by(|_, name| {
            weights
                .iter()
                .rev()
                .find(|(given, _)| given == name)
                .map_or(0.0, |&(_, weight)| weight)
        })
    }

    /// The skin with only its morph target number `target` (in the skin's
    /// order) added, at weight 1: two targets of one name each on its own.
    pub fn morphed_target(&self, target: usize) -> BoundSkin {
        self.morphed_by(|index, _| if index == target { 1.0 } else { 0.0 })
    }

    /// The skin with each morph target added at the weight `weight_of`
    /// gives it (by its index and name).
    fn morphed_by(&self, weight_of: impl Fn(usize, &str) -> f32) -> BoundSkin {
        let mut morphed = self.clone();
        let mut moved = false;
        for (index, target) in self.morph_targets.iter().enumerate() {
            let weight = weight_of(index, &target.name);
            if weight == 0.0 {
                continue;
            }
            moved = true;
            // Indexing cannot fail: `bind` checked every vertex.
            for &(vertex, offset) in &target.positions {
                let moved = morphed.positions.get(vertex) + weight * offset;
                morphed.positions.set(vertex, moved);
            }
            for &(vertex, offset) in &target.normals {
                let moved = morphed.normals.get(vertex) + weight * offset;
                morphed.normals.set(vertex, moved);
            }
        }
        if moved {
            for vertex in 0..morphed.normals.len() {
                let normal = morphed.normals.get(vertex).normalize_or_zero();
                morphed.normals.set(vertex, normal);
            }
        }
        morphed
    }

    /// The skin deformed by the joints' model matrices (one per skeleton
    /// joint), into new buffers; [`Deformer::deform`] reuses them.
    pub fn deform(&self, model: &[Affine3A], rule: BlendRule) -> Result<PosedSkin, SkinError> {
        let mut posed = PosedSkin::default();
        Deformer::default().deform(self, model, rule, &mut posed)?;
        Ok(posed)
    }
}

/// Vertices below this many are deformed on the calling thread: splitting
/// a small mesh costs more than it saves.
const PARALLEL_THRESHOLD: usize = 1 << 16;

/// How many vertices one parallel task deforms, and how many of a
/// bone-space skin are moved and then pulled together (their outputs, 1.5
/// MiB, still in the second-level cache when their blend vertices pull
/// them): large enough that the task's overhead is lost in it, small
/// enough that threads share the work. A multiple of 16 (a group of
/// vertices). Of 2^14, 2^15 and 2^16, this one deformed a million-record
/// Sims skin fastest (1.50 against 1.52 and 1.65 ms, thread CPU time).
const PART: usize = 1 << 16;

/// Deforms skins into caller-provided buffers (ozz-animation's job style):
/// keeps its scratch from one call to the next, so posing a skin frame
/// after frame allocates nothing once the buffers have grown. Meshes of
/// `PARALLEL_THRESHOLD` vertices or more are split across the threads of
/// the current rayon pool.
#[derive(Clone, Debug, Default)]
pub struct Deformer {
    /// Per skeleton joint, `model * inverse(rest model)` (weighted skins).
    skinning: Vec<Affine3A>,
    /// Per run, its palette's matrices ([`Influences::tables`]).
    tables: Vec<Table>,
    normals: WeightedNormals,
    /// The vector loops weighted skins run on; detected when none is set
    /// (tests set each the processor has).
    isa: Option<Isa>,
}

/// What a weighted skin's deformed normals are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeightedNormals {
    /// Unit length (zero where the blend leaves none): what glTF and
    /// lighting need.
    #[default]
    Unit,
    /// As the weighted sum of matrices makes them, their length as the
    /// blend leaves it (as ozz-animation's `SkinningJob` and a vertex
    /// shader give them), for a caller that normalizes where it uses them.
    AsBlended,
}

impl Deformer {
    /// A deformer giving weighted skins' normals as `normals` says; bone-
    /// space skins' normals are unit length either way.
    pub fn with_weighted_normals(normals: WeightedNormals) -> Deformer {
        Deformer {
            normals,
            ..Deformer::default()
        }
    }

    /// Deforms `skin` by the joints' model matrices (one per skeleton joint)
    /// into `posed`, whose buffers are resized to the skin's and reused.
    pub fn deform(
        &mut self,
        skin: &BoundSkin,
        model: &[Affine3A],
        rule: BlendRule,
        posed: &mut PosedSkin,
    ) -> Result<(), SkinError> {
        if model.len() != skin.joint_count {
            return Err(JobError::LengthMismatch {
                slice: "model",
                expected: skin.joint_count,
                actual: model.len(),
            }
            .into());
        }
        // Every output below is written before it is read, so growing the
        // buffers needs no particular value.
        posed.positions.resize(skin.positions.len(), Vec3::ZERO);
        posed.normals.resize(skin.normals.len(), Vec3::ZERO);
        let parallel =
            skin.positions.len() >= PARALLEL_THRESHOLD && rayon::current_num_threads() > 1;
        // Indexing in what follows cannot fail: `bind` checked every joint,
        // vertex and blend index and every run against these lengths, and
        // the output buffers were just given the skin's.
        let isa = self.isa.unwrap_or_else(Isa::detect);
        match &skin.kind {
            Kind::Weighted {
                influences,
                inverse_rest,
            } => {
                self.skinning.clear();
                self.skinning.extend(
                    model
                        .iter()
                        .zip(inverse_rest)
                        .map(|(model, inverse_rest)| *model * *inverse_rest),
                );
                influences.tables(&self.skinning, &mut self.tables);
                let job = Job {
                    influences,
                    matrices: &self.skinning,
                    tables: &self.tables,
                    positions: &skin.positions,
                    normals: &skin.normals,
                    arithmetic: Arithmetic::Fused,
                    unit_normals: self.normals == WeightedNormals::Unit,
                    isa,
                };
                for_parts_of_both(
                    parallel,
                    &mut posed.positions,
                    &mut posed.normals,
                    |offset, positions, normals| job.deform(offset, positions, normals),
                );
            }
            Kind::BoneSpace { influences, pulls } => {
                influences.tables(model, &mut self.tables);
                let job = Job {
                    influences,
                    matrices: model,
                    tables: &self.tables,
                    positions: &skin.positions,
                    normals: &skin.normals,
                    arithmetic: Arithmetic::Exact,
                    unit_normals: false,
                    isa,
                };
                // Each part is moved, then pulled while its outputs are in
                // cache.
                for_parts_of_both(
                    parallel,
                    &mut posed.positions,
                    &mut posed.normals,
                    |offset, positions, normals| {
                        let mut normal_parts = normals.chunks_mut(PART);
                        for (index, positions) in positions.chunks_mut(PART).enumerate() {
                            let normals = normal_parts.next().unwrap_or_default();
                            let part = offset / PART + index;
                            job.deform(part * PART, positions, normals);
                            pulls.pull(part, model, rule, positions, normals);
                        }
                    },
                );
            }
        }
        Ok(())
    }
}

/// Calls `deform(offset, positions, normals)` on the outputs whole, or on
/// [`PART`]s of them across rayon's threads; `offset` is the part's first
/// vertex, and `normals` is empty when the skin has none.
fn for_parts_of_both(
    parallel: bool,
    positions: &mut [Vec3],
    normals: &mut [Vec3],
    deform: impl Fn(usize, &mut [Vec3], &mut [Vec3]) + Sync,
) {
    match (parallel, normals.is_empty()) {
        (true, true) => positions
            .par_chunks_mut(PART)
            .enumerate()
            .for_each(|(part, positions)| deform(part * PART, positions, &mut [])),
        (true, false) => positions
            .par_chunks_mut(PART)
            .zip(normals.par_chunks_mut(PART))
            .enumerate()
            .for_each(|(part, (positions, normals))| deform(part * PART, positions, normals)),
        (false, _) => deform(0, positions, normals),
    }
}

fn bind_weights(
    weights: &rig::Weights,
    count: usize,
    skeleton: &Skeleton,
) -> Result<Kind, SkinError> {
    let joints: Vec<u16> = find_joints(&weights.joints, skeleton)?
        .into_iter()
        .map(|joint| {
            u16::try_from(joint).map_err(|_| SkinError::JointPastTheWeightedLimit { joint })
        })
        .collect::<Result<_, _>>()?;
    if weights.counts.len() != count {
        return Err(SkinError::WeightCount {
            covered: weights.counts.len(),
            count,
        });
    }
    // Each vertex's influences, checked: (skeleton joint, weight).
    let mut rest = weights.influences.as_slice();
    let mut resolved: Vec<(usize, f32)> = Vec::with_capacity(rest.len());
    let mut ends = Vec::with_capacity(count);
    for (vertex, &vertex_count) in weights.counts.iter().enumerate() {
        let (own, after) = rest.split_at_checked(vertex_count as usize).ok_or(
            SkinError::InfluencesPastTheEnd {
                vertex,
                influences: vertex_count,
                left: rest.len(),
            },
        )?;
        rest = after;
        for influence in own {
            let joint =
                joints
                    .get(influence.joint as usize)
                    .ok_or(SkinError::InfluenceOutOfRange {
                        vertex,
                        joint: influence.joint,
                        count: joints.len(),
                    })?;
            resolved.push((usize::from(*joint), influence.weight));
        }
        ends.push(resolved.len());
    }
    let per_vertex: Vec<&[(usize, f32)]> = std::iter::once(0)
        .chain(ends.iter().copied())
        .zip(&ends)
        .map(|(start, &end)| &resolved[start..end])
        .collect();
    let rest_model = crate::pose::model_matrices(skeleton, skeleton.rest_locals())?;
    Ok(Kind::Weighted {
        influences: Influences::bind(&per_vertex),
        inverse_rest: rest_model.iter().map(Affine3A::inverse).collect(),
    })
}

fn bind_morph(
    target: &rig::MorphTarget,
    vertices: usize,
    normals: usize,
) -> Result<BoundMorph, SkinError> {
    let offsets = |offsets: &[rig::MorphOffset], what: &'static str, count: usize| {
        offsets
            .iter()
            .map(|offset| {
                let vertex = offset.vertex as usize;
                if vertex < count {
                    Ok((vertex, Vec3::from_array(offset.offset)))
                } else {
                    Err(SkinError::MorphOutOfRange {
                        target: target.name.clone(),
                        what,
                        vertex: offset.vertex,
                        count,
                    })
                }
            })
            .collect::<Result<Vec<_>, _>>()
    };
    Ok(BoundMorph {
        name: target.name.clone(),
        positions: offsets(&target.positions, "position", vertices)?,
        normals: offsets(&target.normals, "normal", normals)?,
    })
}

/// A bone-space binding on a mesh of `count` vertices, with normals or
/// without (`normals`): normals are pulled where the vertices and the
/// blend vertices both have them.
fn bind_bone_space(
    bone_space: &rig::BoneSpace,
    count: usize,
    normals: bool,
    skeleton: &Skeleton,
) -> Result<Kind, SkinError> {
    let joints = find_joints(&bone_space.bones, skeleton)?;
    let blend_vertices = bone_space.blend_positions.len();
    if bone_space.blends.len() != blend_vertices {
        return Err(SkinError::BlendCount {
            blend_vertices,
            blends: bone_space.blends.len(),
        });
    }
    check_per_vertex(
        blend_vertices,
        "blend normals",
        bone_space.blend_normals.len(),
        true,
    )?;
    let ranges = bone_space
        .ranges
        .iter()
        .enumerate()
        .map(|(index, range)| {
            let joint = *joints
                .get(range.bone as usize)
                .ok_or(SkinError::BoneOutOfRange {
                    range: index,
                    bone: range.bone,
                    count: joints.len(),
                })?;
            Ok(CheckedRange {
                joint,
                vertices: checked_range(index, "vertices", &range.vertices, count)?,
                blends: checked_range(index, "blend vertices", &range.blends, blend_vertices)?,
            })
        })
        .collect::<Result<Vec<_>, SkinError>>()?;
    let blends = bone_space
        .blends
        .iter()
        .enumerate()
        .map(|(blend, entry)| {
            let vertex = entry.vertex as usize;
            if vertex < count {
                Ok((vertex, entry.weight))
            } else {
                Err(SkinError::BlendVertexOutOfRange {
                    blend,
                    vertex: entry.vertex,
                    count,
                })
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let vertex_owners = owners(
        count,
        ranges
            .iter()
            .map(|range| (range.joint, range.vertices.clone())),
    );
    let blend_owners = owners(
        blend_vertices,
        ranges
            .iter()
            .map(|range| (range.joint, range.blends.clone())),
    );
    let own: Vec<Vec<(usize, f32)>> = vertex_owners
        .iter()
        .map(|owner| owner.map(|joint| (joint, 1.0)).into_iter().collect())
        .collect();
    let own: Vec<&[(usize, f32)]> = own.iter().map(Vec::as_slice).collect();
    let blend_normals = if normals {
        bone_space.blend_normals.as_slice()
    } else {
        &[]
    };
    Ok(Kind::BoneSpace {
        influences: Influences::bind(&own),
        pulls: Box::new(Pulls::bind(
            count,
            PART,
            &blends,
            &blend_owners,
            &bone_space.blend_positions,
            blend_normals,
        )),
    })
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;

    use glam::Quat;
    use rig::{Axes, BoneRange, BoneSpace, Influence, Joint, Skin, Transform, Weights};

    use super::*;

    fn vec3s(values: &[[f32; 3]]) -> Vec<Vec3> {
        values.iter().copied().map(Vec3::from_array).collect()
    }

    /// Two joints, B0 and B1, both at rest at the origin.
    fn skeleton() -> Skeleton {
        let joint = |name: &str| Joint {
            name: name.to_owned(),
            parent: None,
            rest: Transform::IDENTITY,
        };
        Skeleton::new(&rig::Skeleton {
            joints: vec![joint("B0"), joint("B1")],
            axes: Axes::RightHandedYUp,
        })
        .unwrap()
    }

    /// Model matrices: B0 translates by (0, 1, 0); B1 turns a quarter about
    /// +z (x -> y, y -> -x) then translates by (5, 0, 0).
    fn model() -> [Affine3A; 2] {
        [
            Affine3A::from_translation(Vec3::Y),
            Affine3A::from_rotation_translation(
                Quat::from_rotation_z(FRAC_PI_2),
                Vec3::new(5.0, 0.0, 0.0),
            ),
        ]
    }

    /// Two vertices on B0; one blend vertex on B1 pulling vertex 1.
    fn bone_space_skin(weight: f32) -> Skin {
        Skin {
            name: "test".to_owned(),
            texture: None,
            morph_targets: Vec::new(),
            shared_positions: None,
            positions: vec![[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]],
            normals: vec![[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]],
            uvs: Vec::new(),
            triangles: Vec::new(),
            binding: Binding::BoneSpace(BoneSpace {
                bones: vec!["B0".to_owned(), "B1".to_owned()],
                ranges: vec![
                    BoneRange {
                        bone: 0,
                        vertices: 0..2,
                        blends: 0..0,
                    },
                    BoneRange {
                        bone: 1,
                        vertices: 0..0,
                        blends: 0..1,
                    },
                ],
                blend_positions: vec![[1.0, 0.0, 0.0]],
                blend_normals: vec![[1.0, 0.0, 0.0]],
                blends: vec![rig::Blend { vertex: 1, weight }],
            }),
        }
    }

    fn deform(skin: &Skin, rule: BlendRule) -> Result<PosedSkin, SkinError> {
        BoundSkin::bind(skin, &skeleton())?.deform(&model(), rule)
    }

    /// `bound` deformed by the loops `isa` names.
    fn deform_with(bound: &BoundSkin, model: &[Affine3A], rule: BlendRule, isa: Isa) -> PosedSkin {
        let mut deformer = Deformer {
            isa: Some(isa),
            ..Deformer::default()
        };
        let mut posed = PosedSkin::default();
        deformer.deform(bound, model, rule, &mut posed).unwrap();
        posed
    }

    // By hand: vertex 1 (2,0,0) on B0 -> (2,1,0), normal (1,0,0). The blend
    // vertex (1,0,0) on B1 -> turned (0,1,0) + (5,0,0) = (5,1,0), normal
    // (1,0,0) turned to (0,1,0).
    const POSED_VERTEX: Vec3 = Vec3::new(2.0, 1.0, 0.0);
    const POSED_BLEND: Vec3 = Vec3::new(5.0, 1.0, 0.0);

    #[test]
    fn weight_zero_keeps_the_vertex_exactly() {
        let posed = deform(&bone_space_skin(0.0), BlendRule::Game).unwrap();
        assert_eq!(posed.positions[0], Vec3::new(1.0, 1.0, 0.0));
        assert_eq!(posed.positions[1], POSED_VERTEX);
        assert!(posed.normals[1].abs_diff_eq(Vec3::X, 1e-6));
    }

    #[test]
    fn full_weight_gives_the_blend_vertex_exactly() {
        let posed = deform(&bone_space_skin(1.0), BlendRule::Game).unwrap();
        // The quarter turn leaves float dust (cos 90 degrees is not exactly
        // 0 in f32), so the posed blend vertex itself is only near (5,1,0);
        // the blend must reproduce it bit for bit.
        let posed_blend = model()[1].transform_point3(Vec3::X);
        assert!(posed_blend.abs_diff_eq(POSED_BLEND, 1e-6));
        assert_eq!(posed.positions[1], posed_blend);
        assert!(posed.normals[1].abs_diff_eq(Vec3::Y, 1e-6));
        assert_eq!(posed.positions[0], Vec3::new(1.0, 1.0, 0.0));
    }

    #[test]
    fn half_weight_is_the_midpoint_with_a_unit_normal() {
        let posed = deform(&bone_space_skin(0.5), BlendRule::Game).unwrap();
        assert!(posed.positions[1].abs_diff_eq(Vec3::new(3.5, 1.0, 0.0), 1e-6));
        let half = std::f32::consts::FRAC_1_SQRT_2;
        assert!(posed.normals[1].abs_diff_eq(Vec3::new(half, half, 0.0), 1e-6));
    }

    #[test]
    fn seed_document_rule_pushes_away_from_the_blend_vertex() {
        // Rig weight 1 (raw 32768) is w = 0.5 under this rule:
        // (2,1,0) + ((2,1,0) - (5,1,0)) * 0.5 = (0.5, 1, 0).
        let posed = deform(&bone_space_skin(1.0), BlendRule::SeedDocument).unwrap();
        assert!(posed.positions[1].abs_diff_eq(Vec3::new(0.5, 1.0, 0.0), 1e-5));
        assert_eq!(BlendRule::default(), BlendRule::Game);
    }

    #[test]
    fn weighted_vertices_follow_their_joints_by_weight() {
        // Vertex 0 fully on B1; vertex 1 half on each; vertex 2 on nothing.
        let skin = Skin {
            binding: Binding::Weighted(Weights {
                joints: vec!["B1".to_owned(), "B0".to_owned()],
                counts: vec![1, 2, 0],
                influences: vec![
                    Influence {
                        joint: 0,
                        weight: 1.0,
                    },
                    Influence {
                        joint: 0,
                        weight: 0.5,
                    },
                    Influence {
                        joint: 1,
                        weight: 0.5,
                    },
                ],
            }),
            positions: vec![[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [7.0, 7.0, 7.0]],
            normals: Vec::new(),
            ..bone_space_skin(0.0)
        };
        let posed = deform(&skin, BlendRule::Game).unwrap();
        // B1 takes (1,0,0) to (5,1,0); B0 to (1,1,0); half of each is (3,1,0).
        assert!(posed.positions[0].abs_diff_eq(POSED_BLEND, 1e-6));
        assert!(posed.positions[1].abs_diff_eq(Vec3::new(3.0, 1.0, 0.0), 1e-6));
        assert_eq!(posed.positions[2], Vec3::splat(7.0));
    }

    /// `count` vertices on ranges that overlap (the later range wins),
    /// cross the parallel parts' boundaries and leave some vertices and
    /// blend vertices to no bone; a blend vertex for every tenth vertex,
    /// two of them pulling the same vertex.
    fn large_bone_space_skin(count: usize) -> Skin {
        let point = |index: usize| [index as f32, (index % 7) as f32, 1.0];
        let blend_count = count / 10;
        let third = (count / 3) as u32;
        let mut blends: Vec<rig::Blend> = (0..blend_count)
            .map(|blend| rig::Blend {
                vertex: (blend * 10) as u32,
                weight: (blend % 5) as f32 / 4.0,
            })
            .collect();
        blends[1].vertex = blends[0].vertex;
        Skin {
            positions: (0..count).map(point).collect(),
            normals: (0..count).map(|_| [0.0, 0.0, 1.0]).collect(),
            binding: Binding::BoneSpace(BoneSpace {
                bones: vec!["B0".to_owned(), "B1".to_owned()],
                ranges: vec![
                    BoneRange {
                        bone: 0,
                        vertices: 0..2 * third,
                        blends: 0..(blend_count / 2) as u32,
                    },
                    BoneRange {
                        bone: 1,
                        vertices: third..3 * third - 5,
                        blends: 7..(blend_count - 3) as u32,
                    },
                ],
                blend_positions: (0..blend_count).map(point).collect(),
                blend_normals: (0..blend_count).map(|_| [1.0, 0.0, 0.0]).collect(),
                blends,
            }),
            ..bone_space_skin(0.0)
        }
    }

    /// The deformation the bindings define, one vertex at a time with
    /// glam's `Vec3`, as deformation was written before runs and blocks.
    fn reference_deform(
        skin: &Skin,
        model: &[Affine3A],
        rule: BlendRule,
    ) -> (Vec<Vec3>, Vec<Vec3>) {
        let Binding::BoneSpace(bone_space) = &skin.binding else {
            unreachable!("a bone-space skin");
        };
        let mut positions = vec3s(&skin.positions);
        let mut normals = vec3s(&skin.normals);
        let mut blend_positions = vec3s(&bone_space.blend_positions);
        let mut blend_normals = vec3s(&bone_space.blend_normals);
        for range in &bone_space.ranges {
            let bone = model[range.bone as usize];
            for vertex in range.vertices.start as usize..range.vertices.end as usize {
                positions[vertex] = bone.transform_point3(Vec3::from(skin.positions[vertex]));
                if let Some(&normal) = skin.normals.get(vertex) {
                    normals[vertex] = bone.transform_vector3(Vec3::from(normal));
                }
            }
            for blend in range.blends.start as usize..range.blends.end as usize {
                blend_positions[blend] =
                    bone.transform_point3(Vec3::from(bone_space.blend_positions[blend]));
                if let Some(&normal) = bone_space.blend_normals.get(blend) {
                    blend_normals[blend] = bone.transform_vector3(Vec3::from(normal));
                }
            }
        }
        let mix = |vertex: Vec3, blend: Vec3, w: f32| match rule {
            BlendRule::Game => vertex * (1.0 - w) + blend * w,
            BlendRule::SeedDocument => vertex + (vertex - blend) * (w / 2.0),
        };
        let pull_normals = !normals.is_empty() && !blend_normals.is_empty();
        for (blend, pull) in bone_space.blends.iter().enumerate() {
            let vertex = pull.vertex as usize;
            let w = pull.weight;
            positions[vertex] = mix(positions[vertex], blend_positions[blend], w);
            if pull_normals {
                normals[vertex] = mix(normals[vertex], blend_normals[blend], w).normalize_or_zero();
            }
        }
        (positions, normals)
    }

    /// Each vector's bits, so that comparing them tells -0 from 0.
    fn bits(vectors: &[Vec3]) -> Vec<[u32; 3]> {
        vectors
            .iter()
            .map(|vector| vector.to_array().map(f32::to_bits))
            .collect()
    }

    fn assert_same_bits(
        posed: &PosedSkin,
        (positions, normals): &(Vec<Vec3>, Vec<Vec3>),
        what: &str,
    ) {
        assert_eq!(bits(&posed.positions), bits(positions), "positions, {what}");
        assert_eq!(bits(&posed.normals), bits(normals), "normals, {what}");
    }

    /// Model matrices whose entries round in every operation (the second
    /// one turns, scales unevenly and translates), so that a change in the
    /// order of operations shows in the bits.
    fn awkward_model() -> [Affine3A; 2] {
        [
            Affine3A::from_cols_array(&[
                0.8,
                -0.600_000_1,
                0.1,
                0.599_99,
                0.8,
                -0.3,
                0.03,
                0.2,
                0.97,
                1.5,
                -2.25,
                1e-3,
            ]),
            Affine3A::from_scale_rotation_translation(
                Vec3::new(1.0, 0.99, 1.01),
                Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0),
                Vec3::new(-3.1, 0.7, 12.0),
            ),
        ]
    }

    /// `count` vertices with awkward values (a zero normal, a tiny one and
    /// a huge one among them) on bone ranges that start and end inside
    /// blocks of four and overlap, vertex 0 and the last on no bone; and
    /// `count / 2 + 1` blend vertices (one of them on no bone) that pull
    /// vertices out of order and across groups, vertex 0 and one other
    /// several times.
    fn scattered_skin(count: usize) -> Skin {
        let value = |index: usize, salt: usize| {
            let turn = ((index * 7919 + salt * 104_729) % 10_007) as f32;
            (turn / 1_000.0 - 5.0) * 1.000_123
        };
        let vector = |index: usize, salt: usize| [0, 1, 2].map(|axis| value(index, salt + axis));
        let mut normals: Vec<[f32; 3]> = (0..count).map(|vertex| vector(vertex, 3)).collect();
        for (vertex, special) in [[0.0; 3], [1e-30, 0.0, -1e-30], [3e30, -2e30, 1e30]]
            .into_iter()
            .enumerate()
        {
            if let Some(normal) = normals.get_mut(vertex * 2 + 1) {
                *normal = special;
            }
        }
        let blend_count = if count == 0 { 0 } else { count / 2 + 1 };
        let blends = (0..blend_count)
            .map(|blend| rig::Blend {
                vertex: match blend {
                    0 | 1 => 0,
                    _ if blend == blend_count - 1 => (count - 1) as u32,
                    _ => ((blend_count - blend) * 7919 % count) as u32,
                },
                weight: [0.0, 1.0, 0.25, 0.6, 0.999][blend % 5],
            })
            .collect();
        let vertices = |start: usize, end: usize| start.min(count) as u32..end.min(count) as u32;
        let blend_range = |start: usize, end: usize| start as u32..end.min(blend_count) as u32;
        Skin {
            positions: (0..count).map(|vertex| vector(vertex, 0)).collect(),
            normals,
            binding: Binding::BoneSpace(BoneSpace {
                bones: vec!["B0".to_owned(), "B1".to_owned()],
                ranges: vec![
                    BoneRange {
                        bone: 0,
                        vertices: vertices(1, 2 * count / 3 + 1),
                        blends: blend_range(0, blend_count / 2),
                    },
                    BoneRange {
                        bone: 1,
                        vertices: vertices(count / 3 + 2, count.saturating_sub(1)),
                        blends: blend_range(blend_count / 2 + 1, blend_count),
                    },
                ],
                blend_positions: (0..blend_count).map(|blend| vector(blend, 6)).collect(),
                blend_normals: (0..blend_count).map(|blend| vector(blend, 9)).collect(),
                blends,
            }),
            ..bone_space_skin(0.0)
        }
    }

    fn in_pool<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(work)
    }

    #[test]
    fn overlapping_ranges_and_unbound_vertices_deform_as_defined() {
        let skin = large_bone_space_skin(300);
        let posed = deform(&skin, BlendRule::Game).unwrap();
        let expected = reference_deform(&skin, &model(), BlendRule::Game);
        assert_eq!((posed.positions, posed.normals), expected);
    }

    #[test]
    fn large_meshes_split_across_threads_give_the_same_bits() {
        let skin = large_bone_space_skin(3 * PARALLEL_THRESHOLD + 11);
        let bound = BoundSkin::bind(&skin, &skeleton()).unwrap();
        let one = in_pool(1, || bound.deform(&model(), BlendRule::Game).unwrap());
        let two = in_pool(2, || bound.deform(&model(), BlendRule::Game).unwrap());
        assert_eq!(one, two);
        let expected = reference_deform(&skin, &model(), BlendRule::Game);
        assert_eq!((one.positions, one.normals), expected);
    }

    #[test]
    fn every_loop_gives_the_bits_of_one_vertex_at_a_time() {
        let model = awkward_model();
        for count in [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 100] {
            let skin = scattered_skin(count);
            let bound = BoundSkin::bind(&skin, &skeleton()).unwrap();
            for rule in [BlendRule::Game, BlendRule::SeedDocument] {
                let expected = reference_deform(&skin, &model, rule);
                for isa in isas() {
                    let posed = deform_with(&bound, &model, rule, isa);
                    let what = format!("{count} vertices, {rule:?}, {isa:?}");
                    assert_same_bits(&posed, &expected, &what);
                }
            }
        }
    }

    #[test]
    fn scattered_pulls_across_threads_give_the_bits_of_one_vertex_at_a_time() {
        let model = awkward_model();
        let skin = scattered_skin(3 * PARALLEL_THRESHOLD + 11);
        let bound = BoundSkin::bind(&skin, &skeleton()).unwrap();
        let expected = reference_deform(&skin, &model, BlendRule::Game);
        for threads in [1, 2] {
            for isa in isas() {
                let posed = in_pool(threads, || {
                    deform_with(&bound, &model, BlendRule::Game, isa)
                });
                assert_same_bits(&posed, &expected, &format!("{threads} threads, {isa:?}"));
            }
        }
    }

    #[test]
    fn normals_are_pulled_only_when_vertices_and_blend_vertices_have_them() {
        let model = awkward_model();
        let mut without_normals = scattered_skin(17);
        without_normals.normals.clear();
        let mut without_blend_normals = scattered_skin(17);
        if let Binding::BoneSpace(bone_space) = &mut without_blend_normals.binding {
            bone_space.blend_normals.clear();
        }
        for skin in [without_normals, without_blend_normals] {
            let bound = BoundSkin::bind(&skin, &skeleton()).unwrap();
            let expected = reference_deform(&skin, &model, BlendRule::Game);
            for isa in isas() {
                let posed = deform_with(&bound, &model, BlendRule::Game, isa);
                assert_same_bits(&posed, &expected, &format!("missing normals, {isa:?}"));
            }
        }
    }

    #[test]
    fn awkward_values_move_and_pull_as_glam_computes_one_vertex_in_every_loop() {
        // Tiny, huge, zero and negative-zero coordinates, moved by bones
        // whose entries round in every operation and pulled at weights that
        // round too, in every lane of a group.
        let vectors = [
            [1.5, -2.25, 0.1],
            [-0.0, 0.0, -0.0],
            [1e-30, -1e-30, 0.0],
            [3e30, -2e30, 1e30],
            [0.333_333_34, 7.1e-5, -123_456.79],
            [f32::MIN_POSITIVE, 1.0, -1.0],
            [2.0e19, 0.5, 0.25],
            [-1.0, 1e-20, 1e-20],
        ];
        let count = 40;
        let vector = |index: usize| vectors[index % vectors.len()];
        let blend_count = 24;
        let skin = Skin {
            positions: (0..count).map(vector).collect(),
            normals: (0..count).map(|index| vector(index + 3)).collect(),
            binding: Binding::BoneSpace(BoneSpace {
                bones: vec!["B0".to_owned(), "B1".to_owned()],
                ranges: vec![
                    BoneRange {
                        bone: 0,
                        vertices: 0..21,
                        blends: 0..12,
                    },
                    BoneRange {
                        bone: 1,
                        vertices: 21..40,
                        blends: 12..24,
                    },
                ],
                blend_positions: (0..blend_count).map(|index| vector(index + 5)).collect(),
                blend_normals: (0..blend_count).map(|index| vector(index + 1)).collect(),
                blends: (0..blend_count)
                    .map(|blend| rig::Blend {
                        vertex: (blend * 5 % count) as u32,
                        weight: [0.3, 0.999, 1.0 / 3.0, 0.0, 1.0][blend % 5],
                    })
                    .collect(),
            }),
            ..bone_space_skin(0.0)
        };
        let bound = BoundSkin::bind(&skin, &skeleton()).unwrap();
        let model = awkward_model();
        for rule in [BlendRule::Game, BlendRule::SeedDocument] {
            let expected = reference_deform(&skin, &model, rule);
            for isa in isas() {
                let posed = deform_with(&bound, &model, rule, isa);
                assert_same_bits(&posed, &expected, &format!("{isa:?}, {rule:?}"));
            }
        }
    }

    #[test]
    fn a_deformer_reuses_its_buffers_across_poses_and_skins() {
        let skeleton = skeleton();
        let large = BoundSkin::bind(&large_bone_space_skin(3000), &skeleton).unwrap();
        let small = BoundSkin::bind(&bone_space_skin(0.5), &skeleton).unwrap();
        let rest = [Affine3A::IDENTITY; 2];
        let mut deformer = Deformer::default();
        let mut posed = PosedSkin::default();
        deformer
            .deform(&large, &rest, BlendRule::Game, &mut posed)
            .unwrap();
        let buffer = posed.positions.as_ptr();
        deformer
            .deform(&large, &model(), BlendRule::Game, &mut posed)
            .unwrap();
        assert_eq!(
            posed.positions.as_ptr(),
            buffer,
            "the buffer was reallocated"
        );
        assert_eq!(posed, large.deform(&model(), BlendRule::Game).unwrap());
        deformer
            .deform(&small, &model(), BlendRule::Game, &mut posed)
            .unwrap();
        assert_eq!(posed, small.deform(&model(), BlendRule::Game).unwrap());
    }

    #[test]
    fn weighted_meshes_split_across_threads_give_the_same_bits() {
        let count = 2 * PARALLEL_THRESHOLD + 3;
        let skin = Skin {
            binding: Binding::Weighted(Weights {
                joints: vec!["B0".to_owned(), "B1".to_owned()],
                counts: (0..count).map(|vertex| (vertex % 3) as u32).collect(),
                influences: (0..count)
                    .flat_map(|vertex| {
                        let weight = (vertex % 4) as f32 / 4.0;
                        [(0, weight), (1, 1.0 - weight)]
                            .into_iter()
                            .take(vertex % 3)
                            .map(|(joint, weight)| Influence { joint, weight })
                    })
                    .collect(),
            }),
            ..large_bone_space_skin(count)
        };
        let bound = BoundSkin::bind(&skin, &skeleton()).unwrap();
        let one = in_pool(1, || bound.deform(&model(), BlendRule::Game).unwrap());
        let two = in_pool(2, || bound.deform(&model(), BlendRule::Game).unwrap());
        assert_eq!(one, two);
        assert_eq!(one.positions[0], Vec3::from(skin.positions[0]));
        let expected = model()[0].transform_point3(Vec3::from(skin.positions[1])) * 0.25;
        assert_eq!(one.positions[1], expected);
    }

    #[test]
    fn bad_skins_are_errors_not_panics() {
        let with = |change: fn(&mut BoneSpace)| {
            let mut skin = bone_space_skin(0.5);
            if let Binding::BoneSpace(bone_space) = &mut skin.binding {
                change(bone_space);
            }
            deform(&skin, BlendRule::Game).unwrap_err().to_string()
        };
        assert_eq!(
            with(|b| b.bones[1] = "TAIL".to_owned()),
            r#"the mesh is bound to bone "TAIL", which the skeleton does not have"#
        );
        assert_eq!(
            with(|b| b.ranges[0].bone = 2),
            "range 0 uses bone 2, but the mesh names only 2 bones"
        );
        assert_eq!(
            with(|b| b.ranges[0].vertices = 1..3),
            "range 0 covers vertices 1 to 3, outside the 2 vertices"
        );
        assert_eq!(
            with(|b| b.ranges[1].blends = 0..2),
            "range 1 covers blend vertices 0 to 2, outside the 1 blend vertices"
        );
        assert_eq!(
            with(|b| b.blends[0].vertex = 2),
            "blend 0 pulls vertex 2, but the mesh has only 2 vertices"
        );
        assert_eq!(
            with(|b| b.blend_positions.clear()),
            "the mesh has 0 blend vertices but 1 blends"
        );
        let mut skin = bone_space_skin(0.5);
        skin.triangles.push([0, 1, 2]);
        assert_eq!(
            deform(&skin, BlendRule::Game).unwrap_err().to_string(),
            "triangle 0 uses vertex 2, but the mesh has only 2 vertices"
        );
        let bound = BoundSkin::bind(&bone_space_skin(0.5), &skeleton()).unwrap();
        assert!(matches!(
            bound.deform(&model()[..1], BlendRule::Game),
            Err(SkinError::Pose(JobError::LengthMismatch { .. }))
        ));
    }

    /// The bone-space skin with one morph target: vertex 0 moves by
    /// (0, 2, 0) and its normal by (0, 0, -1) at weight 1.
    fn morphing_skin() -> Skin {
        Skin {
            morph_targets: vec![rig::MorphTarget {
                name: "lift".to_owned(),
                positions: vec![rig::MorphOffset {
                    vertex: 0,
                    offset: [0.0, 2.0, 0.0],
                }],
                normals: vec![rig::MorphOffset {
                    vertex: 0,
                    offset: [1.0, 0.0, -1.0],
                }],
            }],
            ..bone_space_skin(0.0)
        }
    }

    fn morphed(skin: &Skin, weights: &[(&str, f32)]) -> Result<PosedSkin, SkinError> {
        let weights: Vec<(String, f32)> = weights
            .iter()
            .map(|&(name, weight)| (name.to_owned(), weight))
            .collect();
        BoundSkin::bind(skin, &skeleton())?
            .morphed(&weights)
            .deform(&model(), BlendRule::Game)
    }

    #[test]
    fn morph_targets_move_the_stored_vertices_by_their_weight() {
        let skin = morphing_skin();
        // Weight 0, or no weight given, or only other names: as stored.
        let unmoved = deform(&skin, BlendRule::Game).unwrap();
        assert_eq!(morphed(&skin, &[("lift", 0.0)]).unwrap(), unmoved);
        assert_eq!(morphed(&skin, &[("other", 1.0)]).unwrap(), unmoved);
        // Half of (0, 2, 0) lifts (1, 0, 0) to (1, 1, 0); B0 then adds (0, 1, 0).
        // The normal (0, 0, 1) + 0.5 * (1, 0, -1) = (0.5, 0, 0.5), renormalized.
        let lifted = morphed(&skin, &[("lift", 0.5)]).unwrap();
        assert!(lifted.positions[0].abs_diff_eq(Vec3::new(1.0, 2.0, 0.0), 1e-6));
        assert!(lifted.normals[0].abs_diff_eq(Vec3::new(1.0, 0.0, 1.0).normalize(), 1e-6));
        assert_eq!(lifted.positions[1], unmoved.positions[1]);
        // The last weight given for a name wins.
        assert_eq!(
            morphed(&skin, &[("lift", 1.0), ("lift", 0.5)]).unwrap(),
            lifted
        );
    }

    #[test]
    fn a_target_by_its_index_moves_alone_though_another_shares_its_name() {
        let mut skin = morphing_skin();
        let mut second = skin.morph_targets[0].clone();
        second.positions[0] = rig::MorphOffset {
            vertex: 1,
            offset: [0.0, 0.0, 3.0],
        };
        second.normals.clear();
        skin.morph_targets.push(second);
        let bound = BoundSkin::bind(&skin, &skeleton()).unwrap();
        let unmoved = bound.deform(&model(), BlendRule::Game).unwrap();
        let first = bound
            .morphed_target(0)
            .deform(&model(), BlendRule::Game)
            .unwrap();
        let second = bound
            .morphed_target(1)
            .deform(&model(), BlendRule::Game)
            .unwrap();
        let by_name = morphed(&skin, &[("lift", 1.0)]).unwrap();
        assert_ne!(first.positions[0], unmoved.positions[0]);
        assert_eq!(first.positions[1], unmoved.positions[1]);
        assert_eq!(second.positions[0], unmoved.positions[0]);
        assert_ne!(second.positions[1], unmoved.positions[1]);
        // By name, both move: each vertex where its own target puts it.
        assert_eq!(by_name.positions[0], first.positions[0]);
        assert_eq!(by_name.positions[1], second.positions[1]);
    }

    #[test]
    fn morphs_and_shared_positions_past_the_vertices_are_errors() {
        let mut skin = morphing_skin();
        skin.morph_targets[0].normals[0].vertex = 2;
        assert_eq!(
            deform(&skin, BlendRule::Game).unwrap_err().to_string(),
            r#"morph target "lift" moves the normal of vertex 2, but the mesh has only 2 normals"#
        );
        let mut skin = bone_space_skin(0.0);
        skin.shared_positions = Some(rig::SharedPositions {
            list: "mesh".to_owned(),
            count: 1,
            entries: vec![0, 1],
        });
        assert_eq!(
            deform(&skin, BlendRule::Game).unwrap_err().to_string(),
            "vertex 1 stands at entry 1 of the shared positions, but the list has only 1"
        );
        skin.shared_positions = Some(rig::SharedPositions {
            list: "mesh".to_owned(),
            count: 1,
            entries: vec![0],
        });
        assert_eq!(
            deform(&skin, BlendRule::Game).unwrap_err().to_string(),
            "the mesh has 2 vertices but 1 shared position entries"
        );
    }

    /// Five joints in a chain, each shifted, turned and (the last two)
    /// scaled at rest, so that the inverse rest matrices are not trivial.
    /// Twelve joints in a chain, each turned and shifted from its parent.
    fn turned_skeleton() -> Skeleton {
        let joints = (0..12usize)
            .map(|index| Joint {
                name: format!("J{index}"),
                parent: index.checked_sub(1),
                rest: Transform::TranslationRotation {
                    translation: [0.5, index as f32 * 0.25, -0.75],
                    rotation: Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.4)
                        .to_array(),
                },
            })
            .collect();
        Skeleton::new(&rig::Skeleton {
            joints,
            axes: Axes::RightHandedYUp,
        })
        .unwrap()
    }

    /// The vector loops this processor has, and the loop of one vertex at
    /// a time.
    fn isas() -> Vec<Isa> {
        // Every processor with AVX-512 has AVX2 and FMA.
        match Isa::detect() {
            Isa::Avx512 => vec![Isa::Portable, Isa::Avx2, Isa::Avx512],
            Isa::Avx2 => vec![Isa::Portable, Isa::Avx2],
            Isa::Portable => vec![Isa::Portable],
        }
    }

    /// The largest difference, relative to the magnitude where that is
    /// above 1, between the deformation of a skin of `counts` influences a
    /// vertex (`influences` in order) on [`turned_skeleton`] at a pose away
    /// from the rest, by the loops `isa` names, with normals as `normals`
    /// says (none when `normals` is `None`), and its definition, a vertex
    /// and an influence at a time. Vertices with no influence must keep
    /// their stored values exactly.
    fn off_the_definition(
        counts: &[u32],
        influences: &[Influence],
        normals: Option<WeightedNormals>,
        isa: Isa,
    ) -> f32 {
        let skeleton = turned_skeleton();
        let point = |index: usize| {
            [
                (index % 13) as f32 - 6.0,
                (index % 7) as f32 * 0.5,
                1.0 - (index % 5) as f32,
            ]
        };
        let count = counts.len();
        let skin = Skin {
            binding: Binding::Weighted(Weights {
                joints: (0..12).map(|index| format!("J{index}")).collect(),
                counts: counts.to_vec(),
                influences: influences.to_vec(),
            }),
            positions: (0..count).map(point).collect(),
            normals: (0..count)
                .filter(|_| normals.is_some())
                .map(|index| Vec3::from(point(index + 3)).normalize_or_zero().to_array())
                .collect(),
            ..bone_space_skin(0.0)
        };
        let locals: Vec<Affine3A> = skeleton
            .rest_locals()
            .iter()
            .enumerate()
            .map(|(index, rest)| *rest * Affine3A::from_rotation_z(0.3 * index as f32 - 0.5))
            .collect();
        let model = crate::pose::model_matrices(&skeleton, &locals).unwrap();
        let rest = crate::pose::model_matrices(&skeleton, skeleton.rest_locals()).unwrap();
        let skinning: Vec<Affine3A> = model
            .iter()
            .zip(&rest)
            .map(|(m, r)| *m * r.inverse())
            .collect();
        let mut posed = PosedSkin::default();
        let mut deformer = Deformer::with_weighted_normals(normals.unwrap_or_default());
        deformer.isa = Some(isa);
        deformer
            .deform(
                &BoundSkin::bind(&skin, &skeleton).unwrap(),
                &model,
                BlendRule::Game,
                &mut posed,
            )
            .unwrap();
        assert_eq!(posed.normals.len(), skin.normals.len());
        let mut first = 0;
        let mut largest: f32 = 0.0;
        for (vertex, &own) in counts.iter().enumerate() {
            let own_influences = &influences[first..first + own as usize];
            first += own as usize;
            let stored = Vec3::from(skin.positions[vertex]);
            let stored_normal = skin.normals.get(vertex).copied().map(Vec3::from);
            if own == 0 {
                assert_eq!(posed.positions[vertex], stored);
                assert_eq!(posed.normals.get(vertex).copied(), stored_normal);
                continue;
            }
            let sum = |moved: &dyn Fn(&Affine3A) -> Vec3| {
                own_influences.iter().fold(Vec3::ZERO, |sum, influence| {
                    sum + influence.weight * moved(&skinning[influence.joint as usize])
                })
            };
            let position = sum(&|matrix| matrix.transform_point3(stored));
            let normal = stored_normal.map(|stored| {
                let normal = sum(&|matrix| matrix.transform_vector3(stored));
                match normals {
                    Some(WeightedNormals::Unit) => normal.normalize_or_zero(),
                    _ => normal,
                }
            });
            let pairs = [
                Some((posed.positions[vertex], position)),
                posed.normals.get(vertex).copied().zip(normal),
            ];
            for (ours, expected) in pairs.into_iter().flatten() {
                let off = ((ours - expected).abs() / expected.abs().max(Vec3::ONE)).max_element();
                largest = largest.max(off);
            }
        }
        largest
    }

    /// [`off_the_definition`] for every loop the processor has, with unit
    /// normals, normals as blended and no normals.
    fn assert_every_loop_within_rounding(counts: &[u32], influences: &[Influence]) {
        for isa in isas() {
            for normals in [
                Some(WeightedNormals::Unit),
                Some(WeightedNormals::AsBlended),
                None,
            ] {
                let largest = off_the_definition(counts, influences, normals, isa);
                // Summing the matrices first rounds differently from
                // summing the moved vertices: a few units in the last place
                // of values near 1.
                assert!(
                    largest < 4e-6,
                    "{isa:?}, {normals:?}: largest difference {largest}"
                );
            }
        }
    }

    #[test]
    fn weighted_sums_of_matrices_give_the_sums_of_moved_vertices_within_rounding() {
        // Vertices of 0 to 6 influences mixed within blocks of four, with
        // weights that do not sum to 1.
        let counts: Vec<u32> = (0..1003)
            .map(|vertex| ((vertex * 7) % 11 % 7) as u32)
            .collect();
        let influences: Vec<Influence> = counts
            .iter()
            .enumerate()
            .flat_map(|(vertex, &own)| {
                (0..own as usize).map(move |slot| Influence {
                    joint: ((vertex + 2 * slot) % 5) as u32,
                    weight: 0.1 + ((vertex + slot) % 9) as f32 / 10.0,
                })
            })
            .collect();
        assert_every_loop_within_rounding(&counts, &influences);
    }

    #[test]
    fn palettes_change_along_the_mesh_and_overflow_into_one_vertex_at_a_time() {
        // Stretches of vertices on two to twelve joints: groups whose
        // joints fit one palette with their neighbours', groups that start
        // a new one, and groups naming more joints than a palette holds;
        // one to four influences, rigid stretches among them, and a last
        // partial group.
        let counts: Vec<u32> = (0..413)
            .map(|vertex| match vertex / 40 % 4 {
                0 => 1,
                1 => 2,
                2 => 4,
                _ => 1 + (vertex % 3) as u32,
            })
            .collect();
        let influences: Vec<Influence> = counts
            .iter()
            .enumerate()
            .flat_map(|(vertex, &own)| {
                let spread = [2, 12, 5, 9][vertex / 100 % 4];
                let rigid = vertex / 40 % 4 == 0;
                (0..own as usize).map(move |slot| Influence {
                    joint: ((vertex / 3 + 5 * slot) % spread) as u32,
                    weight: if rigid { 1.0 } else { 0.2 + slot as f32 / 7.0 },
                })
            })
            .collect();
        assert_every_loop_within_rounding(&counts, &influences);
    }

    #[test]
    fn weighted_meshes_reach_the_first_65536_joints() {
        // Joints kept in 16 bits: a skeleton of 65,537 roots, a vertex on
        // the last joint 16 bits hold and one on the joint past it.
        let joints: Vec<Joint> = (0..=65_536)
            .map(|index| Joint {
                name: format!("J{index}"),
                parent: None,
                rest: Transform::IDENTITY,
            })
            .collect();
        let skeleton = Skeleton::new(&rig::Skeleton {
            joints,
            axes: Axes::RightHandedYUp,
        })
        .unwrap();
        let skin_on = |joint: &str| Skin {
            binding: Binding::Weighted(Weights {
                joints: vec![joint.to_owned()],
                counts: vec![1, 1],
                influences: vec![
                    Influence {
                        joint: 0,
                        weight: 1.0
                    };
                    2
                ],
            }),
            ..bone_space_skin(0.0)
        };
        assert!(BoundSkin::bind(&skin_on("J65535"), &skeleton).is_ok());
        assert_eq!(
            BoundSkin::bind(&skin_on("J65536"), &skeleton)
                .unwrap_err()
                .to_string(),
            "the weights name joint 65536 of the skeleton, but a weighted mesh reaches only \
             its first 65536 joints"
        );
    }

    #[test]
    fn rigid_vertices_follow_their_one_joint() {
        // Runs of blocks whose vertices have one influence of weight 1
        // (some vertices none), between blocks of one influence of other
        // weights and of two influences, ending in a partial block.
        let counts: Vec<u32> = (0..203)
            .map(|vertex| match vertex / 8 % 3 {
                0 | 1 => u32::from(vertex % 7 != 3),
                _ => 2,
            })
            .collect();
        let influences: Vec<Influence> = counts
            .iter()
            .enumerate()
            .flat_map(|(vertex, &own)| {
                let rigid = vertex / 8 % 3 == 0;
                (0..own as usize).map(move |slot| Influence {
                    joint: ((vertex / 5 + slot) % 5) as u32,
                    weight: if rigid { 1.0 } else { 0.25 + slot as f32 / 2.0 },
                })
            })
            .collect();
        assert_every_loop_within_rounding(&counts, &influences);
    }
}
