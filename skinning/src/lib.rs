//! Posing skeletons, evaluating animations and deforming skins, for any
//! format: the input is the neutral rig data `formats::rig` defines, and
//! nothing here knows a file format. The jobs follow ozz-animation's style:
//! inputs are validated once when bound, then posed with plain loops.

pub mod animation;
pub mod axes;
mod groups;
mod lanes;
pub mod pose;
mod pulls;
pub mod skeleton;
pub mod skin;
mod wide;

pub use animation::{Clip, ClipError};
pub use pose::{
    joint_states, literal_pivots_to_model, local_to_model, model_matrices, Composition, JobError,
    JointState, Pose,
};
pub use skeleton::{Skeleton, SkeletonError};
pub use skin::{BlendRule, BoundSkin, Deformer, PosedSkin, SkinError, WeightedNormals};
