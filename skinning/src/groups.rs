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
//! - The Sims' blend vertices pull the vertices they name in layers: a
//!   group's first layer is a bit per lane for each vertex's first pull, its
//!   second for the vertices pulled twice, and so on, so that a vertex is
//!   pulled in blend order and a layer pulls each of its lanes at most once.
//!   The blend vertices are stored in pull order (by group, layer, lane),
//!   themselves in groups of 16 with their bones as above; before a part of
//!   the mesh is deformed, the blend vertices its pulls name are moved into
//!   scratch arrays, one a coordinate, and each layer then takes its lanes'
//!   values from there in order (`vexpandps`, or a permute where AVX-512 is
//!   missing), while the group's moved vertices are still in registers.

use std::cell::RefCell;
use std::ops::Range;

use glam::{Affine3A, Vec3, Vec3A};

use crate::lanes::{Vec3Groups, Vec3x16, GROUP};
use crate::skin::BlendRule;

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

/// The Sims' blend vertices, laid out as the module describes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Pulls {
    /// Per group of vertices, and one past the last: the group's first
    /// pull, in pull order.
    firsts: Vec<usize>,
    /// Per group of vertices, and one past the last: its first layer.
    layer_firsts: Vec<usize>,
    /// Per layer, a bit per lane it pulls.
    layers: Vec<u16>,
    /// Per pull, its blend vertex's weight; [`GROUP`] zeros after the
    /// last, so that sixteen can be read from any pull.
    weights: Vec<f32>,
    /// The blend vertices in pull order, each on its bone.
    pub(crate) blends: Influences,
    positions: Vec3Groups,
    /// Empty where normals are not pulled.
    normals: Vec3Groups,
}

