//! Moving stored vertices eight at a time, with AVX where the processor has
//! it (checked once per call, at run time, so the build stays for any
//! x86-64). Moving a vertex is little arithmetic, and with SSE alone the
//! deformation spent as many instructions turning four vertices' x, y and z
//! registers back into `Vec3`s as it did on the arithmetic: eight lanes
//! halve both. The arithmetic is glam's, in glam's order, with no fused
//! multiply-add, so the bits are those of one vertex at a time.

use glam::{Affine3A, Vec3};

use crate::lanes::Vec3x4;

/// Writes the first blocks of `out` (four vectors a block) with the stored
/// `blocks` moved by `bone`: as points (the whole matrix) or as vectors
/// (its 3x3 part). Returns how many blocks it wrote: all but an odd last
/// one where the processor has AVX, none elsewhere; the caller moves the
/// rest four at a time.
pub(crate) fn move_blocks(
    bone: &Affine3A,
    points: bool,
    blocks: &[Vec3x4],
    out: &mut [Vec3],
) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        let out: &mut [f32] = bytemuck::cast_slice_mut(out);
        // SAFETY: `move_pairs` needs AVX, which the processor was just
        // found to have.
        return unsafe { avx::move_pairs(bone, points, blocks, out) };
    }
    let _ = (bone, points, blocks, out);
    0
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use std::arch::x86_64::{
        __m256, _mm256_add_ps, _mm256_castps256_ps128, _mm256_extractf128_ps, _mm256_mul_ps,
        _mm256_set1_ps, _mm256_set_m128, _mm256_shuffle_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps,
    };

    use glam::{Affine3A, Vec4};

    use crate::lanes::Vec3x4;

    /// A bone's matrix with each entry in all eight lanes: per output
    /// coordinate, the x, y and z axes' entries for it, and the
    /// translation's.
    struct Bone {
        rows: [[__m256; 3]; 3],
        translation: [__m256; 3],
    }

    #[target_feature(enable = "avx")]
    fn splat(bone: &Affine3A) -> Bone {
        let axes = [
            bone.matrix3.x_axis.to_array(),
            bone.matrix3.y_axis.to_array(),
            bone.matrix3.z_axis.to_array(),
        ];
        let translation = bone.translation.to_array();
        let mut rows = [[_mm256_set1_ps(0.0); 3]; 3];
        for (coordinate, row) in rows.iter_mut().enumerate() {
            for (entry, axis) in row.iter_mut().zip(&axes) {
                *entry = _mm256_set1_ps(axis[coordinate]);
            }
        }
        Bone {
            rows,
            translation: [
                _mm256_set1_ps(translation[0]),
                _mm256_set1_ps(translation[1]),
                _mm256_set1_ps(translation[2]),
            ],
        }
    }

    /// Two blocks' values of one coordinate: the first block in the low
    /// four lanes, the second in the high four.
    #[target_feature(enable = "avx")]
    fn lanes(first: Vec4, second: Vec4) -> __m256 {
        _mm256_set_m128(second.into(), first.into())
    }

    /// One output coordinate, as glam's `Mat3A * Vec3A` computes it:
    /// `(x_axis * x + y_axis * y) + z_axis * z`.
    #[target_feature(enable = "avx")]
    fn coordinate(
        [x_axis, y_axis, z_axis]: [__m256; 3],
        x: __m256,
        y: __m256,
        z: __m256,
    ) -> __m256 {
        _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(x_axis, x), _mm256_mul_ps(y_axis, y)),
            _mm256_mul_ps(z_axis, z),
        )
    }

    /// The 16 bytes of the low (`HIGH` false) or high half of `values`.
    #[target_feature(enable = "avx")]
    fn half<const HIGH: bool>(values: __m256) -> [f32; 4] {
        let half = if HIGH {
            _mm256_extractf128_ps::<1>(values)
        } else {
            _mm256_castps256_ps128(values)
        };
        Vec4::from(half).to_array()
    }

    /// [`super::move_blocks`] with AVX: each pair of blocks is moved in
    /// eight lanes, then each half turned from x, y and z registers into
    /// four `Vec3`s (12 floats) within its 128 bits. `out` holds the
    /// vectors' floats, 12 a block.
    #[target_feature(enable = "avx")]
    pub(super) fn move_pairs(
        bone: &Affine3A,
        points: bool,
        blocks: &[Vec3x4],
        out: &mut [f32],
    ) -> usize {
        let bone = splat(bone);
        let mut written = 0;
        for (pair, floats) in blocks.chunks_exact(2).zip(out.chunks_exact_mut(24)) {
            let [first, second] = pair else {
                break;
            };
            let x = lanes(first.x, second.x);
            let y = lanes(first.y, second.y);
            let z = lanes(first.z, second.z);
            let mut moved = [
                coordinate(bone.rows[0], x, y, z),
                coordinate(bone.rows[1], x, y, z),
                coordinate(bone.rows[2], x, y, z),
            ];
            if points {
                for (value, translation) in moved.iter_mut().zip(bone.translation) {
                    *value = _mm256_add_ps(*value, translation);
                }
            }
            let [x, y, z] = moved;
            // Per 128-bit half, x = [x0 x1 x2 x3] and so on become
            // [x0 y0 z0 x1], [y1 z1 x2 y2] and [z2 x3 y3 z3].
            let xy_low = _mm256_unpacklo_ps(x, y);
            let xy_high = _mm256_unpackhi_ps(x, y);
            let zx_low = _mm256_unpacklo_ps(z, x);
            let zx_high = _mm256_unpackhi_ps(z, x);
            let yz_low = _mm256_unpacklo_ps(y, z);
            let yz_high = _mm256_unpackhi_ps(y, z);
            let first_third = _mm256_shuffle_ps::<0b11_00_01_00>(xy_low, zx_low);
            let second_third = _mm256_shuffle_ps::<0b01_00_11_10>(yz_low, xy_high);
            let last_third = _mm256_shuffle_ps::<0b11_10_11_00>(zx_high, yz_high);
            let (first, second) = floats.split_at_mut(12);
            for (floats, values) in first.chunks_exact_mut(4).zip([
                half::<false>(first_third),
                half::<false>(second_third),
                half::<false>(last_third),
            ]) {
                floats.copy_from_slice(&values);
            }
            for (floats, values) in second.chunks_exact_mut(4).zip([
                half::<true>(first_third),
                half::<true>(second_third),
                half::<true>(last_third),
            ]) {
                floats.copy_from_slice(&values);
            }
            written += 2;
        }
        written
    }
}

