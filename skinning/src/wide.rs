//! The deformation's vector loops (the layout and the order of work are in
//! [`crate::groups`]): a run's groups of 16 vertices, each lane's matrix
//! entries looked up in the run's palette table with one permute an entry
//! (16 lanes a register with AVX-512, 8 with AVX2 and FMA), summed and
//! applied a coordinate of 8 or 16 vertices at a time, and the
//! coordinates turned into `Vec3`s (12 floats every 4 vertices) with
//! permutes. Selected at run time ([`Isa::detect`]), so that the build
//! stays for any x86-64.
//!
//! Bone ranges ([`Arithmetic::Exact`]) are moved with glam's
//! operations in glam's order, lane by lane, so every loop gives the bits
//! of one vertex at a time.

#[cfg(target_arch = "x86_64")]
use crate::groups::Arithmetic;
use crate::groups::{Isa, RunView};

/// Deforms `view`'s groups into `positions` and `normals` (their floats;
/// the last group's possibly fewer than 16 vertices; normals empty when the
/// skin has none) with the vector loops `isa` names. Returns false, having
/// written nothing, where there are none: the caller then moves the
/// vertices one at a time. The run's palette must fit its table and have
/// slots.
pub(crate) fn deform(isa: Isa, view: &RunView, positions: &mut [f32], normals: &mut [f32]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let with_normals = !view.normals.is_empty();
        // The common counts get loops of their own, unrolled.
        macro_rules! kernel {
            ($module:ident) => {
                match (view.arithmetic, view.slots, view.unit_weights, with_normals) {
                    (Arithmetic::Exact, _, _, false) => $module::run::<1, true, false, false>,
                    (Arithmetic::Exact, _, _, true) => $module::run::<1, true, true, false>,
                    (_, 1, true, false) => $module::run::<1, true, false, true>,
                    (_, 1, true, true) => $module::run::<1, true, true, true>,
                    (_, 1, false, false) => $module::run::<1, false, false, true>,
                    (_, 1, false, true) => $module::run::<1, false, true, true>,
                    (_, 2, _, false) => $module::run::<2, false, false, true>,
                    (_, 2, _, true) => $module::run::<2, false, true, true>,
                    (_, 3, _, false) => $module::run::<3, false, false, true>,
                    (_, 3, _, true) => $module::run::<3, false, true, true>,
                    (_, 4, _, false) => $module::run::<4, false, false, true>,
                    (_, 4, _, true) => $module::run::<4, false, true, true>,
                    (_, _, _, false) => $module::run::<0, false, false, true>,
                    (_, _, _, true) => $module::run::<0, false, true, true>,
                }
            };
        }
        match isa {
            // SAFETY: `Isa::detect` found the processor has what each loop
            // needs (AVX-512 foundation; AVX2 and FMA; population count with
            // either). An exact run is a
            // bone range: one slot of weight 1.
            Isa::Avx512 => unsafe { kernel!(avx512)(view, positions, normals) },
            Isa::Avx2 => unsafe { kernel!(avx2)(view, positions, normals) },
            Isa::Portable => return false,
        }
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (isa, view, positions, normals);
        false
    }
}