impl Pulls {
    /// Lays out the blend vertices of a mesh of `count` vertices: per blend
    /// vertex, in blend order, the vertex it pulls (below `count`) and its
    /// weight, its bone's skeleton joint (none: kept as stored), its stored
    /// position and its stored normal (`normals` empty where normals are not
    /// pulled).
    pub(crate) fn bind(
        count: usize,
        blends: &[(usize, f32)],
        joints: &[Option<usize>],
        positions: &[[f32; 3]],
        normals: &[[f32; 3]],
    ) -> Pulls {
        let mut pulled = vec![0usize; count];
        // Pull order: (group, layer, lane), each key once.
        let mut order: Vec<(usize, usize, usize, usize)> = blends
            .iter()
            .enumerate()
            .map(|(blend, &(vertex, _))| {
                let layer = pulled[vertex];
                pulled[vertex] += 1;
                (vertex / GROUP, layer, vertex % GROUP, blend)
            })
            .collect();
        order.sort_unstable();
        let groups = count.div_ceil(GROUP);
        let mut firsts = Vec::with_capacity(groups + 1);
        let mut layer_firsts = Vec::with_capacity(groups + 1);
        let mut layers = Vec::new();
        let mut at = 0;
        for group in 0..groups {
            firsts.push(at);
            layer_firsts.push(layers.len());
            while let Some(&(own, layer, _, _)) = order.get(at).filter(|key| key.0 == group) {
                let mut mask = 0u16;
                while let Some(&(_, _, lane, _)) =
                    order.get(at).filter(|key| (key.0, key.1) == (own, layer))
                {
                    mask |= 1 << lane;
                    at += 1;
                }
                layers.push(mask);
            }
        }
        firsts.push(at);
        layer_firsts.push(layers.len());
        let in_order = |values: &[[f32; 3]]| {
            Vec3Groups::new(order.iter().map(|&(_, _, _, blend)| values[blend]))
        };
        let own: Vec<Vec<(usize, f32)>> = order
            .iter()
            .map(|&(_, _, _, blend)| {
                joints[blend]
                    .map(|joint| (joint, 1.0))
                    .into_iter()
                    .collect()
            })
            .collect();
        let own: Vec<&[(usize, f32)]> = own.iter().map(Vec::as_slice).collect();
        let mut weights: Vec<f32> = order
            .iter()
            .map(|&(_, _, _, blend)| blends[blend].1)
            .collect();
        weights.extend([0.0; GROUP]);
        Pulls {
            firsts,
            layer_firsts,
            layers,
            weights,
            blends: Influences::bind(&own),
            positions: in_order(positions),
            normals: if normals.is_empty() {
                Vec3Groups::default()
            } else {
                in_order(normals)
            },
        }
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
    /// The blend vertices, the tables of their runs on `matrices`, and how
    /// they pull.
    pub(crate) pulls: Option<(&'a Pulls, &'a [Table], BlendRule)>,
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

/// The pulls of one run's groups.
pub(crate) struct PullView<'a> {
    /// Per group of the run, and one past the last, its first layer in
    /// `layers`.
    pub(crate) layer_firsts: &'a [usize],
    /// Per group of the run, and one past the last, its first pull.
    pub(crate) firsts: &'a [usize],
    pub(crate) layers: &'a [u16],
    /// Per pull, from the first, and sixteen zeros after the last.
    pub(crate) weights: &'a [f32],
    /// The moved blend vertices' x, y and z, then their normals' (empty
    /// where normals are not pulled), each from pull `base` on and sixteen
    /// values past the last.
    pub(crate) moved: [&'a [f32]; 6],
    pub(crate) base: usize,
    pub(crate) rule: BlendRule,
}

/// Where a run's loop writes: `Vec3`s (as floats; a last group's possibly
/// fewer), or one array a coordinate of whole groups (the moved blend
/// vertices' scratch). Normals empty when there are none.
pub(crate) enum Out<'a> {
    Vec3s {
        positions: &'a mut [f32],
        normals: &'a mut [f32],
    },
    Lanes {
        positions: [&'a mut [f32]; 3],
        normals: [&'a mut [f32]; 3],
    },
}

thread_local! {
    /// The moved blend vertices of the part a thread deforms: six arrays
    /// of equal length, one after the other. Kept from call to call, so
    /// that it grows once a thread.
    static MOVED_BLENDS: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

impl Job<'_> {
    /// Writes the vertices from `offset` (a multiple of [`GROUP`]) on into
    /// `positions` and `normals` (empty when the skin has none).
    pub(crate) fn deform(&self, offset: usize, positions: &mut [Vec3], normals: &mut [Vec3]) {
        let first_group = offset / GROUP;
        let groups = first_group..first_group + positions.len().div_ceil(GROUP);
        let positions: &mut [f32] = bytemuck::cast_slice_mut(positions);
        let normals: &mut [f32] = bytemuck::cast_slice_mut(normals);
        let Some((pulls, blend_tables, rule)) = self.pulls else {
            self.deform_groups(groups, positions, normals, None);
            return;
        };
        // Indexing cannot fail: `Pulls::bind` made a first pull and layer
        // for every group and one past.
        let pulled = pulls.firsts[groups.start]..pulls.firsts[groups.end];
        let blend_groups = pulled.start / GROUP..pulled.end.div_ceil(GROUP);
        let with_normals = !normals.is_empty() && pulls.normals.len() > 0;
        MOVED_BLENDS.with_borrow_mut(|scratch| {
            let len = blend_groups.len() * GROUP + GROUP;
            scratch.resize(6 * len, 0.0);
            let mut arrays = scratch.chunks_exact_mut(len);
            let mut array = || arrays.next().unwrap_or_default();
            let [x, y, z, normal_x, normal_y, normal_z] = std::array::from_fn(|_| array());
            let blends = Job {
                influences: &pulls.blends,
                tables: blend_tables,
                positions: &pulls.positions,
                normals: if with_normals { &pulls.normals } else { &EMPTY },
                pulls: None,
                ..*self
            };
            let (positions_out, normals_out) = if with_normals {
                ([x, y, z], [normal_x, normal_y, normal_z])
            } else {
                ([x, y, z], [&mut [][..], &mut [], &mut []])
            };
            blends.moved_blends(blend_groups.clone(), positions_out, normals_out);
            let moved = {
                let [x, y, z, normal_x, normal_y, normal_z] = std::array::from_fn(|index| {
                    if index < 3 || with_normals {
                        &scratch[index * len..(index + 1) * len]
                    } else {
                        &[][..]
                    }
                });
                [x, y, z, normal_x, normal_y, normal_z]
            };
            let source = PullSource {
                pulls,
                moved,
                base: blend_groups.start * GROUP,
                rule,
            };
            self.deform_groups(groups, positions, normals, Some(&source));
        });
    }

    /// Moves the blend vertex groups `groups` (this job's) into the
    /// scratch arrays, whole groups from the first of `groups` on.
    fn moved_blends(
        &self,
        groups: Range<usize>,
        positions: [&mut [f32]; 3],
        normals: [&mut [f32]; 3],
    ) {
        let first_group = groups.start;
        let [mut x, mut y, mut z] = positions;
        let [mut normal_x, mut normal_y, mut normal_z] = normals;
        for (run, table, within) in self.runs_within(groups) {
            let out = (within.start - first_group) * GROUP..(within.end - first_group) * GROUP;
            let len = out.len();
            let positions = [&mut x, &mut y, &mut z].map(|array| front(array, len));
            let normals =
                [&mut normal_x, &mut normal_y, &mut normal_z].map(|array| front(array, len));
            let view = self.view(run, table, within);
            let out = Out::Lanes { positions, normals };
            self.run(run, &view, None, out);
        }
    }

    /// Deforms the groups `groups` into the outputs (their floats, from the
    /// first of `groups` on), pulling them where `pulls` says.
    fn deform_groups(
        &self,
        groups: Range<usize>,
        positions: &mut [f32],
        normals: &mut [f32],
        pulls: Option<&PullSource>,
    ) {
        let first_group = groups.start;
        let floats = 3 * GROUP;
        for (run, table, within) in self.runs_within(groups) {
            // Indexing cannot fail: the outputs hold the vertices of every
            // group from the first on, the last possibly fewer.
            let out = (within.start - first_group) * floats
                ..((within.end - first_group) * floats).min(positions.len());
            let pull_view = pulls.map(|source| source.view(within.clone()));
            let view = self.view(run, table, within);
            let out = Out::Vec3s {
                positions: &mut positions[out.clone()],
                normals: normals.get_mut(out).unwrap_or_default(),
            };
            self.run(run, &view, pull_view.as_ref(), out);
        }
    }

    /// The runs that meet `groups`, each with its table and its part of
    /// `groups`.
    fn runs_within(
        &self,
        groups: Range<usize>,
    ) -> impl Iterator<Item = (&Run, &Table, Range<usize>)> {
        let runs = &self.influences.runs;
        let first = runs.partition_point(|run| run.groups.end <= groups.start);
        runs[first..]
            .iter()
            .zip(&self.tables[first..])
            .take_while(move |(run, _)| run.groups.start < groups.end)
            .map(move |(run, table)| {
                let within = run.groups.start.max(groups.start)..run.groups.end.min(groups.end);
                (run, table, within)
            })
    }

    /// `run`'s groups `within`, as the loops take them.
    fn view<'a>(&'a self, run: &Run, table: &'a Table, within: Range<usize>) -> RunView<'a> {
        // Indexing cannot fail: `bind` made every run's slots and masks,
        // and the stored groups hold every group.
        let slots = (run.first + (within.start - run.groups.start) * run.slots)
            ..(run.first + (within.end - run.groups.start) * run.slots);
        RunView {
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
        }
    }

    /// Deforms one run's groups with the vector loops where the processor
    /// and the run allow, else one vertex at a time.
    fn run(&self, run: &Run, view: &RunView, pulls: Option<&PullView>, mut out: Out) {
        let vectors = run.slots > 0
            && run.palette.len() <= PALETTE
            && crate::wide::deform(self.isa, view, pulls, &mut out);
        if !vectors {
            one_at_a_time(view, &run.palette, self.matrices, pulls, out);
        }
    }
}

/// The first `len` values of `array` (all of them where it holds fewer),
/// which keeps the rest.
fn front<'a>(array: &mut &'a mut [f32], len: usize) -> &'a mut [f32] {
    let taken = std::mem::take(array);
    let (front, rest) = taken.split_at_mut(len.min(taken.len()));
    *array = rest;
    front
}

/// Empty stored vectors, for a skin without normals.
static EMPTY: Vec3Groups = Vec3Groups::EMPTY;

/// The pulls of a part of the mesh, its blend vertices moved.
struct PullSource<'a> {
    pulls: &'a Pulls,
    moved: [&'a [f32]; 6],
    base: usize,
    rule: BlendRule,
}

impl PullSource<'_> {
    fn view(&self, groups: Range<usize>) -> PullView<'_> {
        // Indexing cannot fail: `Pulls::bind` made a first pull and layer
        // for every group and one past, and the weights' padding.
        let bounds = groups.start..groups.end + 1;
        PullView {
            layer_firsts: &self.pulls.layer_firsts[bounds.clone()],
            firsts: &self.pulls.firsts[bounds],
            layers: &self.pulls.layers,
            weights: &self.pulls.weights,
            moved: self.moved,
            base: self.base,
            rule: self.rule,
        }
    }
}

