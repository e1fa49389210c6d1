//! Chunks that name something outside the file: a sound event (`FWAV`).

use serde::{Deserialize, Serialize};

use crate::schema::RawString;
use crate::Schema;

/// A sound event the object plays (`FWAV`): its name, null-terminated.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct SoundEvent {
    /// The event's name (e.g. `door_open`).
    #[schema(null_terminated)]
    pub name: RawString,
    /// Bytes after the name, which the game does not read (none in known
    /// files).
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}
