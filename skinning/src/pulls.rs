//! The Sims' blend vertices: each, moved by its own bone, pulls the vertex
//! it names, `final = (1 - w) * vertex + w * blend vertex`, its normal made
//! unit length after. They are grouped by the part of the mesh that holds
//! the vertex each pulls (a part is deformed, then pulled while its outputs
//! are in cache, and parts go to different threads), in blend order within
//! a part, and cut into batches of up to four that pull four different
//! vertices, posed and pulled four lanes at a time with glam's operations
//! in glam's order. A vertex pulled several times is pulled in blend order
//! still: its pulls are all in its part, in order, one a batch.
//!
//! (Taking the pulls into the vector loops' lanes while a group was in
//! registers was measured slower: a layer of a group pulls a quarter of its
//! lanes and pays for all sixteen.)

use std::ops::{Add, Mul, Range, Sub};

use glam::{Affine3A, Vec3, Vec4};

use crate::skin::BlendRule;

/// The blend vertices, laid out as the module describes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Pulls {
    /// Vertices a part holds.
    part: usize,
    /// Part `p`'s batches are `starts[p]..starts[p + 1]` below.
    starts: Vec<usize>,
    /// Runs of batches of one joint (or none), covering each batch once.
    runs: Vec<Run>,
    batches: Vec<PullBatch>,
    /// Per batch, its blend vertices' normals; none where normals are not
    /// pulled.
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
    /// The vertices pulled, counted from the part's first.
    vertices: [u32; 4],
}

/// Consecutive batches moved by one joint, or kept as stored when no bone
/// range holds their blend vertices.
#[derive(Clone, Debug, PartialEq)]
struct Run {
    joint: Option<usize>,
    batches: Range<usize>,
}

impl Pulls {
    /// Lays out the blend vertices of a mesh of `count` vertices, deformed
    /// in parts of `part` vertices (below 2^32): per blend vertex, in blend
    /// order, the vertex it pulls (below `count`) and its weight, its
    /// bone's skeleton joint (none: kept as stored), its stored position
    /// and its stored normal (`normals` empty where normals are not
    /// pulled).
    pub(crate) fn bind(
        count: usize,
        part: usize,
        blends: &[(usize, f32)],
        joints: &[Option<usize>],
        positions: &[[f32; 3]],
        normals: &[[f32; 3]],
    ) -> Pulls {
        let part_of = |blend: usize| blends[blend].0 / part;
        let mut order: Vec<usize> = (0..blends.len()).collect();
        // A stable sort: blends of one part stay in blend order.
        order.sort_by_key(|&blend| part_of(blend));
        let parts = count.div_ceil(part);
        let mut starts = Vec::with_capacity(parts + 1);
        let mut cut: Vec<Vec<usize>> = Vec::new();
        let mut rest = order.as_slice();
        for index in 0..parts {
            starts.push(cut.len());
            let (in_part, after) =
                rest.split_at(rest.partition_point(|&blend| part_of(blend) == index));
            rest = after;
            let mut batch: Vec<usize> = Vec::with_capacity(4);
            for &blend in in_part {
                let fits = batch.len() < 4
                    && batch.iter().all(|&other| {
                        joints[other] == joints[blend] && blends[other].0 != blends[blend].0
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
                    positions: vec3x4(positions, batch),
                    weights: Vec4::from_array(lanes.map(|blend| blends[blend].1)),
                    // The part's first vertex is a multiple of `part`, so
                    // what is left is below it, which a u32 holds.
                    vertices: lanes.map(|blend| (blends[blend].0 % part) as u32),
                }
            })
            .collect();
        let normals = if normals.is_empty() {
            Vec::new()
        } else {
            cut.iter().map(|batch| vec3x4(normals, batch)).collect()
        };
        let mut runs: Vec<Run> = Vec::new();
        for (index, batch) in cut.iter().enumerate() {
            let joint = joints[batch[0]];
            match runs.last_mut() {
                Some(run) if run.joint == joint => run.batches.end = index + 1,
                _ => runs.push(Run {
                    joint,
                    batches: index..index + 1,
                }),
            }
        }
        Pulls {
            part,
            starts,
            runs,
            batches,
            normals,
        }
    }

    /// Poses the blend vertices of part `index` (each moved by its run's
    /// joint, or kept) and pulls the vertices they name toward them, in
    /// blend order: `positions` and `normals` are the part's outputs,
    /// `normals` empty when the skin has none.
    pub(crate) fn pull(
        &self,
        index: usize,
        model: &[Affine3A],
        rule: BlendRule,
        positions: &mut [Vec3],
        normals: &mut [Vec3],
    ) {
        // Indexing cannot fail: `bind` made a start for every part and one
        // past, and every run's joint is a skeleton joint.
        let batches = self.starts[index]..self.starts[index + 1];
        let first = self
            .runs
            .partition_point(|run| run.batches.end <= batches.start);
        let runs = self.runs[first..]
            .iter()
            .take_while(|run| run.batches.start < batches.end);
        for run in runs {
            let within = run.batches.start.max(batches.start)..run.batches.end.min(batches.end);
            match run.joint {
                Some(joint) => {
                    let bone = BoneX4::new(&model[joint]);
                    let moved = (
                        |stored: &Vec3x4| bone.transform_points(stored),
                        |stored: &Vec3x4| bone.transform_vectors(stored),
                    );
                    self.pull_batches(moved, within, rule, positions, normals);
                }
                None => {
                    let kept = (|stored: &Vec3x4| *stored, |stored: &Vec3x4| *stored);
                    self.pull_batches(kept, within, rule, positions, normals);
                }
            }
        }
    }

    /// Pulls by the batches `batches`, their blend vertices moved as
    /// `points` and `vectors` move them.
    fn pull_batches(
        &self,
        (points, vectors): (impl Fn(&Vec3x4) -> Vec3x4, impl Fn(&Vec3x4) -> Vec3x4),
        batches: Range<usize>,
        rule: BlendRule,
        positions: &mut [Vec3],
        normals: &mut [Vec3],
    ) {
        let in_order = &self.batches[batches.clone()];
        let pull_positions = |positions: &mut [Vec3], batch: &PullBatch| {
            let vertices = gather(positions, &batch.vertices);
            let pulled = combine(rule, batch.weights, vertices, points(&batch.positions));
            scatter(positions, &batch.vertices, pulled);
        };
        if normals.is_empty() || self.normals.is_empty() {
            for batch in in_order {
                pull_positions(positions, batch);
            }
            return;
        }
        // One length for both lets a vertex index checked against the
        // positions serve the normals too.
        let normals = &mut normals[..positions.len()];
        for (batch, stored_normals) in in_order.iter().zip(&self.normals[batches]) {
            pull_positions(positions, batch);
            let vertices = gather(normals, &batch.vertices);
            let pulled = combine(rule, batch.weights, vertices, vectors(stored_normals));
            scatter(normals, &batch.vertices, pulled.normalize_or_zero());
        }
    }
}

/// The four vertices `vertices` of `out`.
fn gather(out: &[Vec3], vertices: &[u32; 4]) -> Vec3x4 {
    // `bind` made every batch's vertices indices into its part's outputs.
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

/// Four vectors with each coordinate's four values in one SIMD vector (an
/// SSE2 register on x86-64): a batch is moved and pulled with
/// whole-register operations, each lane as glam computes one `Vec3`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Vec3x4 {
    x: Vec4,
    y: Vec4,
    z: Vec4,
}

impl Vec3x4 {
    fn lane(&self, lane: usize) -> Vec3 {
        Vec3::new(self.x[lane], self.y[lane], self.z[lane])
    }

