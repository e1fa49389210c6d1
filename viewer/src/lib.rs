//! `ossuary view`: a web page on the loopback address listing the
//! characters, animations and meshes under some paths and showing the
//! chosen one in 3D.
//!
//! The server ([`server`]) reads only files under the paths given
//! ([`roots`]), lists them lazily ([`listing`]) and asks its [`Assets`]
//! for the rest: the command line makes the glTF asset with the same code
//! as `convert`, and the facts with the same code as `info`, so the page
//! shows what the command line would. The page itself ([`web`]) is plain
//! ES modules and three.js, embedded in the binary.

pub mod cache;
pub mod http;
pub mod listing;
pub mod roots;
pub mod server;
pub mod web;

use std::path::{Path, PathBuf};

use export::assembly::Dressing;
use serde::Serialize;

/// What the server asks of the command line.
pub trait Assets: Send + Sync {
    /// The `.glb` of a character, as `convert` makes it.
    fn gltf(&self, request: &GltfRequest) -> Result<Made, Refused>;
    /// What `info` says of `open`, its levels of detail and the blend
    /// targets of its meshes at level `lod`, and the animations of `anim`
    /// (of `open` when there is none).
    fn info(&self, open: &Path, anim: Option<&Path>, lod: usize) -> Result<Info, Refused>;
}

/// One asset to make: every path is a file under the roots.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GltfRequest {
    pub open: PathBuf,
    pub meshes: Vec<PathBuf>,
    pub anim: Option<PathBuf>,
    pub skill: Option<String>,
    pub lod: usize,
    pub blends: Vec<(String, f32)>,
    /// The skin tone and the images chosen for skins (files under the roots).
    pub dressing: Dressing,
}

/// A made asset and the warnings the command line would print.
#[derive(Debug, Clone, PartialEq)]
pub struct Made {
    pub glb: Vec<u8>,
    pub warnings: Vec<String>,
}

/// Why something could not be made: the command line's sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    pub message: String,
    /// The request asked for something that does not exist (a bad usage),
    /// rather than a file failing to decode.
    pub usage: bool,
}

/// The facts of a file, for the page.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Info {
    /// `info`'s summary, one line each.
    pub facts: Vec<String>,
    /// How many levels of detail (1 when the file has none).
    pub lods: usize,
    /// The meshes' blend targets, by name.
    pub blends: Vec<String>,
    pub skills: Vec<Skill>,
    pub warnings: Vec<String>,
    /// How the skeleton's axes lie (`left-handed-y-up`,
    /// `right-handed-z-up`, `right-handed-y-up`), so that the page can give
    /// joints in the file's own axes; empty without a skeleton.
    pub axes: String,
}

/// An animation: its name and each frame's time, frame 0 first, as the
/// command line counts frames; or why its data is missing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skill {
    pub name: String,
    pub times: Vec<f32>,
    pub problem: Option<String>,
}
