//! The vector loops of weighted skins ([`crate::weighted`]): a run's groups
//! of 16 vertices, each lane's matrix entries looked up in the run's
//! palette table with one permute an entry (16 lanes a register with
//! AVX-512, 8 with AVX2), the weighted sums and the transforms one fused
//! multiply-add a term, normals made unit length 16 or 8 at a time, and
//! the coordinates turned back into `Vec3`s (12 floats every 4 vertices)
//! with permutes. Selected at run time ([`Isa::detect`]), so that the build
//! stays for any x86-64.

use glam::Vec3;

use crate::weighted::{Isa, RunView};

/// Writes `view`'s vertices into `positions` and `normals` (empty when the
/// skin has none; both as long as the run's vertices, the last group's
/// possibly fewer than 16) with the vector loops `isa` names. Returns false,
/// having written nothing, where there are none: the caller then moves the
/// vertices one at a time. The run's palette must fit its table.
pub(crate) fn deform(
    isa: Isa,
    view: &RunView,
    positions: &mut [Vec3],
    normals: &mut [Vec3],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let positions: &mut [f32] = bytemuck::cast_slice_mut(positions);
        let normals: &mut [f32] = bytemuck::cast_slice_mut(normals);
        // The common counts get loops of their own, unrolled.
        macro_rules! kernel {
            ($module:ident) => {
                match (view.slots, view.unit_weights, normals.is_empty()) {
                    (1, true, true) => $module::run::<1, true, false>,
                    (1, true, false) => $module::run::<1, true, true>,
                    (1, false, true) => $module::run::<1, false, false>,
                    (1, false, false) => $module::run::<1, false, true>,
                    (2, _, true) => $module::run::<2, false, false>,
                    (2, _, false) => $module::run::<2, false, true>,
                    (3, _, true) => $module::run::<3, false, false>,
                    (3, _, false) => $module::run::<3, false, true>,
                    (4, _, true) => $module::run::<4, false, false>,
                    (4, _, false) => $module::run::<4, false, true>,
                    (_, _, true) => $module::run::<0, false, false>,
                    (_, _, false) => $module::run::<0, false, true>,
                }
            };
        }
        match isa {
            // SAFETY: `detect` found the processor has what each kernel
            // needs (AVX-512 foundation; AVX2 and FMA).
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
const fn interleaving() -> [([i32; 16], [i32; 16], u16); 3] {
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
}

#[cfg(target_arch = "x86_64")]
const INTERLEAVING: [([i32; 16], [i32; 16], u16); 3] = interleaving();

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m512, __m512i, _mm256_loadu_si256, _mm512_cmp_ps_mask, _mm512_cvtepu16_epi32,
        _mm512_fmadd_ps, _mm512_fnmadd_ps, _mm512_loadu_ps, _mm512_loadu_si512,
        _mm512_mask_blend_ps, _mm512_mask_permutexvar_ps, _mm512_maskz_loadu_ps,
        _mm512_maskz_mul_ps, _mm512_mul_ps, _mm512_permutex2var_ps, _mm512_permutexvar_ps,
        _mm512_rsqrt14_ps, _mm512_set1_ps, _mm512_setzero_ps, _mm512_storeu_ps, _CMP_GT_OQ,
        _CMP_LT_OQ,
    };

    use super::INTERLEAVING;
    use crate::lanes::Vec3x4;
    use crate::weighted::{RunView, GROUP, PALETTE};

    /// [`super::deform`] with AVX-512, 16 lanes (a group) a register: once
    /// per common slot count `SLOTS`, whose loops are then unrolled, and
    /// once (`SLOTS` 0) for any count; with `UNIT_WEIGHTS` (one slot) the
    /// weights are not read; with `NORMALS` the skin has normals.
    /// `positions` and `normals` hold the outputs' floats.
    #[target_feature(enable = "avx512f")]
    pub(super) fn run<const SLOTS: usize, const UNIT_WEIGHTS: bool, const NORMALS: bool>(
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
        let gathering = Gathering::new();
        let mut normal_outs = normals.chunks_mut(3 * GROUP);
        let groups = view
            .places
            .chunks_exact(slots)
            .zip(view.weights.chunks_exact(slots));
        for (group, ((places, weights), position_out)) in
            groups.zip(positions.chunks_mut(3 * GROUP)).enumerate()
        {
            // The group's summed matrices, an entry a register.
            let mut sums = [_mm512_setzero_ps(); 12];
            for (slot, (places, weights)) in places.iter().zip(weights).enumerate() {
                let lanes = palette_places(places);
                if UNIT_WEIGHTS {
                    for (sum, table) in sums.iter_mut().zip(tables) {
                        *sum = _mm512_permutexvar_ps(lanes, table);
                    }
                    break;
                }
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
            // Indexing cannot fail: one mask a group, four stored blocks
            // (the last group's possibly fewer).
            let unmoved = view.unmoved[group];
            let blocks = group * 4..(group * 4 + 4).min(view.positions.len());
            // Every input of the group is loaded before any output is
            // stored: a load after a store 4 KiB away waits on it, and the
            // skin's equal-sized arrays often lie so.
            let stored = coordinates(&gathering, &view.positions[blocks.clone()]);
            let stored_normals = NORMALS.then(|| coordinates(&gathering, &view.normals[blocks]));
            let mut moved = [_mm512_setzero_ps(); 3];
            for (coordinate, value) in moved.iter_mut().enumerate() {
                let [x_axis, y_axis, z_axis, translation] = entries(&sums, coordinate);
                *value = _mm512_fmadd_ps(
                    x_axis,
                    stored[0],
                    _mm512_fmadd_ps(
                        y_axis,
                        stored[1],
                        _mm512_fmadd_ps(z_axis, stored[2], translation),
                    ),
                );
                *value = _mm512_mask_blend_ps(unmoved, *value, stored[coordinate]);
            }
            let moved_normals = stored_normals.map(|stored| {
                let mut moved = [_mm512_setzero_ps(); 3];
                for (coordinate, value) in moved.iter_mut().enumerate() {
                    let [x_axis, y_axis, z_axis, _] = entries(&sums, coordinate);
                    *value = _mm512_fmadd_ps(
                        x_axis,
                        stored[0],
                        _mm512_fmadd_ps(y_axis, stored[1], _mm512_mul_ps(z_axis, stored[2])),
                    );
                }
                if view.unit_normals {
                    moved = unit(moved);
                }
                for (value, stored) in moved.iter_mut().zip(stored) {
                    *value = _mm512_mask_blend_ps(unmoved, *value, stored);
                }
                moved
            });
            write(&interleaving, moved, position_out);
            if let (Some(moved), Some(normal_out)) = (moved_normals, normal_outs.next()) {
                write(&interleaving, moved, normal_out);
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

    /// The group's stored x, y and z, each a register: block `i` in the
    /// `i`-th 128 bits (a last group's missing blocks zero).
    #[target_feature(enable = "avx512f")]
    fn coordinates(gathering: &Gathering, blocks: &[Vec3x4]) -> [__m512; 3] {
        match blocks.first_chunk::<4>() {
            Some(four) => four_blocks(gathering, four),
            None => {
                let mut padded = [Vec3x4::default(); 4];
                for (padded, block) in padded.iter_mut().zip(blocks) {
                    *padded = *block;
                }
                four_blocks(gathering, &padded)
            }
        }
    }

    /// Four blocks' x, y and z, each a register: their 48 floats loaded
    /// in three registers, then each coordinate's four quarters gathered
    /// with two permutes.
    #[target_feature(enable = "avx512f")]
    fn four_blocks(gathering: &Gathering, blocks: &[Vec3x4; 4]) -> [__m512; 3] {
        let floats = blocks.as_ptr().cast::<f32>();
        // SAFETY: `Vec3x4` is 12 floats in order (`repr(C)`), and the 48
        // floats read are the four blocks'.
        let [first, second, third] =
            [0, 16, 32].map(|at| unsafe { _mm512_loadu_ps(floats.add(at)) });
        gathering.coordinates.map(|(two, mask, last)| {
            _mm512_mask_permutexvar_ps(
                _mm512_permutex2var_ps(first, two, second),
                mask,
                last,
                third,
            )
        })
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
        let recip = _mm512_mul_ps(estimate, correction);
        let usable = _mm512_cmp_ps_mask::<_CMP_GT_OQ>(recip, _mm512_setzero_ps())
            & _mm512_cmp_ps_mask::<_CMP_LT_OQ>(recip, _mm512_set1_ps(f32::INFINITY));
        [x, y, z].map(|value| _mm512_maskz_mul_ps(usable, value, recip))
    }

    /// Where each coordinate of four stored blocks is among their 48
    /// floats, loaded once a run: per coordinate, the lanes to take from the
    /// first two registers of 16 floats (as the two-register permute counts
    /// them), then a mask of the lanes to take from the third, and those
    /// lanes.
    struct Gathering {
        coordinates: [(__m512i, u16, __m512i); 3],
    }

    impl Gathering {
        #[target_feature(enable = "avx512f")]
        fn new() -> Gathering {
            // SAFETY: each load reads one 16-lane array of `GATHERING`.
            let load = |lanes: &[i32; 16]| unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) };
            Gathering {
                coordinates: GATHERING.map(|(two, mask, last)| (load(&two), mask, load(&last))),
            }
        }
    }

    /// [`Gathering`]'s lanes: coordinate `c` of block `b`, lane `l` is
    /// float `12 * b + 4 * c + l`, taken into lane `4 * b + l`.
    const GATHERING: [([i32; 16], u16, [i32; 16]); 3] = {
        let mut coordinates = [([0; 16], 0, [0; 16]); 3];
        let mut coordinate = 0;
        while coordinate < 3 {
            let mut lane = 0;
            while lane < 16 {
                let float = 12 * (lane / 4) + 4 * coordinate + lane % 4;
                if float < 32 {
                    coordinates[coordinate].0[lane] = float as i32;
                } else {
                    coordinates[coordinate].1 |= 1 << lane;
                    coordinates[coordinate].2[lane] = (float - 32) as i32;
                }
                lane += 1;
            }
            coordinate += 1;
        }
        coordinates
    };

    /// [`super::INTERLEAVING`] in registers, loaded once a run.
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
        __m128, __m256, __m256i, _mm256_and_ps, _mm256_and_si256, _mm256_blend_ps,
        _mm256_blendv_ps, _mm256_castps128_ps256, _mm256_castsi256_ps, _mm256_cmp_ps,
        _mm256_cmpeq_epi32, _mm256_cvtepu16_epi32, _mm256_div_ps, _mm256_fmadd_ps, _mm256_loadu_ps,
        _mm256_mul_ps, _mm256_permute2f128_ps, _mm256_permute_ps, _mm256_permutevar8x32_ps,
        _mm256_set1_epi32, _mm256_set1_ps, _mm256_setr_epi32, _mm256_setzero_ps, _mm256_sqrt_ps,
        _mm256_storeu_ps, _mm_loadu_si128, _CMP_GT_OQ, _CMP_LT_OQ,
    };

    use crate::lanes::Vec3x4;
    use crate::weighted::{RunView, GROUP, PALETTE};

    /// [`super::deform`] with AVX2 and FMA: as the AVX-512 loop, each group
    /// in two halves of 8 lanes.
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn run<const SLOTS: usize, const UNIT_WEIGHTS: bool, const NORMALS: bool>(
        view: &RunView,
        positions: &mut [f32],
        normals: &mut [f32],
    ) {
        let slots = if SLOTS == 0 { view.slots } else { SLOTS };
        let mut tables = [_mm256_setzero_ps(); 12];
        for (table, row) in tables.iter_mut().zip(view.table) {
            *table = table_row(row);
        }
        let half_len = 3 * GROUP / 2;
        let mut normal_outs = normals.chunks_mut(half_len);
        let groups = view
            .places
            .chunks_exact(slots)
            .zip(view.weights.chunks_exact(slots));
        let halves = groups.flat_map(|group| [(group, 0), (group, 1)]);
        for (half, (((places, weights), high), position_out)) in
            halves.zip(positions.chunks_mut(half_len)).enumerate()
        {
            let group = half / 2;
            let mut sums = [_mm256_setzero_ps(); 12];
            for (slot, (places, weights)) in places.iter().zip(weights).enumerate() {
                let lanes = palette_places(&places[8 * high..]);
                if UNIT_WEIGHTS {
                    for (sum, table) in sums.iter_mut().zip(tables) {
                        *sum = _mm256_permutevar8x32_ps(table, lanes);
                    }
                    break;
                }
                let weights = floats(&weights[8 * high..]);
                for (sum, table) in sums.iter_mut().zip(tables) {
                    let entry = _mm256_permutevar8x32_ps(table, lanes);
                    *sum = if slot == 0 {
                        _mm256_mul_ps(entry, weights)
                    } else {
                        _mm256_fmadd_ps(entry, weights, *sum)
                    };
                }
            }
            // Indexing cannot fail: one mask a group, two stored blocks a
            // half (the last group's possibly fewer).
            let unmoved = kept_lanes(view.unmoved[group] >> (8 * high) & 0xFF);
            let blocks = half * 2..(half * 2 + 2).min(view.positions.len());
            let stored = coordinates(&view.positions[blocks.clone()]);
            let mut moved = [_mm256_setzero_ps(); 3];
            for (coordinate, value) in moved.iter_mut().enumerate() {
                let first = 4 * coordinate;
                *value = _mm256_fmadd_ps(
                    sums[first],
                    stored[0],
                    _mm256_fmadd_ps(
                        sums[first + 1],
                        stored[1],
                        _mm256_fmadd_ps(sums[first + 2], stored[2], sums[first + 3]),
                    ),
                );
            }
            write(keep(moved, stored, unmoved), position_out);
            if !NORMALS {
                continue;
            }
            let Some(normal_out) = normal_outs.next() else {
                continue;
            };
            let stored = coordinates(&view.normals[blocks]);
            let mut moved = [_mm256_setzero_ps(); 3];
            for (coordinate, value) in moved.iter_mut().enumerate() {
                let first = 4 * coordinate;
                *value = _mm256_fmadd_ps(
                    sums[first],
                    stored[0],
                    _mm256_fmadd_ps(
                        sums[first + 1],
                        stored[1],
                        _mm256_mul_ps(sums[first + 2], stored[2]),
                    ),
                );
            }
            if view.unit_normals {
                moved = unit(moved);
            }
            write(keep(moved, stored, unmoved), normal_out);
        }
    }

    #[target_feature(enable = "avx2,fma")]
    fn table_row(row: &[f32; PALETTE]) -> __m256 {
        // SAFETY: the 32 bytes read are the row's eight floats.
        unsafe { _mm256_loadu_ps(row.as_ptr()) }
    }

    /// Eight palette places (of the half's slot, which holds 8 or more),
    /// one a 32-bit lane.
    #[target_feature(enable = "avx2,fma")]
    fn palette_places(places: &[u16]) -> __m256i {
        let eight: &[u16; 8] = places.first_chunk().unwrap_or(&[0; 8]);
        // SAFETY: the 16 bytes read are the eight places.
        _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(eight.as_ptr().cast()) })
    }

    /// Eight weights (of the half's slot, which holds 8 or more).
    #[target_feature(enable = "avx2,fma")]
    fn floats(values: &[f32]) -> __m256 {
        let eight: &[f32; 8] = values.first_chunk().unwrap_or(&[0.0; 8]);
        // SAFETY: the 32 bytes read are the eight values.
        unsafe { _mm256_loadu_ps(eight.as_ptr()) }
    }

    /// A mask with every bit of the lanes whose bit `bits` has.
    #[target_feature(enable = "avx2,fma")]
    fn kept_lanes(bits: u16) -> __m256 {
        let lane_bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        let set = _mm256_and_si256(_mm256_set1_epi32(i32::from(bits)), lane_bits);
        _mm256_castsi256_ps(_mm256_cmpeq_epi32(set, lane_bits))
    }

    /// `moved`, but `stored` in the lanes `unmoved` has.
    #[target_feature(enable = "avx2,fma")]
    fn keep(moved: [__m256; 3], stored: [__m256; 3], unmoved: __m256) -> [__m256; 3] {
        let mut kept = moved;
        for (kept, stored) in kept.iter_mut().zip(stored) {
            *kept = _mm256_blendv_ps(*kept, stored, unmoved);
        }
        kept
    }

    /// Two stored blocks' x, y and z, each a register: the first block in
    /// the low 128 bits (a missing second block zero).
    #[target_feature(enable = "avx2,fma")]
    fn coordinates(blocks: &[Vec3x4]) -> [__m256; 3] {
        match blocks {
            [first, second, ..] => two_blocks(first, second),
            [first] => two_blocks(first, &Vec3x4::default()),
            [] => two_blocks(&Vec3x4::default(), &Vec3x4::default()),
        }
    }

    /// A broadcast and a blend a register, not an insert: no permute unit.
    #[target_feature(enable = "avx2,fma")]
    fn two_blocks(first: &Vec3x4, second: &Vec3x4) -> [__m256; 3] {
        let register = |low: glam::Vec4, high: glam::Vec4| {
            let high = __m128::from(high);
            _mm256_blend_ps::<0xF0>(
                _mm256_castps128_ps256(low.into()),
                std::arch::x86_64::_mm256_set_m128(high, high),
            )
        };
        [
            register(first.x, second.x),
            register(first.y, second.y),
            register(first.z, second.z),
        ]
    }

    /// As the AVX-512 loop's `unit`.
    #[target_feature(enable = "avx2,fma")]
    fn unit([x, y, z]: [__m256; 3]) -> [__m256; 3] {
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
        let mut buffer = [0.0; 24];
        let whole = out.len() == buffer.len();
        let floats: &mut [f32] = if whole { out } else { &mut buffer };
        for (register, eight) in joined.into_iter().zip(floats.chunks_exact_mut(8)) {
            // SAFETY: `eight` holds the 8 floats stored.
            unsafe { _mm256_storeu_ps(eight.as_mut_ptr(), register) };
        }
        if !whole {
            let count = out.len();
            out.copy_from_slice(&buffer[..count]);
        }
    }
}
