//! The layout every skin is bound into for its deformation, the
//! deformation's order of work, and its loop of one vertex at a time (the
//! vector loops are in [`crate::wide`]).
//!
//! Vertices go in groups of 16 ([`GROUP`]), stored one array a coordinate
//! ([`Vec3x16`]). Each vertex is moved by a matrix: the weighted sum of
//! its joints' skinning matrices (weighted skins), or its bone's model
//! matrix (the Sims' bone ranges, a vertex's one joint of weight 1).
//!
//! - A group has as many influence slots as its vertex with the most, and
//!   slot `i` holds each lane's `i`-th joint and weight (a vertex with
//!   fewer fills its spare slots with weight 0 on its first joint: a finite
//!   matrix adds exactly nothing).
//! - Consecutive groups of one slot count share a palette of at most
//!   [`PALETTE`] joints, and each lane names its joint by its place in the
//!   palette. At each pose the palette's matrices are laid out as a table a
//!   matrix entry (every joint's value of that entry side by side), and the
//!   vector loops look an entry up for 8 or 16 lanes at once with one
//!   permute: loading each lane's matrix and transposing them into one
//!   register an entry had cost more instructions than the rest of the
//!   deformation. Real meshes keep few joints near one another (the Star
//!   Wars Galaxies bodies run tens of vertices to a palette, a Sims body's
//!   bone ranges hundreds); a group naming more joints than a palette holds
//!   forms a run of its own, which the loop of one vertex at a time moves.
//!
//! The Sims' blend vertices then pull the vertices they name ([`crate::pulls`]).

use std::ops::Range;

use glam::{Affine3A, Vec3, Vec3A};

use crate::lanes::{Vec3Groups, Vec3x16, GROUP};

/// The most joints a run's palette holds for the vector loops: one 256-bit
/// register of table entries.
pub(crate) const PALETTE: usize = 8;

/// Every vertex's joints and weights, laid out as the module describes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Influences {
    /// Covering every group once, in order.
    runs: Vec<Run>,
    /// Per group and slot, each lane's joint as its place in the run's
    /// palette.
    places: Vec<[u16; GROUP]>,
    /// Per group and slot, each lane's weight.
    weights: Vec<[f32; GROUP]>,
    /// Per group, a bit per lane whose vertex has no influence and keeps
    /// its stored values.
    unmoved: Vec<u16>,
}

/// Consecutive groups of one slot count sharing a palette.
#[derive(Clone, Debug, PartialEq)]
struct Run {
    slots: usize,
    /// One slot whose weight is exactly 1 for every vertex moved (rigid
    /// vertices, and every vertex of a bone range): each lane's matrix is
    /// its joint's own, with no multiplication (which would give the same
    /// bits).
    unit_weights: bool,
    groups: Range<usize>,
    /// Where the run's first group's first slot is in `places` and
    /// `weights`; each group after it `slots` further.
    first: usize,
    /// Skeleton joints; more than [`PALETTE`] only in a run of one group.
    palette: Vec<usize>,
}

/// A run's palette laid out for the vector loops: per output coordinate
/// `c` and matrix column `k` (x, y and z axes, translation), entry
/// `4 * c + k`, each palette joint's value side by side.
pub(crate) type Table = [[f32; PALETTE]; 12];

