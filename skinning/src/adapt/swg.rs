//! Star Wars Galaxies: joints by parent index (-1 for a root), each rotated
//! by RPST * BPRO * RPRE (Hamilton product, RPRE applied first) and then
//! translated by BPTR. A file with several levels of detail poses its first.

use formats::swg::skt::{self, Quaternion};
use glam::{Affine3A, Quat, Vec3};

use super::{AdaptError, FileSkeleton, Handedness};
use crate::skeleton::{IndexedJoint, RootRule, Skeleton};

/// The parent index a root joint stores.
const NO_PARENT: i32 = -1;

pub fn swg_skeleton(file: &skt::Skeleton) -> Result<FileSkeleton, AdaptError> {
    let joints = match file.levels().first() {
        Some(level) => level.joints()?,
        None => Vec::new(),
    };
    let roots = if joints.is_empty() {
        RootRule::Any
    } else {
        RootRule::ExactlyOne
    };
    let joints = joints
        .iter()
        .enumerate()
        .map(|(index, joint)| {
            let parent = match joint.parent {
                NO_PARENT => None,
                parent => Some(
                    u32::try_from(parent).map_err(|_| AdaptError::NegativeParent {
                        joint: index,
                        name: joint.name.to_text(),
                        parent,
                    })?,
                ),
            };
            Ok(IndexedJoint {
                name: joint.name.to_text(),
                parent,
                rest_local: joint_local(joint),
            })
        })
        .collect::<Result<Vec<_>, AdaptError>>()?;
    Ok(FileSkeleton {
        skeleton: Skeleton::from_parent_indices(joints, roots)?,
        handedness: Handedness::Left,
    })
}

/// local = T(BPTR) * R(RPST * BPRO * RPRE).
fn joint_local(joint: &skt::Joint) -> Affine3A {
    let rotation = quat(joint.post_rotation) * quat(joint.bind_rotation) * quat(joint.pre_rotation);
    Affine3A::from_rotation_translation(rotation, Vec3::from_array(joint.bind_translation))
}

/// Stored w, x, y, z; glam takes x, y, z, w.
fn quat(stored: Quaternion) -> Quat {
    Quat::from_xyzw(stored.x, stored.y, stored.z, stored.w)
}

#[cfg(test)]
mod tests {
    use formats::schema::RawString;
    use formats::swg::skt::{Joint, SkeletonForm};
    use glam::Vec3;

    use super::*;
    use crate::pose::{joint_states, model_matrices};

    const IDENTITY: Quaternion = Quaternion {
        w: 1.0,
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };

    fn joint(name: &str, parent: i32, translation: [f32; 3]) -> Joint {
        Joint {
            name: RawString::from(name),
            parent,
            pre_rotation: IDENTITY,
            post_rotation: IDENTITY,
            bind_translation: translation,
            bind_rotation: IDENTITY,
            rotation_order: 0,
        }
    }

    fn posed_positions(joints: &[Joint]) -> Vec<Vec3> {
        let file = skt::Skeleton::Single(SkeletonForm::from_joints(joints));
        let posed = swg_skeleton(&file).unwrap();
        let model = model_matrices(&posed.skeleton, posed.skeleton.rest_locals()).unwrap();
        joint_states(&model)
            .iter()
            .map(|state| state.position)
            .collect()
    }

    #[test]
    fn a_two_joint_chain_turns_by_the_stored_rotation() {
        // 90 degrees about +z, stored w, x, y, z: takes +x to +y.
        let half = std::f32::consts::FRAC_1_SQRT_2;
        let mut root = joint("root", -1, [0.0, 1.0, 0.0]);
        root.bind_rotation = Quaternion {
            w: half,
            x: 0.0,
            y: 0.0,
            z: half,
        };
        let positions = posed_positions(&[root, joint("tip", 0, [2.0, 0.0, 0.0])]);
        // By hand: (0,1,0) + Rz(90°) (2,0,0) = (0,3,0).
        assert!(
            positions[1].abs_diff_eq(Vec3::new(0.0, 3.0, 0.0), 1e-6),
            "{positions:?}"
        );
    }

    #[test]
    fn pre_rotation_applies_first_and_post_rotation_last() {
        // RPRE = 90° about z, BPRO = 90° about x, RPST = identity. Applied to
        // the child's offset (1,0,0): z first gives (0,1,0), then x gives
        // (0,0,1). The other order would give x first: (1,0,0), then z: (0,1,0).
        let half = std::f32::consts::FRAC_1_SQRT_2;
        let mut root = joint("root", -1, [0.0; 3]);
        root.pre_rotation = Quaternion {
            w: half,
            x: 0.0,
            y: 0.0,
            z: half,
        };
        root.bind_rotation = Quaternion {
            w: half,
            x: half,
            y: 0.0,
            z: 0.0,
        };
        let positions = posed_positions(&[root.clone(), joint("tip", 0, [1.0, 0.0, 0.0])]);
        assert!(
            positions[1].abs_diff_eq(Vec3::new(0.0, 0.0, 1.0), 1e-6),
            "{positions:?}"
        );

        // Swapping the two as RPST = z, BPRO = x: x first then z.
        root.post_rotation = root.pre_rotation;
        root.pre_rotation = IDENTITY;
        let positions = posed_positions(&[root, joint("tip", 0, [1.0, 0.0, 0.0])]);
        assert!(
            positions[1].abs_diff_eq(Vec3::new(0.0, 1.0, 0.0), 1e-6),
            "{positions:?}"
        );
    }

    #[test]
    fn a_negative_parent_other_than_minus_one_is_an_error() {
        let file = skt::Skeleton::Single(SkeletonForm::from_joints(&[
            joint("root", -1, [0.0; 3]),
            joint("bad", -7, [0.0; 3]),
        ]));
        assert_eq!(
            swg_skeleton(&file).unwrap_err().to_string(),
            "joint 1 (\"bad\") has parent index -7; only -1 (no parent) may be negative"
        );
    }
}
