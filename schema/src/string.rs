//! Strings as the files store them: raw bytes, shown as Windows-1252 text.

use std::fmt;

use super::collection::{read_count, write_count, CountInt};
use super::{Endian, Input, Output};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Error, ErrorKind};

/// The bytes of a string exactly as stored. These games wrote Windows-1252,
/// not UTF-8, so the bytes are kept and only shown (and put in JSON) as text.
/// Every byte maps to one character and back, so JSON round-trips too.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RawString(pub Vec<u8>);

/// Characters for bytes 0x80..=0x9F; the five bytes Windows-1252 leaves
/// undefined map to the C1 control with the same number, as browsers do.
const HIGH_CONTROLS: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

fn byte_to_char(byte: u8) -> char {
    match byte {
        0x80..=0x9F => HIGH_CONTROLS
            .get(usize::from(byte - 0x80))
            .copied()
            .unwrap_or('\u{FFFD}'),
        _ => char::from(byte),
    }
}

fn char_to_byte(c: char) -> Option<u8> {
    match u32::from(c) {
        code @ (0x00..=0x7F | 0xA0..=0xFF) => u8::try_from(code).ok(),
        _ => HIGH_CONTROLS
            .iter()
            .position(|&high| high == c)
            .and_then(|index| u8::try_from(index + 0x80).ok()),
    }
}

impl RawString {
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Encodes text as Windows-1252; `None` if a character has no byte.
    pub fn from_text(text: &str) -> Option<Self> {
        text.chars()
            .map(char_to_byte)
            .collect::<Option<Vec<u8>>>()
            .map(RawString)
    }

    /// The bytes in double quotes as an error message shows them: a
    /// line's worth at most, control characters escaped
    /// ([`quoted`](crate::quoted)).
    pub fn quoted(&self) -> String {
        format!("\"{}\"", crate::quoted(&self.0))
    }

    pub fn to_text(&self) -> String {
        self.0.iter().copied().map(byte_to_char).collect()
    }
}

impl From<&str> for RawString {
    /// For literals in code and tests; characters outside Windows-1252 become `?`.
    fn from(text: &str) -> Self {
        RawString(
            text.chars()
                .map(|c| char_to_byte(c).unwrap_or(b'?'))
                .collect(),
        )
    }
}

impl fmt::Display for RawString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl fmt::Debug for RawString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_text(), f)
    }
}

impl Serialize for RawString {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_text())
    }
}

impl<'de> Deserialize<'de> for RawString {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        RawString::from_text(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "\"{}\" has a character that Windows-1252 cannot store",
                crate::quoted(text.as_bytes())
            ))
        })
    }
}

/// Pascal string: a u8 length, then that many bytes.
#[inline]
pub fn read_pascal<I: Input>(input: &mut I) -> Result<RawString, Error> {
    noted(input, "RawString (u8 length, then bytes)", |input| {
        let [len] = input.read_array::<1>()?;
        input.read_bytes(u64::from(len)).map(RawString)
    })
}

/// A string read by `read`, noted in the byte map as one value.
fn noted<I: Input>(
    input: &mut I,
    type_name: &'static str,
    read: impl FnOnce(&mut I) -> Result<RawString, Error>,
) -> Result<RawString, Error> {
    if !crate::map::recording_in::<I>() {
        return read(input);
    }
    let start = input.position()?;
    let muted = crate::map::mute_in::<I>();
    let value = read(input)?;
    drop(muted);
    let end = input.position()?;
    crate::map::note(start, end, type_name, crate::map::SpanKind::Field, || {
        format!("{value:?}")
    });
    Ok(value)
}

pub fn write_pascal<O: Output>(output: &mut O, value: &RawString) -> Result<(), Error> {
    let len = u8::try_from(value.0.len()).map_err(|_| {
        Error::new(ErrorKind::TooLong {
            len: value.0.len(),
            count_type: "u8",
            max: 255,
        })
    })?;
    output.write_bytes(&[len])?;
    output.write_bytes(&value.0)
}

/// A string whose length, an integer of type `C`, comes first (`prefix =
/// C` on a `RawString`). A length the input cannot hold is refused before
/// anything is allocated.
pub fn read_prefixed<C: CountInt, I: Input>(
    input: &mut I,
    endian: Endian,
) -> Result<RawString, Error> {
    noted(input, "RawString (length, then bytes)", |input| {
        let len = read_count::<C, I>(input, endian)?;
        input.read_bytes(len as u64).map(RawString)
    })
}

pub fn write_prefixed<C: CountInt, O: Output>(
    output: &mut O,
    endian: Endian,
    value: &RawString,
) -> Result<(), Error> {
    write_count::<C, O>(output, endian, value.0.len())?;
    output.write_bytes(&value.0)
}

/// Null-terminated string: bytes up to a 0 byte, which is not kept.
#[inline]
pub fn read_null_terminated<I: Input>(input: &mut I) -> Result<RawString, Error> {
    noted(input, "RawString (null-terminated)", |input| {
        input.read_null_terminated().map(RawString)
    })
}

