//! Weighted skins (SWG, BonesPro, glTF-style influences): each vertex moved
//! by the weighted sum of its joints' skinning matrices, its position by the
//! whole sum and its normal by the sum's 3x3 part. The influences are laid
//! out once, at bind time, for the deformation's loops:
//!
//! - vertices in groups of [`GROUP`]; a group has as many influence slots as
//!   its vertex with the most, and slot `i` holds each lane's `i`-th joint
//!   and weight (a vertex with fewer fills its spare slots with weight 0 on
//!   its first joint: a finite matrix adds exactly nothing);
//! - consecutive groups of one slot count share a palette of at most
//!   [`PALETTE`] joints, and each lane names its joint by its place in the
//!   palette. At each pose the palette's matrices are laid out as a table a
//!   matrix entry (every joint's value of that entry side by side), and
//!   the vector loops look an entry up for 8 or 16 lanes at once with one
//!   permute (`vpermps`): loading each lane's matrix and transposing them
//!   into one register an entry had cost more instructions than the rest
//!   of the deformation. Real meshes keep few joints near one another (the
//!   Star Wars Galaxies bodies run tens of vertices to a palette); a group
//!   naming more joints than a palette holds forms a run of its own, which
//!   the one-vertex-at-a-time loop deforms.

use std::ops::Range;

use formats::rig;
use glam::{Affine3A, Vec3, Vec3A};

use crate::lanes::Vec3x4;

/// Vertices a group holds: four stored blocks ([`Vec3x4`]), one 512-bit
/// register a coordinate.
pub(crate) const GROUP: usize = 16;

/// The most joints a run's palette holds for the vector loops: one 256-bit
/// register of table entries.
pub(crate) const PALETTE: usize = 8;

/// A weighted skin's influences, laid out as the module describes.
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
    /// Per skeleton joint, the inverse of its rest model matrix.
    pub(crate) inverse_rest: Vec<Affine3A>,
}

/// Consecutive groups of one slot count sharing a palette.
#[derive(Clone, Debug, PartialEq)]
struct Run {
    slots: usize,
    /// One slot whose weight is exactly 1 for every vertex moved (the
    /// rigid vertices most skins are made of): each lane's matrix is its
    /// joint's own, with no multiplication (which would give the same
    /// bits).
    unit_weights: bool,
    groups: Range<usize>,
    /// Where the run's first group's first slot is in `places` and
    /// `weights`; each group after it `slots` further.
    first: usize,
    /// Skeleton joints; more than [`PALETTE`] only in a run of one group.
    palette: Vec<u16>,
}

/// A run's palette laid out for the vector loops: per output coordinate
/// `c` and matrix column `k` (x, y and z axes, translation), entry
/// `4 * c + k`, each palette joint's value side by side.
pub(crate) type Table = [[f32; PALETTE]; 12];

