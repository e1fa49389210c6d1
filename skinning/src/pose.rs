//! Local-to-model posing in one pass over a validated skeleton
//! (ozz-animation style: plain slices in and out, lengths checked once).
//!
//! Locals are general affine matrices so that every family can feed the same
//! job: the Sims and SWG give a translation and a rotation ([`Transform`]),
//! BonesPro and Outcast give matrices. All math is column-vector:
//! `model = parent_model * local`.

use glam::{Affine3A, Quat, Vec3};
use thiserror::Error;

use crate::skeleton::Skeleton;

/// A rigid local transform: rotate, then translate (`T * R`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    pub translation: Vec3,
    pub rotation: Quat,
}

impl Transform {
    pub const IDENTITY: Transform = Transform {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    };

    /// The matrix `T(translation) * R(rotation)`.
    pub fn to_affine(self) -> Affine3A {
        Affine3A::from_rotation_translation(self.rotation, self.translation)
    }
}

/// A joint's position and orientation in model space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointState {
    pub position: Vec3,
    pub rotation: Quat,
}

impl JointState {
    /// Splits a model matrix into position and rotation. Scale, if a family's
    /// matrices carry any, is divided out and dropped.
    pub fn from_model(model: &Affine3A) -> JointState {
        let (_scale, rotation, position) = model.to_scale_rotation_translation();
        JointState { position, rotation }
    }
}

/// A posing job was given slices that do not match the skeleton.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum JobError {
    #[error("{slice} has {actual} entries, but the skeleton has {expected} joints")]
    LengthMismatch {
        slice: &'static str,
        expected: usize,
        actual: usize,
    },
}

fn check_length(slice: &'static str, expected: usize, actual: usize) -> Result<(), JobError> {
    if expected == actual {
        Ok(())
    } else {
        Err(JobError::LengthMismatch {
            slice,
            expected,
            actual,
        })
    }
}

/// Computes each joint's model matrix from its local one, in file order.
///
/// `locals` and `model` must both have one entry per joint. Joints are
/// visited in the skeleton's evaluation order, so a parent's model matrix is
/// ready before any child needs it.
pub fn local_to_model(
    skeleton: &Skeleton,
    locals: &[Affine3A],
    model: &mut [Affine3A],
) -> Result<(), JobError> {
    check_length("locals", skeleton.len(), locals.len())?;
    check_length("model", skeleton.len(), model.len())?;
    let parents = skeleton.parents();
    // Indexing below cannot fail: the skeleton guarantees every joint and
    // parent index is below its length, which both slices were checked to have.
    for &joint in skeleton.evaluation_order() {
        let joint = joint as usize;
        let local = locals[joint];
        model[joint] = match parents[joint] {
            Some(parent) => model[parent as usize] * local,
            None => local,
        };
    }
    Ok(())
}

/// Model matrices of a pose, allocated for the caller.
pub fn model_matrices(skeleton: &Skeleton, locals: &[Affine3A]) -> Result<Vec<Affine3A>, JobError> {
    let mut model = vec![Affine3A::IDENTITY; skeleton.len()];
    local_to_model(skeleton, locals, &mut model)?;
    Ok(model)
}

/// Local transforms, one per joint in file order: the rest pose, or what an
/// animation makes of it. Its length is checked against the skeleton once,
/// when it is made, so posing it needs no further checks.
#[derive(Clone, Debug, PartialEq)]
pub struct Pose {
    locals: Vec<Affine3A>,
}

impl Pose {
    /// The skeleton's rest pose.
    pub fn rest(skeleton: &Skeleton) -> Pose {
        Pose {
            locals: skeleton.rest_locals().to_vec(),
        }
    }

    /// A pose from local transforms computed elsewhere (e.g. an animation frame).
    pub fn from_locals(skeleton: &Skeleton, locals: Vec<Affine3A>) -> Result<Pose, JobError> {
        check_length("locals", skeleton.len(), locals.len())?;
        Ok(Pose { locals })
    }

    pub fn locals(&self) -> &[Affine3A] {
        &self.locals
    }

    /// Every joint's model matrix, in file order.
    pub fn model_matrices(&self, skeleton: &Skeleton) -> Result<Vec<Affine3A>, JobError> {
        model_matrices(skeleton, &self.locals)
    }
}

