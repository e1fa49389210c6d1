//! A skeleton: joint names, parents and rest-pose local transforms, validated
//! once at construction so that posing is a single pass with no checks.
//!
//! Joints keep the order of the file they came from. When that order is not
//! topological (a child listed before its parent), the skeleton computes an
//! evaluation order once and posing follows it; results are still indexed in
//! file order.

use std::collections::HashMap;

use glam::Affine3A;
use thiserror::Error;

/// How many root joints (joints without a parent) a skeleton may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootRule {
    /// Exactly one root: formats whose skeleton is a single tree.
    ExactlyOne,
    /// Any number of roots, including none for an empty skeleton.
    Any,
}

/// A joint whose parent is given by its index in the same list.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexedJoint {
    pub name: String,
    /// Index of the parent joint in file order, `None` for a root.
    pub parent: Option<u32>,
    /// Rest pose, relative to the parent (column-vector math).
    pub rest_local: Affine3A,
}

/// A joint whose parent is given by name.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedJoint {
    pub name: String,
    /// Name of the parent joint, `None` for a root.
    pub parent: Option<String>,
    /// Rest pose, relative to the parent (column-vector math).
    pub rest_local: Affine3A,
}

/// Why a list of joints does not form a skeleton.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SkeletonError {
    #[error(
        "joint {joint} ({name:?}) names parent {parent:?}, which is not a joint of this skeleton"
    )]
    UnknownParentName {
        joint: usize,
        name: String,
        parent: String,
    },
    #[error("joint {joint} ({name:?}) names parent {parent:?}, but {count} joints have that name")]
    AmbiguousParentName {
        joint: usize,
        name: String,
        parent: String,
        count: usize,
    },
    #[error("joint {joint} ({name:?}) has parent index {parent}, but the skeleton has only {count} joints")]
    ParentIndexOutOfRange {
        joint: usize,
        name: String,
        parent: u32,
        count: usize,
    },
    #[error("joint {joint} ({name:?}) is its own parent")]
    SelfParent { joint: usize, name: String },
    #[error("joint {joint} ({name:?}) is part of a parent cycle and so has no root")]
    Cycle { joint: usize, name: String },
    #[error("joint {joint} ({name:?}) is a second root (joint {first_root} ({first_root_name:?}) is already one), but this skeleton must have exactly one root")]
    SecondRoot {
        joint: usize,
        name: String,
        first_root: usize,
        first_root_name: String,
    },
    #[error("the skeleton has no joints, but it must have exactly one root")]
    NoRoot,
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
    /// Joint indices, parents before children. Equal to `0..len` when the
    /// file order is already topological.
    evaluation_order: Vec<u32>,
}

impl Skeleton {
    /// Builds a skeleton from joints whose parents are indices in the same list.
    pub fn from_parent_indices(
        joints: Vec<IndexedJoint>,
        roots: RootRule,
    ) -> Result<Skeleton, SkeletonError> {
        let count = joints.len();
        if u32::try_from(count).is_err() {
            return Err(SkeletonError::TooManyJoints { count });
        }
        let mut names = Vec::with_capacity(count);
        let mut parents = Vec::with_capacity(count);
        let mut rest_locals = Vec::with_capacity(count);
        for joint in joints {
            names.push(joint.name);
            parents.push(joint.parent);
            rest_locals.push(joint.rest_local);
        }
        for (joint, parent) in parents.iter().enumerate() {
            let Some(parent) = *parent else { continue };
            if parent as usize >= count {
                return Err(SkeletonError::ParentIndexOutOfRange {
                    joint,
                    name: name_of(&names, joint),
                    parent,
                    count,
                });
            }
            if parent as usize == joint {
                return Err(SkeletonError::SelfParent {
                    joint,
                    name: name_of(&names, joint),
                });
            }
        }
        let evaluation_order = evaluation_order(&names, &parents)?;
        check_roots(&names, &parents, roots)?;
        Ok(Skeleton {
            names,
            parents,
            rest_locals,
            evaluation_order,
        })
    }

