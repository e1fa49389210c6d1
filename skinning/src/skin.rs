//! Skin deformation: a rig skin is bound to a skeleton once (its joints
//! found by name, every index and range checked, the bone ranges turned into
//! runs that cover each vertex once), then deformed by any pose of that
//! skeleton with plain loops. A [`Deformer`] keeps its scratch and the
//! caller's output buffers from one pose to the next, writes each output
//! once, and splits large meshes across rayon's threads.
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

use crate::pose::JobError;
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
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
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
        /// Vertex `v`'s influences are `influences[starts[v]..starts[v + 1]]`.
        starts: Vec<usize>,
        /// Every vertex's influences, one vertex after another: (skeleton
        /// joint, weight).
        influences: Vec<(usize, f32)>,
        /// Per skeleton joint, the inverse of its rest model matrix.
        inverse_rest: Vec<Affine3A>,
    },
    BoneSpace {
        /// Runs of vertices, in order, covering every vertex once.
        vertex_runs: Vec<Run>,
        /// Runs of blend vertices, in order, covering every blend vertex once.
        blend_runs: Vec<Run>,
        blend_positions: Vec<Vec3>,
        blend_normals: Vec<Vec3>,
        /// Per blend vertex: the vertex it pulls, and how far.
        blends: Vec<(usize, f32)>,
    },
}

/// Consecutive vertices (or blend vertices) moved by one joint, or kept as
/// stored when no bone range holds them.
#[derive(Clone, Debug, PartialEq)]
struct Run {
    joint: Option<usize>,
    items: Range<usize>,
}

/// Splits `0..count` into runs by the joint of the last range holding each
/// index (the range a vertex listed twice ends up following), so that
/// deforming writes each output once. Every range must lie within `count`.
fn runs(count: usize, ranges: impl Iterator<Item = (usize, Range<usize>)>) -> Vec<Run> {
    let mut owner: Vec<Option<usize>> = vec![None; count];
    for (joint, items) in ranges {
        // `bind` checked every range against `count`.
        owner[items].fill(Some(joint));
    }
    let mut runs = Vec::new();
    let mut start = 0;
    for index in 1..=count {
        if index == count || owner[index] != owner[start] {
            runs.push(Run {
                joint: owner[start],
                items: start..index,
            });
            start = index;
        }
    }
    runs
}

/// A bone range with its bone resolved to a skeleton joint and its bounds checked.
struct CheckedRange {
    joint: usize,
    vertices: Range<usize>,
    blends: Range<usize>,
}

