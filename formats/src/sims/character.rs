//! A `.cmx` as the rig sees it: its first skeleton, the skins its suits
//! name and its skills' animations, each found beside the file. (A `.bcf`
//! takes the same path through the `.cmx` it converts to.)

use super::bones::{self, SimsBone};
use super::cmx::Cmx;
use super::{skill, suit};
use crate::files::Files;
use crate::rig::{self, NamedAnimation, Rig, RigError, RigOptions};

impl Rig for Cmx {
    /// The first skeleton, when the file has one.
    fn skeleton(&self, _: &Files, options: RigOptions) -> Option<Result<rig::Skeleton, RigError>> {
        let skeleton = self.skeletons.first()?;
        Some(options.single_level().and_then(|()| {
            bones::skeleton(skeleton.bones.iter().map(|bone| SimsBone {
                name: &bone.name,
                parent: &bone.parent,
                translation: bone.translation,
                rotation: bone.rotation,
            }))
        }))
    }

    /// Every skin of every suit, found beside the file; `None` without suits.
    fn skins(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<Vec<rig::Skin>, RigError>> {
        if self.suits.is_empty() {
            return None;
        }
        Some(options.single_level().and_then(|()| {
            let skins = self.suits.iter().map(|suit| suit::skins(suit, files));
            skins
                .collect::<Result<Vec<_>, _>>()
                .map(|skins| skins.concat())
        }))
    }

    /// Every skill, with its keys from the `.cfp` (or `.bin`) beside the
    /// file; `None` without skills.
    fn animations(&self, files: &Files) -> Option<Result<Vec<rig::Animation>, RigError>> {
        let named = self.named_animations(files)?;
        Some(named.into_iter().map(|named| named.animation).collect())
    }

    /// Each skill with its own keys: one whose keys are missing leaves the
    /// others.
    fn named_animations(&self, files: &Files) -> Option<Vec<NamedAnimation>> {
        if self.skills.is_empty() {
            return None;
        }
        Some(
            self.skills
                .iter()
                .map(|skill| NamedAnimation {
                    name: skill.name.to_text(),
                    animation: skill::animation(skill, files),
                })
                .collect(),
        )
    }
}
