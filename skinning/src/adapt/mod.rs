//! Adapters from decoded files (`formats` types) to the posing core: each
//! family's own conventions are applied here, once.

mod sims;
mod swg;

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
    #[error(transparent)]
    Columns(#[from] formats::swg::skt::ColumnMismatch),
    #[error(
        "joint {joint} ({name:?}) has parent index {parent}; only -1 (no parent) may be negative"
    )]
    NegativeParent {
        joint: usize,
        name: String,
        parent: i32,
    },
    #[error("the file holds no skeleton")]
    NoSkeleton,
    #[error("the mesh is bound to bone {0:?}, which the skeleton does not have")]
    MissingBone(String),
    #[error("face {face} uses vertex {vertex}, but the mesh has only {count} real vertices")]
    FaceOutOfRange {
        face: usize,
        vertex: i32,
        count: usize,
    },
    #[error(transparent)]
    Skin(#[from] crate::sims::SkinError),
    #[error(transparent)]
    Pose(#[from] crate::pose::JobError),
}

/// The skeleton a decoded file describes, or `None` if its format has none.
pub fn skeleton_of(document: &dyn Any) -> Option<Result<FileSkeleton, AdaptError>> {
    if let Some(skel) = document.downcast_ref::<formats::sims::skel::Skeleton>() {
        return Some(sims::tso_skeleton(skel));
    }
    if let Some(cmx) = document.downcast_ref::<formats::sims::cmx::Cmx>() {
        return Some(sims::cmx_skeleton(cmx));
    }
    if let Some(bcf) = document.downcast_ref::<formats::sims::bcf::Bcf>() {
        return Some(sims::cmx_skeleton(&formats::sims::cmx::Cmx::from(bcf)));
    }
    if let Some(skt) = document.downcast_ref::<formats::swg::skt::Skeleton>() {
        return Some(swg::swg_skeleton(skt));
    }
    None
}

/// A mesh posed in model space, in the file's own axes.
#[derive(Debug, Clone, PartialEq)]
pub struct PosedMesh {
    /// One per real vertex, in file order.
    pub positions: Vec<glam::Vec3>,
    pub normals: Vec<glam::Vec3>,
    pub uvs: Vec<[f32; 2]>,
    /// Indices into the vertex lists, as in the file.
    pub faces: Vec<[u32; 3]>,
}

/// Deforms the mesh a decoded file describes with the skeleton at rest, or
/// `None` if the file is not a mesh.
pub fn posed_mesh(
    document: &dyn Any,
    skeleton: &FileSkeleton,
) -> Option<Result<PosedMesh, AdaptError>> {
    if let Some(skn) = document.downcast_ref::<formats::sims::skn::Skn>() {
        return Some(sims::posed_skin(skn, &skeleton.skeleton));
    }
    if let Some(bmf) = document.downcast_ref::<formats::sims::bmf::Bmf>() {
        return Some(sims::posed_skin(
            &formats::sims::skn::Skn::from(bmf),
            &skeleton.skeleton,
        ));
    }
    None
}
