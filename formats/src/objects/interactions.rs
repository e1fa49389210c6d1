//! An object's interactions (`TTAB`): the pie menu's entries and the
//! routines behind them; their names are the `TTAs` of the same id.

use serde::{Deserialize, Serialize};

use crate::schema::{Count, Refusal, Segment};
use crate::Schema;

/// An interaction table (`TTAB`): a u16 count, then (unless the table is
/// empty and ends there) a u16 version and the interactions. Versions 9
/// and 10 add a byte: 1 when the interactions are field-encoded (a bit
/// stream of variable-width numbers), 0 when they are stored plainly.
/// Fields grow with the version: an attenuation code and the motives'
/// minimums and personality modifiers from 7, The Sims Online's flags
/// from 10. Up to version 3 (read by no other tool) an interaction is
/// smaller: ossuary's reading of the one known file is an action and a
/// guard routine, a u16 motive count, u16 flags, the attenuation and a
/// delta per motive.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, check = at_most_one_table)]
pub struct Interactions {
    /// How many interactions.
    pub count: u16,
    /// The version and the interactions, where the chunk holds more than
    /// the count: one table, which reads to the chunk's end.
    #[schema(to_end, context(count))]
    pub table: Vec<InteractionTable>,
}

/// A chunk holds one table or none.
fn at_most_one_table(interactions: &Interactions) -> Result<(), Refusal> {
    match interactions.table.len() {
        0 | 1 => Ok(()),
        more => Err(Refusal::new(format!("{more} tables; a chunk holds one"))
            .inside([Segment::Field("table")])),
    }
}

/// How a table's interactions are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InteractionEncoding {
    /// Versions 0 to 3.
    Early,
    /// Versions 4 to 8, and 11 on.
    Plain,
    /// Versions 9 and 10: with an encoding byte.
    Coded,
}

impl InteractionEncoding {
    /// The encoding of a table of this version.
    pub fn of(version: u16) -> InteractionEncoding {
        match version {
            0..=3 => InteractionEncoding::Early,
            9 | 10 => InteractionEncoding::Coded,
            _ => InteractionEncoding::Plain,
        }
    }
}

/// A table's version and interactions.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(count: u16))]
pub struct InteractionTable {
    /// The table's version: 3 to 10 in known files.
    pub version: u16,
    /// The interactions.
    #[schema(context(kind = InteractionEncoding::of(version), version, count))]
    pub interactions: InteractionList,
    /// Bytes after the interactions, which the game does not read.
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// The interactions, as the version stores them.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(
    little,
    context(kind: InteractionEncoding, version: u16, count: u16),
    select = kind
)]
pub enum InteractionList {
    /// Versions 0 to 3.
    #[schema(when = InteractionEncoding::Early, context(count))]
    Early(EarlyInteractions),
    /// Versions 4 to 8 and 11 on.
    #[schema(when = InteractionEncoding::Plain, context(version, count))]
    Plain(PlainInteractions),
    /// Versions 9 and 10.
    #[schema(when = InteractionEncoding::Coded, context(version, count))]
    Coded(CodedInteractions),
}

/// Interactions of versions 0 to 3.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(count: u16))]
pub struct EarlyInteractions {
    /// The interactions.
    #[schema(count = usize::from(count))]
    pub interactions: Vec<EarlyInteraction>,
}

/// An interaction of version 0 to 3.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct EarlyInteraction {
    /// The routine run (`BHAV` id).
    pub action: u16,
    /// The routine deciding whether it is offered.
    pub guard: u16,
    /// How many motives.
    #[serde(skip)]
    pub motive_count: Count<u16>,
    /// Flags.
    pub flags: u16,
    /// How fast its advertisement fades with distance.
    pub attenuation: f32,
    /// Each motive's advertised change.
    #[schema(count = motive_count)]
    pub motive_deltas: Vec<i16>,
}

/// Interactions stored plainly (versions 4 to 8, 11 on).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u16, count: u16))]
pub struct PlainInteractions {
    /// The interactions.
    #[schema(count = usize::from(count), context(version))]
    pub interactions: Vec<Interaction>,
}

/// Interactions of versions 9 and 10: a byte saying how they are stored.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u16, count: u16))]
pub struct CodedInteractions {
    /// 1: field-encoded; anything else: plain.
    pub encoding: u8,
    /// The interactions.
    #[schema(context(field_encoded = encoding == 1, version, count))]
    pub interactions: CodedList,
}

/// A version 9 or 10 table's interactions.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(
    little,
    context(field_encoded: bool, version: u16, count: u16),
    select = field_encoded
)]
pub enum CodedList {
    /// Stored plainly.
    #[schema(when = false, context(version, count))]
    Plain(PlainInteractions),
    /// Field-encoded: every number as a bit, then (when set) a 2-bit
    /// width code and the number in that many bits, most significant
    /// first; 16-bit fields take 5, 8, 13 or 16 bits, 32-bit ones 6, 11,
    /// 21 or 32. The stream, as found.
    #[schema(when = true)]
    FieldEncoded(FieldEncodedStream),
}

/// A field-encoded stream of interactions, as found.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct FieldEncodedStream {
    /// The stream's bytes.
    #[schema(to_end)]
    pub bytes: Vec<u8>,
}

/// One interaction (versions 4 on).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u16))]
pub struct Interaction {
    /// The routine run (`BHAV` id).
    pub action: u16,
    /// The routine deciding whether it is offered (0: always).
    pub guard: u16,
    /// How many motives.
    #[serde(skip)]
    pub motive_count: Count<u32>,
    /// Flags: who may use it (visitors, children, adults, pets), whether
    /// it is joinable, runs at once, is a debug one; bits 16 to 19 when
    /// it is offered (carrying, repair, dead).
    pub flags: u32,
    /// Its name: the index in the `TTAs` of the same id.
    pub name_index: u32,
    /// Version 7 on: the attenuation (0 custom, 1 none, 2 low, 3 medium,
    /// 4 high).
    #[schema(present_if = version > 6)]
    pub attenuation_code: Option<u32>,
    /// The custom attenuation.
    pub attenuation: f32,
    /// The motive level under which a Sim chooses it by itself.
    pub autonomy_threshold: u32,
    /// The interaction it joins (-1: none).
    pub joining_index: i32,
    /// What it advertises for each motive.
    #[schema(count = motive_count, context(version))]
    pub motives: Vec<MotiveEffect>,
    /// Version 10 on: The Sims Online's permissions (visitors, friends,
    /// roommates, owner, parental control, staff, ghosts).
    #[schema(present_if = version > 9)]
    pub permissions: Option<u32>,
}

/// What an interaction advertises for one motive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u16))]
pub struct MotiveEffect {
    /// Version 7 on: the least change.
    #[schema(present_if = version > 6)]
    pub minimum: Option<i16>,
    /// The change's range.
    pub delta: i16,
    /// Version 7 on: the personality trait that scales it.
    #[schema(present_if = version > 6)]
    pub personality: Option<u16>,
}