impl Influences {
    /// Lays out `per_vertex`, each vertex's (skeleton joint, weight) pairs.
    pub(crate) fn bind(per_vertex: &[&[(usize, f32)]]) -> Influences {
        let mut influences = Influences {
            runs: Vec::new(),
            places: Vec::new(),
            weights: Vec::new(),
            unmoved: Vec::with_capacity(per_vertex.len().div_ceil(GROUP)),
        };
        for (group, lanes) in per_vertex.chunks(GROUP).enumerate() {
            let slots = lanes.iter().map(|own| own.len()).max().unwrap_or(0);
            let unit_weights = slots == 1
                && lanes
                    .iter()
                    .all(|own| own.first().is_none_or(|&(_, w)| w == 1.0));
            // Lanes with no influence, and those past the mesh's last
            // vertex, are kept as stored: any joint will do, and the group
            // has one when it has slots.
            let any_joint = lanes
                .iter()
                .find_map(|own| own.first())
                .map_or(0, |&(joint, _)| joint);
            let entry = |lane: usize, slot: usize| {
                let own = lanes.get(lane).copied().unwrap_or_default();
                match (own.get(slot), own.first()) {
                    (Some(&influence), _) => influence,
                    (None, Some(&(first, _))) => (first, 0.0),
                    (None, None) => (any_joint, 0.0),
                }
            };
            let entries: Vec<[(usize, f32); GROUP]> = (0..slots)
                .map(|slot| std::array::from_fn(|lane| entry(lane, slot)))
                .collect();
            let mut named: Vec<usize> = entries.iter().flatten().map(|&(joint, _)| joint).collect();
            named.sort_unstable();
            named.dedup();
            let joins = influences.runs.last().is_some_and(|run| {
                let new = named.iter().filter(|joint| !run.palette.contains(joint));
                run.slots == slots
                    && run.unit_weights == unit_weights
                    && run.palette.len() + new.count() <= PALETTE
            });
            match influences.runs.last_mut() {
                Some(run) if joins => {
                    let new: Vec<usize> = named
                        .into_iter()
                        .filter(|joint| !run.palette.contains(joint))
                        .collect();
                    run.palette.extend(new);
                    run.groups.end = group + 1;
                }
                _ => influences.runs.push(Run {
                    slots,
                    unit_weights,
                    groups: group..group + 1,
                    first: influences.places.len(),
                    palette: named,
                }),
            }
            let palette = influences.runs.last().map_or(&[][..], |run| &run.palette);
            for slot in &entries {
                // Every joint of the group is in the palette, whose joints
                // are distinct: a group names at most 16 a slot, and a
                // slot count a format stores keeps a place within 16 bits.
                let place =
                    |joint: usize| palette.iter().position(|&own| own == joint).unwrap_or(0) as u16;
                influences.places.push(slot.map(|(joint, _)| place(joint)));
                influences.weights.push(slot.map(|(_, weight)| weight));
            }
            let mut mask = 0;
            for (lane, own) in lanes.iter().enumerate() {
                if own.is_empty() {
                    mask |= 1 << lane;
                }
            }
            influences.unmoved.push(mask);
        }
        influences
    }

    /// Each run's table at this pose, from `matrices` (one per skeleton
    /// joint), into `tables`; runs whose palette is too large for the
    /// vector loops get an unused table.
    pub(crate) fn tables(&self, matrices: &[Affine3A], tables: &mut Vec<Table>) {
        tables.clear();
        tables.extend(self.runs.iter().map(|run| {
            let mut table = [[0.0; PALETTE]; 12];
            if run.palette.len() <= PALETTE {
                for (place, &joint) in run.palette.iter().enumerate() {
                    let matrix = &matrices[joint];
                    let columns = [
                        matrix.matrix3.x_axis,
                        matrix.matrix3.y_axis,
                        matrix.matrix3.z_axis,
                        matrix.translation,
                    ];
                    for (entry, row) in table.iter_mut().enumerate() {
                        row[place] = columns[entry % 4][entry / 4];
                    }
                }
            }
            table
        }));
    }
}

/// What the vector loops run on: SIMD extensions the processor has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Isa {
    /// AVX-512 (the foundation), 16 lanes a register.
    Avx512,
    /// AVX2 and FMA, 8 lanes a register.
    Avx2,
    /// Neither: one vertex at a time.
    Portable,
}

impl Isa {
    /// The widest the processor has, checked at run time.
    pub(crate) fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Isa::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                return Isa::Avx2;
            }
        }
        Isa::Portable
    }
}

/// How a vertex's matrix is made and applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arithmetic {
    /// Weighted skins: the weighted sum of matrices, then the transform,
    /// with fused multiply-adds (within rounding of the definition).
    Fused,
    /// Bone ranges: the bone's matrix applied as `Affine3A` applies it,
    /// `((x_axis * x + y_axis * y) + z_axis * z) + translation` with no
    /// fused multiply-add, so that every path gives glam's bits.
    Exact,
}