    /// Builds a skeleton from joints whose parents are given by name.
    ///
    /// Duplicate joint names are accepted unless some joint names one of them
    /// as its parent, which would be ambiguous.
    pub fn from_named_parents(
        joints: Vec<NamedJoint>,
        roots: RootRule,
    ) -> Result<Skeleton, SkeletonError> {
        // Every index a name stands for, to resolve parents and catch ambiguity.
        let mut indices_by_name: HashMap<&str, Vec<u32>> = HashMap::new();
        for (index, joint) in joints.iter().enumerate() {
            let Ok(index) = u32::try_from(index) else {
                return Err(SkeletonError::TooManyJoints {
                    count: joints.len(),
                });
            };
            indices_by_name
                .entry(joint.name.as_str())
                .or_default()
                .push(index);
        }
        let mut parents = Vec::with_capacity(joints.len());
        for (joint, entry) in joints.iter().enumerate() {
            let Some(parent_name) = &entry.parent else {
                parents.push(None);
                continue;
            };
            match indices_by_name.get(parent_name.as_str()).map(Vec::as_slice) {
                Some([parent]) => parents.push(Some(*parent)),
                Some(candidates) if !candidates.is_empty() => {
                    return Err(SkeletonError::AmbiguousParentName {
                        joint,
                        name: entry.name.clone(),
                        parent: parent_name.clone(),
                        count: candidates.len(),
                    })
                }
                _ => {
                    return Err(SkeletonError::UnknownParentName {
                        joint,
                        name: entry.name.clone(),
                        parent: parent_name.clone(),
                    })
                }
            }
        }
        let indexed = joints
            .into_iter()
            .zip(parents)
            .map(|(joint, parent)| IndexedJoint {
                name: joint.name,
                parent,
                rest_local: joint.rest_local,
            })
            .collect();
        Skeleton::from_parent_indices(indexed, roots)
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

    /// Joint indices with every parent before its children.
    pub fn evaluation_order(&self) -> &[u32] {
        &self.evaluation_order
    }

    /// Index of the first joint with this name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|candidate| candidate == name)
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

fn check_roots(
    names: &[String],
    parents: &[Option<u32>],
    rule: RootRule,
) -> Result<(), SkeletonError> {
    if rule == RootRule::Any {
        return Ok(());
    }
    let mut roots = parents
        .iter()
        .enumerate()
        .filter(|(_, parent)| parent.is_none())
        .map(|(joint, _)| joint);
    // A non-empty skeleton without a root has a cycle, reported before this.
    let Some(first_root) = roots.next() else {
        return Err(SkeletonError::NoRoot);
    };
    match roots.next() {
        Some(second_root) => Err(SkeletonError::SecondRoot {
            joint: second_root,
            name: name_of(names, second_root),
            first_root,
            first_root_name: name_of(names, first_root),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str, parent: Option<&str>) -> NamedJoint {
        NamedJoint {
            name: name.to_owned(),
            parent: parent.map(str::to_owned),
            rest_local: Affine3A::IDENTITY,
        }
    }

    fn indexed(name: &str, parent: Option<u32>) -> IndexedJoint {
        IndexedJoint {
            name: name.to_owned(),
            parent,
            rest_local: Affine3A::IDENTITY,
        }
    }

    #[test]
    fn topological_file_order_is_kept_as_evaluation_order() {
        let skeleton = Skeleton::from_named_parents(
            vec![
                named("ROOT", None),
                named("PELVIS", Some("ROOT")),
                named("L_LEG", Some("PELVIS")),
                named("R_LEG", Some("PELVIS")),
            ],
            RootRule::ExactlyOne,
        )
        .unwrap();
        assert_eq!(skeleton.parents(), &[None, Some(0), Some(1), Some(1)]);
        assert_eq!(skeleton.evaluation_order(), &[0, 1, 2, 3]);
    }

    #[test]
    fn children_before_parents_get_an_evaluation_order_parents_first() {
        // File order: hand, arm, root; the hand's parent is the arm, the arm's the root.
        let skeleton = Skeleton::from_named_parents(
            vec![
                named("HAND", Some("ARM")),
                named("ARM", Some("ROOT")),
                named("ROOT", None),
            ],
            RootRule::ExactlyOne,
        )
        .unwrap();
        assert_eq!(skeleton.names(), &["HAND", "ARM", "ROOT"]);
        assert_eq!(skeleton.parents(), &[Some(1), Some(2), None]);
        assert_eq!(skeleton.evaluation_order(), &[2, 1, 0]);
    }

    #[test]
    fn unknown_parent_name_is_an_error_naming_the_joint() {
        let error = Skeleton::from_named_parents(
            vec![named("ROOT", None), named("NECK", Some("SPINE9"))],
            RootRule::ExactlyOne,
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"joint 1 ("NECK") names parent "SPINE9", which is not a joint of this skeleton"#
        );
    }

    #[test]
    fn cycle_is_an_error() {
        let error = Skeleton::from_named_parents(
            vec![
                named("ROOT", None),
                named("A", Some("B")),
                named("B", Some("A")),
            ],
            RootRule::ExactlyOne,
        )
        .unwrap_err();
        assert!(
            matches!(error, SkeletonError::Cycle { joint: 1, .. }),
            "{error:?}"
        );
    }

    #[test]
    fn self_parent_is_an_error() {
        let error = Skeleton::from_named_parents(
            vec![named("ROOT", None), named("A", Some("A"))],
            RootRule::Any,
        )
        .unwrap_err();
        assert_eq!(error.to_string(), r#"joint 1 ("A") is its own parent"#);
    }

    #[test]
    fn two_roots_are_an_error_only_when_one_root_is_required() {
        let joints = vec![named("ROOT", None), named("PROP", None)];
        let error = Skeleton::from_named_parents(joints.clone(), RootRule::ExactlyOne).unwrap_err();
        assert!(
            matches!(
                error,
                SkeletonError::SecondRoot {
                    joint: 1,
                    first_root: 0,
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(Skeleton::from_named_parents(joints, RootRule::Any).is_ok());
    }

    #[test]
    fn empty_skeleton_has_no_root() {
        assert_eq!(
            Skeleton::from_parent_indices(Vec::new(), RootRule::ExactlyOne),
            Err(SkeletonError::NoRoot)
        );
        assert!(Skeleton::from_parent_indices(Vec::new(), RootRule::Any).is_ok());
    }

    #[test]
    fn duplicate_names_are_an_error_only_when_used_as_a_parent() {
        let unused_duplicate = vec![
            named("ROOT", None),
            named("FX", Some("ROOT")),
            named("FX", Some("ROOT")),
        ];
        assert!(Skeleton::from_named_parents(unused_duplicate, RootRule::ExactlyOne).is_ok());

        let used_duplicate = vec![
            named("ROOT", None),
            named("FX", Some("ROOT")),
            named("FX", Some("ROOT")),
            named("SPARK", Some("FX")),
        ];
        let error = Skeleton::from_named_parents(used_duplicate, RootRule::ExactlyOne).unwrap_err();
        assert!(
            matches!(
                error,
                SkeletonError::AmbiguousParentName {
                    joint: 3,
                    count: 2,
                    ..
                }
            ),
            "{error:?}"
        );
    }

    #[test]
    fn parent_index_out_of_range_is_an_error() {
        let error = Skeleton::from_parent_indices(
            vec![indexed("ROOT", None), indexed("A", Some(7))],
            RootRule::ExactlyOne,
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"joint 1 ("A") has parent index 7, but the skeleton has only 2 joints"#
        );
    }

    #[test]
    fn long_cycle_with_a_tail_is_found() {
        // 0 is the root; 1 -> 2 -> 3 -> 1 is a cycle; 4 hangs off the cycle.
        let error = Skeleton::from_parent_indices(
            vec![
                indexed("ROOT", None),
                indexed("A", Some(2)),
                indexed("B", Some(3)),
                indexed("C", Some(1)),
                indexed("TAIL", Some(3)),
            ],
            RootRule::Any,
        )
        .unwrap_err();
        assert!(matches!(error, SkeletonError::Cycle { .. }), "{error:?}");
    }
}
