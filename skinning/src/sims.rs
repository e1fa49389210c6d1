//! The format-independent part of Sims 1 posing and skin deformation
//! (DESIGN.md section 3, "Sims posing and skinning").
//!
//! A Sims skin stores its vertices in their bone's space, with no inverse
//! bind matrix. The vertex array holds `real_vertex_count` real vertices,
//! then one blend vertex per blend entry. Bindings say which bone moves which
//! range of real and blend vertices; each blend entry then pulls one real
//! vertex toward its blend vertex.

use glam::{Affine3A, Quat, Vec3};
use thiserror::Error;

/// A bone's local matrix as the Sims computes it from the stored values:
/// `T(translation) * R(conjugate of the stored quaternion)`, column-vector
/// math. The games' row-vector code applied the stored quaternion as is,
/// which is the same thing.
pub fn bone_local(translation: Vec3, stored_rotation: Quat) -> Affine3A {
    Affine3A::from_rotation_translation(stored_rotation.conjugate(), translation)
}

/// One skin vertex: a position and a normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkinVertex {
    pub position: Vec3,
    pub normal: Vec3,
}

/// One binding line of a skin, with the file's signed integers (a binding
/// without blend vertices stores `-1` as its first blend).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    /// Index into the bone matrices handed to [`deform`].
    pub bone: i32,
    pub first_vertex: i32,
    pub vertex_count: i32,
    /// Counted from the first blend vertex, i.e. from `real_vertex_count`.
    pub first_blend: i32,
    pub blend_count: i32,
}

/// One blend entry: blend vertex `real_vertex_count + i` (for entry `i`)
/// pulls real vertex `vertex` toward itself by `raw_weight`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blend {
    pub vertex: i32,
    pub raw_weight: i32,
}

/// How a blend vertex is combined with the real vertex it affects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlendRule {
    /// What the game did: `final = (1 - w) * real + w * blend`, with
    /// `w = raw / 32768`.
    #[default]
    Game,
    /// The seed document's guess, kept only to compare against:
    /// `TARGET = TARGET + (TARGET - ANCHOR) * w`, with `w = raw / 65536`,
    /// reading TARGET as the real vertex and ANCHOR as the blend vertex.
    SeedDocument,
}

/// A skin's vertices and bindings, as stored in the file.
#[derive(Clone, Copy, Debug)]
pub struct SkinInput<'a> {
    /// Model matrix of each bone the bindings refer to, by binding bone index.
    pub bone_matrices: &'a [Affine3A],
    /// Real vertices, then blend vertices, each in its bone's space.
    pub vertices: &'a [SkinVertex],
    pub bindings: &'a [Binding],
    pub blends: &'a [Blend],
    /// Number of real vertices (the file's uv count).
    pub real_vertex_count: usize,
}

/// Why a skin cannot be deformed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SkinError {
    #[error("the skin has {real} real vertices and {blends} blend vertices, but stores only {stored} vertices")]
    TooFewVertices {
        real: usize,
        blends: usize,
        stored: usize,
    },
    #[error("binding {binding} uses bone {bone}, but only {bone_count} bone matrices were given")]
    BoneOutOfRange {
        binding: usize,
        bone: i32,
        bone_count: usize,
    },
    #[error("binding {binding} covers real vertices {first} to {first}+{count}, outside the {real} real vertices")]
    VertexRangeOutOfBounds {
        binding: usize,
        first: i32,
        count: i32,
        real: usize,
    },
    #[error("binding {binding} covers blend vertices {first} to {first}+{count}, outside the {blends} blend vertices")]
    BlendRangeOutOfBounds {
        binding: usize,
        first: i32,
        count: i32,
        blends: usize,
    },
    #[error("blend {blend} affects vertex {vertex}, which is not one of the {real} real vertices")]
    BlendVertexOutOfRange {
        blend: usize,
        vertex: i32,
        real: usize,
    },
    #[error("the output has {actual} entries, but the skin has {expected} real vertices")]
    OutputLength { expected: usize, actual: usize },
}

/// A binding checked against the skin: ranges are in bounds of the vertex
/// array and the blend list, the bone is in bounds of the matrices.
struct CheckedBinding {
    bone: Affine3A,
    vertices: std::ops::Range<usize>,
    /// Indices into the blend list (and, offset by the real count, the vertices).
    blends: std::ops::Range<usize>,
}

