//! What a Sims character read from glTF comes back as: the files
//! [`super::sims`] makes of it, which [`super::sims_original`] then replaces
//! with the carried originals where nothing was edited.

use formats::sims::cmx::Cmx;
use formats::sims::skn::Skn;

/// A Sims character read from glTF.
#[derive(Debug, Default)]
pub struct SimsCharacter {
    /// One per skinned mesh, in the asset's mesh node order.
    pub skins: Vec<Skn>,
    /// Suit files by file name without extension (`<suit>`), each holding
    /// one suit.
    pub suits: Vec<(String, Cmx)>,
    /// One animation file per glTF animation, with its keys.
    pub skills: Vec<SkillFile>,
    /// 8-bit BMPs by file name (`<texture>.bmp`).
    pub textures: Vec<(String, Vec<u8>)>,
    /// What was changed to fit the game, one sentence each.
    pub warnings: Vec<String>,
}

/// A skill read from a glTF animation, with its keys as a `.cfp`.
#[derive(Debug)]
pub struct SkillFile {
    /// The file name without extension: `adult-<name>` (`child-...`) for a
    /// skill `a2o-<name>`, as the released game names its animation files.
    pub stem: String,
    /// `None` when the skill is written in a character file holding more
    /// (see [`super::sims_original`]).
    pub cmx: Option<Cmx>,
    /// The `.cfp` file name and bytes.
    pub stream: (String, Vec<u8>),
}
