//! What a format's files can hold for posing, learnt from the format's own
//! samples, so that a format module brings no extra registration for it.

use crate::files::Files;
use crate::format::{Document, Format};
use crate::rig::RigOptions;

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
        (format.samples)()
            .iter()
            .map(|sample| Capabilities::of_document(sample.document.as_ref()))
            .fold(Capabilities::default(), |found, more| Capabilities {
                skeleton: found.skeleton || more.skeleton,
                meshes: found.meshes || more.meshes,
                animations: found.animations || more.animations,
            })
    }

    /// What one decoded file holds, without reading the files it names.
    pub fn of_document(document: &dyn Document) -> Capabilities {
        let files = Files::nowhere();
        let options = RigOptions::default();
        let rig = document.rig();
        Capabilities {
            skeleton: rig.skeleton(&files, options).is_some(),
            meshes: rig.skins(&files, options).is_some(),
            animations: rig.animations(&files).is_some(),
        }
    }

    /// `render` draws a skeleton, or meshes posed by another file's skeleton.
    pub fn renders(self) -> bool {
        self.skeleton || self.meshes
    }
}
