//! What a format's files can hold for posing, learnt from the format's own
//! samples, so that a format module brings no extra registration for it.

use formats::files::Files;
use formats::format::Format;
use formats::rig::RigOptions;

/// What some file of a format holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// A skeleton to pose (`joints`, and posing meshes).
    pub skeleton: bool,
    /// Meshes to deform (`skin`).
    pub meshes: bool,
    /// Animations (`--anim`).
    pub animations: bool,
}

impl Capabilities {
    /// What the format's samples hold. A sample that names files it cannot
    /// find here still shows what kind of data the format carries.
    pub fn of(format: &Format) -> Capabilities {
        let files = Files::nowhere();
        let options = RigOptions::default();
        let mut found = Capabilities::default();
        for sample in (format.samples)() {
            let rig = sample.document.rig();
            found.skeleton |= rig.skeleton(&files, options).is_some();
            found.meshes |= rig.skins(&files, options).is_some();
            found.animations |= rig.animations(&files).is_some();
        }
        found
    }

    /// `render` draws a skeleton, or meshes posed by another file's skeleton.
    pub fn renders(self) -> bool {
        self.skeleton || self.meshes
    }
}

/// What a person calls a file of the format, with an article: "a Sims
/// skin" for "The Sims skin", "an Outcast skeleton".
pub fn kind_of_file(format: &Format) -> String {
    let title = format.title.strip_prefix("The ").unwrap_or(format.title);
    let starts_with_vowel = title
        .chars()
        .next()
        .is_some_and(|first| "AEIOUaeiou".contains(first));
    let article = if starts_with_vowel { "an" } else { "a" };
    format!("{article} {title}")
}
