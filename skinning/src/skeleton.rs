//! A skeleton: joint names, parents and rest-pose local transforms, validated
//! once at construction so that posing is a single pass with no checks.
//!
//! Joints keep the order of the file they came from. When that order is not
//! topological (a child listed before its parent), the skeleton computes an
//! evaluation order once and posing follows it; results are still indexed in
//! file order.

use formats::rig;
use glam::{Affine3A, Mat4, Quat, Vec3};
use thiserror::Error;

/// Why a rig skeleton cannot be posed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SkeletonError {
    #[error("joint {joint} ({name:?}) has parent index {parent}, but the skeleton has only {count} joints")]
    ParentIndexOutOfRange {
        joint: usize,
        name: String,
        parent: usize,
        count: usize,
    },
    #[error("joint {joint} ({name:?}) is its own parent")]
    SelfParent { joint: usize, name: String },
    #[error("joint {joint} ({name:?}) is part of a parent cycle and so has no root")]
    Cycle { joint: usize, name: String },
    #[error("the skeleton has {count} joints, more than a u32 joint index can address")]
    TooManyJoints { count: usize },
}

/// Joint names, parents and rest-pose locals, in file order, plus an
/// evaluation order in which every parent comes before its children.
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    names: Vec<String>,
    parents: Vec<Option<u32>>,
    rest_locals: Vec<Affine3A>,
    /// The rest transforms as the rig gave them, for animations that replace
    /// only a translation or a rotation.
    rest_transforms: Vec<rig::Transform>,
    /// Joint indices, parents before children. Equal to `0..len` when the
    /// file order is already topological.
    evaluation_order: Vec<u32>,
    axes: rig::Axes,
}

/// A rig transform as a matrix.
pub fn affine(transform: &rig::Transform) -> Affine3A {
    match *transform {
        rig::Transform::TranslationRotation {
            translation,
            rotation,
        } => Affine3A::from_rotation_translation(
            Quat::from_array(rotation),
            Vec3::from_array(translation),
        ),
        rig::Transform::Matrix(columns) => Affine3A::from_mat4(Mat4::from_cols_array_2d(&columns)),
    }
}

impl Skeleton {
    /// Checks a rig skeleton's parents (in range, no cycle) and orders its
    /// joints for posing.
    pub fn new(skeleton: &rig::Skeleton) -> Result<Skeleton, SkeletonError> {
        let count = skeleton.joints.len();
        if u32::try_from(count).is_err() {
            return Err(SkeletonError::TooManyJoints { count });
        }
        let names: Vec<String> = skeleton
            .joints
            .iter()
            .map(|joint| joint.name.clone())
            .collect();
        let mut parents = Vec::with_capacity(count);
        for (index, joint) in skeleton.joints.iter().enumerate() {
            let parent = match joint.parent {
                None => None,
                Some(parent) if parent >= count => {
                    return Err(SkeletonError::ParentIndexOutOfRange {
                        joint: index,
                        name: joint.name.clone(),
                        parent,
                        count,
                    })
                }
                Some(parent) if parent == index => {
                    return Err(SkeletonError::SelfParent {
                        joint: index,
                        name: joint.name.clone(),
                    })
                }
                // Below the count, which fits in u32.
                Some(parent) => Some(parent as u32),
            };
            parents.push(parent);
        }
        let evaluation_order = evaluation_order(&names, &parents)?;
        Ok(Skeleton {
            names,
            parents,
            rest_locals: skeleton
                .joints
                .iter()
                .map(|joint| affine(&joint.rest))
                .collect(),
            rest_transforms: skeleton.joints.iter().map(|joint| joint.rest).collect(),
            evaluation_order,
            axes: skeleton.axes,
        })
    }

    /// Number of joints.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the skeleton has no joints.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Joint names in file order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Parent index of each joint in file order, `None` for roots.
    pub fn parents(&self) -> &[Option<u32>] {
        &self.parents
    }

    /// Rest-pose local transform of each joint in file order.
    pub fn rest_locals(&self) -> &[Affine3A] {
        &self.rest_locals
    }

    /// Rest transform of each joint in file order, as the rig gave it.
    pub fn rest_transforms(&self) -> &[rig::Transform] {
        &self.rest_transforms
    }

    /// Joint indices with every parent before its children.
    pub fn evaluation_order(&self) -> &[u32] {
        &self.evaluation_order
    }

    /// How the file's axes lie.
    pub fn axes(&self) -> rig::Axes {
        self.axes
    }

    /// Index of the first joint with this name, or else of the first whose
    /// name differs from it only in ASCII case (SWG meshes name their
    /// skeletons' joints in lower case, as the game compares them).
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names
            .iter()
            .position(|candidate| candidate == name)
            .or_else(|| {
                self.names
                    .iter()
                    .position(|candidate| candidate.eq_ignore_ascii_case(name))
            })
    }

    /// Each joint's depth: 1 for a root, one more than its parent otherwise.
    pub fn depths(&self) -> Vec<u32> {
        let mut depths = vec![0u32; self.len()];
        for &joint in &self.evaluation_order {
            let joint = joint as usize;
            // Parents come first in the evaluation order and are in range.
            let depth = match self.parents[joint] {
                Some(parent) => depths[parent as usize] + 1,
                None => 1,
            };
            depths[joint] = depth;
        }
        depths
    }
}

fn name_of(names: &[String], joint: usize) -> String {
    names.get(joint).cloned().unwrap_or_default()
}

