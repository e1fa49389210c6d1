//! Adapters from decoded files (`formats` types) to the posing core: each
//! family's own conventions are applied here, once.

mod sims;

use std::any::Any;

use thiserror::Error;

use crate::skeleton::{Skeleton, SkeletonError};

/// Which way a format's axes turn. Posing works in the file's own axes;
/// only export and drawing convert.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handedness {
    /// The Sims, SWG (DirectX style): mirrored in x to become right-handed.
    Left,
    Right,
}

/// A skeleton from a file, ready to pose, and its file's handedness.
#[derive(Debug, Clone, PartialEq)]
pub struct FileSkeleton {
    pub skeleton: Skeleton,
    pub handedness: Handedness,
}

#[derive(Debug, Error)]
pub enum AdaptError {
    #[error(transparent)]
    Skeleton(#[from] SkeletonError),
}

/// The skeleton a decoded file describes, or `None` if its format has none.
pub fn skeleton_of(document: &dyn Any) -> Option<Result<FileSkeleton, AdaptError>> {
    if let Some(skel) = document.downcast_ref::<formats::sims::skel::Skeleton>() {
        return Some(sims::tso_skeleton(skel));
    }
    None
}
