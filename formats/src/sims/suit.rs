//! Sims suits as neutral skins. A suit names each skin without an
//! extension; the skin is the `.skn` (or, failing that, the `.bmf`) of that
//! name beside the suit, found without regard to case as the game's file
//! system did. The bone a suit binds a skin to is the one the skin's own
//! bindings name, so it adds nothing to posing.

use super::bmf::Bmf;
use super::cmx::{Skin, Suit};
use super::skn::Skn;
use crate::files::Files;
use crate::rig::{self, RigError};
use crate::schema::BinarySchema;

/// Every skin the suit names, in its order.
pub fn skins(suit: &Suit, files: &Files) -> Result<Vec<rig::Skin>, RigError> {
    suit.skins
        .iter()
        .map(|skin| find_skin(suit, skin, files))
        .collect()
}

fn find_skin(suit: &Suit, skin: &Skin, files: &Files) -> Result<rig::Skin, RigError> {
    let name = skin.name.to_text();
    let found = files.find(
        &format!("the skin {name:?} of suit {:?}", suit.name.to_text()),
        &[format!("{name}.skn"), format!("{name}.bmf")],
    )?;
    let is_bmf = found
        .path
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("bmf"));
    let decoded = if is_bmf {
        Bmf::from_bytes(&found.bytes).map(|bmf| Skn::from(&bmf))
    } else {
        Skn::from_text(&found.bytes)
    };
    let skn = decoded.map_err(|source| RigError::Referenced {
        path: found.path.clone(),
        source: Box::new(source),
    })?;
    skn.skin()
        .map_err(|error| RigError::Invalid(format!("{}: {error}", found.path.display())))
}
