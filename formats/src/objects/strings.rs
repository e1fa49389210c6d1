//! String tables: `STR#` (an object's strings), `CTSS` (its catalogue
//! name and description) and `TTAs` (its pie menu's interactions), one
//! layout for the three.

use serde::{Deserialize, Serialize};

use crate::schema::{RawString, Refusal, Segment};
use crate::Schema;

/// A string table (`STR#`, `CTSS`, `TTAs`): an i16 format code, then the
/// strings in that format (nothing at all in some of the game's chunks,
/// which end after the code: the list below is then empty, else it holds
/// the one table).
///
/// | code | format |
/// |---|---|
/// | 0 | a u16 count, Pascal strings (a u8 length) |
/// | -1 | a u16 count, null-terminated strings (UTF-8) |
/// | -2 | a u16 count, pairs of null-terminated strings: value, comment |
/// | -3 | a u16 count, each a language code, value and comment, null-terminated (The Sims) |
/// | -4 | a u8 count of language sets, each a u16 count of entries: language code less one, value and comment, each with a 7-bit variable-length prefix (The Sims Online) |
///
/// Any other code is a Macintosh string list, whose code read
/// big-endian is its count, followed by Pascal strings.
///
/// Language codes: 1 US English (0 is read as 1), 2 UK English, 3 French,
/// 4 German, 5 Italian, 6 Spanish, 7 Dutch, 8 Danish, 9 Swedish, 10
/// Norwegian, 11 Finnish, 12 Hebrew, 13 Russian, 14 Portuguese, 15
/// Japanese, 16 Polish, 17 Simplified Chinese, 18 Traditional Chinese,
/// 19 Thai, 20 Korean (FreeSO adds 21, Slovak).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, check = at_most_one_table)]
pub struct StringTable {
    /// The format code.
    pub format: i16,
    /// The strings, where the chunk holds more than its code: one table,
    /// which reads to the chunk's end.
    #[schema(to_end, context(kind = StringFormat::of(format)))]
    pub strings: Vec<Strings>,
}

/// A chunk holds one table of strings or none.
fn at_most_one_table(table: &StringTable) -> Result<(), Refusal> {
    match table.strings.len() {
        0 | 1 => Ok(()),
        more => Err(
            Refusal::new(format!("{more} tables of strings; a chunk holds one"))
                .inside([Segment::Field("strings")]),
        ),
    }
}

/// A string table's format, as its code gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringFormat {
    Pascal,
    NullTerminated,
    Pairs,
    Languages,
    LanguageSets,
    Macintosh,
}

impl StringFormat {
    /// The format of a table with this code.
    pub fn of(code: i16) -> StringFormat {
        match code {
            0 => StringFormat::Pascal,
            -1 => StringFormat::NullTerminated,
            -2 => StringFormat::Pairs,
            -3 => StringFormat::Languages,
            -4 => StringFormat::LanguageSets,
            _ => StringFormat::Macintosh,
        }
    }
}

/// The strings of a table, in its format.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little, context(kind: StringFormat), select = kind)]
pub enum Strings {
    /// Code 0: a u16 count, then Pascal strings.
    #[schema(when = StringFormat::Pascal)]
    Pascal(PascalStrings),
    /// Code -1: a u16 count, then null-terminated strings.
    #[schema(when = StringFormat::NullTerminated)]
    NullTerminated(NullTerminatedStrings),
    /// Code -2: a u16 count, then value and comment pairs.
    #[schema(when = StringFormat::Pairs)]
    Pairs(StringPairs),
    /// Code -3: a u16 count, then entries with their language.
    #[schema(when = StringFormat::Languages)]
    Languages(LanguageStrings),
    /// Code -4: language sets.
    #[schema(when = StringFormat::LanguageSets)]
    LanguageSets(LanguageSets),
    /// Any other code: Pascal strings to the end of the chunk.
    #[schema(when = StringFormat::Macintosh)]
    Macintosh(MacintoshStrings),
}

impl StringTable {
    /// The strings of the first language (US English), in order.
    pub fn strings(&self) -> Vec<&[u8]> {
        let Some(table) = self.strings.first() else {
            return Vec::new();
        };
        match table {
            Strings::Pascal(list) => list.strings.iter().map(|s| s.text.as_bytes()).collect(),
            Strings::NullTerminated(list) => {
                list.strings.iter().map(|s| s.text.as_bytes()).collect()
            }
            Strings::Pairs(list) => list
                .pairs
                .iter()
                .map(|pair| pair.value.as_bytes())
                .collect(),
            // Language 0 is read as US English.
            Strings::Languages(list) => list
                .entries
                .iter()
                .filter(|entry| entry.language <= 1)
                .map(|entry| entry.value.as_bytes())
                .collect(),
            Strings::LanguageSets(list) => list
                .sets
                .first()
                .map(|set| {
                    set.entries
                        .iter()
                        .map(|entry| entry.value.bytes.as_slice())
                        .collect()
                })
                .unwrap_or_default(),
            Strings::Macintosh(list) => list.strings.iter().map(|s| s.text.as_bytes()).collect(),
        }
    }
}

