//! The Sims 1 character file (`.cmx`, text): skeletons, suits and skills.

use serde::{Deserialize, Serialize};

use crate::schema::text::{TextError, TextSchema, TextStyle};
use crate::schema::{Magic, RawString, WriteError};
use crate::Schema;

/// The Sims 1 character file (`.cmx`). A `//` comment line, `version 300`,
/// then three lists: skeletons, suits (skins bound to bones) and skills
/// (animations). Every value and every string stands on its own line, except
/// the `| x y z |` and `| x y z w |` vector lines of a bone. CRLF; floats as
/// MSVC `printf("%g")`, integers as `%d`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct Cmx {
    /// How the file was written (line ending, number style), for byte-exact output.
    #[schema(style)]
    #[serde(default)]
    pub style: TextStyle,
    /// The first line after `//`, e.g. ` Character File. Copyright 1997, Maxis Inc.`
    #[schema(comment)]
    pub comment: RawString,
    #[schema(magic = "version 300")]
    #[serde(skip)]
    pub version: Magic,
    #[schema(prefix)]
    pub skeletons: Vec<Skeleton>,
    #[schema(prefix)]
    pub suits: Vec<Suit>,
    #[schema(prefix)]
    pub skills: Vec<Skill>,
}

/// The comment line of every `.cmx` the original tools wrote (after `//`).
pub const MAXIS_COMMENT: &str = " Character File. Copyright 1997, Maxis Inc.";

/// A named list of bones, parents before children.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct Skeleton {
    #[schema(line)]
    pub name: RawString,
    #[schema(prefix)]
    pub bones: Vec<Bone>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct Bone {
    #[schema(line)]
    pub name: RawString,
    /// The parent bone's name; `NULL` for the root.
    #[schema(line)]
    pub parent: RawString,
    #[schema(prefix)]
    pub property_lists: Vec<PropertyList>,
    /// Rest translation relative to the parent (x, y, z).
    #[schema(vector)]
    #[serde(with = "crate::schema::json::float")]
    pub translation: [f32; 3],
    /// Rest rotation relative to the parent, quaternion (x, y, z, w),
    /// applied as its conjugate.
    #[schema(vector)]
    #[serde(with = "crate::schema::json::float")]
    pub rotation: [f32; 4],
    /// Kept as the integers stored (0 or 1 in known files).
    pub can_translate: i32,
    pub can_rotate: i32,
    pub can_blend: i32,
    #[serde(with = "crate::schema::json::float")]
    pub wiggle_value: f32,
    #[serde(with = "crate::schema::json::float")]
    pub wiggle_power: f32,
}

/// A list of key/value pairs.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct PropertyList {
    #[schema(prefix)]
    pub properties: Vec<Property>,
}

/// One key/value pair, e.g. `name` = `adult`: two whole lines.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct Property {
    #[schema(line)]
    pub key: RawString,
    #[schema(line)]
    pub value: RawString,
}

/// A suit: skins, each bound to a bone.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct Suit {
    #[schema(line)]
    pub name: RawString,
    /// 0 in known files.
    pub suit_type: i32,
    /// Unknown; 0 in known files (FreeSO: `zero`). Kept as data.
    pub unknown: i32,
    #[schema(prefix)]
    pub skins: Vec<Skin>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct Skin {
    /// The bone the skin is bound to, e.g. `PELVIS`.
    #[schema(line)]
    pub bone: RawString,
    /// The `.skn`/`.bmf` name without extension.
    #[schema(line)]
    pub name: RawString,
    pub censor_flags: i32,
    /// Unknown; 0 in known files. Kept as data.
    pub unknown: i32,
}

/// A skill: an animation's metadata; its keyframes are in a `.cfp` file.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct Skill {
    #[schema(line)]
    pub name: RawString,
    /// The `.cfp` name without extension.
    #[schema(line)]
    pub animation: RawString,
    /// Milliseconds.
    #[serde(with = "crate::schema::json::float")]
    pub duration: f32,
    #[serde(with = "crate::schema::json::float")]
    pub distance: f32,
    pub moving: i32,
    /// Translations in the `.cfp`.
    pub position_count: i32,
    /// Rotations in the `.cfp`.
    pub rotation_count: i32,
    #[schema(prefix)]
    pub motions: Vec<Motion>,
}

/// One bone's track within a skill.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct Motion {
    #[schema(line)]
    pub bone: RawString,
    pub frame_count: i32,
    #[serde(with = "crate::schema::json::float")]
    pub duration: f32,
    pub positions_used: i32,
    pub rotations_used: i32,
    /// Index of the first translation in the `.cfp`; -1 when unused.
    pub first_position: i32,
    pub first_rotation: i32,
    #[schema(prefix)]
    pub property_lists: Vec<PropertyList>,
    #[schema(prefix)]
    pub time_property_lists: Vec<TimePropertyList>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct TimePropertyList {
    #[schema(prefix)]
    pub entries: Vec<TimeProperty>,
}

/// Properties that apply from a time in the animation on (e.g. footsteps).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct TimeProperty {
    /// Milliseconds.
    pub time: i32,
    #[schema(prefix)]
    pub properties: Vec<Property>,
}

impl Cmx {
    /// Reads a `.cmx`.
    pub fn from_text(text: &[u8]) -> Result<Self, TextError> {
        <Self as TextSchema>::from_text(text)
    }

    /// Writes the `.cmx` in its recorded style.
    pub fn to_text(&self) -> Result<Vec<u8>, WriteError> {
        <Self as TextSchema>::to_text(self)
    }

    pub fn suit_names(&self) -> impl Iterator<Item = &RawString> {
        self.suits.iter().map(|suit| &suit.name)
    }

    pub fn skill_names(&self) -> impl Iterator<Item = &RawString> {
        self.skills.iter().map(|skill| &skill.name)
    }
}

impl Skeleton {
    /// Each bone's name and its parent's (`None` for a root, stored as `NULL`).
    pub fn bone_parents(&self) -> impl Iterator<Item = (&RawString, Option<&RawString>)> {
        self.bones.iter().map(|bone| {
            let parent = (bone.parent.as_bytes() != b"NULL").then_some(&bone.parent);
            (&bone.name, parent)
        })
    }
}