/// Model-space position and rotation of every joint, in file order.
pub fn joint_states(model: &[Affine3A]) -> Vec<JointState> {
    model.iter().map(JointState::from_model).collect()
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;

    use super::*;
    use crate::skeleton::{IndexedJoint, NamedJoint, RootRule};

    fn assert_near(actual: Vec3, expected: Vec3) {
        assert!(
            actual.abs_diff_eq(expected, 1e-6),
            "expected {expected:?}, got {actual:?}"
        );
    }

    fn joint(name: &str, parent: Option<&str>, translation: Vec3, rotation: Quat) -> NamedJoint {
        NamedJoint {
            name: name.to_owned(),
            parent: parent.map(str::to_owned),
            rest_local: Transform {
                translation,
                rotation,
            }
            .to_affine(),
        }
    }

    #[test]
    fn two_bone_chain_with_a_quarter_turn() {
        // The root sits at (1, 0, 0) turned 90 degrees about +z, which maps
        // +x to +y. The child is 2 along its parent's x axis, so by hand its
        // model position is (1, 0, 0) + 2 * (0, 1, 0) = (1, 2, 0).
        let skeleton = Skeleton::from_named_parents(
            vec![
                joint("ROOT", None, Vec3::X, Quat::from_rotation_z(FRAC_PI_2)),
                joint(
                    "CHILD",
                    Some("ROOT"),
                    Vec3::new(2.0, 0.0, 0.0),
                    Quat::IDENTITY,
                ),
            ],
            RootRule::ExactlyOne,
        )
        .unwrap();
        let model = model_matrices(&skeleton, skeleton.rest_locals()).unwrap();
        let states = joint_states(&model);
        assert_near(states[0].position, Vec3::new(1.0, 0.0, 0.0));
        assert_near(states[1].position, Vec3::new(1.0, 2.0, 0.0));
        // The child inherits the quarter turn: its x axis points along +y.
        assert_near(states[1].rotation * Vec3::X, Vec3::Y);
    }

    #[test]
    fn non_topological_order_poses_like_the_sorted_one() {
        // Chain ROOT -> ARM -> HAND listed as HAND, ROOT, ARM. Each link is
        // 1 along x with a quarter turn about z, so by hand:
        // ROOT at (1,0,0) facing +y; ARM at (1,1,0) facing -x; HAND at (0,1,0).
        let quarter = Quat::from_rotation_z(FRAC_PI_2);
        let skeleton = Skeleton::from_named_parents(
            vec![
                joint("HAND", Some("ARM"), Vec3::X, quarter),
                joint("ROOT", None, Vec3::X, quarter),
                joint("ARM", Some("ROOT"), Vec3::X, quarter),
            ],
            RootRule::ExactlyOne,
        )
        .unwrap();
        let model = model_matrices(&skeleton, skeleton.rest_locals()).unwrap();
        let states = joint_states(&model);
        assert_near(states[0].position, Vec3::new(0.0, 1.0, 0.0));
        assert_near(states[1].position, Vec3::new(1.0, 0.0, 0.0));
        assert_near(states[2].position, Vec3::new(1.0, 1.0, 0.0));
    }

    #[test]
    fn matrix_locals_with_scale_are_posed_and_scale_is_dropped_from_rotation() {
        // A family like BonesPro hands in full matrices: scale 2 at the root
        // doubles the child's offset of (0, 1, 0) to (0, 2, 0).
        let skeleton = Skeleton::from_parent_indices(
            vec![
                IndexedJoint {
                    name: "ROOT".to_owned(),
                    parent: None,
                    rest_local: Affine3A::from_scale(Vec3::splat(2.0)),
                },
                IndexedJoint {
                    name: "TIP".to_owned(),
                    parent: Some(0),
                    rest_local: Affine3A::from_translation(Vec3::Y),
                },
            ],
            RootRule::ExactlyOne,
        )
        .unwrap();
        let model = model_matrices(&skeleton, skeleton.rest_locals()).unwrap();
        let tip = JointState::from_model(&model[1]);
        assert_near(tip.position, Vec3::new(0.0, 2.0, 0.0));
        assert!(tip.rotation.abs_diff_eq(Quat::IDENTITY, 1e-6));
    }

    #[test]
    fn mismatched_slice_lengths_are_errors() {
        let skeleton = Skeleton::from_parent_indices(
            vec![IndexedJoint {
                name: "ROOT".to_owned(),
                parent: None,
                rest_local: Affine3A::IDENTITY,
            }],
            RootRule::ExactlyOne,
        )
        .unwrap();
        let mut model = vec![Affine3A::IDENTITY; 1];
        assert_eq!(
            local_to_model(&skeleton, &[], &mut model),
            Err(JobError::LengthMismatch {
                slice: "locals",
                expected: 1,
                actual: 0
            })
        );
        let mut too_long = vec![Affine3A::IDENTITY; 3];
        let error = local_to_model(&skeleton, &[Affine3A::IDENTITY], &mut too_long).unwrap_err();
        assert_eq!(
            error.to_string(),
            "model has 3 entries, but the skeleton has 1 joints"
        );
    }

    #[test]
    fn a_pose_is_checked_against_its_skeleton_once() {
        let skeleton = Skeleton::from_parent_indices(
            vec![
                IndexedJoint {
                    name: "root".to_owned(),
                    parent: None,
                    rest_local: Affine3A::from_translation(Vec3::Y),
                },
                IndexedJoint {
                    name: "tip".to_owned(),
                    parent: Some(0),
                    rest_local: Affine3A::from_translation(Vec3::X),
                },
            ],
            RootRule::ExactlyOne,
        )
        .unwrap();
        let rest = Pose::rest(&skeleton);
        let model = rest.model_matrices(&skeleton).unwrap();
        assert_near(model[1].translation.into(), Vec3::new(1.0, 1.0, 0.0));

        let turned = vec![
            Affine3A::from_rotation_translation(Quat::from_rotation_z(FRAC_PI_2), Vec3::Y),
            Affine3A::from_translation(Vec3::X),
        ];
        let pose = Pose::from_locals(&skeleton, turned).unwrap();
        let model = pose.model_matrices(&skeleton).unwrap();
        assert_near(model[1].translation.into(), Vec3::new(0.0, 2.0, 0.0));

        assert_eq!(
            Pose::from_locals(&skeleton, vec![Affine3A::IDENTITY]),
            Err(JobError::LengthMismatch {
                slice: "locals",
                expected: 2,
                actual: 1
            })
        );
    }
}
