//! The Sims Online skeleton (`.skel`).

use serde::{Deserialize, Serialize};

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
    #[serde(with = "crate::schema::json::float")]
    pub translation: [f32; 3],
    /// Rest rotation relative to the parent, quaternion (x, y, z, w), applied
    /// as its conjugate.
    #[schema(little)]
    #[serde(with = "crate::schema::json::float")]
    pub rotation: [f32; 4],
    /// Whether animations may translate this bone (1 in the game's files).
    pub can_translate: i32,
    /// Whether animations may rotate this bone.
    pub can_rotate: i32,
    /// Whether animations blend on this bone.
    pub can_blend: i32,
    /// Wiggle (procedural jiggle) amount.
    #[schema(little)]
    #[serde(with = "crate::schema::json::float")]
    pub wiggle_value: f32,
    /// Wiggle power.
    #[schema(little)]
    #[serde(with = "crate::schema::json::float")]
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
    #[schema(pascal)]
    pub key: RawString,
    #[schema(pascal)]
    pub value: RawString,
}
