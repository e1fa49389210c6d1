//! Sims suits as neutral skins. A suit names each skin without an
//! extension; the skin is the `.skn`, else the `.bmf`, else the 1998
//! prototype's `.msh` of that name beside the suit, found without regard
//! to case as the game's file system did. A `.skn` or `.bmf` names its own
//! bones, so the bone the suit binds it to adds nothing to posing; a
//! `.msh` names none, and every vertex of it moves with the suit's bone.

use super::bmf::Bmf;
use super::cmx::{Skin, Suit};
use super::msh::Msh;
use super::skn::Skn;
use crate::files::{Files, FindError, FoundFile};
use crate::rig::{self, RigError};
use crate::schema::BinarySchema;

/// Every skin the suit names, in its order.
pub fn skins(suit: &Suit, files: &Files) -> Result<Vec<rig::Skin>, RigError> {
    suit.skins
        .iter()
        .map(|skin| find_skin(suit, skin, files))
        .collect()
}

/// The file of a suit's skin: its `.skn`, `.bmf` or `.msh`, in that order.
pub(crate) fn find_mesh(suit: &Suit, skin: &Skin, files: &Files) -> Result<FoundFile, FindError> {
    let name = skin.name.to_text();
    files.find(
        &format!("the skin {name:?} of suit {:?}", suit.name.to_text()),
        &[
            format!("{name}.skn"),
            format!("{name}.bmf"),
            format!("{name}.msh"),
        ],
    )
}

fn find_skin(suit: &Suit, skin: &Skin, files: &Files) -> Result<rig::Skin, RigError> {
    let name = skin.name.to_text();
    let found = find_mesh(suit, skin, files)?;
    let referenced = |source| RigError::Referenced {
        path: found.path.clone(),
        source: Box::new(source),
    };
    let extension = found
        .path
        .extension()
        .map(|extension| extension.to_ascii_lowercase());
    if extension
        .as_ref()
        .is_some_and(|extension| extension == "msh")
    {
        return Msh::from_bytes(&found.bytes)
            .and_then(|msh| msh.skin(&name, &skin.bone.to_text()))
            .map_err(referenced);
    }
    let decoded = if extension.is_some_and(|extension| extension == "bmf") {
        Bmf::from_bytes(&found.bytes).map(|bmf| bmf.to_skn())
    } else {
        Skn::from_text(&found.bytes)
    };
    let skn = decoded.map_err(referenced)?;
    skn.skin()
        .map_err(|error| RigError::Invalid(format!("{}: {error}", found.path.display())))
}
