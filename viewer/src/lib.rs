//! `ossuary view`: a web page on the loopback address listing the
//! characters, animations and meshes under some paths and showing the
//! chosen one in 3D.
//!
//! The server ([`server`]) reads only files under the paths given
//! ([`roots`]) and lists them lazily ([`listing`]); it makes the glTF
//! asset with the same code as `convert` ([`export::character`]), the
//! facts with the same code as `info`, and an object file's pictures and
//! meshes with the same code as `sprites` and `convert` ([`objects`]), so
//! the page shows what the command line would. The page itself ([`web`]) is plain
//! ES modules and three.js, embedded in the binary.

pub mod cache;
pub mod explorer;
pub mod http;
pub mod listing;
mod made;
pub mod messages;
pub mod objects;
pub mod roots;
pub mod server;
pub mod web;

use std::path::{Path, PathBuf};

use export::assembly::Dressing;
pub use export::shader::{Chooses, Variable};
use serde::Serialize;

/// What the server asks of the files: [`made::Exported`], or a stand-in
/// in the server's tests.
pub(crate) trait Assets: Send + Sync {
    /// The `.glb` of a character, as `convert` makes it.
    fn gltf(&self, request: &GltfRequest) -> Result<Made, Refused>;
    /// What `info` says of `open`, its levels of detail and the blend
    /// targets of its meshes at level `lod`, and the animations of `anim`
    /// (of `open` when there is none), with the customization variables
    /// of the meshes of `open` and `meshes`.
    fn info(
        &self,
        open: &Path,
        meshes: &[PathBuf],
        anim: Option<&Path>,
        lod: usize,
    ) -> Result<Info, Refused>;
    /// The customization variables of the meshes of `open` and `meshes` at
    /// level `lod`, as [`Info::variables`] gives them.
    fn variables(
        &self,
        open: &Path,
        meshes: &[PathBuf],
        lod: usize,
    ) -> Result<Vec<Variable>, Refused>;
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
    /// The value chosen for customization variables, by name: each a
    /// variable of the meshes, within its choices.
    pub customization: Vec<(String, u32)>,
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
    /// The customization variables of the meshes (a Star Wars Galaxies
    /// character's skin colour, markings, head-tail pattern), each once.
    pub variables: Vec<Variable>,
}

/// Why a customization asked for cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CustomizationError {
    #[error("`{0}` is not NAME:INDEX (a variable's name and a whole number)")]
    Syntax(String),
    #[error("`{name}` is chosen twice")]
    Twice { name: String },
    #[error("the character has no customization variable `{name}`{}", listed(.known))]
    Unknown { name: String, known: Vec<String> },
    #[error("`{name}` takes a value from 0 to {last}, not {value}")]
    OutOfRange { name: String, value: u32, last: u32 },
}

fn listed(names: &[String]) -> String {
    match names {
        [] => String::new(),
        names => format!(" (it has {})", names.join(", ")),
    }
}

/// A `custom=NAME:INDEX` value, read.
pub fn custom_value(text: &str) -> Result<(String, u32), CustomizationError> {
    let syntax = || CustomizationError::Syntax(text.to_owned());
    let (name, index) = text.rsplit_once(':').ok_or_else(syntax)?;
    if name.is_empty() {
        return Err(syntax());
    }
    let index = index.parse::<u32>().map_err(|_| syntax())?;
    Ok((name.to_owned(), index))
}

/// Checks that each chosen value names one of `variables` (once) and lies
/// within its choices.
pub fn check_customization(
    chosen: &[(String, u32)],
    variables: &[Variable],
) -> Result<(), CustomizationError> {
    for (at, (name, value)) in chosen.iter().enumerate() {
        if chosen.iter().take(at).any(|(before, _)| before == name) {
            return Err(CustomizationError::Twice { name: name.clone() });
        }
        let variable = variables
            .iter()
            .find(|variable| variable.name == *name)
            .ok_or_else(|| CustomizationError::Unknown {
                name: name.clone(),
                known: variables.iter().map(|one| one.name.clone()).collect(),
            })?;
        if *value >= variable.choices {
            return Err(CustomizationError::OutOfRange {
                name: name.clone(),
                value: *value,
                last: variable.choices.saturating_sub(1),
            });
        }
    }
    Ok(())
}

/// An animation: its name and each frame's time, frame 0 first, as the
/// command line counts frames; or why its data is missing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skill {
    pub name: String,
    pub times: Vec<f32>,
    pub problem: Option<String>,
}
