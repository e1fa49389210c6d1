//! Chunks that name something outside the file: a sound event (`FWAV`),
//! a semi-global file (`GLOB`).

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

/// The semi-global file whose routines the object shares (`GLOB`): its
/// name, as a Pascal string when the first byte is below 48 (no file
/// name starts with such a character), else null-terminated.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct SemiGlobal {
    /// The name's length, or its first character.
    pub lead: u8,
    /// The rest of the name.
    #[schema(context(pascal = lead < 48, len = lead))]
    pub rest: SemiGlobalName,
    /// Bytes after the name, which the game does not read.
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// The name of a semi-global file after its first byte.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(pascal: bool, len: u8), select = pascal)]
pub enum SemiGlobalName {
    /// The name whose length the first byte gave.
    #[schema(when = true, context(len))]
    Pascal(CountedName),
    /// The name's characters after the first, then a 0.
    #[schema(when = false)]
    NullTerminated(NullTerminatedName),
}

/// A name of a given length.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(len: u8))]
pub struct CountedName {
    /// The name's bytes.
    #[schema(count = usize::from(len))]
    pub bytes: Vec<u8>,
}

/// The rest of a null-terminated name.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct NullTerminatedName {
    /// The characters after the first.
    #[schema(null_terminated)]
    pub rest: RawString,
}

impl SemiGlobal {
    /// The file's name (without extension).
    pub fn name(&self) -> RawString {
        match &self.rest {
            SemiGlobalName::Pascal(name) => RawString(name.bytes.clone()),
            SemiGlobalName::NullTerminated(name) => {
                RawString([&[self.lead][..], &name.rest.0].concat())
            }
        }
    }
}