/// `first..first + count` if it lies inside `0..len`; a zero count is always
/// an empty range, whatever `first` says.
fn checked_range(first: i32, count: i32, len: usize) -> Option<std::ops::Range<usize>> {
    if count == 0 {
        return Some(0..0);
    }
    let first = usize::try_from(first).ok()?;
    let count = usize::try_from(count).ok()?;
    let end = first.checked_add(count)?;
    (end <= len).then_some(first..end)
}

fn check(input: &SkinInput, output_len: usize) -> Result<Vec<CheckedBinding>, SkinError> {
    let real = input.real_vertex_count;
    let blends = input.blends.len();
    if real
        .checked_add(blends)
        .is_none_or(|needed| needed > input.vertices.len())
    {
        return Err(SkinError::TooFewVertices {
            real,
            blends,
            stored: input.vertices.len(),
        });
    }
    if output_len != real {
        return Err(SkinError::OutputLength {
            expected: real,
            actual: output_len,
        });
    }
    for (blend, entry) in input.blends.iter().enumerate() {
        if !usize::try_from(entry.vertex).is_ok_and(|vertex| vertex < real) {
            return Err(SkinError::BlendVertexOutOfRange {
                blend,
                vertex: entry.vertex,
                real,
            });
        }
    }
    let mut checked = Vec::with_capacity(input.bindings.len());
    for (index, binding) in input.bindings.iter().enumerate() {
        let bone = usize::try_from(binding.bone)
            .ok()
            .and_then(|bone| input.bone_matrices.get(bone))
            .ok_or(SkinError::BoneOutOfRange {
                binding: index,
                bone: binding.bone,
                bone_count: input.bone_matrices.len(),
            })?;
        let vertices = checked_range(binding.first_vertex, binding.vertex_count, real).ok_or(
            SkinError::VertexRangeOutOfBounds {
                binding: index,
                first: binding.first_vertex,
                count: binding.vertex_count,
                real,
            },
        )?;
        let blend_range = checked_range(binding.first_blend, binding.blend_count, blends).ok_or(
            SkinError::BlendRangeOutOfBounds {
                binding: index,
                first: binding.first_blend,
                count: binding.blend_count,
                blends,
            },
        )?;
        checked.push(CheckedBinding {
            bone: *bone,
            vertices,
            blends: blend_range,
        });
    }
    Ok(checked)
}

fn transform(bone: &Affine3A, vertex: &SkinVertex) -> SkinVertex {
    // Sims bone matrices are rigid, so normals move with the rotation part.
    SkinVertex {
        position: bone.transform_point3(vertex.position),
        normal: bone.transform_vector3(vertex.normal),
    }
}

/// Deforms a skin: writes one posed vertex per real vertex into `out`.
///
/// Real vertices not covered by any binding keep their stored values. Blend
/// entries are applied in list order, so a real vertex named by several
/// entries is blended several times in turn; blended normals are
/// renormalized.
pub fn deform(input: &SkinInput, rule: BlendRule, out: &mut [SkinVertex]) -> Result<(), SkinError> {
    let bindings = check(input, out.len())?;
    let real = input.real_vertex_count;
    // Slicing below cannot fail: `check` proved every range in bounds and
    // the vertex array holds `real + blends.len()` entries.
    out.copy_from_slice(&input.vertices[..real]);
    let mut posed_blends = input.vertices[real..real + input.blends.len()].to_vec();
    for binding in &bindings {
        for (posed, stored) in out[binding.vertices.clone()]
            .iter_mut()
            .zip(&input.vertices[binding.vertices.clone()])
        {
            *posed = transform(&binding.bone, stored);
        }
        for posed in &mut posed_blends[binding.blends.clone()] {
            *posed = transform(&binding.bone, posed);
        }
    }
    for (entry, blend_vertex) in input.blends.iter().zip(&posed_blends) {
        // `check` proved the index is a real vertex, i.e. inside `out`.
        let target = &mut out[entry.vertex as usize];
        *target = blend(rule, *target, *blend_vertex, entry.raw_weight);
    }
    Ok(())
}