#[cfg(target_arch = "x86_64")]
mod avx_weighted {
    use std::arch::x86_64::{
        __m128, _mm_and_ps, _mm_blend_ps, _mm_cmpgt_ps, _mm_cmplt_ps, _mm_div_ps, _mm_fmadd_ps,
        _mm_hadd_ps, _mm_movemask_ps, _mm_mul_ps, _mm_permute_ps, _mm_set1_ps, _mm_setzero_ps,
        _mm_shuffle_ps, _mm_sqrt_ps, _mm_storeu_ps,
    };

    use glam::{Affine3A, Vec4};

    use super::WeightedBlocks;
    use crate::lanes::Vec3x4;

    /// [`super::skin_weighted`], compiled for AVX and FMA (the caller
    /// checks the processor has them), once per common slot count `SLOTS`,
    /// whose loops are then unrolled, and once (`SLOTS` 0) for any count;
    /// with `UNIT` (one slot), every weight is 1 and is not read; with
    /// `NORMALS`, the skin has normals (`normals` is not empty). A block's
    /// four vertices are moved one at a time (each its own weighted sum of
    /// matrices, one register a column), then packed four at a time into
    /// the outputs' 12 floats, their normals made unit length four at a
    /// time (one square root and one division for the four). `positions`
    /// and `normals` hold the outputs' floats.
    ///
    /// # Safety
    ///
    /// Every joint of `blocks` is below the count of its skinning matrices.
    #[target_feature(enable = "avx,fma")]
    pub(super) unsafe fn weighted<const SLOTS: usize, const UNIT: bool, const NORMALS: bool>(
        blocks: &WeightedBlocks,
        positions: &mut [f32],
        normals: &mut [f32],
    ) {
        let slots = if SLOTS == 0 { blocks.slots } else { SLOTS };
        if slots == 0 {
            return;
        }
        let influences = blocks
            .joints
            .chunks_exact(slots)
            .zip(blocks.weights.chunks_exact(slots));
        let position_outs = positions.chunks_mut(12);
        for (block, ((joints, weights), position_out)) in influences.zip(position_outs).enumerate()
        {
            // Indexing cannot fail: the caller made one stored block and one
            // mask a block, the normals' too where there are normals, and
            // every joint is below the skinning matrices' count.
            let stored = &blocks.positions[block];
            let stored_normals = blocks.normals.get(block).unwrap_or(stored);
            let unmoved = blocks.unmoved[block];
            let mut points = [_mm_setzero_ps(); 4];
            let mut vectors = [_mm_setzero_ps(); 4];
            for lane in 0..4 {
                // SAFETY: the caller vouches for every joint.
                let sum = unsafe { sum::<UNIT>(blocks.skinning, joints, weights, lane) };
                if NORMALS {
                    vectors[lane] = vector(&sum, stored_normals, lane);
                }
                points[lane] = point(&sum, stored, lane);
            }
            let moved_points = pack(points);
            if !NORMALS {
                write(moved_points, 0, position_out, unmoved, stored);
                continue;
            }
            let (moved_vectors, zeroed) = if blocks.unit_normals {
                unit(vectors)
            } else {
                (pack(vectors), 0)
            };
            // Both written once both are made: a store between them would
            // let the compiler move the other's arithmetic past it and
            // keep the block's matrices in memory until then.
            let first = block * 12;
            let normal_out = &mut normals[first..first + position_out.len()];
            write(moved_points, 0, position_out, unmoved, stored);
            write(moved_vectors, zeroed, normal_out, unmoved, stored_normals);
        }
    }