    fn to_vec3s(self) -> [Vec3; 4] {
        [self.lane(0), self.lane(1), self.lane(2), self.lane(3)]
    }

    fn from_vec3s([a, b, c, d]: [Vec3; 4]) -> Vec3x4 {
        Vec3x4 {
            x: Vec4::new(a.x, b.x, c.x, d.x),
            y: Vec4::new(a.y, b.y, c.y, d.y),
            z: Vec4::new(a.z, b.z, c.z, d.z),
        }
    }

    /// Each vector as `Vec3::normalize_or_zero` computes it: each
    /// coordinate times `1 / sqrt((x * x + y * y) + z * z)`, or zero where
    /// that factor is not finite and positive.
    fn normalize_or_zero(self) -> Vec3x4 {
        let length = sqrt(self.x * self.x + self.y * self.y + self.z * self.z);
        let recip = length.recip();
        // Finite and positive: above 0 and below infinity (NaN is neither).
        let usable = recip.cmpgt(Vec4::ZERO) & recip.cmplt(Vec4::INFINITY);
        let scaled = self * recip;
        Vec3x4 {
            x: Vec4::select(usable, scaled.x, Vec4::ZERO),
            y: Vec4::select(usable, scaled.y, Vec4::ZERO),
            z: Vec4::select(usable, scaled.z, Vec4::ZERO),
        }
    }
}

impl Add for Vec3x4 {
    type Output = Vec3x4;

    fn add(self, other: Vec3x4) -> Vec3x4 {
        Vec3x4 {
            x: self.x + other.x,
            y: self.y + other.y,
            z: self.z + other.z,
        }
    }
}

impl Sub for Vec3x4 {
    type Output = Vec3x4;

    fn sub(self, other: Vec3x4) -> Vec3x4 {
        Vec3x4 {
            x: self.x - other.x,
            y: self.y - other.y,
            z: self.z - other.z,
        }
    }
}

/// Each lane's vector times that lane's factor.
impl Mul<Vec4> for Vec3x4 {
    type Output = Vec3x4;

    fn mul(self, factors: Vec4) -> Vec3x4 {
        Vec3x4 {
            x: self.x * factors,
            y: self.y * factors,
            z: self.z * factors,
        }
    }
}

/// Each lane's square root, correctly rounded as `f32::sqrt` is: one
/// instruction for the four with SSE.
fn sqrt(values: Vec4) -> Vec4 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: one SSE instruction, which every x86-64 processor has.
        unsafe { std::arch::x86_64::_mm_sqrt_ps(values.into()).into() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec4::from_array(values.to_array().map(f32::sqrt))
    }
}

/// A bone's matrix with each entry in all four lanes, to move [`Vec3x4`]s
/// exactly as `Affine3A` moves one `Vec3`: per coordinate
/// `((x_axis * x + y_axis * y) + z_axis * z) + translation`, the same
/// operations in the same order (no fused multiply-add), so the bits are
/// those of one vertex at a time.
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