/// A Pascal string: a u8 length, then the bytes.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
#[serde(transparent)]
pub struct PascalString {
    /// The text, as stored.
    #[schema(pascal)]
    pub text: RawString,
}

/// A string ended by a 0 byte.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
#[serde(transparent)]
pub struct NullTerminatedString {
    /// The text, as stored.
    #[schema(null_terminated)]
    pub text: RawString,
}

/// Format 0.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct PascalStrings {
    /// A u16 count, then the strings.
    #[schema(prefix = u16)]
    pub strings: Vec<PascalString>,
    /// Bytes after the strings, which the game does not read.
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// Format -1.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct NullTerminatedStrings {
    /// A u16 count, then the strings (UTF-8).
    #[schema(prefix = u16)]
    pub strings: Vec<NullTerminatedString>,
    /// Bytes after the strings, which the game does not read.
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// Format -2.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct StringPairs {
    /// A u16 count, then the pairs.
    #[schema(prefix = u16)]
    pub pairs: Vec<StringPair>,
    /// Bytes after the strings, which the game does not read.
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// A string and its comment (format -2).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct StringPair {
    /// The string.
    #[schema(null_terminated)]
    pub value: RawString,
    /// A note for translators.
    #[schema(null_terminated)]
    pub comment: RawString,
}

/// Format -3, The Sims'.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct LanguageStrings {
    /// A u16 count, then the entries, every language's in one list.
    #[schema(prefix = u16)]
    pub entries: Vec<LanguageString>,
    /// What follows the entries: in The Sims' files one byte 0xA3 per
    /// entry (the game's editor wrote them; the game does not read them).
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// A string in one language (format -3).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct LanguageString {
    /// The language code (see [`StringTable`]).
    pub language: u8,
    /// The string.
    #[schema(null_terminated)]
    pub value: RawString,
    /// A note for translators.
    #[schema(null_terminated)]
    pub comment: RawString,
}

/// Format -4, The Sims Online's: the strings grouped by language.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct LanguageSets {
    /// A u8 count, then the sets (20 in known files, US English first).
    #[schema(prefix = u8)]
    pub sets: Vec<LanguageSet>,
    /// Bytes after the sets, which the game does not read.
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// One language's strings (format -4).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct LanguageSet {
    /// A u16 count, then the entries.
    #[schema(prefix = u16)]
    pub entries: Vec<SetString>,
}

/// A string of a language set (format -4).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct SetString {
    /// The language code less one (0 US English).
    pub language: u8,
    /// The string (UTF-8).
    pub value: VarString,
    /// A note for translators.
    pub comment: VarString,
}

/// A string with a 7-bit variable-length prefix, as .NET's
/// `BinaryWriter` writes one, then its bytes. Shown as its text.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
#[serde(into = "RawString", from = "RawString")]
pub struct VarString {
    /// The length.
    #[schema(try_map = VarLen)]
    pub length: u32,
    /// The bytes.
    #[schema(count = length as usize)]
    pub bytes: Vec<u8>,
}

/// A u32 in groups of seven bits, the lowest first, each byte but the
/// last with its top bit set: one to five bytes, the fewest that hold the
/// number (a longer form would not come back as written, and is refused).
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct VarLen {
    /// Bits 0 to 6; 0x80 set when more follow.
    pub group: u8,
    /// The next groups.
    #[schema(present_if = group >= 0x80)]
    pub more: Option<VarLen2>,
}

/// Bits 7 on of a [`VarLen`].
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct VarLen2 {
    /// Bits 7 to 13; 0x80 set when more follow.
    pub group: u8,
    /// The next groups.
    #[schema(present_if = group >= 0x80)]
    pub more: Option<VarLen3>,
}

/// Bits 14 on of a [`VarLen`].
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct VarLen3 {
    /// Bits 14 to 20; 0x80 set when more follow.
    pub group: u8,
    /// The next groups.
    #[schema(present_if = group >= 0x80)]
    pub more: Option<VarLen4>,
}

