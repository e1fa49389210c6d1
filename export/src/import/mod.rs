//! Into the games' own files: glTF back into each family's formats, and
//! what the conversion of the Sims 1998 prototype writes beside its
//! character files.

pub mod bmp;
pub mod carried;
mod document;
mod mesh;
pub mod sims;
pub mod sims_files;
pub mod sims_original;
pub mod swg;
pub mod swg_original;

pub use document::Asset;

/// Why a glTF asset cannot become the game's files. Each names the part of
/// the asset at fault.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("not a glTF asset that can be read: {0}")]
    Gltf(String),
    #[error("buffer {index}: {problem}")]
    Buffer { index: usize, problem: String },
    #[error("accessor {index}: {problem}")]
    Accessor { index: usize, problem: String },
    #[error("image {index}: {problem}")]
    Image { index: usize, problem: String },
    #[error("mesh {mesh:?}: {problem}")]
    Mesh { mesh: String, problem: String },
    #[error("the skeleton has no joint {0:?}, which the glTF's skin names")]
    UnknownJoint(String),
    #[error("the glTF's skin names the joint {0:?} twice")]
    JointTwice(String),
    #[error(
        "the glTF's skin lists the joint {0:?} before its parent; a skeleton lists parents first"
    )]
    ParentAfter(String),
    #[error("the asset has neither a mesh nor an animation")]
    NoMeshes,
    #[error("animation {animation:?}: {problem}")]
    Animation { animation: String, problem: String },
    #[error("{0}")]
    Name(String),
    #[error("the asset has no skin, so no skeleton")]
    NoSkin,
    #[error("joint {joint:?} is scaled by {scale:?}; a Sims bone has no scale")]
    Scaled { joint: String, scale: [f32; 3] },
}