    /// A vertex's weighted sum of its joints' matrices, in slot order: its
    /// x, y and z axes and translation; with `UNIT`, its one joint's matrix.
    ///
    /// # Safety
    ///
    /// Every joint is below `skinning`'s length.
    #[target_feature(enable = "avx,fma")]
    unsafe fn sum<const UNIT: bool>(
        skinning: &[Affine3A],
        joints: &[[u16; 4]],
        weights: &[Vec4],
        lane: usize,
    ) -> [__m128; 4] {
        let mut columns = [_mm_setzero_ps(); 4];
        for (slot, (joint, weight)) in joints.iter().zip(weights).enumerate() {
            // SAFETY: the caller vouches for the joint; checking it here
            // cost a tenth of the time of moving a vertex.
            let matrix = unsafe { skinning.get_unchecked(joint[lane] as usize) };
            if UNIT {
                return [
                    matrix.matrix3.x_axis.into(),
                    matrix.matrix3.y_axis.into(),
                    matrix.matrix3.z_axis.into(),
                    matrix.translation.into(),
                ];
            }
            // Through the array: `Vec4`'s own index is a match.
            let weight = _mm_set1_ps(weight.as_ref()[lane]);
            let terms = [
                matrix.matrix3.x_axis,
                matrix.matrix3.y_axis,
                matrix.matrix3.z_axis,
                matrix.translation,
            ];
            for (column, term) in columns.iter_mut().zip(terms) {
                let term = __m128::from(term);
                *column = if slot == 0 {
                    _mm_mul_ps(term, weight)
                } else {
                    _mm_fmadd_ps(term, weight, *column)
                };
            }
        }
        columns
    }

