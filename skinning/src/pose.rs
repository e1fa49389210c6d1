//! Local-to-model posing in one pass over a validated skeleton
//! (ozz-animation style: plain slices in and out, lengths checked once).
//!
//! Locals are general affine matrices so that every family can feed the same
//! job, whether its rig gives a translation and a rotation or a whole
//! matrix. All math is column-vector: `model = parent_model * local`.

use glam::{Affine3A, Quat, Vec3};
use thiserror::Error;

use crate::skeleton::Skeleton;

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

/// How local transforms compose into model space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Composition {
    /// `model = parent_model * local`: every skeleton's ordinary hierarchy.
    #[default]
    Hierarchy,
    /// Outcast's parent-first order, for rigs whose joints turn about
    /// pivots: a joint's pivot is the sum of the
    /// local translations down its chain; its turn about that pivot is
    /// applied after its parent's accumulated turns (parent first); its
    /// position is its parent's accumulated transform applied to its pivot.
    /// It differs from [`Composition::Hierarchy`] from two levels down.
    LiteralPivots,
}

/// As [`local_to_model`], composing parent-first about pivots
/// ([`Composition::LiteralPivots`]).
pub fn literal_pivots_to_model(
    skeleton: &Skeleton,
    locals: &[Affine3A],
    model: &mut [Affine3A],
) -> Result<(), JobError> {
    check_length("locals", skeleton.len(), locals.len())?;
    check_length("model", skeleton.len(), model.len())?;
    let parents = skeleton.parents();
    let mut pivots = vec![Vec3::ZERO; skeleton.len()];
    let mut turns = vec![Affine3A::IDENTITY; skeleton.len()];
    // Indexing below cannot fail, as in `local_to_model`.
    for &joint in skeleton.evaluation_order() {
        let joint = joint as usize;
        let local = locals[joint];
        let (parent_pivot, parent_turns) = match parents[joint] {
            Some(parent) => (pivots[parent as usize], turns[parent as usize]),
            None => (Vec3::ZERO, Affine3A::IDENTITY),
        };
        let pivot = parent_pivot + Vec3::from(local.translation);
        let turn = Affine3A::from_translation(pivot)
            * Affine3A::from_mat3(local.matrix3.into())
            * Affine3A::from_translation(-pivot);
        let accumulated = turn * parent_turns;
        pivots[joint] = pivot;
        turns[joint] = accumulated;
        model[joint] = Affine3A {
            matrix3: accumulated.matrix3,
            translation: parent_turns.transform_point3(pivot).into(),
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

    /// Replaces one joint's local transform; a joint the skeleton does not
    /// have is left alone.
    pub fn set_local(&mut self, joint: usize, local: Affine3A) {
        if let Some(slot) = self.locals.get_mut(joint) {
            *slot = local;
        }
    }

    pub fn locals(&self) -> &[Affine3A] {
        &self.locals
    }

    /// Every joint's model matrix, in file order.
    pub fn model_matrices(&self, skeleton: &Skeleton) -> Result<Vec<Affine3A>, JobError> {
        model_matrices(skeleton, &self.locals)
    }

    /// Every joint's model matrix, composed as `composition` says.
    pub fn model_matrices_by(
        &self,
        skeleton: &Skeleton,
        composition: Composition,
    ) -> Result<Vec<Affine3A>, JobError> {
        match composition {
            Composition::Hierarchy => self.model_matrices(skeleton),
            Composition::LiteralPivots => {
                let mut model = vec![Affine3A::IDENTITY; skeleton.len()];
                literal_pivots_to_model(skeleton, &self.locals, &mut model)?;
                Ok(model)
            }
        }
    }
}

/// Model-space position and rotation of every joint, in file order.
pub fn joint_states(model: &[Affine3A]) -> Vec<JointState> {
    model.iter().map(JointState::from_model).collect()
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;

    use formats::rig;

    use super::*;

    fn assert_near(actual: Vec3, expected: Vec3) {
        assert!(
            actual.abs_diff_eq(expected, 1e-6),
            "expected {expected:?}, got {actual:?}"
        );
    }

    /// A skeleton of joints given as (parent, rest transform).
    fn skeleton(joints: &[(Option<usize>, rig::Transform)]) -> Skeleton {
        let joints = joints
            .iter()
            .enumerate()
            .map(|(index, &(parent, rest))| rig::Joint {
                name: format!("J{index}"),
                parent,
                rest,
            })
            .collect();
        Skeleton::new(&rig::Skeleton {
            joints,
            axes: rig::Axes::RightHandedYUp,
        })
        .unwrap()
    }

    fn at(translation: Vec3, rotation: Quat) -> rig::Transform {
        rig::Transform::TranslationRotation {
            translation: translation.to_array(),
            rotation: rotation.to_array(),
        }
    }

    #[test]
    fn two_bone_chain_with_a_quarter_turn() {
        // The root sits at (1, 0, 0) turned 90 degrees about +z, which maps
        // +x to +y. The child is 2 along its parent's x axis, so by hand its
        // model position is (1, 0, 0) + 2 * (0, 1, 0) = (1, 2, 0).
        let skeleton = skeleton(&[
            (None, at(Vec3::X, Quat::from_rotation_z(FRAC_PI_2))),
            (Some(0), at(Vec3::new(2.0, 0.0, 0.0), Quat::IDENTITY)),
        ]);
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
        let quarter = at(Vec3::X, Quat::from_rotation_z(FRAC_PI_2));
        let skeleton = skeleton(&[(Some(2), quarter), (None, quarter), (Some(1), quarter)]);
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
        let doubled = rig::Transform::Matrix([
            [2.0, 0.0, 0.0, 0.0],
            [0.0, 2.0, 0.0, 0.0],
            [0.0, 0.0, 2.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ]);
        let skeleton = skeleton(&[(None, doubled), (Some(0), at(Vec3::Y, Quat::IDENTITY))]);
        let model = model_matrices(&skeleton, skeleton.rest_locals()).unwrap();
        let tip = JointState::from_model(&model[1]);
        assert_near(tip.position, Vec3::new(0.0, 2.0, 0.0));
        assert!(tip.rotation.abs_diff_eq(Quat::IDENTITY, 1e-6));
    }

    #[test]
    fn the_literal_order_differs_from_the_hierarchy_two_levels_down() {
        // Outcast style: joints at pivots (0,0,0), (1,0,0), (2,0,0), the
        // first two turned a quarter about z; rest locals are the offsets
        // from the parent's pivot, then the turn.
        let quarter = Quat::from_rotation_z(FRAC_PI_2);
        let skeleton = skeleton(&[
            (None, at(Vec3::ZERO, quarter)),
            (Some(0), at(Vec3::X, quarter)),
            (Some(1), at(Vec3::X, Quat::IDENTITY)),
        ]);
        let pose = Pose::rest(&skeleton);
        let child_first = pose
            .model_matrices_by(&skeleton, Composition::Hierarchy)
            .unwrap();
        let literal = pose
            .model_matrices_by(&skeleton, Composition::LiteralPivots)
            .unwrap();
        // By hand, child first: the tip (2,0,0) turns about (1,0,0) to
        // (1,1,0), then about the origin to (-1,1,0). Literally: about the
        // origin first to (0,2,0), then about (1,0,0) to (-1,-1,0).
        assert_near(child_first[2].translation.into(), Vec3::new(-1.0, 1.0, 0.0));
        assert_near(literal[2].translation.into(), Vec3::new(-1.0, -1.0, 0.0));
        // One level down both give (0,1,0), and the root stays put.
        for model in [&child_first, &literal] {
            assert_near(model[1].translation.into(), Vec3::Y);
            assert_near(model[0].translation.into(), Vec3::ZERO);
        }
        // Both turn the tip a half turn in all.
        let tip = JointState::from_model(&literal[2]).rotation;
        assert_near(tip * Vec3::X, -Vec3::X);
    }

    #[test]
    fn mismatched_slice_lengths_are_errors() {
        let skeleton = skeleton(&[(None, rig::Transform::IDENTITY)]);
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
        let skeleton = skeleton(&[
            (None, at(Vec3::Y, Quat::IDENTITY)),
            (Some(0), at(Vec3::X, Quat::IDENTITY)),
        ]);
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
