//! The Sims and The Sims Online: bones name their parents (`NULL` for the
//! root) and store rotations that act as their conjugate.

use formats::sims::{cmx, skn};
use glam::{Quat, Vec3};

use super::{AdaptError, FileSkeleton, Handedness, PosedMesh};
use crate::pose::Pose;
use crate::sims::{bone_local, deform, Binding, Blend, BlendRule, SkinInput, SkinVertex};
use crate::skeleton::{NamedJoint, RootRule, Skeleton};

/// The parent name a root bone stores.
const NO_PARENT: &[u8] = b"NULL";

/// A Sims bone's fields as the posing core needs them.
pub struct SimsBone<'a> {
    pub name: &'a formats::schema::RawString,
    pub parent: &'a formats::schema::RawString,
    pub translation: [f32; 3],
    pub rotation: [f32; 4],
}

/// Bones as stored, in file order: one tree with a single root (an empty
/// skeleton has none).
pub fn sims_skeleton<'a>(
    bones: impl ExactSizeIterator<Item = SimsBone<'a>>,
) -> Result<FileSkeleton, AdaptError> {
    let roots = if bones.len() == 0 {
        RootRule::Any
    } else {
        RootRule::ExactlyOne
    };
    let joints = bones
        .map(|bone| NamedJoint {
            name: bone.name.to_text(),
            parent: (bone.parent.as_bytes() != NO_PARENT).then(|| bone.parent.to_text()),
            rest_local: bone_local(
                Vec3::from_array(bone.translation),
                Quat::from_array(bone.rotation),
            ),
        })
        .collect();
    Ok(FileSkeleton {
        skeleton: Skeleton::from_named_parents(joints, roots)?,
        handedness: Handedness::Left,
    })
}

pub fn tso_skeleton(skel: &formats::sims::skel::Skeleton) -> Result<FileSkeleton, AdaptError> {
    sims_skeleton(skel.bones.iter().map(|bone| SimsBone {
        name: &bone.name,
        parent: &bone.parent,
        translation: bone.translation,
        rotation: bone.rotation,
    }))
}

/// A `.cmx` (or `.bcf`) poses its first skeleton.
pub fn cmx_skeleton(file: &cmx::Cmx) -> Result<FileSkeleton, AdaptError> {
    let skeleton = file.skeletons.first().ok_or(AdaptError::NoSkeleton)?;
    sims_skeleton(skeleton.bones.iter().map(|bone| SimsBone {
        name: &bone.name,
        parent: &bone.parent,
        translation: bone.translation,
        rotation: bone.rotation,
    }))
}

