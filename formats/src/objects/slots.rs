//! Where Sims and objects go around an object (`SLOT`).

use serde::{Deserialize, Serialize};

use crate::Schema;

/// An object's slots (`SLOT`): places where a Sim stands or sits to use
/// it, or where other objects go on it. A u32 0, a u32 version (4 to 10;
/// 10 in every known file), the signature `TOLS`, a u32 count, then the
/// slots, whose fields grow with the version (34 bytes at version 4, 54
/// at 6, then 4 more for each version to 70 at 10).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Slots {
    /// 0 in every known file.
    pub reserved: u32,
    /// The layout of each slot.
    pub version: u32,
    /// `TOLS` (`SLOT` backwards) in known files; kept as found.
    pub signature: [u8; 4],
    /// A u32 count, then the slots.
    #[schema(prefix = u32, context(version))]
    pub slots: Vec<Slot>,
    /// Bytes after the slots, which the game does not read (none in known
    /// files).
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// One slot.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u32))]
pub struct Slot {
    /// What the slot is for: 0 a place to put objects, 3 a routing
    /// destination for Sims.
    pub kind: u16,
    /// Where it is from the object, in the object's frame.
    pub offset: [f32; 3],
    /// The score for standing there (0: never).
    pub standing: i32,
    /// The score for sitting there.
    pub sitting: i32,
    /// The score for sitting on the ground there.
    pub ground: i32,
    /// Routing flags: the directions a Sim may face (one bit each from
    /// north, clockwise), then absolute placement, ignoring rooms,
    /// snapping and scoring flags.
    pub flags: i32,
    /// The slot a Sim snaps to (-1: none).
    pub snap_target: i32,
    /// Version 6 on: proximities and size.
    #[schema(present_if = version >= 6)]
    pub proximity: Option<Proximity>,
    /// Version 7 on: the gradient.
    #[schema(present_if = version >= 7)]
    pub gradient: Option<f32>,
    /// Version 8 on: the height (1 the floor, 2 a low table, 3 a table,
    /// 4 a counter, 5 the offset's own, 6 in hand, 7 a seat, 8 an end
    /// table).
    #[schema(present_if = version >= 8)]
    pub height: Option<i32>,
    /// Version 9 on: which way a Sim faces (-3 anywhere, -2 towards the
    /// object, -1 away, else a direction).
    #[schema(present_if = version >= 9)]
    pub facing: Option<i32>,
    /// Version 10 on: the resolution of the search for a place.
    #[schema(present_if = version >= 10)]
    pub resolution: Option<i32>,
}

/// The distances of a slot (version 6 on), in sixteenths of a tile
/// before version 10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Proximity {
    /// The nearest a Sim stands.
    pub minimum: i32,
    /// The farthest.
    pub maximum: i32,
    /// The best.
    pub optimal: i32,
    /// The largest object the slot takes.
    pub maximum_size: i32,
    /// Unknown; kept as data.
    pub unknown: i32,
}
