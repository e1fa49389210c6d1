//! Into the games' own files: glTF back into each family's formats, and
//! what the conversion of the Sims 1998 prototype writes beside its
//! character files.

pub mod bmp;
pub mod carried;
mod document;
mod mesh;
mod registration;
pub mod rest;
mod seams;
pub mod sims;
pub mod sims_files;
pub mod sims_original;
mod sims_skill;
pub mod swg;
pub mod swg_original;
mod swg_seams;

pub use document::{read_beside, Asset};

/// Why a glTF asset cannot become the game's files. Each names the part of
/// the asset at fault, quoting at most 60 characters of a name from it.
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
    #[error("mesh {}: {problem}", quoted(.mesh))]
    Mesh { mesh: String, problem: String },
    #[error("node {}: {problem}", quoted(.node))]
    Node { node: String, problem: String },
    #[error("the skeleton has no joint {}, which the glTF's skin names", quoted(.0))]
    UnknownJoint(String),
    #[error("the glTF's skin names the joint {} twice", quoted(.0))]
    JointTwice(String),
    #[error(
        "the glTF's skin lists the joint {} before its parent; a skeleton lists parents first",
        quoted(.0)
    )]
    ParentAfter(String),
    #[error("the asset has neither a mesh nor an animation")]
    NoMeshes,
    #[error("animation {}: {problem}", quoted(.animation))]
    Animation { animation: String, problem: String },
    #[error("{0}")]
    Name(String),
    #[error("the asset has no skin, so no skeleton")]
    NoSkin,
    #[error("joint {} is scaled by {scale:?}; {game}", quoted(.joint))]
    Scaled {
        joint: String,
        scale: [f32; 3],
        /// What the game's joints cannot hold: "a Sims bone has no scale".
        game: &'static str,
    },
}

/// A name from the asset as messages quote it.
fn quoted(name: &str) -> String {
    rest::quoted(name)
}