    /// The stored point in `lane` moved by a vertex's summed matrix.
    #[target_feature(enable = "avx,fma")]
    fn point(
        [x_axis, y_axis, z_axis, translation]: &[__m128; 4],
        stored: &Vec3x4,
        lane: usize,
    ) -> __m128 {
        _mm_fmadd_ps(
            *x_axis,
            _mm_set1_ps(stored.x.as_ref()[lane]),
            _mm_fmadd_ps(
                *y_axis,
                _mm_set1_ps(stored.y.as_ref()[lane]),
                _mm_fmadd_ps(*z_axis, _mm_set1_ps(stored.z.as_ref()[lane]), *translation),
            ),
        )
    }

    /// The stored vector in `lane` moved by a vertex's summed matrix's 3x3
    /// part.
    #[target_feature(enable = "avx,fma")]
    fn vector([x_axis, y_axis, z_axis, _]: &[__m128; 4], stored: &Vec3x4, lane: usize) -> __m128 {
        _mm_fmadd_ps(
            *x_axis,
            _mm_set1_ps(stored.x.as_ref()[lane]),
            _mm_fmadd_ps(
                *y_axis,
                _mm_set1_ps(stored.y.as_ref()[lane]),
                _mm_mul_ps(*z_axis, _mm_set1_ps(stored.z.as_ref()[lane])),
            ),
        )
    }

    /// Four vectors (x, y, z and anything in each register) as the 12
    /// floats of four `Vec3`s: [x0 y0 z0 x1], [y1 z1 x2 y2], [z2 x3 y3 z3].
    #[target_feature(enable = "avx,fma")]
    fn pack([a, b, c, d]: [__m128; 4]) -> [__m128; 3] {
        let first = _mm_blend_ps::<0b1000>(a, _mm_permute_ps::<0>(b));
        let second = _mm_shuffle_ps::<0b01_00_10_01>(b, c);
        let z2_x3 = _mm_shuffle_ps::<0b00_00_10_10>(c, d);
        let third = _mm_shuffle_ps::<0b10_01_10_00>(z2_x3, d);
        [first, second, third]
    }

    /// Four vectors made unit length as `Vec3::normalize_or_zero` makes
    /// each (times `1 / sqrt((x * x + y * y) + z * z)`, or zero where that
    /// factor is not finite and positive), packed as [`pack`] packs them;
    /// and a bit per lane whose vector is zero instead.
    #[target_feature(enable = "avx,fma")]
    fn unit(vectors: [__m128; 4]) -> ([__m128; 3], u8) {
        // The fourth lanes are zero (the skinning matrices' are), and add
        // nothing to the squares' sums.
        let mut squares = vectors;
        for square in &mut squares {
            *square = _mm_mul_ps(*square, *square);
        }
        let [a, b, c, d] = squares;
        // [x0²+y0², z0², x1²+y1², z1²] and the same for the others, then
        // each vector's (x² + y²) + z², one a lane.
        let squared = _mm_hadd_ps(_mm_hadd_ps(a, b), _mm_hadd_ps(c, d));
        let recip = _mm_div_ps(_mm_set1_ps(1.0), _mm_sqrt_ps(squared));
        let usable = _mm_and_ps(
            _mm_cmpgt_ps(recip, _mm_setzero_ps()),
            _mm_cmplt_ps(recip, _mm_set1_ps(f32::INFINITY)),
        );
        let [first, second, third] = pack(vectors);
        let floats = [
            _mm_mul_ps(first, _mm_permute_ps::<0b01_00_00_00>(recip)),
            _mm_mul_ps(second, _mm_permute_ps::<0b10_10_01_01>(recip)),
            _mm_mul_ps(third, _mm_permute_ps::<0b11_11_11_10>(recip)),
        ];
        (floats, !_mm_movemask_ps(usable) as u8 & 0b1111)
    }

