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
use glam::{Affine3A, Vec3, Vec4};
use rayon::prelude::*;
use thiserror::Error;

use crate::lanes::Vec3x4;
use crate::pose::JobError;
use crate::skeleton::Skeleton;
use crate::weighted::{Influences, Isa, Table, Weighted};
use crate::wide;

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
    positions: Vec3Blocks,
    normals: Vec3Blocks,
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
    Weighted(Influences),
    BoneSpace {
        /// Runs of vertices, in order, covering every vertex once.
        vertex_runs: Vec<Run>,
        pulls: Pulls,
    },
}

/// The blend vertices, grouped by the [`GROUP`] of vertices that holds the
/// vertex each pulls, in blend order within a group, and cut into batches
/// of up to four that pull four different vertices: a group's vertices are
/// posed and then pulled while they are in cache, groups can go to
/// different threads, and a batch is posed and pulled four lanes at a time.
/// A vertex pulled several times is pulled in blend order still: its pulls
/// are all in its group, in order, one a batch.
#[derive(Clone, Debug, PartialEq)]
struct Pulls {
    /// Group `g`'s batches are `starts[g]..starts[g + 1]` below.
    starts: Vec<usize>,
    /// Runs of batches of one joint (or none), covering each batch once.
    runs: Vec<Run>,
    batches: Vec<PullBatch>,
    /// Per batch, its blend vertices' normals; none when the skin has no
    /// blend normals.
    normals: Vec<Vec3x4>,
}

/// Up to four blend vertices of one joint that pull different vertices.
/// Lanes past the batch's last blend vertex repeat that one: they pull its
/// vertex to the same place again from the same values, which writes the
/// same bits twice.
#[derive(Clone, Debug, PartialEq)]
struct PullBatch {
    positions: Vec3x4,
    weights: Vec4,
    /// The vertices pulled, counted from the group's first.
    vertices: [u32; 4],
}

/// Consecutive vertices (or blend vertices) moved by one joint, or kept as
/// stored when no bone range holds them.
#[derive(Clone, Debug, PartialEq)]
struct Run {
    joint: Option<usize>,
    items: Range<usize>,
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

/// Splits the items into runs of one owner, so that deforming writes each
/// output once and looks each joint up once a run.
fn runs(owners: &[Option<usize>]) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut start = 0;
    for index in 1..=owners.len() {
        if index == owners.len() || owners[index] != owners[start] {
            runs.push(Run {
                joint: owners[start],
                items: start..index,
            });
            start = index;
        }
    }
    runs
}

/// Vectors stored four to a [`Vec3x4`]: vector `i` is lane `i % 4` of block
/// `i / 4`, and the last block's unused lanes are zero. This is the layout
/// the skin is bound into, once, for the deformation's sake.
#[derive(Clone, Debug, Default, PartialEq)]
struct Vec3Blocks {
    blocks: Vec<Vec3x4>,
    len: usize,
}