/// Which of a group's 48 output floats (x0 y0 z0 x1 ...) come from which
/// coordinate register: per third of them (16 floats), the lanes to take
/// from the x and y registers (a y lane counted from 16, as the
/// two-register permute counts), the lanes to take from the z register,
/// and a bit per float that is a z.
#[cfg(target_arch = "x86_64")]
const INTERLEAVING: [([i32; 16], [i32; 16], u16); 3] = {
    let mut thirds = [([0; 16], [0; 16], 0); 3];
    let mut float = 0;
    while float < 48 {
        let (third, at) = (float / 16, float % 16);
        let vertex = (float / 3) as i32;
        match float % 3 {
            0 => thirds[third].0[at] = vertex,
            1 => thirds[third].0[at] = 16 + vertex,
            _ => {
                thirds[third].1[at] = vertex;
                thirds[third].2 |= 1 << at;
            }
        }
        float += 1;
    }
    thirds
};

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m512, __m512i, _mm256_loadu_si256, _mm512_add_ps, _mm512_cmp_ps_mask,
        _mm512_cvtepu16_epi32, _mm512_fmadd_ps, _mm512_fnmadd_ps, _mm512_loadu_ps,
        _mm512_loadu_si512, _mm512_mask_blend_ps, _mm512_mask_permutexvar_ps,
        _mm512_maskz_loadu_ps, _mm512_maskz_mul_ps, _mm512_mul_ps, _mm512_permutex2var_ps,
        _mm512_permutexvar_ps, _mm512_rsqrt14_ps, _mm512_set1_ps, _mm512_setzero_ps,
        _mm512_storeu_ps, _mm_prefetch, _CMP_GT_OQ, _CMP_LT_OQ, _MM_HINT_T0,
    };

    use super::INTERLEAVING;
    use crate::groups::{RunView, PALETTE};
    use crate::lanes::{Vec3x16, GROUP};

    /// [`super::deform`] with AVX-512, a group a register: once per common
    /// slot count `SLOTS`, whose loops are then unrolled, and once (`SLOTS`
    /// 0) for any count; with `UNIT_WEIGHTS` (one slot) the weights are not
    /// read; with `NORMALS` the run has normals; `FUSED` for weighted skins,
    /// else glam's exact arithmetic.
    #[target_feature(enable = "avx512f,popcnt")]
    pub(super) fn run<
        const SLOTS: usize,
        const UNIT_WEIGHTS: bool,
        const NORMALS: bool,
        const FUSED: bool,
    >(
        view: &RunView,
        positions: &mut [f32],
        normals: &mut [f32],
    ) {
        let slots = if SLOTS == 0 { view.slots } else { SLOTS };
        let mut tables = [_mm512_setzero_ps(); 12];
        for (table, row) in tables.iter_mut().zip(view.table) {
            *table = table_row(row);
        }
        let interleaving = Interleaving::new();
        let groups = view
            .places
            .chunks_exact(slots)
            .zip(view.weights.chunks_exact(slots));
        for (group, (places, weights)) in groups.enumerate() {
            // The group's summed matrices, an entry a register.
            let mut sums = [_mm512_setzero_ps(); 12];
            for (slot, (places, weights)) in places.iter().zip(weights).enumerate() {
                if UNIT_WEIGHTS {
                    // A group on one joint (most of a bone range's, and of
                    // a rigid skin's stretches) takes its entries by
                    // broadcast, loads instead of permutes.
                    let place = usize::from(places[0]);
                    if *places == [places[0]; GROUP] && place < PALETTE {
                        for (sum, row) in sums.iter_mut().zip(view.table) {
                            *sum = _mm512_set1_ps(row[place]);
                        }
                    } else {
                        let lanes = palette_places(places);
                        for (sum, table) in sums.iter_mut().zip(tables) {
                            *sum = _mm512_permutexvar_ps(lanes, table);
                        }
                    }
                    break;
                }
                let lanes = palette_places(places);
                let weights = floats(weights);
                for (sum, table) in sums.iter_mut().zip(tables) {
                    let entry = _mm512_permutexvar_ps(lanes, table);
                    *sum = if slot == 0 {
                        _mm512_mul_ps(entry, weights)
                    } else {
                        _mm512_fmadd_ps(entry, weights, *sum)
                    };
                }
            }
            // Indexing cannot fail: one mask and one stored group a group.
            let unmoved = view.unmoved[group];
            prefetch(view.positions, group + PREFETCH);
            prefetch(view.normals, group + PREFETCH);
            // Every input of the group is loaded before any output is
            // stored: a load after a store 4 KiB away waits on it, and the
            // skin's equal-sized arrays often lie so.
            let stored = coordinates(&view.positions[group]);
            let stored_normals = NORMALS.then(|| coordinates(&view.normals[group]));
            let mut moved = [_mm512_setzero_ps(); 3];
            for (coordinate, value) in moved.iter_mut().enumerate() {
                let [x_axis, y_axis, z_axis, translation] = entries(&sums, coordinate);
                let turned = turn::<FUSED>([x_axis, y_axis, z_axis], stored);
                // The translation added last, fused or not: what fusing it
                // would save is a rounding, not an instruction.
                let point = _mm512_add_ps(turned, translation);
                *value = _mm512_mask_blend_ps(unmoved, point, stored[coordinate]);
            }
            let moved_normals = stored_normals.map(|stored| {
                let mut moved = [_mm512_setzero_ps(); 3];
                for (coordinate, value) in moved.iter_mut().enumerate() {
                    let [x_axis, y_axis, z_axis, _] = entries(&sums, coordinate);
                    *value = turn::<FUSED>([x_axis, y_axis, z_axis], stored);
                }
                if view.unit_normals {
                    moved = unit(moved);
                }
                for (value, stored) in moved.iter_mut().zip(stored) {
                    *value = _mm512_mask_blend_ps(unmoved, *value, stored);
                }
                moved
            });
            let floats = 3 * GROUP * group..3 * GROUP * (group + 1);
            let within = |len: usize| floats.start.min(len)..floats.end.min(len);
            let at = within(positions.len());
            write(&interleaving, moved, &mut positions[at]);
            if let Some(moved) = moved_normals {
                let at = within(normals.len());
                write(&interleaving, moved, &mut normals[at]);
            }
        }
    }

    /// How many groups ahead the stored vertices are asked for: the
    /// processor's own prefetching left a million-vertex skin about a tenth
    /// slower (4 to 16 groups measured alike).
    const PREFETCH: usize = 8;

    /// Asks for stored group `group` (where there is one) to be brought
    /// into the cache.
    #[target_feature(enable = "avx512f")]
    fn prefetch(groups: &[Vec3x16], group: usize) {
        if let Some(stored) = groups.get(group) {
            let lines = (stored as *const Vec3x16).cast::<i8>();
            // SAFETY: a prefetch reads nothing into the program and faults
            // on no address; these are the group's three cache lines.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(lines);
                _mm_prefetch::<_MM_HINT_T0>(lines.add(64));
                _mm_prefetch::<_MM_HINT_T0>(lines.add(128));
            }
        }
    }

    /// A table row (the palette's values of one matrix entry) in the low
    /// eight lanes, zero above: palette places are below 8.
    #[target_feature(enable = "avx512f")]
    fn table_row(row: &[f32; PALETTE]) -> __m512 {
        // SAFETY: the mask reads the row's eight floats and nothing past.
        unsafe { _mm512_maskz_loadu_ps(0xFF, row.as_ptr()) }
    }

    /// A slot's 16 palette places, one a 32-bit lane.
    #[target_feature(enable = "avx512f")]
    fn palette_places(places: &[u16; GROUP]) -> __m512i {
        // SAFETY: the 32 bytes read are the 16 places.
        _mm512_cvtepu16_epi32(unsafe { _mm256_loadu_si256(places.as_ptr().cast()) })
    }

    #[target_feature(enable = "avx512f")]
    fn floats(values: &[f32; GROUP]) -> __m512 {
        // SAFETY: the 64 bytes read are the 16 values.
        unsafe { _mm512_loadu_ps(values.as_ptr()) }
    }

    /// A group's x, y and z, each a register.
    #[target_feature(enable = "avx512f")]
    fn coordinates(group: &Vec3x16) -> [__m512; 3] {
        [floats(&group.x), floats(&group.y), floats(&group.z)]
    }

    /// The x and y axes', z axis' and translation's entries for one output
    /// coordinate, out of a table-ordered array (entry `4 * c + k`).
    #[target_feature(enable = "avx512f")]
    fn entries(sums: &[__m512; 12], coordinate: usize) -> [__m512; 4] {
        let first = 4 * coordinate;
        [
            sums[first],
            sums[first + 1],
            sums[first + 2],
            sums[first + 3],
        ]
    }

    /// One coordinate of the stored vectors turned by the matrices' 3x3
    /// part: `(x_axis * x + y_axis * y) + z_axis * z`, fused or exact.
    #[target_feature(enable = "avx512f")]
    fn turn<const FUSED: bool>(
        [x_axis, y_axis, z_axis]: [__m512; 3],
        [x, y, z]: [__m512; 3],
    ) -> __m512 {
        if FUSED {
            _mm512_fmadd_ps(
                x_axis,
                x,
                _mm512_fmadd_ps(y_axis, y, _mm512_mul_ps(z_axis, z)),
            )
        } else {
            let xy = _mm512_add_ps(_mm512_mul_ps(x_axis, x), _mm512_mul_ps(y_axis, y));
            _mm512_add_ps(xy, _mm512_mul_ps(z_axis, z))
        }
    }

    /// Vectors made unit length as `Vec3::normalize_or_zero` makes each
    /// (times `1 / sqrt(x * x + y * y + z * z)`, or zero where that factor
    /// is not finite and positive), the sum fused and the factor from the
    /// reciprocal square root estimate (relative error below 2^-14) and
    /// one Newton step: within a few units in the last place of the
    /// division's. A square root and a division of 16 lanes each cost more
    /// than the rest of a group's arithmetic on the processors measured.
    #[target_feature(enable = "avx512f")]
    fn unit([x, y, z]: [__m512; 3]) -> [__m512; 3] {
        let squared = _mm512_fmadd_ps(x, x, _mm512_fmadd_ps(y, y, _mm512_mul_ps(z, z)));
        let estimate = _mm512_rsqrt14_ps(squared);
        // estimate * (1.5 - squared / 2 * estimate²)
        let half = _mm512_mul_ps(squared, _mm512_set1_ps(0.5));
        let correction =
            _mm512_fnmadd_ps(_mm512_mul_ps(half, estimate), estimate, _mm512_set1_ps(1.5));
        scaled([x, y, z], _mm512_mul_ps(estimate, correction))
    }

    /// Each lane's vector times `recip`, or zero where `recip` is not finite
    /// and positive.
    #[target_feature(enable = "avx512f")]
    fn scaled(vector: [__m512; 3], recip: __m512) -> [__m512; 3] {
        let usable = _mm512_cmp_ps_mask::<_CMP_GT_OQ>(recip, _mm512_setzero_ps())
            & _mm512_cmp_ps_mask::<_CMP_LT_OQ>(recip, _mm512_set1_ps(f32::INFINITY));
        vector.map(|value| _mm512_maskz_mul_ps(usable, value, recip))
    }

    /// [`INTERLEAVING`] in registers, loaded once a run.
    struct Interleaving {
        thirds: [(__m512i, __m512i, u16); 3],
    }

    impl Interleaving {
        #[target_feature(enable = "avx512f")]
        fn new() -> Interleaving {
            // SAFETY: each load reads one 16-lane array of `INTERLEAVING`.
            let load = |lanes: &[i32; 16]| unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) };
            Interleaving {
                thirds: INTERLEAVING.map(|(xy, z, mask)| (load(&xy), load(&z), mask)),
            }
        }
    }

    /// Writes a group's x, y and z registers into `out` as `Vec3`s (the
    /// floats of up to 16; a last group's fewer through a buffer).
    #[target_feature(enable = "avx512f")]
    fn write(interleaving: &Interleaving, coordinates: [__m512; 3], out: &mut [f32]) {
        match out.first_chunk_mut::<48>() {
            Some(whole) => write_whole(interleaving, coordinates, whole),
            None => {
                let mut buffer = [0.0; 48];
                write_whole(interleaving, coordinates, &mut buffer);
                let count = out.len();
                out.copy_from_slice(&buffer[..count]);
            }
        }
    }

    #[target_feature(enable = "avx512f")]
    fn write_whole(interleaving: &Interleaving, [x, y, z]: [__m512; 3], out: &mut [f32; 48]) {
        for ((xy, z_lanes, z_mask), third) in
            interleaving.thirds.iter().zip(out.chunks_exact_mut(16))
        {
            let two = _mm512_permutex2var_ps(x, *xy, y);
            let all = _mm512_mask_permutexvar_ps(two, *z_mask, *z_lanes, z);
            // SAFETY: `third` holds the 16 floats stored.
            unsafe { _mm512_storeu_ps(third.as_mut_ptr(), all) };
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256, __m256i, _mm256_add_ps, _mm256_and_ps, _mm256_and_si256, _mm256_blend_ps,
        _mm256_blendv_ps, _mm256_castsi256_ps, _mm256_cmp_ps, _mm256_cmpeq_epi32,
        _mm256_cvtepu16_epi32, _mm256_div_ps, _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_mul_ps,
        _mm256_permute2f128_ps, _mm256_permute_ps, _mm256_permutevar8x32_ps, _mm256_set1_epi32,
        _mm256_set1_ps, _mm256_setr_epi32, _mm256_setzero_ps, _mm256_sqrt_ps, _mm256_storeu_ps,
        _mm_loadu_si128, _CMP_GT_OQ, _CMP_LT_OQ,
    };

    use crate::groups::RunView;
    use crate::lanes::GROUP;

    /// Lanes a register holds.
    const HALF: usize = GROUP / 2;

    /// [`super::deform`] with AVX2 and FMA: as the AVX-512 loop, each group
    /// in two halves of 8 lanes.
    #[target_feature(enable = "avx2,fma,popcnt")]
    pub(super) fn run<
        const SLOTS: usize,
        const UNIT_WEIGHTS: bool,
        const NORMALS: bool,
        const FUSED: bool,
    >(
        view: &RunView,
        positions: &mut [f32],
        normals: &mut [f32],
    ) {
        let slots = if SLOTS == 0 { view.slots } else { SLOTS };
        let mut tables = [_mm256_setzero_ps(); 12];
        for (table, row) in tables.iter_mut().zip(view.table) {
            *table = floats(row);
        }
        let groups = view
            .places
            .chunks_exact(slots)
            .zip(view.weights.chunks_exact(slots));
        for (group, (places, weights)) in groups.enumerate() {
            // Indexing cannot fail: one mask and one stored group a group.
            let unmoved = view.unmoved[group];
            for half in 0..2 {
                let lanes = HALF * half..HALF * (half + 1);
                let mut sums = [_mm256_setzero_ps(); 12];
                for (slot, (places, weights)) in places.iter().zip(weights).enumerate() {
                    let places = palette_places(&places[lanes.clone()]);
                    if UNIT_WEIGHTS {
                        for (sum, table) in sums.iter_mut().zip(tables) {
                            *sum = _mm256_permutevar8x32_ps(table, places);
                        }
                        break;
                    }
                    let weights = floats_from(weights, lanes.start);
                    for (sum, table) in sums.iter_mut().zip(tables) {
                        let entry = _mm256_permutevar8x32_ps(table, places);
                        *sum = if slot == 0 {
                            _mm256_mul_ps(entry, weights)
                        } else {
                            _mm256_fmadd_ps(entry, weights, *sum)
                        };
                    }
                }
                let kept = kept_lanes(unmoved >> lanes.start & 0xFF);
                let stored = coordinates(&view.positions[group], lanes.start);
                let stored_normals =
                    NORMALS.then(|| coordinates(&view.normals[group], lanes.start));
                let mut moved = [_mm256_setzero_ps(); 3];
                for (coordinate, value) in moved.iter_mut().enumerate() {
                    let first = 4 * coordinate;
                    let axes = [sums[first], sums[first + 1], sums[first + 2]];
                    let point = _mm256_add_ps(turn::<FUSED>(axes, stored), sums[first + 3]);
                    *value = _mm256_blendv_ps(point, stored[coordinate], kept);
                }
                let moved_normals = stored_normals.map(|stored| {
                    let mut moved = [_mm256_setzero_ps(); 3];
                    for (coordinate, value) in moved.iter_mut().enumerate() {
                        let first = 4 * coordinate;
                        let axes = [sums[first], sums[first + 1], sums[first + 2]];
                        *value = turn::<FUSED>(axes, stored);
                    }
                    if view.unit_normals {
                        moved = normalize_or_zero(moved);
                    }
                    for (value, stored) in moved.iter_mut().zip(stored) {
                        *value = _mm256_blendv_ps(*value, stored, kept);
                    }
                    moved
                });
                let floats = 3 * (GROUP * group + lanes.start)..3 * (GROUP * group + lanes.end);
                let within = |len: usize| floats.start.min(len)..floats.end.min(len);
                let at = within(positions.len());
                write(moved, &mut positions[at]);
                if let Some(moved) = moved_normals {
                    let at = within(normals.len());
                    write(moved, &mut normals[at]);
                }
            }
        }
    }

    /// Eight values from `values`' `at` on (zeros past its end).
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn floats_from(values: &[f32], at: usize) -> __m256 {
        match values.get(at..at.wrapping_add(HALF)) {
            Some(eight) => {
                // SAFETY: the 32 bytes read are the eight values.
                unsafe { _mm256_loadu_ps(eight.as_ptr()) }
            }
            None => _mm256_setzero_ps(),
        }
    }

    #[target_feature(enable = "avx2,fma")]
    fn floats(values: &[f32; HALF]) -> __m256 {
        // SAFETY: the 32 bytes read are the eight values.
        unsafe { _mm256_loadu_ps(values.as_ptr()) }
    }

    /// Eight palette places (of a half's slot), one a 32-bit lane.
    #[target_feature(enable = "avx2,fma")]
    fn palette_places(places: &[u16]) -> __m256i {
        let eight: &[u16; HALF] = places.first_chunk().unwrap_or(&[0; HALF]);
        // SAFETY: the 16 bytes read are the eight places.
        _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(eight.as_ptr().cast()) })
    }

    /// A mask with every bit of the lanes whose bit `bits` has.
    #[target_feature(enable = "avx2,fma")]
    fn kept_lanes(bits: u16) -> __m256 {
        let lane_bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        let set = _mm256_and_si256(_mm256_set1_epi32(i32::from(bits)), lane_bits);
        _mm256_castsi256_ps(_mm256_cmpeq_epi32(set, lane_bits))
    }

    /// A half group's x, y and z (lanes from `first` on), each a register.
    #[target_feature(enable = "avx2,fma")]
    fn coordinates(group: &crate::lanes::Vec3x16, first: usize) -> [__m256; 3] {
        [&group.x, &group.y, &group.z].map(|values| floats_from(values, first))
    }

    /// As the AVX-512 loop's `turn`.
    #[target_feature(enable = "avx2,fma")]
    fn turn<const FUSED: bool>(
        [x_axis, y_axis, z_axis]: [__m256; 3],
        [x, y, z]: [__m256; 3],
    ) -> __m256 {
        if FUSED {
            _mm256_fmadd_ps(
                x_axis,
                x,
                _mm256_fmadd_ps(y_axis, y, _mm256_mul_ps(z_axis, z)),
            )
        } else {
            let xy = _mm256_add_ps(_mm256_mul_ps(x_axis, x), _mm256_mul_ps(y_axis, y));
            _mm256_add_ps(xy, _mm256_mul_ps(z_axis, z))
        }
    }

    /// `Vec3::normalize_or_zero`, a lane each, the squares summed fused (a
    /// reciprocal square root estimate measured no faster here than the
    /// square root and division).
    #[target_feature(enable = "avx2,fma")]
    fn normalize_or_zero([x, y, z]: [__m256; 3]) -> [__m256; 3] {
        let squared = _mm256_fmadd_ps(x, x, _mm256_fmadd_ps(y, y, _mm256_mul_ps(z, z)));
        let recip = _mm256_div_ps(_mm256_set1_ps(1.0), _mm256_sqrt_ps(squared));
        let usable = _mm256_and_ps(
            _mm256_cmp_ps::<_CMP_GT_OQ>(recip, _mm256_setzero_ps()),
            _mm256_cmp_ps::<_CMP_LT_OQ>(recip, _mm256_set1_ps(f32::INFINITY)),
        );
        // Masked after the product: a non-finite coordinate times 0 would
        // not be 0.
        [x, y, z].map(|value| _mm256_and_ps(_mm256_mul_ps(value, recip), usable))
    }

    /// Writes a half's x, y and z registers into `out` as `Vec3`s (the
    /// floats of up to 8; a last half's fewer through a buffer). Per
    /// 128-bit half, [x0 y0 z0 x1], [y1 z1 x2 y2] and [z2 x3 y3 z3] are
    /// made with one in-lane permute a coordinate and two blends each, then
    /// joined across the halves.
    #[target_feature(enable = "avx2,fma")]
    fn write([x, y, z]: [__m256; 3], out: &mut [f32]) {
        let x = _mm256_permute_ps::<0b01_10_11_00>(x); // x0 x3 x2 x1
        let y = _mm256_permute_ps::<0b10_11_00_01>(y); // y1 y0 y3 y2
        let z = _mm256_permute_ps::<0b11_00_01_10>(z); // z2 z1 z0 z3
        let first = _mm256_blend_ps::<0b0100_0100>(_mm256_blend_ps::<0b0010_0010>(x, y), z);
        let second = _mm256_blend_ps::<0b0100_0100>(_mm256_blend_ps::<0b0010_0010>(y, z), x);
        let third = _mm256_blend_ps::<0b0100_0100>(_mm256_blend_ps::<0b0010_0010>(z, x), y);
        let joined = [
            _mm256_permute2f128_ps::<0x20>(first, second),
            _mm256_permute2f128_ps::<0x30>(third, first),
            _mm256_permute2f128_ps::<0x31>(second, third),
        ];
        let mut buffer = [0.0; 3 * HALF];
        let whole = out.len() == buffer.len();
        let floats: &mut [f32] = if whole { out } else { &mut buffer };
        for (register, eight) in joined.into_iter().zip(floats.chunks_exact_mut(HALF)) {
            // SAFETY: `eight` holds the 8 floats stored.
            unsafe { _mm256_storeu_ps(eight.as_mut_ptr(), register) };
        }
        if !whole {
            let count = out.len();
            out.copy_from_slice(&buffer[..count]);
        }
    }
}