    /// Writes a block's outputs (`out`: its up to four vertices' 12 floats,
    /// packed), the lanes in `unmoved` as `stored` and those in `zeroed`
    /// zero.
    #[target_feature(enable = "avx,fma")]
    #[inline]
    fn write(floats: [__m128; 3], zeroed: u8, out: &mut [f32], unmoved: u8, stored: &Vec3x4) {
        if let (0, 0, Some(whole)) = (unmoved, zeroed, out.first_chunk_mut::<12>()) {
            store(floats, whole);
        } else {
            patched(floats, zeroed, out, unmoved, stored);
        }
    }

    #[target_feature(enable = "avx,fma")]
    #[inline]
    fn store(floats: [__m128; 3], out: &mut [f32; 12]) {
        for (out, register) in out.chunks_exact_mut(4).zip(floats) {
            // SAFETY: `out` holds four floats, the 16 bytes stored.
            unsafe { _mm_storeu_ps(out.as_mut_ptr(), register) };
        }
    }

    /// [`write`] for a block with kept or zero vectors, or the last of a
    /// mesh whose count is no multiple of 4.
    #[target_feature(enable = "avx,fma")]
    #[cold]
    fn patched(floats: [__m128; 3], zeroed: u8, out: &mut [f32], unmoved: u8, stored: &Vec3x4) {
        let mut all = [0.0; 12];
        store(floats, &mut all);
        for (lane, vector) in all.chunks_exact_mut(3).enumerate() {
            if unmoved & (1 << lane) != 0 {
                vector.copy_from_slice(&stored.lane(lane).to_array());
            } else if zeroed & (1 << lane) != 0 {
                vector.fill(0.0);
            }
        }
        let count = out.len();
        out.copy_from_slice(&all[..count]);
    }
}

/// A run of a weighted skin's blocks, as [`skin_weighted`] deforms them:
/// `slots` influence slots a block (the joints and weights of the blocks'
/// four vertices side by side, block after block), a mask a block of the
/// lanes kept as stored, and the stored blocks.
pub(crate) struct WeightedBlocks<'a> {
    /// The fourth lane of every column zero.
    pub(crate) skinning: &'a [Affine3A],
    /// Every joint below this.
    pub(crate) joint_count: usize,
    pub(crate) slots: usize,
    /// One slot, every weight 1: the weights are not read.
    pub(crate) unit_weights: bool,
    /// Normals made unit length, or left as the blend makes them.
    pub(crate) unit_normals: bool,
    pub(crate) joints: &'a [[u16; 4]],
    pub(crate) weights: &'a [glam::Vec4],
    pub(crate) unmoved: &'a [u8],
    pub(crate) positions: &'a [Vec3x4],
    /// Empty when the skin has no normals.
    pub(crate) normals: &'a [Vec3x4],
}