/// The vertices of `view` one at a time, as the definition reads (the
/// arithmetic as `view.arithmetic` says): the weighted sum of the lanes'
/// matrices (`palette` names each place's skeleton joint, `matrices` holds
/// one matrix per skeleton joint), then one transform, then the pulls.
fn one_at_a_time(
    view: &RunView,
    palette: &[usize],
    matrices: &[Affine3A],
    pulls: Option<&PullView>,
    out: Out,
) {
    let slots = view.slots;
    let vertices = match &out {
        Out::Vec3s { positions, .. } => positions.len() / 3,
        Out::Lanes { positions, .. } => positions[0].len(),
    };
    let mut written = Vec::with_capacity(vertices);
    for vertex in 0..vertices {
        let (group, lane) = (vertex / GROUP, vertex % GROUP);
        // Indexing cannot fail: `bind` made every group's slots and mask,
        // and the stored groups hold every vertex.
        let stored = view.positions[group].lane(lane);
        let stored_normal = view.normals.get(group).map(|normals| normals.lane(lane));
        if slots == 0 || view.unmoved[group] & (1 << lane) != 0 {
            written.push((stored, stored_normal));
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
        let (position, normal) = match view.arithmetic {
            Arithmetic::Exact => {
                // A bone range: one joint of weight 1.
                let matrix = own.map(|(matrix, _)| *matrix).next().unwrap_or_default();
                let normal = stored_normal.map(|normal| matrix.transform_vector3(normal));
                (matrix.transform_point3(stored), normal)
            }
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
                let sum = Affine3A {
                    matrix3: glam::Mat3A::from_cols(x_axis, y_axis, z_axis),
                    translation,
                };
                let normal = stored_normal.map(|normal| sum.transform_vector3(normal));
                (sum.transform_point3(stored), normal)
            }
        };
        let normal = normal.map(|normal| {
            if view.unit_normals {
                normal.normalize_or_zero()
            } else {
                normal
            }
        });
        written.push((position, normal));
    }
    if let Some(pulls) = pulls {
        pull_one_at_a_time(pulls, &mut written);
    }
    match out {
        Out::Vec3s { positions, normals } => {
            for (vertex, (position, normal)) in written.iter().enumerate() {
                positions[3 * vertex..3 * vertex + 3].copy_from_slice(&position.to_array());
                if let (Some(normal), Some(out)) =
                    (normal, normals.get_mut(3 * vertex..3 * vertex + 3))
                {
                    out.copy_from_slice(&normal.to_array());
                }
            }
        }
        Out::Lanes {
            positions: [x, y, z],
            normals: [normal_x, normal_y, normal_z],
        } => {
            for (vertex, (position, normal)) in written.iter().enumerate() {
                (x[vertex], y[vertex], z[vertex]) = (position.x, position.y, position.z);
                if let (Some(normal), Some(x), Some(y), Some(z)) = (
                    normal,
                    normal_x.get_mut(vertex),
                    normal_y.get_mut(vertex),
                    normal_z.get_mut(vertex),
                ) {
                    (*x, *y, *z) = (normal.x, normal.y, normal.z);
                }
            }
        }
    }
}

