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
        __m128, _mm_cvtss_f32, _mm_div_ss, _mm_dp_ps, _mm_fmadd_ps, _mm_mul_ps, _mm_set1_ps,
        _mm_setzero_ps, _mm_sqrt_ss,
    };

    use glam::{Vec3, Vec3A};

    use super::WeightedBlocks;

    /// [`super::skin_weighted`], compiled for AVX and FMA (the caller
    /// checks the processor has them), once per common slot count `SLOTS`,
    /// whose loops are then unrolled, and once (`SLOTS` 0) for any count.
    #[target_feature(enable = "avx,fma")]
    pub(super) fn weighted<const SLOTS: usize>(
        blocks: &WeightedBlocks,
        positions: &mut [Vec3],
        normals: &mut [Vec3],
    ) {
        let slots = if SLOTS == 0 { blocks.slots } else { SLOTS };
        let with_normals = !normals.is_empty();
        // Indexing cannot fail: the caller made the slots `slots` a block
        // for every block, one mask a block, and the outputs four a block
        // (the last possibly fewer); every joint is below the skinning
        // matrices' count.
        for (block, stored) in blocks.positions.iter().enumerate() {
            let joints = &blocks.joints[block * slots..(block + 1) * slots];
            let weights = &blocks.weights[block * slots..(block + 1) * slots];
            let unmoved = blocks.unmoved[block];
            for lane in 0..4 {
                let vertex = block * 4 + lane;
                if vertex >= positions.len() {
                    return;
                }
                if unmoved & (1 << lane) != 0 {
                    positions[vertex] = stored.lane(lane);
                    if with_normals {
                        normals[vertex] = blocks.normals[block].lane(lane);
                    }
                    continue;
                }
                // The weighted sum of the vertex's matrices, in slot order.
                let mut columns = [_mm_setzero_ps(); 4];
                for (slot, (joint, weight)) in joints.iter().zip(weights).enumerate() {
                    let matrix = &blocks.skinning[joint[lane] as usize];
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
                let [x_axis, y_axis, z_axis, translation] = columns;
                let position = _mm_fmadd_ps(
                    x_axis,
                    _mm_set1_ps(stored.x.as_ref()[lane]),
                    _mm_fmadd_ps(
                        y_axis,
                        _mm_set1_ps(stored.y.as_ref()[lane]),
                        _mm_fmadd_ps(z_axis, _mm_set1_ps(stored.z.as_ref()[lane]), translation),
                    ),
                );
                positions[vertex] = Vec3::from(Vec3A::from(position));
                if with_normals {
                    let stored = &blocks.normals[block];
                    let normal = _mm_fmadd_ps(
                        x_axis,
                        _mm_set1_ps(stored.x.as_ref()[lane]),
                        _mm_fmadd_ps(
                            y_axis,
                            _mm_set1_ps(stored.y.as_ref()[lane]),
                            _mm_mul_ps(z_axis, _mm_set1_ps(stored.z.as_ref()[lane])),
                        ),
                    );
                    // As `Vec3::normalize_or_zero`: times 1 / length where
                    // that is finite and positive, else zero.
                    let squared = _mm_dp_ps::<0b0111_0001>(normal, normal);
                    let recip = _mm_div_ss(_mm_set1_ps(1.0), _mm_sqrt_ss(squared));
                    let factor = _mm_cvtss_f32(recip);
                    let unit = if factor.is_finite() && factor > 0.0 {
                        _mm_mul_ps(normal, _mm_set1_ps(factor))
                    } else {
                        _mm_setzero_ps()
                    };
                    normals[vertex] = Vec3::from(Vec3A::from(unit));
                }
            }
        }
    }
}

/// A run of a weighted skin's blocks, as [`skin_weighted`] deforms them:
/// `slots` influence slots a block (the joints and weights of the blocks'
/// four vertices side by side, block after block), a mask a block of the
/// lanes kept as stored, and the stored blocks.
pub(crate) struct WeightedBlocks<'a> {
    pub(crate) skinning: &'a [Affine3A],
    pub(crate) slots: usize,
    pub(crate) joints: &'a [[u32; 4]],
    pub(crate) weights: &'a [glam::Vec4],
    pub(crate) unmoved: &'a [u8],
    pub(crate) positions: &'a [Vec3x4],
    /// Empty when the skin has no normals.
    pub(crate) normals: &'a [Vec3x4],
}

/// Deforms the weighted blocks into the outputs (four vertices a block,
/// the last block's outputs possibly fewer; `normals` empty when the skin
/// has none) one vertex at a time with AVX and fused multiply-adds, where
/// the processor has them: each vertex's stored coordinates are loaded
/// straight into all lanes of a register, so nothing is transposed, and
/// the weighted sum of matrices and the transforms take one instruction a
/// term. Returns false, having written nothing, elsewhere.
pub(crate) fn skin_weighted(
    blocks: &WeightedBlocks,
    positions: &mut [Vec3],
    normals: &mut [Vec3],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") && std::arch::is_x86_feature_detected!("fma") {
        // The common counts get loops of their own, unrolled.
        // SAFETY: `weighted` needs AVX and FMA, which the processor was
        // just found to have.
        unsafe {
            match blocks.slots {
                1 => avx_weighted::weighted::<1>(blocks, positions, normals),
                2 => avx_weighted::weighted::<2>(blocks, positions, normals),
                3 => avx_weighted::weighted::<3>(blocks, positions, normals),
                4 => avx_weighted::weighted::<4>(blocks, positions, normals),
                _ => avx_weighted::weighted::<0>(blocks, positions, normals),
            }
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