/// Deforms the weighted blocks into the outputs (four vertices a block,
/// the last block's outputs possibly fewer; `normals` empty when the skin
/// has none) with AVX and fused multiply-adds, where the processor has
/// them: each vertex's stored coordinates are loaded straight into all
/// lanes of a register, the weighted sum of matrices and the transforms
/// take one instruction a term, and four vertices are packed into the
/// outputs at a time. Returns false, having written nothing, elsewhere.
pub(crate) fn skin_weighted(
    blocks: &WeightedBlocks,
    positions: &mut [Vec3],
    normals: &mut [Vec3],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") && std::arch::is_x86_feature_detected!("fma") {
        // Checked once here for the whole run, not per vertex: every joint
        // is below `joint_count` (`bind_weights` made them so).
        if blocks.skinning.len() < blocks.joint_count {
            return false;
        }
        let positions: &mut [f32] = bytemuck::cast_slice_mut(positions);
        let normals: &mut [f32] = bytemuck::cast_slice_mut(normals);
        // The common counts get loops of their own, unrolled.
        // SAFETY: `weighted` needs AVX and FMA, which the processor was
        // just found to have, and every joint below the skinning matrices'
        // count, just checked.
        unsafe {
            let kernel = match (blocks.slots, blocks.unit_weights, normals.is_empty()) {
                (1, true, true) => avx_weighted::weighted::<1, true, false>,
                (1, true, false) => avx_weighted::weighted::<1, true, true>,
                (1, false, true) => avx_weighted::weighted::<1, false, false>,
                (1, false, false) => avx_weighted::weighted::<1, false, true>,
                (2, _, true) => avx_weighted::weighted::<2, false, false>,
                (2, _, false) => avx_weighted::weighted::<2, false, true>,
                (3, _, true) => avx_weighted::weighted::<3, false, false>,
                (3, _, false) => avx_weighted::weighted::<3, false, true>,
                (4, _, true) => avx_weighted::weighted::<4, false, false>,
                (4, _, false) => avx_weighted::weighted::<4, false, true>,
                (_, _, true) => avx_weighted::weighted::<0, false, false>,
                (_, _, false) => avx_weighted::weighted::<0, false, true>,
            };
            kernel(blocks, positions, normals);
        }
        return true;
    }
    let _ = (blocks, positions, normals);
    false
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use glam::{Quat, Vec3A, Vec4};

    use super::*;

    /// Blocks of awkward values: tiny, huge, negative zero, denormal.
    fn blocks(count: usize) -> Vec<Vec3x4> {
        let value = |index: usize| {
            let spread = [1.0e-38, -0.0, 3.0e7, -1.5, 0.1, 1.0e-45, 65_504.0, -7.25];
            spread[index % spread.len()] * (1.0 + index as f32 / 7.0)
        };
        (0..count)
            .map(|block| {
                let lanes = |offset: usize| {
                    Vec4::from_array(std::array::from_fn(|lane| {
                        value(block * 12 + offset + lane)
                    }))
                };
                Vec3x4 {
                    x: lanes(0),
                    y: lanes(4),
                    z: lanes(8),
                }
            })
            .collect()
    }

    fn bits(vectors: &[Vec3]) -> Vec<[u32; 3]> {
        vectors
            .iter()
            .map(|v| v.to_array().map(f32::to_bits))
            .collect()
    }

    #[test]
    fn eight_lanes_give_the_bits_glam_gives_one_vector_at_a_time() {
        if !std::arch::is_x86_feature_detected!("avx") {
            // Nothing to compare: without AVX `move_blocks` writes nothing
            // and the deformation's own tests cover the four-lane path.
            assert_eq!(
                move_blocks(&Affine3A::IDENTITY, true, &blocks(2), &mut [Vec3::ZERO; 8]),
                0
            );
            return;
        }
        let bone = Affine3A::from_scale_rotation_translation(
            glam::Vec3::new(1.1, 0.9, 1.3),
            Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.9),
            glam::Vec3::new(0.25, -3.5, 1.0e-3),
        );
        let stored = blocks(5);
        for points in [true, false] {
            let mut out = vec![Vec3::NAN; 20];
            assert_eq!(move_blocks(&bone, points, &stored, &mut out), 4);
            let expected: Vec<Vec3> = stored[..4]
                .iter()
                .flat_map(|block| {
                    (0..4).map(|lane| {
                        let stored = Vec3A::new(block.x[lane], block.y[lane], block.z[lane]);
                        let moved = if points {
                            bone.transform_point3a(stored)
                        } else {
                            bone.transform_vector3a(stored)
                        };
                        Vec3::from(moved)
                    })
                })
                .collect();
            assert_eq!(bits(&out[..16]), bits(&expected), "points: {points}");
            assert!(
                out[16..].iter().all(|v| v.is_nan()),
                "the odd block is left"
            );
        }
    }
}