/// A skin at one pose, as the loops take it.
pub(crate) struct Job<'a> {
    pub(crate) influences: &'a Influences,
    /// Per skeleton joint: skinning matrices (weighted) or model matrices
    /// (bone ranges).
    pub(crate) matrices: &'a [Affine3A],
    /// Per run of `influences`, from [`Influences::tables`] on `matrices`.
    pub(crate) tables: &'a [Table],
    pub(crate) positions: &'a Vec3Groups,
    /// Empty when the skin has none.
    pub(crate) normals: &'a Vec3Groups,
    pub(crate) arithmetic: Arithmetic,
    /// Moved normals made unit length (weighted skins' default).
    pub(crate) unit_normals: bool,
    pub(crate) isa: Isa,
}

/// One run's groups, as the loops take them.
pub(crate) struct RunView<'a> {
    pub(crate) table: &'a Table,
    pub(crate) slots: usize,
    pub(crate) unit_weights: bool,
    pub(crate) arithmetic: Arithmetic,
    pub(crate) unit_normals: bool,
    /// `slots` a group.
    pub(crate) places: &'a [[u16; GROUP]],
    pub(crate) weights: &'a [[f32; GROUP]],
    /// One a group.
    pub(crate) unmoved: &'a [u16],
    pub(crate) positions: &'a [Vec3x16],
    /// Empty when the skin has none.
    pub(crate) normals: &'a [Vec3x16],
}

impl Job<'_> {
    /// Writes the vertices from `offset` (a multiple of [`GROUP`]) on into
    /// `positions` and `normals` (empty when the skin has none).
    pub(crate) fn deform(&self, offset: usize, positions: &mut [Vec3], normals: &mut [Vec3]) {
        let first_group = offset / GROUP;
        let groups = first_group..first_group + positions.len().div_ceil(GROUP);
        let positions: &mut [f32] = bytemuck::cast_slice_mut(positions);
        let normals: &mut [f32] = bytemuck::cast_slice_mut(normals);
        let floats = 3 * GROUP;
        let runs = &self.influences.runs;
        let first_run = runs.partition_point(|run| run.groups.end <= groups.start);
        for (run, table) in runs[first_run..]
            .iter()
            .zip(&self.tables[first_run..])
            .take_while(|(run, _)| run.groups.start < groups.end)
        {
            let within = run.groups.start.max(groups.start)..run.groups.end.min(groups.end);
            // Indexing cannot fail: `bind` made every run's slots and masks,
            // the stored groups hold every group, and the outputs the
            // vertices of every group from the first on, the last possibly
            // fewer.
            let out = (within.start - first_group) * floats
                ..((within.end - first_group) * floats).min(positions.len());
            let slots = (run.first + (within.start - run.groups.start) * run.slots)
                ..(run.first + (within.end - run.groups.start) * run.slots);
            let view = RunView {
                table,
                slots: run.slots,
                unit_weights: run.unit_weights,
                arithmetic: self.arithmetic,
                unit_normals: self.unit_normals,
                places: &self.influences.places[slots.clone()],
                weights: &self.influences.weights[slots],
                unmoved: &self.influences.unmoved[within.clone()],
                positions: &self.positions.groups[within.clone()],
                normals: self.normals.groups.get(within).unwrap_or_default(),
            };
            let positions = &mut positions[out.clone()];
            let normals = normals.get_mut(out).unwrap_or_default();
            let vectors = run.slots > 0
                && run.palette.len() <= PALETTE
                && crate::wide::deform(self.isa, &view, positions, normals);
            if !vectors {
                one_at_a_time(&view, &run.palette, self.matrices, positions, normals);
            }
        }
    }
}