impl Influences {
    /// Lays out `per_vertex` (each vertex's influences, every joint below
    /// `joints`' length) on the skeleton joints `joints`.
    pub(crate) fn bind(
        per_vertex: &[&[rig::Influence]],
        joints: &[u16],
        inverse_rest: Vec<Affine3A>,
    ) -> Influences {
        let joint_of = |influence: &rig::Influence| joints[influence.joint as usize];
        let mut influences = Influences {
            runs: Vec::new(),
            places: Vec::new(),
            weights: Vec::new(),
            unmoved: Vec::with_capacity(per_vertex.len().div_ceil(GROUP)),
            inverse_rest,
        };
        for (group, lanes) in per_vertex.chunks(GROUP).enumerate() {
            let slots = lanes.iter().map(|own| own.len()).max().unwrap_or(0);
            let unit_weights = slots == 1
                && lanes
                    .iter()
                    .all(|own| own.first().is_none_or(|influence| influence.weight == 1.0));
            // Lanes with no influence, and those past the mesh's last
            // vertex, are kept as stored: any joint will do, and the group
            // has one when it has slots.
            let any_joint = lanes.iter().find_map(|own| own.first()).map_or(0, joint_of);
            let entry = |lane: usize, slot: usize| {
                let own = lanes.get(lane).copied().unwrap_or_default();
                match (own.get(slot), own.first()) {
                    (Some(influence), _) => (joint_of(influence), influence.weight),
                    (None, Some(first)) => (joint_of(first), 0.0),
                    (None, None) => (any_joint, 0.0),
                }
            };
            let entries: Vec<[(u16, f32); GROUP]> = (0..slots)
                .map(|slot| std::array::from_fn(|lane| entry(lane, slot)))
                .collect();
            let mut named: Vec<u16> = entries.iter().flatten().map(|&(joint, _)| joint).collect();
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
                    let new: Vec<u16> = named
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
                // are distinct and of 16 bits: a place fits 16 bits.
                let place =
                    |joint: u16| palette.iter().position(|&own| own == joint).unwrap_or(0) as u16;
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

    /// Each run's table at this pose, from the skinning matrices (one per
    /// skeleton joint), into `tables`; runs whose palette is too large for
    /// the vector loops get an unused table.
    pub(crate) fn tables(&self, skinning: &[Affine3A], tables: &mut Vec<Table>) {
        tables.clear();
        tables.extend(self.runs.iter().map(|run| {
            let mut table = [[0.0; PALETTE]; 12];
            if run.palette.len() <= PALETTE {
                for (place, &joint) in run.palette.iter().enumerate() {
                    let matrix = &skinning[usize::from(joint)];
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
        {
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

/// A weighted skin at one pose: its influences, the pose's skinning
/// matrices and tables, and its stored vertices.
pub(crate) struct Weighted<'a> {
    pub(crate) influences: &'a Influences,
    /// Per skeleton joint, `model * inverse(rest model)`.
    pub(crate) skinning: &'a [Affine3A],
    /// Per run, from [`Influences::tables`] on `skinning`.
    pub(crate) tables: &'a [Table],
    pub(crate) unit_normals: bool,
    pub(crate) positions: &'a [Vec3x4],
    /// Empty when the skin has none.
    pub(crate) normals: &'a [Vec3x4],
    pub(crate) isa: Isa,
}

/// One run's groups, as the vector loops take them.
pub(crate) struct RunView<'a> {
    pub(crate) table: &'a Table,
    pub(crate) slots: usize,
    pub(crate) unit_weights: bool,
    pub(crate) unit_normals: bool,
    /// `slots` a group.
    pub(crate) places: &'a [[u16; GROUP]],
    pub(crate) weights: &'a [[f32; GROUP]],
    /// One a group.
    pub(crate) unmoved: &'a [u16],
    /// Four a group (the last group's possibly fewer).
    pub(crate) positions: &'a [Vec3x4],
    /// Empty when the skin has none.
    pub(crate) normals: &'a [Vec3x4],
}

impl Weighted<'_> {
    /// Writes the vertices from `offset` (a multiple of [`GROUP`]) on:
    /// `positions` with the weighted sum of their joints' matrices applied,
    /// `normals` (empty when the skin has none) with its 3x3 part,
    /// normalized where `unit_normals` says.
    pub(crate) fn deform(&self, offset: usize, positions: &mut [Vec3], normals: &mut [Vec3]) {
        let first_group = offset / GROUP;
        let groups = first_group..first_group + positions.len().div_ceil(GROUP);
        let runs = &self.influences.runs;
        let first_run = runs.partition_point(|run| run.groups.end <= groups.start);
        for (run, table) in runs[first_run..]
            .iter()
            .zip(&self.tables[first_run..])
            .take_while(|(run, _)| run.groups.start < groups.end)
        {
            let within = run.groups.start.max(groups.start)..run.groups.end.min(groups.end);
            // Indexing cannot fail: `bind` made every run's slots and
            // masks, the stored blocks hold every vertex, and the outputs
            // those from `offset` on.
            let out = (within.start - first_group) * GROUP
                ..((within.end - first_group) * GROUP).min(positions.len());
            let blocks = within.start * 4..(within.end * 4).min(self.positions.len());
            let slots = (run.first + (within.start - run.groups.start) * run.slots)
                ..(run.first + (within.end - run.groups.start) * run.slots);
            let view = RunView {
                table,
                slots: run.slots,
                unit_weights: run.unit_weights,
                unit_normals: self.unit_normals,
                places: &self.influences.places[slots.clone()],
                weights: &self.influences.weights[slots],
                unmoved: &self.influences.unmoved[within],
                positions: &self.positions[blocks.clone()],
                normals: self.normals.get(blocks).unwrap_or_default(),
            };
            let positions = &mut positions[out.clone()];
            let normals = normals.get_mut(out).unwrap_or_default();
            let vectors = run.slots > 0
                && run.palette.len() <= PALETTE
                && crate::palette::deform(self.isa, &view, positions, normals);
            if !vectors {
                one_at_a_time(&view, &run.palette, self.skinning, positions, normals);
            }
        }
    }
}

/// The vertices of `view` one at a time, as the definition reads: the
/// weighted sum of the lanes' matrices (`palette` names each place's
/// skeleton joint), then one transform.
fn one_at_a_time(
    view: &RunView,
    palette: &[u16],
    skinning: &[Affine3A],
    positions: &mut [Vec3],
    normals: &mut [Vec3],
) {
    let slots = view.slots;
    for (vertex, position) in positions.iter_mut().enumerate() {
        let (group, lane) = (vertex / GROUP, vertex % GROUP);
        let stored = view.positions[vertex / 4].lane(vertex % 4);
        let stored_normal = view
            .normals
            .get(vertex / 4)
            .map(|block| block.lane(vertex % 4));
        if slots == 0 || view.unmoved[group] & (1 << lane) != 0 {
            *position = stored;
            if let (Some(normal), Some(stored)) = (normals.get_mut(vertex), stored_normal) {
                *normal = stored;
            }
            continue;
        }
        let mut columns = [Vec3A::ZERO; 4];
        let first = group * slots;
        for (places, weights) in view.places[first..first + slots]
            .iter()
            .zip(&view.weights[first..first + slots])
        {
            let matrix = &skinning[usize::from(palette[usize::from(places[lane])])];
            let weight = if view.unit_weights {
                1.0
            } else {
                weights[lane]
            };
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
        let sum = Affine3A {
            matrix3: glam::Mat3A::from_cols(x_axis, y_axis, z_axis),
            translation,
        };
        *position = sum.transform_point3(stored);
        if let (Some(normal), Some(stored)) = (normals.get_mut(vertex), stored_normal) {
            let moved = sum.transform_vector3(stored);
            *normal = if view.unit_normals {
                moved.normalize_or_zero()
            } else {
                moved
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn influence(joint: u32, weight: f32) -> rig::Influence {
        rig::Influence { joint, weight }
    }

    #[test]
    fn groups_share_a_palette_while_their_joints_fit_it() {
        // Groups of 16 vertices: rigid on joints 0-4, then 3-7 (together
        // eight), then 8; two influences; ten joints in one group; joint 0.
        let mut per_vertex: Vec<Vec<rig::Influence>> = Vec::new();
        let mut group = |influences: &dyn Fn(u32) -> Vec<rig::Influence>| {
            per_vertex.extend((0..16).map(influences));
        };
        group(&|lane| vec![influence(lane % 5, 1.0)]);
        group(&|lane| vec![influence(3 + lane % 5, 1.0)]);
        group(&|_| vec![influence(8, 1.0)]);
        group(&|lane| vec![influence(lane % 2, 0.5), influence(2, 0.5)]);
        group(&|lane| vec![influence(lane % 10, 1.0)]);
        group(&|_| vec![influence(0, 1.0)]);
        let slices: Vec<&[rig::Influence]> = per_vertex.iter().map(Vec::as_slice).collect();
        // Mesh joint `j` is skeleton joint `20 + j`.
        let joints: Vec<u16> = (20..32).collect();
        let bound = Influences::bind(&slices, &joints, Vec::new());
        let runs: Vec<(usize, bool, Range<usize>, Vec<u16>)> = bound
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
                        let own = &per_vertex[group * GROUP + lane][slot];
                        assert_eq!(
                            run.palette[usize::from(place)],
                            joints[own.joint as usize],
                            "group {group}, slot {slot}, lane {lane}"
                        );
                    }
                }
            }
        }
    }
}