pub fn write_null_terminated<O: Output>(output: &mut O, value: &RawString) -> Result<(), Error> {
    if !O::COUNTS_ONLY && has_zero_byte(&value.0) {
        return Err(Error::new(ErrorKind::Invalid(
            "a null-terminated string cannot contain a 0 byte".to_owned(),
        )));
    }
    output.write_bytes(&value.0)?;
    output.write_bytes(&[0])
}

/// Whether `bytes` hold a 0 byte, eight at a time: names are short, where
/// `contains` compares byte by byte and `memchr` costs a call. A short
/// string is padded with 1s to a word; a longer one ends with a word that
/// overlaps the one before.
#[inline]
fn has_zero_byte(bytes: &[u8]) -> bool {
    let Some(last) = bytes.last_chunk::<8>() else {
        let mut word = [1u8; 8];
        if let Some(front) = word.get_mut(..bytes.len()) {
            front.copy_from_slice(bytes);
        }
        return word_has_zero_byte(word);
    };
    bytes
        .chunks_exact(8)
        .any(|word| word.try_into().is_ok_and(word_has_zero_byte))
        || word_has_zero_byte(*last)
}

#[inline]
fn word_has_zero_byte(bytes: [u8; 8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let word = u64::from_ne_bytes(bytes);
    // Nonzero exactly when some byte is 0: the lowest 0 byte borrows and
    // keeps its high bit; bytes below it cannot (no borrow reaches them,
    // and `!word` clears the high bit of those above 0x7F).
    word.wrapping_sub(ONES) & !word & HIGHS != 0
}

/// Fixed-width string: exactly `width` bytes, all kept (padding included),
/// so whatever followed the text in the original file comes back.
pub fn read_fixed_width<I: Input>(input: &mut I, width: u64) -> Result<RawString, Error> {
    noted(input, "RawString (fixed width)", |input| {
        input.read_bytes(width).map(RawString)
    })
}

/// Writes the bytes and pads a shorter value with zeros.
pub fn write_fixed_width<O: Output>(
    output: &mut O,
    value: &RawString,
    width: u64,
) -> Result<(), Error> {
    let len = value.0.len() as u64;
    if len > width {
        return Err(Error::new(ErrorKind::TooLong {
            len: value.0.len(),
            count_type: "fixed-width string",
            max: width,
        }));
    }
    output.write_bytes(&value.0)?;
    let padding = usize::try_from(width - len).unwrap_or(usize::MAX);
    output.write_bytes(&vec![0; padding])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn every_byte_maps_to_a_character_and_back() {
        let all: Vec<u8> = (0..=255).collect();
        let text = RawString(all.clone()).to_text();
        assert_eq!(text.chars().count(), 256);
        assert_eq!(RawString::from_text(&text), Some(RawString(all)));
    }

    #[test]
    fn windows_1252_letters_show_as_text() {
        assert_eq!(RawString(vec![0x80, b'5', 0xE9]).to_text(), "€5é");
        assert_eq!(RawString::from_text("ő"), None);
    }

    #[test]
    fn unterminated_string_points_at_its_start() {
        let mut reader = Cursor::new(&b"ab\0cd"[..]);
        assert_eq!(
            read_null_terminated(&mut reader).unwrap(),
            RawString::from("ab")
        );
        let error = read_null_terminated(&mut reader).unwrap_err();
        assert_eq!(error.position, Some(super::super::Position::Byte(3)));
        assert!(matches!(error.kind, ErrorKind::UnterminatedString));
    }

    #[test]
    fn fixed_width_keeps_padding_and_pads_short_values() {
        let mut reader = Cursor::new(&b"ab\0x"[..]);
        let value = read_fixed_width(&mut reader, 4).unwrap();
        assert_eq!(value.as_bytes(), b"ab\0x");
        let mut out = Cursor::new(Vec::new());
        write_fixed_width(&mut out, &RawString::from("ab"), 4).unwrap();
        assert_eq!(out.into_inner(), b"ab\0\0");
    }

    #[test]
    fn zero_bytes_are_found_at_every_position_among_any_neighbours() {
        for len in 0..40 {
            for fill in [0x01, 0x7F, 0x80, 0x81, 0xFF] {
                let mut bytes = vec![fill; len];
                assert!(!has_zero_byte(&bytes), "{len} bytes of {fill:#x}");
                for at in 0..len {
                    bytes[at] = 0;
                    assert!(has_zero_byte(&bytes), "0 at {at} of {len}, {fill:#x}");
                    bytes[at] = 0x100u16.saturating_sub(at as u16) as u8;
                    assert_eq!(has_zero_byte(&bytes), bytes.contains(&0));
                }
            }
        }
    }

    #[test]
    fn pascal_string_too_long_is_a_write_error() {
        let mut out = Cursor::new(Vec::new());
        let error = write_pascal(&mut out, &RawString(vec![b'a'; 300])).unwrap_err();
        assert!(matches!(error.kind, ErrorKind::TooLong { len: 300, .. }));
    }
}