/// The vertices of `view` one at a time, as the definition reads (the
/// arithmetic as `view.arithmetic` says): the weighted sum of the lanes'
/// matrices (`palette` names each place's skeleton joint, `matrices` holds
/// one matrix per skeleton joint), then one transform. The outputs hold
/// the vertices' floats.
fn one_at_a_time(
    view: &RunView,
    palette: &[usize],
    matrices: &[Affine3A],
    positions: &mut [f32],
    normals: &mut [f32],
) {
    let slots = view.slots;
    for (vertex, position_out) in positions.chunks_exact_mut(3).enumerate() {
        let (group, lane) = (vertex / GROUP, vertex % GROUP);
        // Indexing cannot fail: `bind` made every group's slots and mask,
        // and the stored groups hold every vertex.
        let stored = view.positions[group].lane(lane);
        let stored_normal = view.normals.get(group).map(|normals| normals.lane(lane));
        let normal_out = normals.get_mut(3 * vertex..3 * vertex + 3);
        if slots == 0 || view.unmoved[group] & (1 << lane) != 0 {
            position_out.copy_from_slice(&stored.to_array());
            if let (Some(out), Some(stored)) = (normal_out, stored_normal) {
                out.copy_from_slice(&stored.to_array());
            }
            continue;
        }
        let first = group * slots;
        let own = view.places[first..first + slots]
            .iter()
            .zip(&view.weights[first..first + slots])
            .map(|(places, weights)| {
                let matrix = &matrices[palette[usize::from(places[lane])]];
                let weight = if view.unit_weights {
                    1.0
                } else {
                    weights[lane]
                };
                (matrix, weight)
            });
        let matrix = match view.arithmetic {
            // A bone range: one joint of weight 1, its matrix as it is.
            Arithmetic::Exact => own.map(|(matrix, _)| *matrix).next().unwrap_or_default(),
            Arithmetic::Fused => {
                let mut columns = [Vec3A::ZERO; 4];
                for (matrix, weight) in own {
                    let terms = [
                        matrix.matrix3.x_axis,
                        matrix.matrix3.y_axis,
                        matrix.matrix3.z_axis,
                        matrix.translation,
                    ];
                    for (column, term) in columns.iter_mut().zip(terms) {
                        *column += term * weight;
                    }
                }
                let [x_axis, y_axis, z_axis, translation] = columns;
                Affine3A {
                    matrix3: glam::Mat3A::from_cols(x_axis, y_axis, z_axis),
                    translation,
                }
            }
        };
        position_out.copy_from_slice(&matrix.transform_point3(stored).to_array());
        if let (Some(out), Some(stored)) = (normal_out, stored_normal) {
            let normal = matrix.transform_vector3(stored);
            let normal = if view.unit_normals {
                normal.normalize_or_zero()
            } else {
                normal
            };
            out.copy_from_slice(&normal.to_array());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_share_a_palette_while_their_joints_fit_it() {
        // Groups of 16 vertices: rigid on joints 20-24, then 23-27
        // (together eight), then 28; two influences; ten joints in one
        // group; joint 20.
        let mut per_vertex: Vec<Vec<(usize, f32)>> = Vec::new();
        let mut group = |influences: &dyn Fn(usize) -> Vec<(usize, f32)>| {
            per_vertex.extend((0..16).map(influences));
        };
        group(&|lane| vec![(20 + lane % 5, 1.0)]);
        group(&|lane| vec![(23 + lane % 5, 1.0)]);
        group(&|_| vec![(28, 1.0)]);
        group(&|lane| vec![(20 + lane % 2, 0.5), (22, 0.5)]);
        group(&|lane| vec![(20 + lane % 10, 1.0)]);
        group(&|_| vec![(20, 1.0)]);
        let slices: Vec<&[(usize, f32)]> = per_vertex.iter().map(Vec::as_slice).collect();
        let bound = Influences::bind(&slices);
        let runs: Vec<(usize, bool, Range<usize>, Vec<usize>)> = bound
            .runs
            .iter()
            .map(|run| {
                (
                    run.slots,
                    run.unit_weights,
                    run.groups.clone(),
                    run.palette.clone(),
                )
            })
            .collect();
        assert_eq!(
            runs,
            [
                (1, true, 0..2, vec![20, 21, 22, 23, 24, 25, 26, 27]),
                (1, true, 2..3, vec![28]),
                (2, false, 3..4, vec![20, 21, 22]),
                (1, true, 4..5, (20..30).collect()),
                (1, true, 5..6, vec![20]),
            ]
        );
        // Each lane's place names its own joint in its run's palette.
        for run in &bound.runs {
            for group in run.groups.clone() {
                let first = run.first + (group - run.groups.start) * run.slots;
                let slots = &bound.places[first..first + run.slots];
                for (slot, places) in slots.iter().enumerate() {
                    for (lane, &place) in places.iter().enumerate() {
                        let (joint, _) = per_vertex[group * GROUP + lane][slot];
                        assert_eq!(
                            run.palette[usize::from(place)],
                            joint,
                            "group {group}, slot {slot}, lane {lane}"
                        );
                    }
                }
            }
        }
    }
}
