//! The Sims Online's file ids: how its appearances, bindings, meshes and
//! textures name each other.
//!
//! A file's name ends in its file id and type id as 16 hexadecimal digits
//! before the extension (`FSO-Accessory-CapeBlack.883209d300000009.mesh`:
//! file id 0x883209d3, type id 9), as FreeSO's content folders keep them.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::skel::Skeleton;
use crate::files::{Files, FindError, FoundFile};
use crate::rig::{self, Rig, RigError, RigOptions};
use crate::schema::BinarySchema;
use crate::Schema;

/// A file's file id and type id, as a reference stores them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct FileId {
    /// The file id: the first eight digits of the name's id.
    pub file: u32,
    /// The type id (9 a mesh, 11 a binding, 20 a texture in FreeSO's
    /// files): the last eight digits.
    pub kind: u32,
}

impl fmt::Display for FileId {
    /// The 16 digits that end the name of the file with this id.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{:08x}{:08x}", self.file, self.kind)
    }
}

/// The folders, beside a file's own, where FreeSO keeps each kind of file.
const SIBLINGS: [&str; 5] = [
    "Appearances",
    "Bindings",
    "Meshes",
    "Textures",
    "Animations",
];

/// The file `<anything>.<id>.<extension>` beside the files or in a sibling
/// folder; `what` names it in the error.
pub fn find(
    files: &Files,
    what: &str,
    id: FileId,
    extension: &str,
) -> Result<FoundFile, FindError> {
    let ending = format!(".{id}.{extension}");
    files
        .find_matching(
            &format!("the {what} {id}"),
            &SIBLINGS,
            &format!("*{ending}"),
            &|name| name.ends_with(&ending),
        )
        .map(|(found, _)| found)
}

/// The name, relative to the referring file's folder as [`Files::find`]
/// takes it, of the file `<anything>.<id>.<any extension>`.
pub fn find_name(files: &Files, what: &str, id: FileId) -> Result<String, FindError> {
    let infix = format!(".{id}.");
    files
        .find_matching(
            &format!("the {what} {id}"),
            &SIBLINGS,
            &format!("*{infix}*"),
            &|name| name.contains(&infix),
        )
        .map(|(_, name)| name)
}

/// The skeleton a character's files are posed on when none is named: the
/// first `.skel` (in name order, without regard to case) beside the files
/// or in a `Skeletons` folder beside their folder. `None` when there is
/// none, so that a skeleton named elsewhere (`--skeleton`, another input)
/// is used instead.
pub fn skeleton_beside(
    files: &Files,
    options: RigOptions,
) -> Option<Result<rig::Skeleton, RigError>> {
    let found = files.find_matching("a skeleton (.skel)", &["Skeletons"], "*.skel", &|name| {
        name.ends_with(".skel")
    });
    let found = match found {
        Ok((found, _)) => found,
        Err(FindError::Missing { .. }) => return None,
        Err(other) => return Some(Err(other.into())),
    };
    let skeleton = match Skeleton::from_bytes(&found.bytes) {
        Ok(skeleton) => skeleton,
        Err(source) => {
            return Some(Err(RigError::Referenced {
                path: found.path,
                source: Box::new(source),
            }))
        }
    };
    skeleton.skeleton(&files.beside_found(&found), options)
}
