//! The Sims' object files (IFF 2.5): the container of The Sims' and The
//! Sims Online's objects, walls, floors and sprite files, FreeSO's own
//! objects included, and every chunk type they hold.
//!
//! Each chunk type's payload is a schema type of its own module, little-
//! endian as the game stores it.

pub mod behavior;
pub mod definition;
pub mod draw_group;
pub mod file;
pub mod image;
pub mod interactions;
pub mod mesh;
pub mod names;
pub mod palette;
pub mod pixels;
pub mod resource_map;
pub mod slots;
pub mod sprites;
pub mod strings;

use serde::{Deserialize, Serialize};

use crate::Schema;

/// A filler chunk (`XXXX`): what is left where a tool deleted a chunk.
/// The game skips it; its bytes are the deleted chunk's leftovers, kept as
/// found.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Filler {
    /// The leftover bytes.
    #[schema(to_end)]
    pub bytes: Vec<u8>,
}

/// A chunk no reader describes (`POSI`, found in one object; FreeSO and
/// the editors skip it): its bytes, as found.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Undescribed {
    /// The chunk's bytes.
    #[schema(to_end)]
    pub bytes: Vec<u8>,
}