/// Pulls `vertices` (a run's, moved: positions and normals, the normals
/// pulled only where there are moved blend normals) as `pulls` says, layer
/// after layer, each lane as glam computes one vertex.
fn pull_one_at_a_time(pulls: &PullView, vertices: &mut [(Vec3, Option<Vec3>)]) {
    let normals = !pulls.moved[3].is_empty();
    for (group, group_vertices) in vertices.chunks_mut(GROUP).enumerate() {
        let mut pull = pulls.firsts[group];
        for &mask in &pulls.layers[pulls.layer_firsts[group]..pulls.layer_firsts[group + 1]] {
            for (lane, (position, normal)) in group_vertices.iter_mut().enumerate() {
                if mask & (1 << lane) == 0 {
                    continue;
                }
                let at = pull - pulls.base;
                let moved = |first: usize| {
                    Vec3::new(
                        pulls.moved[first][at],
                        pulls.moved[first + 1][at],
                        pulls.moved[first + 2][at],
                    )
                };
                let weight = pulls.weights[pull];
                *position = combine(pulls.rule, weight, *position, moved(0));
                if let (true, Some(normal)) = (normals, normal.as_mut()) {
                    *normal = combine(pulls.rule, weight, *normal, moved(3)).normalize_or_zero();
                }
                pull += 1;
            }
        }
    }
}