/// Combines one real vertex with one blend vertex, both already posed.
fn blend(rule: BlendRule, real: SkinVertex, blend: SkinVertex, raw_weight: i32) -> SkinVertex {
    match rule {
        BlendRule::Game => {
            let w = raw_weight as f32 / 32768.0;
            // Written as (1 - w) * a + w * b rather than a lerp so that w = 0
            // and w = 1 give exactly the real and the blend position.
            SkinVertex {
                position: real.position * (1.0 - w) + blend.position * w,
                normal: (real.normal * (1.0 - w) + blend.normal * w).normalize_or_zero(),
            }
        }
        BlendRule::SeedDocument => {
            let w = raw_weight as f32 / 65536.0;
            SkinVertex {
                position: real.position + (real.position - blend.position) * w,
                normal: (real.normal + (real.normal - blend.normal) * w).normalize_or_zero(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;

    use super::*;

    fn vertex(position: [f32; 3], normal: [f32; 3]) -> SkinVertex {
        SkinVertex {
            position: Vec3::from(position),
            normal: Vec3::from(normal),
        }
    }

    /// Two bones: bone 0 translates by (0, 1, 0); bone 1 turns a quarter
    /// about +z (x -> y, y -> -x) then translates by (5, 0, 0).
    fn bones() -> [Affine3A; 2] {
        [
            Affine3A::from_translation(Vec3::Y),
            Affine3A::from_rotation_translation(
                Quat::from_rotation_z(FRAC_PI_2),
                Vec3::new(5.0, 0.0, 0.0),
            ),
        ]
    }

    /// Two real vertices on bone 0; one blend vertex on bone 1 pulling real vertex 1.
    fn skin_vertices() -> Vec<SkinVertex> {
        vec![
            vertex([1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
            vertex([2.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
            vertex([1.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
        ]
    }

    fn bindings() -> Vec<Binding> {
        vec![
            Binding {
                bone: 0,
                first_vertex: 0,
                vertex_count: 2,
                first_blend: -1,
                blend_count: 0,
            },
            Binding {
                bone: 1,
                first_vertex: 0,
                vertex_count: 0,
                first_blend: 0,
                blend_count: 1,
            },
        ]
    }

    fn deform_with_weight(raw_weight: i32, rule: BlendRule) -> Result<Vec<SkinVertex>, SkinError> {
        let bones = bones();
        let vertices = skin_vertices();
        let bindings = bindings();
        let blends = [Blend {
            vertex: 1,
            raw_weight,
        }];
        let input = SkinInput {
            bone_matrices: &bones,
            vertices: &vertices,
            bindings: &bindings,
            blends: &blends,
            real_vertex_count: 2,
        };
        let mut out = vec![vertex([0.0; 3], [0.0; 3]); 2];
        deform(&input, rule, &mut out)?;
        Ok(out)
    }

    // By hand: real vertex 1 (2,0,0) on bone 0 -> (2,1,0), normal (1,0,0).
    // Blend vertex (1,0,0) on bone 1 -> turned (0,1,0) + (5,0,0) = (5,1,0),
    // normal (1,0,0) turned to (0,1,0).
    const POSED_REAL: Vec3 = Vec3::new(2.0, 1.0, 0.0);
    const POSED_BLEND: Vec3 = Vec3::new(5.0, 1.0, 0.0);

    #[test]
    fn weight_zero_keeps_the_real_vertex_exactly() {
        let out = deform_with_weight(0, BlendRule::Game).unwrap();
        assert_eq!(out[0].position, Vec3::new(1.0, 1.0, 0.0));
        assert_eq!(out[1].position, POSED_REAL);
        assert!(out[1].normal.abs_diff_eq(Vec3::X, 1e-6));
    }

    #[test]
    fn full_weight_gives_the_blend_vertex_exactly() {
        let out = deform_with_weight(32768, BlendRule::Game).unwrap();
        // The quarter turn leaves float dust (cos 90 degrees is not exactly
        // 0 in f32), so the posed blend vertex itself is only near (5,1,0);
        // the blend must reproduce it bit for bit.
        let bone = bones()[1];
        let posed_blend = bone.transform_point3(Vec3::X);
        assert!(posed_blend.abs_diff_eq(POSED_BLEND, 1e-6));
        assert_eq!(out[1].position, posed_blend);
        assert!(out[1].normal.abs_diff_eq(Vec3::Y, 1e-6));
        // Vertex 0 is not blended.
        assert_eq!(out[0].position, Vec3::new(1.0, 1.0, 0.0));
    }

    #[test]
    fn half_weight_is_the_midpoint_with_a_unit_normal() {
        let out = deform_with_weight(16384, BlendRule::Game).unwrap();
        assert!(out[1].position.abs_diff_eq(Vec3::new(3.5, 1.0, 0.0), 1e-6));
        let half = std::f32::consts::FRAC_1_SQRT_2;
        assert!(out[1].normal.abs_diff_eq(Vec3::new(half, half, 0.0), 1e-6));
    }

    #[test]
    fn seed_document_rule_pushes_away_from_the_blend_vertex() {
        // raw 32768 is w = 0.5 under this rule:
        // (2,1,0) + ((2,1,0) - (5,1,0)) * 0.5 = (0.5, 1, 0).
        let out = deform_with_weight(32768, BlendRule::SeedDocument).unwrap();
        assert!(out[1].position.abs_diff_eq(Vec3::new(0.5, 1.0, 0.0), 1e-5));
    }

    #[test]
    fn game_rule_is_the_default() {
        assert_eq!(BlendRule::default(), BlendRule::Game);
    }

    #[test]
    fn bone_local_applies_the_conjugate_of_the_stored_quaternion() {
        // Stored quaternion: a quarter turn about +z. The Sims applies its
        // conjugate, so +x goes to -y; then the translation (0, 0, 3) is added.
        let local = bone_local(Vec3::new(0.0, 0.0, 3.0), Quat::from_rotation_z(FRAC_PI_2));
        assert!(local
            .transform_point3(Vec3::X)
            .abs_diff_eq(Vec3::new(0.0, -1.0, 3.0), 1e-6));
    }

    fn deform_checked(
        bindings: &[Binding],
        blends: &[Blend],
        vertex_count: usize,
        real: usize,
        out_len: usize,
    ) -> Result<(), SkinError> {
        let bones = bones();
        let vertices = vec![vertex([0.0; 3], [0.0; 3]); vertex_count];
        let input = SkinInput {
            bone_matrices: &bones,
            vertices: &vertices,
            bindings,
            blends,
            real_vertex_count: real,
        };
        let mut out = vec![vertex([0.0; 3], [0.0; 3]); out_len];
        deform(&input, BlendRule::Game, &mut out)
    }

    fn binding(
        bone: i32,
        first_vertex: i32,
        vertex_count: i32,
        first_blend: i32,
        blend_count: i32,
    ) -> Binding {
        Binding {
            bone,
            first_vertex,
            vertex_count,
            first_blend,
            blend_count,
        }
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let no_blends: &[Blend] = &[];
        assert!(matches!(
            deform_checked(&[binding(2, 0, 1, 0, 0)], no_blends, 2, 2, 2),
            Err(SkinError::BoneOutOfRange { bone: 2, .. })
        ));
        assert!(matches!(
            deform_checked(&[binding(-1, 0, 1, 0, 0)], no_blends, 2, 2, 2),
            Err(SkinError::BoneOutOfRange { bone: -1, .. })
        ));
        assert!(matches!(
            deform_checked(&[binding(0, 1, 2, 0, 0)], no_blends, 2, 2, 2),
            Err(SkinError::VertexRangeOutOfBounds { .. })
        ));
        assert!(matches!(
            deform_checked(&[binding(0, i32::MAX, i32::MAX, 0, 0)], no_blends, 2, 2, 2),
            Err(SkinError::VertexRangeOutOfBounds { .. })
        ));
        assert!(matches!(
            deform_checked(&[binding(0, 0, -3, 0, 0)], no_blends, 2, 2, 2),
            Err(SkinError::VertexRangeOutOfBounds { .. })
        ));
        let one_blend = [Blend {
            vertex: 0,
            raw_weight: 100,
        }];
        assert!(matches!(
            deform_checked(&[binding(0, 0, 2, 0, 2)], &one_blend, 3, 2, 2),
            Err(SkinError::BlendRangeOutOfBounds { .. })
        ));
        // Two real vertices plus one blend vertex need three stored vertices.
        assert!(matches!(
            deform_checked(&[], &one_blend, 2, 2, 2),
            Err(SkinError::TooFewVertices { .. })
        ));
        let blend_to_blend_vertex = [Blend {
            vertex: 2,
            raw_weight: 100,
        }];
        assert!(matches!(
            deform_checked(&[], &blend_to_blend_vertex, 3, 2, 2),
            Err(SkinError::BlendVertexOutOfRange { vertex: 2, .. })
        ));
        assert_eq!(
            deform_checked(&[], no_blends, 2, 2, 5),
            Err(SkinError::OutputLength {
                expected: 2,
                actual: 5
            })
        );
        let message = deform_checked(&[binding(0, 1, 2, 0, 0)], no_blends, 2, 2, 2)
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "binding 0 covers real vertices 1 to 1+2, outside the 2 real vertices"
        );
    }
}
