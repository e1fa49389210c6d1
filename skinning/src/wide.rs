//! Moving stored vertices eight at a time, with AVX where the processor has
//! it (checked once per call, at run time, so the build stays for any
//! x86-64). Moving a vertex is little arithmetic, and with SSE alone the
//! deformation spent as many instructions turning four vertices' x, y and z
//! registers back into `Vec3`s as it did on the arithmetic: eight lanes
//! halve both. The arithmetic is glam's, in glam's order, with no fused
//! multiply-add, so the bits are those of one vertex at a time.

use glam::{Affine3A, Vec3};

use crate::lanes::Vec3x4;

/// Writes the first blocks of the outputs (four vectors a block) with the
/// stored blocks moved by `bone`: `positions` as points (the whole matrix)
/// and, where the skin has normals (`normals` not empty, one block for each
/// of `positions`'), `normals` as vectors (its 3x3 part), both in one pass.
/// Returns how many blocks it wrote: all but an odd last one where the
/// processor has AVX, none elsewhere; the caller moves the rest four at a
/// time.
pub(crate) fn move_blocks(
    bone: &Affine3A,
    positions: (&[Vec3x4], &mut [Vec3]),
    normals: (&[Vec3x4], &mut [Vec3]),
) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        let (stored_positions, position_out) = positions;
        let (stored_normals, normal_out) = normals;
        let position_out: &mut [f32] = bytemuck::cast_slice_mut(position_out);
        let normal_out: &mut [f32] = bytemuck::cast_slice_mut(normal_out);
        // SAFETY: `move_pairs` needs AVX, which the processor was just
        // found to have.
        return unsafe {
            if stored_normals.is_empty() {
                avx::move_pairs::<false>(bone, stored_positions, &[], position_out, &mut [])
            } else {
                avx::move_pairs::<true>(
                    bone,
                    stored_positions,
                    stored_normals,
                    position_out,
                    normal_out,
                )
            }
        };
    }
    let _ = (bone, positions, normals);
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

    /// Two blocks moved by `bone`, the first in the low four lanes of each
    /// coordinate's register, the second in the high four; `points` adds
    /// the translation.
    #[target_feature(enable = "avx")]
    fn moved(bone: &Bone, points: bool, first: &Vec3x4, second: &Vec3x4) -> [__m256; 3] {
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
        moved
    }

    /// Writes two blocks' x, y and z registers (as [`moved`] makes them)
    /// into `floats` as eight `Vec3`s: each 128-bit half is turned into
    /// four `Vec3`s (12 floats) within itself.
    #[target_feature(enable = "avx")]
    fn write_pair([x, y, z]: [__m256; 3], floats: &mut [f32]) {
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
    }

    /// [`super::move_blocks`] with AVX: each pair of blocks is moved in
    /// eight lanes, its positions and (with `NORMALS`) its normals, then
    /// written. The outputs hold the vectors' floats, 12 a block.
    #[target_feature(enable = "avx")]
    pub(super) fn move_pairs<const NORMALS: bool>(
        bone: &Affine3A,
        positions: &[Vec3x4],
        normals: &[Vec3x4],
        position_out: &mut [f32],
        normal_out: &mut [f32],
    ) -> usize {
        let bone = splat(bone);
        let pairs = positions
            .chunks_exact(2)
            .zip(position_out.chunks_exact_mut(24));
        let mut written = 0;
        if !NORMALS {
            for (pair, floats) in pairs {
                if let [first, second] = pair {
                    write_pair(moved(&bone, true, first, second), floats);
                    written += 2;
                }
            }
            return written;
        }
        let normal_pairs = normals.chunks_exact(2).zip(normal_out.chunks_exact_mut(24));
        for ((pair, floats), (normal_pair, normal_floats)) in pairs.zip(normal_pairs) {
            if let ([first, second], [first_normal, second_normal]) = (pair, normal_pair) {
                write_pair(moved(&bone, true, first, second), floats);
                write_pair(
                    moved(&bone, false, first_normal, second_normal),
                    normal_floats,
                );
                written += 2;
            }
        }
        written
    }
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
                move_blocks(
                    &Affine3A::IDENTITY,
                    (&blocks(2), &mut [Vec3::ZERO; 8]),
                    (&[], &mut [])
                ),
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
        let stored_normals: Vec<Vec3x4> = blocks(6)[1..].to_vec();
        let expected = |blocks: &[Vec3x4], points: bool| -> Vec<Vec3> {
            blocks[..4]
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
                .collect()
        };
        let mut positions = vec![Vec3::NAN; 20];
        let mut normals = vec![Vec3::NAN; 20];
        let written = move_blocks(
            &bone,
            (&stored, &mut positions),
            (&stored_normals, &mut normals),
        );
        assert_eq!(written, 4);
        assert_eq!(bits(&positions[..16]), bits(&expected(&stored, true)));
        assert_eq!(
            bits(&normals[..16]),
            bits(&expected(&stored_normals, false))
        );
        for left in [&positions[16..], &normals[16..]] {
            assert!(left.iter().all(|v| v.is_nan()), "the odd block is left");
        }
        // Positions alone, for a skin without normals.
        let mut alone = vec![Vec3::NAN; 20];
        assert_eq!(move_blocks(&bone, (&stored, &mut alone), (&[], &mut [])), 4);
        assert_eq!(bits(&alone), bits(&positions));
    }
}
