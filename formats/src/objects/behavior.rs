//! SimAntics: routines (`BHAV`) and the constants they read (`BCON`).

use serde::{Deserialize, Serialize};

use crate::schema::Count;
use crate::Schema;

/// A SimAntics routine (`BHAV`): a u16 version, a header, then its
/// instructions. Four versions: 0x8000 and 0x8001 (a u16 instruction
/// count and eight bytes the game does not read), 0x8002 (The Sims: a u16
/// count, then the routine's type, argument and local counts and its
/// version) and 0x8003 (The Sims Online: the same fields, the local count
/// a byte, and a u32 count last).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, tag = u16)]
pub enum Routine {
    /// Version 0x8000.
    #[schema(when = 0x8000)]
    V8000(EarlyRoutine),
    /// Version 0x8001.
    #[schema(when = 0x8001)]
    V8001(EarlyRoutine),
    /// Version 0x8002, The Sims'.
    #[schema(when = 0x8002)]
    V8002(RoutineV8002),
    /// Version 0x8003, The Sims Online's.
    #[schema(when = 0x8003)]
    V8003(RoutineV8003),
}

/// A routine of version 0x8000 or 0x8001.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct EarlyRoutine {
    /// How many instructions.
    #[serde(skip)]
    pub instruction_count: Count<u16>,
    /// Eight bytes the game skips.
    pub header: [u8; 8],
    /// The instructions, the first one run first.
    #[schema(count = instruction_count)]
    pub instructions: Vec<Instruction>,
    /// Bytes after the instructions, which the game does not read (none
    /// in known files).
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// A routine of version 0x8002.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct RoutineV8002 {
    /// How many instructions.
    #[serde(skip)]
    pub instruction_count: Count<u16>,
    /// The routine's type.
    pub kind: u8,
    /// How many arguments it takes.
    pub argument_count: u8,
    /// How many local variables it has.
    pub local_count: u16,
    /// The routine's own version number.
    pub routine_version: u16,
    /// Two bytes the game skips.
    pub reserved: u16,
    /// The instructions, the first one run first.
    #[schema(count = instruction_count)]
    pub instructions: Vec<Instruction>,
    /// Bytes after the instructions, which the game does not read (none
    /// in known files).
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// A routine of version 0x8003.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct RoutineV8003 {
    /// The routine's type.
    pub kind: u8,
    /// How many arguments it takes.
    pub argument_count: u8,
    /// How many local variables it has.
    pub local_count: u8,
    /// Two bytes the game skips.
    pub reserved: u16,
    /// The routine's own version number.
    pub routine_version: u16,
    /// A u32 count, then the instructions, the first one run first.
    #[schema(prefix = u32)]
    pub instructions: Vec<Instruction>,
    /// Bytes after the instructions, which the game does not read (none
    /// in known files).
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// One instruction: a primitive (opcodes below 256) or a call of another
/// routine (its `BHAV` id: 256 on for global routines, 4096 on for the
/// object's own, 8192 on for semi-global ones), where to go on true and on
/// false, and eight operand bytes whose meaning the opcode gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Instruction {
    /// The primitive or routine to run.
    pub opcode: u16,
    /// The instruction run next when this one gives true: an index into
    /// the instructions, or 253 (error), 254 (return true), 255 (return
    /// false).
    pub on_true: u8,
    /// The instruction run next on false, as `on_true`.
    pub on_false: u8,
    /// The operands, as the opcode reads them (for a routine call, its
    /// four u16 arguments).
    pub operands: [u8; 8],
}

/// Constants a routine reads (`BCON`), labelled by the `TRCN` of the same
/// id.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Constants {
    /// How many constants.
    #[serde(skip)]
    pub count: Count<u8>,
    /// Flags: 0x80 in The Sims Online's, else 0.
    pub flags: u8,
    /// The constants.
    #[schema(count = count)]
    pub values: Vec<u16>,
    /// Bytes after the constants, which the game does not read (none in
    /// known files).
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}