/// A vertex pulled toward a blend vertex, both already posed.
pub(crate) fn combine(rule: BlendRule, weight: f32, vertex: Vec3, blend: Vec3) -> Vec3 {
    match rule {
        // Written as (1 - w) * a + w * b rather than a lerp so that w = 0
        // and w = 1 give exactly the vertex and the blend vertex.
        BlendRule::Game => vertex * (1.0 - weight) + blend * weight,
        BlendRule::SeedDocument => vertex + (vertex - blend) * (weight / 2.0),
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

    #[test]
    fn pulls_go_by_group_then_layer_then_lane() {
        // 40 vertices (three groups, the last partial); blend vertices in
        // blend order pull 33, 2, 2, 17, 2, 1, 33.
        let targets = [33, 2, 2, 17, 2, 1, 33];
        let blends: Vec<(usize, f32)> = targets
            .iter()
            .enumerate()
            .map(|(blend, &vertex)| (vertex, blend as f32))
            .collect();
        let joints: Vec<Option<usize>> = (0..targets.len()).map(|blend| Some(blend % 2)).collect();
        let positions: Vec<[f32; 3]> = (0..targets.len()).map(|blend| [blend as f32; 3]).collect();
        let pulls = Pulls::bind(40, &blends, &joints, &positions, &[]);
        // Group 0: layer 0 pulls 1 and 2 (blends 5, then 1), layer 1 pulls 2
        // (blend 2), layer 2 pulls 2 (blend 4); group 1: 17 (blend 3); group
        // 2: 33 (blend 0), then 33 (blend 6).
        assert_eq!(pulls.firsts, [0, 4, 5, 7]);
        assert_eq!(pulls.layer_firsts, [0, 3, 4, 6]);
        assert_eq!(pulls.layers, [0b110, 0b100, 0b100, 1 << 1, 1 << 1, 1 << 1]);
        let order = [5, 1, 2, 4, 3, 0, 6];
        assert_eq!(&pulls.weights[..7], order.map(|blend| blend as f32));
        assert_eq!(pulls.weights[7..], [0.0; GROUP]);
        for (pull, blend) in order.into_iter().enumerate() {
            assert_eq!(pulls.positions.get(pull), Vec3::splat(blend as f32));
        }
        assert_eq!(pulls.normals.len(), 0);
    }
}
