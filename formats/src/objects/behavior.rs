//! SimAntics: routines (`BHAV`), the constants they read (`BCON`), and
//! the names and flow charts editors keep beside them (`TPRP`, `TRCN`,
//! `TREE`).

use serde::{Deserialize, Serialize};

use super::strings::{NullTerminatedString, PascalString, VarString};
use crate::schema::{Count, Padding, RawString};
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

/// The names of a routine's parameters and local variables (`TPRP`, the
/// `BHAV` of the same id's): a u32 0, a u32 version, `PRPT`, the two
/// counts, the names (Pascal strings at version 5, else null-terminated),
/// a flag byte per parameter, then at version 3 on a u32 and at 4 on
/// another, whose meaning no reader knows.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct RoutineLabels {
    /// 0 in every known file.
    pub reserved: u32,
    /// 4 or 5 in known files.
    pub version: u32,
    /// `PRPT` (`TPRP` backwards), or four 0 bytes; kept as found.
    pub signature: [u8; 4],
    /// How many parameters.
    #[serde(skip)]
    pub parameter_count: Count<u32>,
    /// How many local variables.
    #[serde(skip)]
    pub local_count: Count<u32>,
    /// The parameters' names.
    #[schema(count = parameter_count, context(pascal = version == 5))]
    pub parameters: Vec<Label>,
    /// The local variables' names.
    #[schema(count = local_count, context(pascal = version == 5))]
    pub locals: Vec<Label>,
    /// A flag byte per parameter (unused, disabled...).
    #[schema(count = parameter_count)]
    pub parameter_flags: Vec<u8>,
    /// Version 3 on: unknown.
    #[schema(present_if = version >= 3)]
    pub unknown3: Option<u32>,
    /// Version 4 on: unknown.
    #[schema(present_if = version >= 4)]
    pub unknown4: Option<u32>,
    /// Bytes after these, which the game does not read (four or five 0
    /// bytes in most version 4 files).
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// A name: a Pascal string or a null-terminated one, as its table's
/// version says.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(pascal: bool), select = pascal)]
pub enum Label {
    /// A u8 length, then the bytes.
    #[schema(when = true)]
    Pascal(PascalString),
    /// The bytes, then a 0.
    #[schema(when = false)]
    NullTerminated(NullTerminatedString),
}

/// The flow chart an editor draws of a routine (`TREE`, the `BHAV` of the
/// same id's): a u32 0, a u32 version (1), `EERT`, a u32 count, then the
/// boxes: the routine's instructions first, in order, then the true and
/// false ends, comments, labels and jumps.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct RoutineTree {
    /// 0 in every known file.
    pub reserved: u32,
    /// 1 in every known file.
    pub version: u32,
    /// `EERT` (`TREE` backwards); kept as found.
    pub signature: [u8; 4],
    /// A u32 count, then the boxes.
    #[schema(prefix = u32)]
    pub boxes: Vec<TreeBox>,
    /// Bytes after the boxes, which the game does not read.
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// One box of a routine's flow chart.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct TreeBox {
    /// 0 an instruction, 1 the true end, 2 the false end, 3 a comment,
    /// 4 a label, 5 a jump to a label.
    pub kind: u16,
    /// 0 in known files.
    pub unknown: u16,
    /// The box's width.
    pub width: i16,
    /// Its height.
    pub height: i16,
    /// Where it is drawn: x.
    pub x: i16,
    /// y.
    pub y: i16,
    /// The comment's size.
    pub comment_size: i16,
    /// The box its true arrow points at (-1: none).
    pub on_true: i16,
    /// 0 or -1; unknown.
    pub special: i16,
    /// The box its false arrow points at (-1: none).
    pub on_false: i32,
    /// The comment.
    #[schema(null_terminated)]
    pub comment: RawString,
    /// To an even length, counted from the chunk's start (0xA3 or 0xCD in
    /// real files, kept).
    #[schema(align = 2)]
    pub padding: Padding,
    /// 0 in known files.
    pub trailing_zero: i32,
}

/// The names of a routine constant table's constants (`TRCN`, the `BCON`
/// of the same id's): a u32 0, a u32 version (0 to 2), `NCRT`, a u32
/// count, then the labels.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct ConstantLabels {
    /// 0 in every known file.
    pub reserved: u32,
    /// 0 or 1 (The Sims: null-terminated strings, padded to even
    /// lengths), 2 (The Sims Online: strings with 7-bit length prefixes).
    pub version: u32,
    /// `NCRT` (`TRCN` backwards); kept as found.
    pub signature: [u8; 4],
    /// A u32 count, then the labels.
    #[schema(prefix = u32, context(version))]
    pub labels: Vec<ConstantLabel>,
    /// Bytes after the labels, which the game does not read.
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// One constant's name and range.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(version: u32))]
pub struct ConstantLabel {
    /// Flags.
    pub flags: i32,
    /// Unknown.
    pub unknown: i32,
    /// The constant's name.
    #[schema(context(prefixed = version > 1))]
    pub label: ConstantText,
    /// A note on it.
    #[schema(context(prefixed = version > 1))]
    pub comment: ConstantText,
    /// Version 1 on: the range an editor offers.
    #[schema(present_if = version > 0)]
    pub range: Option<ConstantRange>,
}

/// A text of a constant's label: null-terminated and padded to an even
/// length (versions 0 and 1), or with a 7-bit length prefix (version 2).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(prefixed: bool), select = prefixed)]
pub enum ConstantText {
    /// Versions 0 and 1.
    #[schema(when = false)]
    Padded(PaddedString),
    /// Version 2.
    #[schema(when = true)]
    Prefixed(VarString),
}

/// A null-terminated string padded to an even length, counted from the
/// chunk's start.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct PaddedString {
    /// The text.
    #[schema(null_terminated)]
    pub text: RawString,
    /// To an even length (0xA3 in real files, kept).
    #[schema(align = 2)]
    pub padding: Padding,
}

/// The range of values an editor offers for a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct ConstantRange {
    /// Non-zero when the range applies.
    pub enabled: u8,
    /// The lowest value.
    pub low: i16,
    /// The highest value.
    pub high: i16,
}