/// Bits 21 on of a [`VarLen`].
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct VarLen4 {
    /// Bits 21 to 27; 0x80 set when more follow.
    pub group: u8,
    /// Bits 28 to 31.
    #[schema(present_if = group >= 0x80)]
    pub last: Option<u8>,
}

impl VarLen {
    /// The groups, the lowest first.
    fn groups(&self) -> Vec<u8> {
        let mut groups = vec![self.group];
        if let Some(more) = &self.more {
            groups.push(more.group);
            if let Some(more) = &more.more {
                groups.push(more.group);
                if let Some(more) = &more.more {
                    groups.push(more.group);
                    groups.extend(more.last);
                }
            }
        }
        groups
    }
}

/// A length prefix longer than its number needs, or a number past a u32.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the length's bytes {0:02x?} are not the shortest form of a u32")]
pub struct NotShortest(Vec<u8>);

impl TryFrom<VarLen> for u32 {
    type Error = NotShortest;

    fn try_from(stored: VarLen) -> Result<u32, NotShortest> {
        let groups = stored.groups();
        let value = groups
            .iter()
            .enumerate()
            .fold(0u64, |value, (index, group)| {
                value | u64::from(group & 0x7F) << (7 * index)
            });
        match u32::try_from(value) {
            Ok(value) if VarLen::from(value).groups() == groups => Ok(value),
            _ => Err(NotShortest(groups)),
        }
    }
}

impl From<u32> for VarLen {
    /// The shortest form of `value`.
    fn from(value: u32) -> VarLen {
        let group = |index: u32| {
            let low = (value >> (7 * index) & 0x7F) as u8;
            let more = index < 4 && value >> (7 * (index + 1)) != 0;
            (low | if more { 0x80 } else { 0 }, more)
        };
        let (group0, more0) = group(0);
        let (group1, more1) = group(1);
        let (group2, more2) = group(2);
        let (group3, more3) = group(3);
        let (group4, _) = group(4);
        VarLen {
            group: group0,
            more: more0.then_some(VarLen2 {
                group: group1,
                more: more1.then_some(VarLen3 {
                    group: group2,
                    more: more2.then_some(VarLen4 {
                        group: group3,
                        last: more3.then_some(group4),
                    }),
                }),
            }),
        }
    }
}

impl From<VarString> for RawString {
    fn from(string: VarString) -> RawString {
        RawString(string.bytes)
    }
}

impl From<RawString> for VarString {
    fn from(text: RawString) -> VarString {
        VarString {
            // A string longer than a u32 counts is one the writer refuses.
            length: u32::try_from(text.0.len()).unwrap_or(u32::MAX),
            bytes: text.0,
        }
    }
}

/// A Macintosh string list: Pascal strings to the end of the chunk, their
/// count the format code read big-endian.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct MacintoshStrings {
    /// The strings.
    #[schema(to_end)]
    pub strings: Vec<PascalString>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::BinarySchema;

    #[test]
    fn a_long_string_has_a_two_byte_prefix_and_a_longer_prefix_is_refused() {
        let text = RawString(vec![b'a'; 359]);
        let bytes = VarString::from(text.clone()).to_bytes().unwrap();
        // 359 = 0x67 + 2 * 128: 0xE7, then 0x02.
        assert_eq!(bytes[..2], [0xE7, 0x02]);
        assert_eq!(bytes.len(), 361);
        assert_eq!(
            RawString::from(VarString::from_bytes(&bytes).unwrap()),
            text
        );
        // 1 written in two bytes.
        let error = VarString::from_bytes(&[0x81, 0x00, b'a']).unwrap_err();
        assert!(error.to_string().contains("shortest form"), "{error}");
    }

    #[test]
    fn a_table_ending_after_its_code_has_no_strings() {
        let table = StringTable::from_bytes(&[0xFD, 0xFF]).unwrap();
        assert_eq!(table.strings, []);
        assert_eq!(table.to_bytes().unwrap(), [0xFD, 0xFF]);
    }

    #[test]
    fn an_unknown_code_is_a_macintosh_list_counted_big_endian() {
        // As a real `STR#`: 00 02, then "0" and "top of table".
        let bytes = b"\x00\x02\x010\x0ctop of table";
        let table = StringTable::from_bytes(bytes).unwrap();
        let [Strings::Macintosh(list)] = table.strings.as_slice() else {
            panic!("{table:?}");
        };
        assert_eq!(list.strings.len(), usize::from(u16::from_be_bytes([0, 2])));
        assert_eq!(table.to_bytes().unwrap(), bytes);
    }
}
