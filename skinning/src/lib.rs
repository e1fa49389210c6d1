//! Posing skeletons, deforming skins and drawing the result, independent of
//! any file format: adapters from `formats` types build these inputs.

pub mod adapt;
pub mod handedness;
pub mod pose;
pub mod render;
pub mod sims;
pub mod skeleton;

pub use pose::{
    joint_states, local_to_model, model_matrices, JobError, JointState, Pose, Transform,
};
pub use skeleton::{IndexedJoint, NamedJoint, RootRule, Skeleton, SkeletonError};
