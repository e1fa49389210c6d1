//! Sims bones as a neutral skeleton: the conventions shared by `.skel`,
//! `.cmx` and `.bcf`.
//!
//! - A bone names its parent; `NULL` marks the root.
//! - The stored rotation quaternion `(x, y, z, w)` acts as its conjugate:
//!   local = T(translation) * R(conjugate(q)) in column-vector math. The
//!   games' row-vector code applied the stored quaternion as it is
//!   (`v' = v * R(q)`), which is the same thing; posing the real adult
//!   skeleton this way, and only this way, gives a standing figure.
//! - Axes are y up and left-handed.

use std::collections::HashMap;

use crate::rig::{Axes, Joint, RigError, Skeleton, Transform};
use crate::schema::RawString;

/// The parent name a root bone stores.
const NO_PARENT: &[u8] = b"NULL";

/// A Sims bone's fields as posing needs them.
pub struct SimsBone<'a> {
    pub name: &'a RawString,
    pub parent: &'a RawString,
    pub translation: [f32; 3],
    pub rotation: [f32; 4],
}

/// The bones in file order as a skeleton. A parent name no bone has, or
/// one that several bones have, is an error naming the bone.
pub fn skeleton<'a>(bones: impl IntoIterator<Item = SimsBone<'a>>) -> Result<Skeleton, RigError> {
    let bones: Vec<SimsBone> = bones.into_iter().collect();
    let mut indices: HashMap<&[u8], Vec<usize>> = HashMap::with_capacity(bones.len());
    for (index, bone) in bones.iter().enumerate() {
        indices.entry(bone.name.as_bytes()).or_default().push(index);
    }
    let joints = bones
        .iter()
        .enumerate()
        .map(|(index, bone)| {
            let parent = match bone.parent.as_bytes() {
                NO_PARENT => None,
                name => Some(parent_index(&indices, index, bone, name)?),
            };
            let [x, y, z, w] = bone.rotation;
            Ok(Joint {
                name: bone.name.to_text(),
                parent,
                rest: Transform::TranslationRotation {
                    translation: bone.translation,
                    rotation: [-x, -y, -z, w],
                },
            })
        })
        .collect::<Result<Vec<_>, RigError>>()?;
    Ok(Skeleton {
        joints,
        axes: Axes::LeftHandedYUp,
    })
}

fn parent_index(
    indices: &HashMap<&[u8], Vec<usize>>,
    index: usize,
    bone: &SimsBone,
    parent: &[u8],
) -> Result<usize, RigError> {
    match indices.get(parent).map(Vec::as_slice) {
        Some([only]) => Ok(*only),
        Some(several) if several.len() > 1 => Err(RigError::Invalid(format!(
            "bone {index} ({}) names parent {}, but {} bones have that name",
            bone.name.quoted(),
            bone.parent.quoted(),
            several.len()
        ))),
        _ => Err(RigError::Invalid(format!(
            "bone {index} ({}) names parent {}, which is not a bone of this skeleton",
            bone.name.quoted(),
            bone.parent.quoted()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bone<'a>(name: &'a RawString, parent: &'a RawString) -> SimsBone<'a> {
        SimsBone {
            name,
            parent,
            translation: [1.0, 2.0, 3.0],
            rotation: [0.1, 0.2, 0.3, 0.9],
        }
    }

    #[test]
    fn parents_resolve_by_name_and_rotations_are_conjugated() {
        let [root, null, arm] = ["ROOT", "NULL", "ARM"].map(RawString::from);
        let skeleton = skeleton([bone(&arm, &root), bone(&root, &null)]).unwrap();
        assert_eq!(skeleton.joints[0].parent, Some(1));
        assert_eq!(skeleton.joints[1].parent, None);
        assert_eq!(
            skeleton.joints[0].rest,
            Transform::TranslationRotation {
                translation: [1.0, 2.0, 3.0],
                rotation: [-0.1, -0.2, -0.3, 0.9],
            }
        );
    }

    #[test]
    fn unknown_and_ambiguous_parents_are_errors_naming_the_bone() {
        let [root, null, neck, spine, fx, spark] =
            ["ROOT", "NULL", "NECK", "SPINE9", "FX", "SPARK"].map(RawString::from);
        let error = skeleton([bone(&root, &null), bone(&neck, &spine)]).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"bone 1 ("NECK") names parent "SPINE9", which is not a bone of this skeleton"#
        );
        // Duplicate names are fine until one is used as a parent.
        assert!(skeleton([bone(&root, &null), bone(&fx, &root), bone(&fx, &root)]).is_ok());
        let error = skeleton([
            bone(&root, &null),
            bone(&fx, &root),
            bone(&fx, &root),
            bone(&spark, &fx),
        ])
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"bone 3 ("SPARK") names parent "FX", but 2 bones have that name"#
        );
    }
}