/// Orders joints so that each parent precedes its children, or reports a
/// cycle. Parents must already be known to be in range.
///
/// Each joint is visited once: walking up from an unplaced joint collects
/// its unplaced ancestors, which are then placed root-most first. Meeting a
/// joint already on the current walk means a cycle. When the file order is
/// already topological this yields `0..len`.
fn evaluation_order(names: &[String], parents: &[Option<u32>]) -> Result<Vec<u32>, SkeletonError> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Unplaced,
        OnWalk,
        Placed,
    }
    let mut state = vec![State::Unplaced; parents.len()];
    let mut order = Vec::with_capacity(parents.len());
    let mut walk = Vec::new();
    for start in 0..parents.len() {
        let mut joint = start;
        loop {
            match state.get(joint).copied() {
                Some(State::Unplaced) => {}
                Some(State::OnWalk) => {
                    return Err(SkeletonError::Cycle {
                        joint,
                        name: name_of(names, joint),
                    })
                }
                Some(State::Placed) | None => break,
            }
            if let Some(entry) = state.get_mut(joint) {
                *entry = State::OnWalk;
            }
            walk.push(joint);
            match parents.get(joint).copied().flatten() {
                Some(parent) => joint = parent as usize,
                None => break,
            }
        }
        while let Some(joint) = walk.pop() {
            if let Some(entry) = state.get_mut(joint) {
                *entry = State::Placed;
            }
            // The caller checked that the joint count fits in u32.
            order.push(joint as u32);
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skeleton(parents: &[Option<usize>]) -> Result<Skeleton, SkeletonError> {
        let joints = parents
            .iter()
            .enumerate()
            .map(|(index, &parent)| rig::Joint {
                name: format!("J{index}"),
                parent,
                rest: rig::Transform::IDENTITY,
            })
            .collect();
        Skeleton::new(&rig::Skeleton {
            joints,
            axes: rig::Axes::RightHandedYUp,
        })
    }

    #[test]
    fn topological_file_order_is_kept_as_evaluation_order() {
        let skeleton = skeleton(&[None, Some(0), Some(1), Some(1)]).unwrap();
        assert_eq!(skeleton.parents(), &[None, Some(0), Some(1), Some(1)]);
        assert_eq!(skeleton.evaluation_order(), &[0, 1, 2, 3]);
        assert_eq!(skeleton.depths(), vec![1, 2, 3, 3]);
    }

    #[test]
    fn children_before_parents_get_an_evaluation_order_parents_first() {
        // File order: hand, arm, root; the hand's parent is the arm, the arm's the root.
        let skeleton = skeleton(&[Some(1), Some(2), None]).unwrap();
        assert_eq!(skeleton.evaluation_order(), &[2, 1, 0]);
        assert_eq!(skeleton.depths(), vec![3, 2, 1]);
    }

    #[test]
    fn cycles_are_errors() {
        let error = skeleton(&[None, Some(2), Some(1)]).unwrap_err();
        assert!(
            matches!(error, SkeletonError::Cycle { joint: 1, .. }),
            "{error:?}"
        );
        // 1 -> 2 -> 3 -> 1 is a cycle; 4 hangs off it.
        let error = skeleton(&[None, Some(2), Some(3), Some(1), Some(3)]).unwrap_err();
        assert!(matches!(error, SkeletonError::Cycle { .. }), "{error:?}");
    }

    #[test]
    fn self_parent_is_an_error() {
        let error = skeleton(&[None, Some(1)]).unwrap_err();
        assert_eq!(error.to_string(), r#"joint 1 ("J1") is its own parent"#);
    }

    #[test]
    fn parent_index_out_of_range_is_an_error() {
        let error = skeleton(&[None, Some(7)]).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"joint 1 ("J1") has parent index 7, but the skeleton has only 2 joints"#
        );
    }

    #[test]
    fn any_number_of_roots_is_a_skeleton() {
        assert!(skeleton(&[]).unwrap().is_empty());
        assert_eq!(
            skeleton(&[None, None, Some(0)]).unwrap().depths(),
            vec![1, 1, 2]
        );
    }

    #[test]
    fn matrices_become_affine_transforms() {
        let matrix = rig::Transform::Matrix([
            [2.0, 0.0, 0.0, 0.0],
            [0.0, 2.0, 0.0, 0.0],
            [0.0, 0.0, 2.0, 0.0],
            [1.0, 2.0, 3.0, 1.0],
        ]);
        assert_eq!(
            affine(&matrix).transform_point3(Vec3::X),
            Vec3::new(3.0, 2.0, 3.0)
        );
    }

    #[test]
    fn joints_are_found_by_name_exactly_first_then_ignoring_case() {
        let mut rig = rig::Skeleton {
            joints: ["lThigh", "LTHIGH", "lthigh"]
                .iter()
                .map(|name| rig::Joint {
                    name: (*name).to_owned(),
                    parent: None,
                    rest: rig::Transform::IDENTITY,
                })
                .collect(),
            axes: rig::Axes::RightHandedYUp,
        };
        let skeleton = Skeleton::new(&rig).unwrap();
        assert_eq!(skeleton.find("lthigh"), Some(2));
        assert_eq!(skeleton.find("LThigh"), Some(0));
        assert_eq!(skeleton.find("lshin"), None);
        rig.joints.truncate(1);
        assert_eq!(Skeleton::new(&rig).unwrap().find("lthigh"), Some(0));
    }
}