impl Vec3Blocks {
    fn new(values: &[[f32; 3]]) -> Vec3Blocks {
        let blocks = values
            .chunks(4)
            .map(|four| {
                let mut block = Vec3x4::default();
                for (lane, &value) in four.iter().enumerate() {
                    block.set_lane(lane, Vec3::from_array(value));
                }
                block
            })
            .collect();
        Vec3Blocks {
            blocks,
            len: values.len(),
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Vector `index`, which must be below `len`.
    fn get(&self, index: usize) -> Vec3 {
        self.blocks[index / 4].lane(index % 4)
    }

    /// Sets vector `index`, which must be below `len`.
    fn set(&mut self, index: usize, value: Vec3) {
        self.blocks[index / 4].set_lane(index % 4, value);
    }
}

/// A bone's matrix with each entry in all four lanes, to move [`Vec3x4`]s
/// exactly as `Affine3A` moves one `Vec3`: per coordinate
/// `((x_axis * x + y_axis * y) + z_axis * z) + translation`, the same
/// operations in the same order (no fused multiply-add), so the bits are
/// the same whichever path a vertex takes.
struct BoneX4 {
    /// Per output coordinate, the x, y and z axes' entries for it.
    rows: [[Vec4; 3]; 3],
    translation: [Vec4; 3],
}

impl BoneX4 {
    fn new(bone: &Affine3A) -> BoneX4 {
        let [x_axis, y_axis, z_axis] = [
            bone.matrix3.x_axis,
            bone.matrix3.y_axis,
            bone.matrix3.z_axis,
        ];
        let row = |row: usize| {
            [
                Vec4::splat(x_axis[row]),
                Vec4::splat(y_axis[row]),
                Vec4::splat(z_axis[row]),
            ]
        };
        BoneX4 {
            rows: [row(0), row(1), row(2)],
            translation: [
                Vec4::splat(bone.translation.x),
                Vec4::splat(bone.translation.y),
                Vec4::splat(bone.translation.z),
            ],
        }
    }

    /// As `Affine3A::transform_vector3` moves each vector.
    fn transform_vectors(&self, stored: &Vec3x4) -> Vec3x4 {
        let row = |[x_axis, y_axis, z_axis]: [Vec4; 3]| {
            x_axis * stored.x + y_axis * stored.y + z_axis * stored.z
        };
        Vec3x4 {
            x: row(self.rows[0]),
            y: row(self.rows[1]),
            z: row(self.rows[2]),
        }
    }

    /// As `Affine3A::transform_point3` moves each point.
    fn transform_points(&self, stored: &Vec3x4) -> Vec3x4 {
        let moved = self.transform_vectors(stored);
        Vec3x4 {
            x: moved.x + self.translation[0],
            y: moved.y + self.translation[1],
            z: moved.z + self.translation[2],
        }
    }
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
            Binding::BoneSpace(bone_space) => bind_bone_space(bone_space, count, skeleton)?,
        };
        let morph_targets = skin
            .morph_targets
            .iter()
            .map(|target| bind_morph(target, count, skin.normals.len()))
            .collect::<Result<_, _>>()?;
        Ok(BoundSkin {
            positions: Vec3Blocks::new(&skin.positions),
            normals: Vec3Blocks::new(&skin.normals),
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

/// How many vertices one parallel task deforms: large enough that the
/// task's overhead is lost in it, small enough that threads share the work
/// evenly.
const PART: usize = 1 << 14;

/// How many vertices of a bone-space skin are posed and then pulled
/// together, so that their outputs are still in the first-level cache when
/// their blend vertices pull them. A multiple of 4, so that a group starts
/// on a [`Vec3x4`], and a divisor of [`PART`].
const GROUP: usize = 1 << 9;

/// Deforms skins into caller-provided buffers (ozz-animation's job style):
/// keeps its scratch from one call to the next, so posing a skin frame
/// after frame allocates nothing once the buffers have grown. Meshes of
/// `PARALLEL_THRESHOLD` vertices or more are split across the threads of
/// the current rayon pool.
#[derive(Clone, Debug, Default)]
pub struct Deformer {
    /// Per skeleton joint, `model * inverse(rest model)` (weighted skins).
    skinning: Vec<Affine3A>,
    /// Per run of a weighted skin, its palette's matrices
    /// ([`Influences::tables`]).
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
        match &skin.kind {
            Kind::Weighted(influences) => {
                self.skinning.clear();
                self.skinning.extend(
                    model
                        .iter()
                        .zip(&influences.inverse_rest)
                        .map(|(model, inverse_rest)| *model * *inverse_rest),
                );
                influences.tables(&self.skinning, &mut self.tables);
                let weighted = Weighted {
                    influences,
                    skinning: &self.skinning,
                    tables: &self.tables,
                    unit_normals: self.normals == WeightedNormals::Unit,
                    positions: &skin.positions.blocks,
                    normals: &skin.normals.blocks,
                    isa: self.isa.unwrap_or_else(Isa::detect),
                };
                for_parts_of_both(
                    parallel,
                    &mut posed.positions,
                    &mut posed.normals,
                    |offset, positions, normals| weighted.deform(offset, positions, normals),
                );
            }
            Kind::BoneSpace { vertex_runs, pulls } => {
                let stored = (&skin.positions, &skin.normals);
                // Each group's vertices are posed, positions and normals in
                // one pass, then pulled while they are in cache.
                let deform_part = |offset: usize, positions: &mut [Vec3], normals: &mut [Vec3]| {
                    let mut normal_groups = normals.chunks_mut(GROUP);
                    for (index, positions) in positions.chunks_mut(GROUP).enumerate() {
                        let normals = normal_groups.next().unwrap_or_default();
                        let first = offset + index * GROUP;
                        move_runs(vertex_runs, model, first, stored, (positions, normals));
                        let normals = Some(normals).filter(|normals| !normals.is_empty());
                        pulls.pull(first / GROUP, model, rule, positions, normals);
                    }
                };
                for_parts_of_both(
                    parallel,
                    &mut posed.positions,
                    &mut posed.normals,
                    deform_part,
                );
            }
        }
        Ok(())
    }
}

/// How a run moves its items: positions by the whole matrix, normals (Sims
/// bone matrices are rigid) by its rotation part; one at a time as glam
/// does, or four at a time with the same arithmetic.
trait Motion {
    fn point(&self, stored: Vec3) -> Vec3;
    fn points(&self, stored: &Vec3x4) -> Vec3x4;
    fn vector(&self, stored: Vec3) -> Vec3;
    fn vectors(&self, stored: &Vec3x4) -> Vec3x4;
    /// Moves the first blocks of positions and normals (none where the
    /// skin has none) eight vectors at a time where the processor allows
    /// ([`wide::move_blocks`]); returns how many it wrote.
    fn blocks(
        &self,
        _positions: (&[Vec3x4], &mut [Vec3]),
        _normals: (&[Vec3x4], &mut [Vec3]),
    ) -> usize {
        0
    }
}

/// The motion of items no bone range holds: they keep their stored values.
struct Kept;

impl Motion for Kept {
    fn point(&self, stored: Vec3) -> Vec3 {
        stored
    }

    fn points(&self, stored: &Vec3x4) -> Vec3x4 {
        *stored
    }

    fn vector(&self, stored: Vec3) -> Vec3 {
        stored
    }

    fn vectors(&self, stored: &Vec3x4) -> Vec3x4 {
        *stored
    }
}

/// A joint's model matrix, alone and with each entry in all four lanes.
struct Bone {
    matrix: Affine3A,
    x4: BoneX4,
}

impl Bone {
    fn new(matrix: Affine3A) -> Bone {
        Bone {
            x4: BoneX4::new(&matrix),
            matrix,
        }
    }
}

impl Motion for Bone {
    fn point(&self, stored: Vec3) -> Vec3 {
        self.matrix.transform_point3(stored)
    }

    fn points(&self, stored: &Vec3x4) -> Vec3x4 {
        self.x4.transform_points(stored)
    }

    fn vector(&self, stored: Vec3) -> Vec3 {
        self.matrix.transform_vector3(stored)
    }

    fn vectors(&self, stored: &Vec3x4) -> Vec3x4 {
        self.x4.transform_vectors(stored)
    }

    fn blocks(
        &self,
        positions: (&[Vec3x4], &mut [Vec3]),
        normals: (&[Vec3x4], &mut [Vec3]),
    ) -> usize {
        wide::move_blocks(&self.matrix, positions, normals)
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

/// The runs that meet `items`, each with its part of `items`.
fn runs_within(runs: &[Run], items: Range<usize>) -> impl Iterator<Item = (&Run, Range<usize>)> {
    let first = runs.partition_point(|run| run.items.end <= items.start);
    runs[first..]
        .iter()
        .take_while(move |run| run.items.start < items.end)
        .map(move |run| {
            let within = run.items.start.max(items.start)..run.items.end.min(items.end);
            (run, within)
        })
}

/// Writes the outputs (the vertices from `offset` on; no normals where the
/// skin has none) with the stored vectors moved by their runs' joints;
/// those of a run with no joint are copied.
fn move_runs(
    runs: &[Run],
    model: &[Affine3A],
    offset: usize,
    stored: (&Vec3Blocks, &Vec3Blocks),
    (positions, normals): (&mut [Vec3], &mut [Vec3]),
) {
    for (run, items) in runs_within(runs, offset..offset + positions.len()) {
        let within = items.start - offset..items.end - offset;
        let positions = &mut positions[within.clone()];
        let normals = normals.get_mut(within).unwrap_or_default();
        match run.joint {
            Some(joint) => move_run(&Bone::new(model[joint]), stored, items, positions, normals),
            None => move_run(&Kept, stored, items, positions, normals),
        }
    }
}

/// Writes the outputs of the stored `items` (`normals` empty where the
/// skin has none) moved by `motion`: the whole blocks `items` holds as many
/// at a time as [`Motion::blocks`] takes, the rest of them a [`Vec3x4`] at
/// a time, and the vectors at either end one at a time.
fn move_run(
    motion: &impl Motion,
    (stored_positions, stored_normals): (&Vec3Blocks, &Vec3Blocks),
    items: Range<usize>,
    positions: &mut [Vec3],
    normals: &mut [Vec3],
) {
    let blocks_start = items.start.next_multiple_of(4).min(items.end);
    let blocks_end = (items.end - items.end % 4).max(blocks_start);
    for index in (items.start..blocks_start).chain(blocks_end..items.end) {
        let at = index - items.start;
        positions[at] = motion.point(stored_positions.get(index));
        if let Some(normal) = normals.get_mut(at) {
            *normal = motion.vector(stored_normals.get(index));
        }
    }
    let body = blocks_start - items.start..blocks_end - items.start;
    let blocks = blocks_start / 4..blocks_end / 4;
    let positions = &mut positions[body.clone()];
    let normals = normals.get_mut(body).unwrap_or_default();
    let stored_positions = &stored_positions.blocks[blocks.clone()];
    let stored_normals = stored_normals.blocks.get(blocks).unwrap_or_default();
    let done = motion.blocks(
        (stored_positions, &mut *positions),
        (stored_normals, &mut *normals),
    );
    let blocks = stored_positions.iter().zip(positions.chunks_exact_mut(4));
    for (block, out) in blocks.skip(done) {
        out.copy_from_slice(&motion.points(block).to_vec3s());
    }
    let blocks = stored_normals.iter().zip(normals.chunks_exact_mut(4));
    for (block, out) in blocks.skip(done) {
        out.copy_from_slice(&motion.vectors(block).to_vec3s());
    }
}

impl Pulls {
    /// Poses the blend vertices of group `group` (each moved by its run's
    /// joint, or kept) and pulls the vertices they name toward them, in
    /// blend order: `positions` and `normals` are the group's outputs,
    /// `normals` empty when the skin has none.
    fn pull(
        &self,
        group: usize,
        model: &[Affine3A],
        rule: BlendRule,
        positions: &mut [Vec3],
        normals: Option<&mut [Vec3]>,
    ) {
        let batches = self.starts[group]..self.starts[group + 1];
        let mut normals = normals.filter(|_| !self.normals.is_empty());
        for (run, batches) in runs_within(&self.runs, batches) {
            let normals = normals.as_deref_mut();
            match run.joint {
                Some(joint) => {
                    self.pull_batches(&Bone::new(model[joint]), batches, rule, positions, normals)
                }
                None => self.pull_batches(&Kept, batches, rule, positions, normals),
            }
        }
    }

    /// Pulls by the batches `batches`, their blend vertices moved by
    /// `motion`.
    fn pull_batches(
        &self,
        motion: &impl Motion,
        batches: Range<usize>,
        rule: BlendRule,
        positions: &mut [Vec3],
        normals: Option<&mut [Vec3]>,
    ) {
        let in_order = &self.batches[batches.clone()];
        let pull_positions = |positions: &mut [Vec3], batch: &PullBatch| {
            let vertices = gather(positions, &batch.vertices);
            let pulled = combine(
                rule,
                batch.weights,
                vertices,
                motion.points(&batch.positions),
            );
            scatter(positions, &batch.vertices, pulled);
        };
        let Some(normals) = normals else {
            for batch in in_order {
                pull_positions(positions, batch);
            }
            return;
        };
        // One length for both lets a vertex index checked against the
        // positions serve the normals too.
        let normals = &mut normals[..positions.len()];
        for (batch, stored_normals) in in_order.iter().zip(&self.normals[batches]) {
            pull_positions(positions, batch);
            let vertices = gather(normals, &batch.vertices);
            let pulled = combine(
                rule,
                batch.weights,
                vertices,
                motion.vectors(stored_normals),
            );
            scatter(normals, &batch.vertices, pulled.normalize_or_zero());
        }
    }
}

/// The four vertices `vertices` of `out`.
fn gather(out: &[Vec3], vertices: &[u32; 4]) -> Vec3x4 {
    // `bind` made every batch's vertices indices into its group's outputs.
    let [a, b, c, d] = *vertices;
    Vec3x4::from_vec3s([
        out[a as usize],
        out[b as usize],
        out[c as usize],
        out[d as usize],
    ])
}

/// Writes the four vectors to the vertices `vertices` of `out`.
fn scatter(out: &mut [Vec3], vertices: &[u32; 4], values: Vec3x4) {
    for (&vertex, value) in vertices.iter().zip(values.to_vec3s()) {
        out[vertex as usize] = value;
    }
}

/// Vertices pulled toward blend vertices, both already posed, a lane each.
fn combine(rule: BlendRule, weights: Vec4, vertices: Vec3x4, blends: Vec3x4) -> Vec3x4 {
    match rule {
        // Written as (1 - w) * a + w * b rather than a lerp so that w = 0
        // and w = 1 give exactly the vertex and the blend vertex.
        BlendRule::Game => vertices * (Vec4::ONE - weights) + blends * weights,
        BlendRule::SeedDocument => vertices + (vertices - blends) * (weights / 2.0),
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
    let mut per_vertex: Vec<&[rig::Influence]> = Vec::with_capacity(count);
    for (vertex, &vertex_count) in weights.counts.iter().enumerate() {
        let (own, after) = rest.split_at_checked(vertex_count as usize).ok_or(
            SkinError::InfluencesPastTheEnd {
                vertex,
                influences: vertex_count,
                left: rest.len(),
            },
        )?;
        rest = after;
        if let Some(influence) = own
            .iter()
            .find(|influence| influence.joint as usize >= joints.len())
        {
            return Err(SkinError::InfluenceOutOfRange {
                vertex,
                joint: influence.joint,
                count: joints.len(),
            });
        }
        per_vertex.push(own);
    }
    let rest_model = crate::pose::model_matrices(skeleton, skeleton.rest_locals())?;
    let inverse_rest = rest_model.iter().map(Affine3A::inverse).collect();
    Ok(Kind::Weighted(Influences::bind(
        &per_vertex,
        &joints,
        inverse_rest,
    )))
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
    Ok(Kind::BoneSpace {
        vertex_runs: runs(&vertex_owners),
        pulls: group_pulls(bone_space, &blends, &blend_owners, count),
    })
}

/// Groups the blend vertices by the [`GROUP`] holding the vertex each
/// pulls, in blend order within a group, and cuts each group into batches:
/// a batch ends after four blend vertices, where the joint changes, and
/// before a vertex it already pulls. `blends` and `owners` are per blend
/// vertex, every vertex below `count`.
fn group_pulls(
    bone_space: &rig::BoneSpace,
    blends: &[(usize, f32)],
    owners: &[Option<usize>],
    count: usize,
) -> Pulls {
    let group_of = |blend: usize| blends[blend].0 / GROUP;
    let mut order: Vec<usize> = (0..blends.len()).collect();
    // A stable sort: blends of one group stay in blend order.
    order.sort_by_key(|&blend| group_of(blend));
    let groups = count.div_ceil(GROUP);
    let mut starts = Vec::with_capacity(groups + 1);
    let mut cut: Vec<Vec<usize>> = Vec::new();
    let mut rest = order.as_slice();
    for group in 0..groups {
        starts.push(cut.len());
        let (in_group, after) =
            rest.split_at(rest.partition_point(|&blend| group_of(blend) == group));
        rest = after;
        let mut batch: Vec<usize> = Vec::with_capacity(4);
        for &blend in in_group {
            let fits = batch.len() < 4
                && batch.iter().all(|&other| {
                    owners[other] == owners[blend] && blends[other].0 != blends[blend].0
                });
            if !fits {
                cut.push(std::mem::take(&mut batch));
            }
            batch.push(blend);
        }
        if !batch.is_empty() {
            cut.push(batch);
        }
    }
    starts.push(cut.len());
    // Every batch holds one blend vertex at least: lanes past its last
    // repeat the last.
    let lanes = |batch: &[usize]| -> [usize; 4] {
        std::array::from_fn(|lane| batch[lane.min(batch.len() - 1)])
    };
    let vec3x4 = |values: &[[f32; 3]], batch: &[usize]| {
        Vec3x4::from_vec3s(lanes(batch).map(|blend| Vec3::from_array(values[blend])))
    };
    let batches = cut
        .iter()
        .map(|batch| {
            let lanes = lanes(batch);
            PullBatch {
                positions: vec3x4(&bone_space.blend_positions, batch),
                weights: Vec4::from_array(lanes.map(|blend| blends[blend].1)),
                // The group's first vertex is a multiple of GROUP, so what
                // is left is below GROUP, which a u32 holds.
                vertices: lanes.map(|blend| (blends[blend].0 % GROUP) as u32),
            }
        })
        .collect();
    let normals = if bone_space.blend_normals.is_empty() {
        Vec::new()
    } else {
        cut.iter()
            .map(|batch| vec3x4(&bone_space.blend_normals, batch))
            .collect()
    };
    Pulls {
        starts,
        runs: runs(&cut.iter().map(|batch| owners[batch[0]]).collect::<Vec<_>>()),
        batches,
        normals,
    }
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
    fn blocks_of_four_give_the_bits_of_one_vertex_at_a_time() {
        let model = awkward_model();
        for count in [0, 1, 2, 3, 4, 5, 7, 8, 9, 17, 33, 100] {
            let skin = scattered_skin(count);
            let bound = BoundSkin::bind(&skin, &skeleton()).unwrap();
            for rule in [BlendRule::Game, BlendRule::SeedDocument] {
                let posed = bound.deform(&model, rule).unwrap();
                let expected = reference_deform(&skin, &model, rule);
                assert_same_bits(&posed, &expected, &format!("{count} vertices, {rule:?}"));
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
            let posed = in_pool(threads, || bound.deform(&model, BlendRule::Game).unwrap());
            assert_same_bits(&posed, &expected, &format!("{threads} threads"));
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
            let posed = BoundSkin::bind(&skin, &skeleton())
                .unwrap()
                .deform(&model, BlendRule::Game)
                .unwrap();
            let expected = reference_deform(&skin, &model, BlendRule::Game);
            assert_same_bits(&posed, &expected, "missing normals");
        }
    }

    #[test]
    fn four_lanes_compute_what_glam_computes_for_one() {
        let vectors = [
            Vec3::new(1.5, -2.25, 0.1),
            Vec3::new(-0.0, 0.0, -0.0),
            Vec3::new(1e-30, -1e-30, 0.0),
            Vec3::new(3e30, -2e30, 1e30),
            Vec3::new(0.333_333_34, 7.1e-5, -123_456.79),
            Vec3::new(f32::MIN_POSITIVE, 1.0, -1.0),
            Vec3::new(2.0e19, 0.5, 0.25),
            Vec3::new(-1.0, 1e-20, 1e-20),
        ];
        let [model, other] = awkward_model();
        for bone in [model, other, Affine3A::IDENTITY] {
            let bone_x4 = BoneX4::new(&bone);
            for four in vectors.chunks_exact(4) {
                let four: [Vec3; 4] = four.try_into().unwrap();
                let block = Vec3x4::from_vec3s(four);
                let points = bone_x4.transform_points(&block).to_vec3s();
                let vectors = bone_x4.transform_vectors(&block).to_vec3s();
                let normalized = block.normalize_or_zero().to_vec3s();
                for lane in 0..4 {
                    let one = four[lane];
                    assert_eq!(bits(&[points[lane]]), bits(&[bone.transform_point3(one)]));
                    assert_eq!(bits(&[vectors[lane]]), bits(&[bone.transform_vector3(one)]));
                    assert_eq!(bits(&[normalized[lane]]), bits(&[one.normalize_or_zero()]));
                }
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
        let mut isas = vec![Isa::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                isas.push(Isa::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                isas.push(Isa::Avx512);
            }
        }
        isas
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