/// Deforms a skin with the skeleton at rest: each mesh bone must be a joint
/// of the skeleton; blends follow the game's rule.
pub fn posed_skin(skin: &skn::Skn, skeleton: &Skeleton) -> Result<PosedMesh, AdaptError> {
    let model = Pose::rest(skeleton).model_matrices(skeleton)?;
    let bone_matrices = skin
        .bones
        .iter()
        .map(|bone| {
            let name = bone.to_text();
            skeleton
                .find(&name)
                .and_then(|joint| model.get(joint).copied())
                .ok_or(AdaptError::MissingBone(name))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let vertices: Vec<SkinVertex> = skin
        .vertices
        .iter()
        .map(|vertex| SkinVertex {
            position: Vec3::from_array(vertex.position),
            normal: Vec3::from_array(vertex.normal),
        })
        .collect();
    let bindings: Vec<Binding> = skin
        .bindings
        .iter()
        .map(|binding| Binding {
            bone: binding.bone,
            first_vertex: binding.first_vertex,
            vertex_count: binding.vertex_count,
            first_blend: binding.first_blend,
            blend_count: binding.blend_count,
        })
        .collect();
    let blends: Vec<Blend> = skin
        .blends
        .iter()
        .map(|blend| Blend {
            vertex: blend.vertex,
            raw_weight: blend.raw_weight,
        })
        .collect();
    let real = skin.real_vertex_count();
    let faces = skin
        .faces
        .iter()
        .enumerate()
        .map(|(face, corners)| {
            let index = |vertex: i32| {
                u32::try_from(vertex)
                    .ok()
                    .filter(|&index| (index as usize) < real)
                    .ok_or(AdaptError::FaceOutOfRange {
                        face,
                        vertex,
                        count: real,
                    })
            };
            Ok([index(corners[0])?, index(corners[1])?, index(corners[2])?])
        })
        .collect::<Result<Vec<_>, AdaptError>>()?;
    let mut posed = vec![
        SkinVertex {
            position: Vec3::ZERO,
            normal: Vec3::ZERO,
        };
        real
    ];
    let input = SkinInput {
        bone_matrices: &bone_matrices,
        vertices: &vertices,
        bindings: &bindings,
        blends: &blends,
        real_vertex_count: real,
    };
    deform(&input, BlendRule::Game, &mut posed)?;
    Ok(PosedMesh {
        positions: posed.iter().map(|vertex| vertex.position).collect(),
        normals: posed.iter().map(|vertex| vertex.normal).collect(),
        uvs: skin.uvs.clone(),
        faces,
    })
}

#[cfg(test)]
mod tests {
    use formats::schema::RawString;
    use formats::sims::skel::{Bone, Skeleton as Skel};
    use glam::{Mat3, Vec3};

    use super::*;
    use crate::pose::{joint_states, model_matrices};

    fn bone(name: &str, parent: &str, translation: [f32; 3], rotation: [f32; 4]) -> Bone {
        Bone {
            unknown: 1,
            name: RawString::from(name),
            parent: RawString::from(parent),
            has_properties: 0,
            property_lists: None,
            translation,
            rotation,
            can_translate: 1,
            can_rotate: 1,
            can_blend: 1,
            wiggle_value: 0.0,
            wiggle_power: 0.0,
        }
    }

    #[test]
    fn a_two_bone_chain_turns_by_the_conjugate_of_the_stored_rotation() {
        // Stored: 90 degrees about +z as (x, y, z, w). The game applies the
        // conjugate, -90 degrees about z, which takes +x to -y.
        let half = std::f32::consts::FRAC_1_SQRT_2;
        let skel = Skel {
            version: 1,
            name: RawString::from("chain"),
            bones: vec![
                bone("ROOT", "NULL", [0.0, 1.0, 0.0], [0.0, 0.0, half, half]),
                bone("TIP", "ROOT", [2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
            ],
        };
        let posed = tso_skeleton(&skel).unwrap();
        let model = model_matrices(&posed.skeleton, posed.skeleton.rest_locals()).unwrap();
        let states = joint_states(&model);
        assert!(states[0]
            .position
            .abs_diff_eq(Vec3::new(0.0, 1.0, 0.0), 1e-6));
        // Computed by hand: (0,1,0) + Rz(-90°) (2,0,0) = (0,1,0) + (0,-2,0).
        assert!(
            states[1]
                .position
                .abs_diff_eq(Vec3::new(0.0, -1.0, 0.0), 1e-6),
            "{:?}",
            states[1]
        );
        let expected_rotation =
            Mat3::from_cols(Vec3::new(0.0, -1.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::Z);
        assert!(Mat3::from_quat(states[1].rotation).abs_diff_eq(expected_rotation, 1e-6));
    }

    #[test]
    fn an_unknown_parent_is_an_error_naming_the_bone() {
        let skel = Skel {
            version: 1,
            name: RawString::from("broken"),
            bones: vec![
                bone("ROOT", "NULL", [0.0; 3], [0.0, 0.0, 0.0, 1.0]),
                bone("ARM", "TORSO", [0.0; 3], [0.0, 0.0, 0.0, 1.0]),
            ],
        };
        let error = tso_skeleton(&skel).unwrap_err();
        assert_eq!(
            error.to_string(),
            "joint 1 (\"ARM\") names parent \"TORSO\", which is not a joint of this skeleton"
        );
    }
}
