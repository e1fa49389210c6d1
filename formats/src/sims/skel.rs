//! The Sims Online skeleton (`.skel`).

use serde::{Deserialize, Serialize};

use super::bones::{self, SimsBone};
use crate::files::Files;
use crate::format::{self, Describe, Description, Format, Joint, Sample};
use crate::rig::{self, Rig, RigError, RigOptions};
use crate::schema::RawString;
use crate::Schema;

/// The Sims Online skeleton (`.skel`): a named list of bones, parents before
/// children. Integers are big-endian and floats little-endian, in the same
/// struct; strings are Pascal strings (a u8 length, then the bytes).
///
/// A bone's rotation is stored as a quaternion (x, y, z, w) that the game
/// applies as its conjugate: model = parent * T(translation) * R(conjugate(q))
/// in column-vector math.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Skeleton {
    /// Format version; 1 in every known file. Kept as data, not checked:
    /// FreeSO reads and ignores it, so a file with another value still loads.
    pub version: u32,
    /// The skeleton's name, e.g. `adult`.
    #[schema(pascal)]
    pub name: RawString,
    /// The bones in file order.
    #[schema(prefix = u16)]
    pub bones: Vec<Bone>,
}

/// One bone of a `.skel`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Bone {
    /// Unknown; 1 in every known file. Kept as data so any file round-trips.
    pub unknown: u32,
    /// The bone's name, e.g. `PELVIS`.
    #[schema(pascal)]
    pub name: RawString,
    /// The parent bone's name; `NULL` for the root.
    #[schema(pascal)]
    pub parent: RawString,
    /// Non-zero when property lists follow. Kept as data: the game only tests
    /// it against zero, so any non-zero value must come back as it was.
    pub has_properties: u8,
    /// Lists of key/value properties, present when `has_properties` is not 0.
    #[schema(present_if = has_properties, prefix = u32)]
    pub property_lists: Option<Vec<PropertyList>>,
    /// Rest translation relative to the parent (x, y, z).
    #[schema(little)]
    pub translation: [f32; 3],
    /// Rest rotation relative to the parent, quaternion (x, y, z, w), applied
    /// as its conjugate.
    #[schema(little)]
    pub rotation: [f32; 4],
    /// Whether animations may translate this bone (1 in the game's files).
    pub can_translate: i32,
    /// Whether animations may rotate this bone.
    pub can_rotate: i32,
    /// Whether animations blend on this bone.
    pub can_blend: i32,
    /// Wiggle (procedural jiggle) amount.
    #[schema(little)]
    pub wiggle_value: f32,
    /// Wiggle power.
    #[schema(little)]
    pub wiggle_power: f32,
}

/// A list of key/value pairs attached to a bone.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct PropertyList {
    /// The pairs, in file order.
    #[schema(prefix = u32)]
    pub properties: Vec<Property>,
}

/// One key/value pair, e.g. `name` = `adult`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Property {
    /// The property's name.
    #[schema(pascal)]
    pub key: RawString,
    /// The property's value, as text.
    #[schema(pascal)]
    pub value: RawString,
}

impl Describe for Skeleton {
    fn describe(&self) -> Description {
        let names: Vec<&[u8]> = self.bones.iter().map(|bone| bone.name.as_bytes()).collect();
        Description {
            facts: vec![
                ("name", self.name.to_string()),
                ("version", self.version.to_string()),
                ("bones", self.bones.len().to_string()),
            ],
            joints: Joint::tree_from_parent_names(
                self.bones
                    .iter()
                    .map(|bone| (bone.name.to_string(), bone.parent.as_bytes())),
                &names,
            ),
        }
    }
}

impl Rig for Skeleton {
    fn skeleton(&self, _: &Files, options: RigOptions) -> Option<Result<rig::Skeleton, RigError>> {
        Some(options.single_level().and_then(|()| {
            bones::skeleton(self.bones.iter().map(|bone| SimsBone {
                name: &bone.name,
                parent: &bone.parent,
                translation: bone.translation,
                rotation: bone.rotation,
            }))
        }))
    }
}

/// The `.skel` registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "humanoid.skel",
            document: format::binary_document(humanoid()),
        }]
    },
    ..Format::binary::<Skeleton>(
        "tso-skel",
        "The Sims Online skeleton",
        &["skel"],
        // Version 1 as a big-endian u32, then a Pascal-string name.
        |bytes| bytes.starts_with(&[0, 0, 0, 1]),
    )
};

/// A small standing humanoid (y up, units as the game's adult skeleton):
/// the synthetic sample the project ships.
pub fn humanoid() -> Skeleton {
    let bone = |name: &str, parent: &str, translation: [f32; 3]| Bone {
        unknown: 1,
        name: RawString::from(name),
        parent: RawString::from(parent),
        has_properties: 0,
        property_lists: None,
        translation,
        rotation: [0.0, 0.0, 0.0, 1.0],
        can_translate: 1,
        can_rotate: 1,
        can_blend: 1,
        wiggle_value: 0.0,
        wiggle_power: 0.0,
    };
    let mut root = bone("ROOT", "NULL", [0.0, 3.0, 0.0]);
    root.has_properties = 1;
    root.property_lists = Some(vec![PropertyList {
        properties: vec![Property {
            key: RawString::from("name"),
            value: RawString::from("humanoid"),
        }],
    }]);
    Skeleton {
        version: 1,
        name: RawString::from("humanoid"),
        bones: vec![
            root,
            bone("PELVIS", "ROOT", [0.0, 0.0, 0.0]),
            bone("SPINE", "PELVIS", [0.0, 0.6, 0.0]),
            bone("HEAD", "SPINE", [0.0, 1.4, 0.0]),
            bone("L_ARM", "SPINE", [0.45, 1.1, 0.0]),
            bone("L_HAND", "L_ARM", [0.0, -1.2, 0.0]),
            bone("R_ARM", "SPINE", [-0.45, 1.1, 0.0]),
            bone("R_HAND", "R_ARM", [0.0, -1.2, 0.0]),
            bone("L_LEG", "PELVIS", [0.2, -0.1, 0.0]),
            bone("L_FOOT", "L_LEG", [0.0, -2.8, 0.0]),
            bone("R_LEG", "PELVIS", [-0.2, -0.1, 0.0]),
            bone("R_FOOT", "R_LEG", [0.0, -2.8, 0.0]),
        ],
    }
}