fn vec3s(values: &[[f32; 3]]) -> Vec<Vec3> {
    values.iter().copied().map(Vec3::from_array).collect()
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
            Binding::BoneSpace(bone_space) => bind_bone_space(bone_space, count, skeleton)?,
        };
        let morph_targets = skin
            .morph_targets
            .iter()
            .map(|target| bind_morph(target, count, skin.normals.len()))
            .collect::<Result<_, _>>()?;
        Ok(BoundSkin {
            positions: vec3s(&skin.positions),
            normals: vec3s(&skin.normals),
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
        let mut morphed = self.clone();
        let mut moved = false;
        for target in &self.morph_targets {
            let weight = weights
                .iter()
                .rev()
                .find(|(name, _)| *name == target.name)
                .map_or(0.0, |&(_, weight)| weight);
            if weight == 0.0 {
                continue;
            }
            moved = true;
            // Indexing cannot fail: `bind` checked every vertex.
            for &(vertex, offset) in &target.positions {
                morphed.positions[vertex] += weight * offset;
            }
            for &(vertex, offset) in &target.normals {
                morphed.normals[vertex] += weight * offset;
            }
        }
        if moved {
            for normal in &mut morphed.normals {
                *normal = normal.normalize_or_zero();
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

/// How many vertices one parallel task deforms: large enough that the
/// task's overhead is lost in it, small enough that threads share the work
/// evenly.
const PART: usize = 1 << 14;

/// Deforms skins into caller-provided buffers (ozz-animation's job style):
/// keeps its scratch from one call to the next, so posing a skin frame
/// after frame allocates nothing once the buffers have grown. Meshes of
/// [`PARALLEL_THRESHOLD`] vertices or more are split across the threads of
/// the current rayon pool.
#[derive(Clone, Debug, Default)]
pub struct Deformer {
    /// Per skeleton joint, `model * inverse(rest model)` (weighted skins).
    skinning: Vec<Affine3A>,
}

impl Deformer {
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
        match &skin.kind {
            Kind::Weighted {
                starts,
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
                let weighted = Weighted {
                    starts,
                    influences,
                    skinning: &self.skinning,
                };
                both(
                    parallel,
                    (&mut posed.positions, |out: &mut [Vec3]| {
                        for_parts(out, parallel, |offset, part| {
                            weighted.positions(&skin.positions, offset, part)
                        })
                    }),
                    (&mut posed.normals, |out: &mut [Vec3]| {
                        for_parts(out, parallel, |offset, part| {
                            weighted.normals(&skin.normals, offset, part)
                        })
                    }),
                );
            }
            Kind::BoneSpace {
                vertex_runs,
                blend_runs,
                blend_positions,
                blend_normals,
                blends,
            } => {
                // Blends pull vertices in blend order, and several may pull
                // the same vertex, so each pull pass runs on one thread (the
                // positions' beside the normals'). Each blend vertex is posed
                // where it is used: it serves no other.
                let positions = |out: &mut [Vec3]| {
                    for_parts(out, parallel, |offset, part| {
                        move_runs(vertex_runs, model, &skin.positions, offset, part, point)
                    });
                    pull_all(
                        blend_runs,
                        model,
                        (blend_positions, blends),
                        out,
                        point,
                        |a, b, weight| combine(rule, weight, a, b),
                    );
                };
                // Sims bone matrices are rigid, so normals move with the rotation part.
                let normals = |out: &mut [Vec3]| {
                    for_parts(out, parallel, |offset, part| {
                        move_runs(vertex_runs, model, &skin.normals, offset, part, vector)
                    });
                    if !blend_normals.is_empty() {
                        pull_all(
                            blend_runs,
                            model,
                            (blend_normals, blends),
                            out,
                            vector,
                            |a, b, weight| combine(rule, weight, a, b).normalize_or_zero(),
                        );
                    }
                };
                both(
                    parallel,
                    (&mut posed.positions, positions),
                    (&mut posed.normals, normals),
                );
            }
        }
        Ok(())
    }
}

fn point(bone: &Affine3A, stored: Vec3) -> Vec3 {
    bone.transform_point3(stored)
}

fn vector(bone: &Affine3A, stored: Vec3) -> Vec3 {
    bone.transform_vector3(stored)
}

/// Writes the positions and the normals, side by side on rayon's threads
/// or one after the other.
fn both(
    parallel: bool,
    (positions, deform_positions): (&mut [Vec3], impl FnOnce(&mut [Vec3]) + Send),
    (normals, deform_normals): (&mut [Vec3], impl FnOnce(&mut [Vec3]) + Send),
) {
    if parallel {
        rayon::join(|| deform_positions(positions), || deform_normals(normals));
    } else {
        deform_positions(positions);
        deform_normals(normals);
    }
}

/// Calls `deform(offset, part)` on `out` whole, or on parts of it across
/// rayon's threads; `offset` is the part's first index in `out`.
fn for_parts(out: &mut [Vec3], parallel: bool, deform: impl Fn(usize, &mut [Vec3]) + Sync) {
    if parallel {
        out.par_chunks_mut(PART)
            .enumerate()
            .for_each(|(index, part)| deform(index * PART, part));
    } else {
        deform(0, out);
    }
}

/// Writes `out` (the items from `offset` on) as `apply` moves the stored
/// items by their runs' joints; items of a run with no joint are copied.
fn move_runs(
    runs: &[Run],
    model: &[Affine3A],
    stored: &[Vec3],
    offset: usize,
    out: &mut [Vec3],
    apply: impl Fn(&Affine3A, Vec3) -> Vec3,
) {
    let end = offset + out.len();
    let first = runs.partition_point(|run| run.items.end <= offset);
    for run in runs[first..].iter().take_while(|run| run.items.start < end) {
        let items = run.items.start.max(offset)..run.items.end.min(end);
        let stored = &stored[items.clone()];
        let out = &mut out[items.start - offset..items.end - offset];
        match run.joint {
            Some(joint) => {
                let bone = model[joint];
                for (out, &stored) in out.iter_mut().zip(stored) {
                    *out = apply(&bone, stored);
                }
            }
            None => out.copy_from_slice(stored),
        }
    }
}

/// Poses each blend vertex (`blend_items.0`, moved by its run's joint or
/// kept) and pulls the vertex it names (`blend_items.1`) in `out` toward
/// it with `mix(vertex, blend vertex, weight)`, in blend order.
fn pull_all(
    runs: &[Run],
    model: &[Affine3A],
    (stored, blends): (&[Vec3], &[(usize, f32)]),
    out: &mut [Vec3],
    apply: impl Fn(&Affine3A, Vec3) -> Vec3,
    mix: impl Fn(Vec3, Vec3, f32) -> Vec3,
) {
    for run in runs {
        let stored = &stored[run.items.clone()];
        let blends = &blends[run.items.clone()];
        let bone = run.joint.map(|joint| model[joint]);
        for (&stored, &(vertex, weight)) in stored.iter().zip(blends) {
            let posed = bone.as_ref().map_or(stored, |bone| apply(bone, stored));
            out[vertex] = mix(out[vertex], posed, weight);
        }
    }
}

/// A vertex pulled toward a blend vertex, both already posed.
fn combine(rule: BlendRule, weight: f32, vertex: Vec3, blend: Vec3) -> Vec3 {
    match rule {
        // Written as (1 - w) * a + w * b rather than a lerp so that w = 0
        // and w = 1 give exactly the vertex and the blend vertex.
        BlendRule::Game => vertex * (1.0 - weight) + blend * weight,
        BlendRule::SeedDocument => vertex + (vertex - blend) * (weight / 2.0),
    }
}

/// A weighted skin's influences with this pose's skinning matrices.
struct Weighted<'a> {
    starts: &'a [usize],
    influences: &'a [(usize, f32)],
    skinning: &'a [Affine3A],
}

impl Weighted<'_> {
    /// The influences of the vertices from `offset` on, one slice each.
    fn per_vertex(&self, offset: usize, count: usize) -> impl Iterator<Item = &[(usize, f32)]> {
        self.starts[offset..=offset + count]
            .windows(2)
            .map(|bounds| &self.influences[bounds[0]..bounds[1]])
    }

    /// `sum of w * skinning * p`; a vertex nothing moves keeps its place.
    fn positions(&self, stored: &[Vec3], offset: usize, out: &mut [Vec3]) {
        let stored = &stored[offset..offset + out.len()];
        let per_vertex = self.per_vertex(offset, out.len());
        for ((out, &stored), influences) in out.iter_mut().zip(stored).zip(per_vertex) {
            *out = if influences.is_empty() {
                stored
            } else {
                influences.iter().fold(Vec3::ZERO, |sum, &(joint, weight)| {
                    sum + weight * self.skinning[joint].transform_point3(stored)
                })
            };
        }
    }

    /// The normalized `sum of w * skinning * n` (no translation).
    fn normals(&self, stored: &[Vec3], offset: usize, out: &mut [Vec3]) {
        let stored = &stored[offset..offset + out.len()];
        let per_vertex = self.per_vertex(offset, out.len());
        for ((out, &stored), influences) in out.iter_mut().zip(stored).zip(per_vertex) {
            *out = if influences.is_empty() {
                stored
            } else {
                influences
                    .iter()
                    .fold(Vec3::ZERO, |sum, &(joint, weight)| {
                        sum + weight * self.skinning[joint].transform_vector3(stored)
                    })
                    .normalize_or_zero()
            };
        }
    }
}

fn bind_weights(
    weights: &rig::Weights,
    count: usize,
    skeleton: &Skeleton,
) -> Result<Kind, SkinError> {
    let joints = find_joints(&weights.joints, skeleton)?;
    if weights.counts.len() != count {
        return Err(SkinError::WeightCount {
            covered: weights.counts.len(),
            count,
        });
    }
    let mut rest = weights.influences.as_slice();
    let mut starts = Vec::with_capacity(count + 1);
    starts.push(0);
    let mut influences = Vec::with_capacity(weights.influences.len());
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
            influences.push((*joint, influence.weight));
        }
        starts.push(influences.len());
    }
    let rest_model = crate::pose::model_matrices(skeleton, skeleton.rest_locals())?;
    Ok(Kind::Weighted {
        starts,
        influences,
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

fn bind_bone_space(
    bone_space: &rig::BoneSpace,
    count: usize,
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
    Ok(Kind::BoneSpace {
        vertex_runs: runs(
            count,
            ranges
                .iter()
                .map(|range| (range.joint, range.vertices.clone())),
        ),
        blend_runs: runs(
            blend_vertices,
            ranges
                .iter()
                .map(|range| (range.joint, range.blends.clone())),
        ),
        blend_positions: vec3s(&bone_space.blend_positions),
        blend_normals: vec3s(&bone_space.blend_normals),
        blends,
    })
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;

    use glam::Quat;
    use rig::{Axes, BoneRange, BoneSpace, Influence, Joint, Skin, Transform, Weights};

    use super::*;

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

    /// The deformation the bindings define, one vertex at a time, as
    /// deformation was written before runs and parts.
    fn reference_deform(skin: &Skin) -> (Vec<Vec3>, Vec<Vec3>) {
        let Binding::BoneSpace(bone_space) = &skin.binding else {
            unreachable!("a bone-space skin");
        };
        let model = model();
        let mut positions = vec3s(&skin.positions);
        let mut normals = vec3s(&skin.normals);
        let mut blend_positions = vec3s(&bone_space.blend_positions);
        let mut blend_normals = vec3s(&bone_space.blend_normals);
        for range in &bone_space.ranges {
            let bone = model[range.bone as usize];
            for vertex in range.vertices.start as usize..range.vertices.end as usize {
                positions[vertex] = bone.transform_point3(Vec3::from(skin.positions[vertex]));
                normals[vertex] = bone.transform_vector3(Vec3::from(skin.normals[vertex]));
            }
            for blend in range.blends.start as usize..range.blends.end as usize {
                blend_positions[blend] =
                    bone.transform_point3(Vec3::from(bone_space.blend_positions[blend]));
                blend_normals[blend] =
                    bone.transform_vector3(Vec3::from(bone_space.blend_normals[blend]));
            }
        }
        for (blend, pull) in bone_space.blends.iter().enumerate() {
            let vertex = pull.vertex as usize;
            let w = pull.weight;
            positions[vertex] = positions[vertex] * (1.0 - w) + blend_positions[blend] * w;
            normals[vertex] =
                (normals[vertex] * (1.0 - w) + blend_normals[blend] * w).normalize_or_zero();
        }
        (positions, normals)
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
        assert_eq!((posed.positions, posed.normals), reference_deform(&skin));
    }

    #[test]
    fn large_meshes_split_across_threads_give_the_same_bits() {
        let skin = large_bone_space_skin(3 * PARALLEL_THRESHOLD + 11);
        let bound = BoundSkin::bind(&skin, &skeleton()).unwrap();
        let one = in_pool(1, || bound.deform(&model(), BlendRule::Game).unwrap());
        let two = in_pool(2, || bound.deform(&model(), BlendRule::Game).unwrap());
        assert_eq!(one, two);
        assert_eq!((one.positions, one.normals), reference_deform(&skin));
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
}
