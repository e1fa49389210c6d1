//! Bit fields: numbers of a few bits packed into a word (`#[schema(word =
//! u16, bits = 3)]`), the first field in the word's most significant bits
//! (or its least, with `lsb_first`); and enums chosen by the first bits of
//! a word, whose variants hold the rest ([`WordTail`]).

use super::{Decode, Encode, Endian, Error, ErrorKind, HasContext, Input, Output};
use crate::map::{self, BitSpan};

/// An unsigned integer type bit fields are packed into.
pub trait Word: Decode<Context = ()> + Encode<Context = ()> + Copy {
    const BITS: u32;
    fn to_u64(self) -> u64;
    /// The word holding the low `BITS` bits of `bits`.
    fn from_u64(bits: u64) -> Self;
}

macro_rules! word {
    ($($ty:ty),*) => {$(
        impl Word for $ty {
            const BITS: u32 = <$ty>::BITS;
            #[inline]
            fn to_u64(self) -> u64 {
                u64::from(self)
            }
            #[inline]
            fn from_u64(bits: u64) -> Self {
                bits as $ty
            }
        }
    )*};
}

word!(u8, u16, u32, u64);

/// A value a bit field holds: an integer (a signed one in two's
/// complement within its bits) or a `bool` (one bit).
pub trait BitField: Sized {
    /// The value of `width` bits.
    fn from_bits(bits: u64, width: u32) -> Self;
    /// The bits of the value, `None` when it does not fit `width` bits.
    fn to_bits(&self, width: u32) -> Option<u64>;
}

/// The low `width` bits set.
#[inline]
pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

macro_rules! unsigned_bit_field {
    ($($ty:ty),*) => {$(
        impl BitField for $ty {
            #[inline]
            fn from_bits(bits: u64, width: u32) -> Self {
                (bits & mask(width)) as $ty
            }
            #[inline]
            fn to_bits(&self, width: u32) -> Option<u64> {
                let bits = u64::from(*self);
                (bits <= mask(width)).then_some(bits)
            }
        }
    )*};
}

unsigned_bit_field!(u8, u16, u32, u64);

macro_rules! signed_bit_field {
    ($($ty:ty),*) => {$(
        impl BitField for $ty {
            #[inline]
            fn from_bits(bits: u64, width: u32) -> Self {
                // The top bit of the field is the sign: shift it to the
                // top of an i64 and back, filling with it.
                let unused = 64 - width.clamp(1, 64);
                (((bits << unused) as i64) >> unused) as $ty
            }
            #[inline]
            fn to_bits(&self, width: u32) -> Option<u64> {
                let value = i64::from(*self);
                let half = 1i64.checked_shl(width.saturating_sub(1)).unwrap_or(i64::MAX);
                (-half <= value && value < half).then_some(value as u64 & mask(width))
            }
        }
    )*};
}

signed_bit_field!(i8, i16, i32, i64);

impl BitField for bool {
    #[inline]
    fn from_bits(bits: u64, _: u32) -> Self {
        bits & 1 != 0
    }
    #[inline]
    fn to_bits(&self, _: u32) -> Option<u64> {
        Some(u64::from(*self))
    }
}

/// A bit field of a word, as the byte map names it.
#[derive(Debug, Clone, Copy)]
pub struct BitPart {
    pub name: &'static str,
    /// Its lowest bit, from the word's least significant.
    pub shift: u32,
    pub width: u32,
}

/// The `width` bits of `word` from bit `shift` up.
#[inline]
pub fn part(word: u64, shift: u32, width: u32) -> u64 {
    word.checked_shr(shift).unwrap_or(0) & mask(width)
}

/// A value as the `width` bits of a word, or an error naming the field
/// when it does not fit them.
pub fn bits_of<T: BitField + std::fmt::Debug>(
    field: &'static str,
    value: &T,
    width: u32,
) -> Result<u64, Error> {
    value.to_bits(width).ok_or_else(|| {
        Error::new(ErrorKind::Invalid(format!(
            "{value:?} does not fit {width} bits"
        )))
        .in_field(field)
    })
}

/// A count stored in `width` bits, or an error naming the count field
/// when the lists it counts are too long for them.
pub fn count_bits(field: &'static str, count: usize, width: u32) -> Result<u64, Error> {
    u64::try_from(count)
        .ok()
        .filter(|&bits| bits <= mask(width))
        .ok_or_else(|| {
            Error::new(ErrorKind::Invalid(format!(
                "{count} entries do not fit a count of {width} bits"
            )))
            .in_field(field)
        })
}

/// Reads a word of bit fields, noted in the byte map as one span with its
/// fields' bits.
#[inline]
pub fn read_word<W: Word, I: Input>(
    input: &mut I,
    endian: Endian,
    parts: &[BitPart],
) -> Result<u64, Error> {
    let start = input.position()?;
    let word = read_word_quietly::<W, I>(input, endian)?;
    if map::recording_in::<I>() {
        let end = input.position()?;
        note_bits::<W>(start, end, word, parts);
    }
    Ok(word)
}

/// Reads a word without noting it: its holder notes it once it knows its
/// fields (an enum chosen by its first bits, and its variant's). Always
/// inlined: left to the compiler, it was a call for every word.
#[inline(always)]
pub fn read_word_quietly<W: Word, I: Input>(input: &mut I, endian: Endian) -> Result<u64, Error> {
    let muted = map::mute_in::<I>();
    let word = W::decode_input(input, endian, &())?;
    drop(muted);
    Ok(word.to_u64())
}

/// Notes the word of an enum chosen by its first bits, read from an `I`:
/// the tag's part, then its variant's. The parts are joined only when
/// recording, so that decoding allocates nothing for the map it does not
/// make.
#[inline]
pub fn note_tagged_bits<W: Word, I: Input>(
    (start, end): (u64, u64),
    word: u64,
    tag: BitPart,
    parts: &[BitPart],
) {
    if map::recording_in::<I>() {
        note_bits::<W>(start, end, word, &[&[tag][..], parts].concat());
    }
}

/// Notes a word read from `start` to `end` with its fields' bits.
pub fn note_bits<W: Word>(start: u64, end: u64, word: u64, parts: &[BitPart]) {
    map::note_word(start, end, word_name::<W>(), word, || {
        parts
            .iter()
            .map(|part| BitSpan {
                name: part.name,
                shift: part.shift,
                width: part.width,
                value: self::part(word, part.shift, part.width),
            })
            .collect()
    });
}

fn word_name<W: Word>() -> &'static str {
    match W::BITS {
        8 => "u8 of bit fields",
        16 => "u16 of bit fields",
        32 => "u32 of bit fields",
        _ => "u64 of bit fields",
    }
}

/// Writes a word of bit fields.
#[inline]
pub fn write_word<W: Word, O: Output>(
    output: &mut O,
    endian: Endian,
    word: u64,
) -> Result<(), Error> {
    W::from_u64(word).encode_output(output, endian, &())
}

/// Writes a word over the placeholder at `at`: a word whose fields the
/// writer knows once what follows it is written.
#[inline]
pub fn patch_word<W: Word, O: Output>(
    output: &mut O,
    at: u64,
    endian: Endian,
    word: u64,
) -> Result<(), Error> {
    crate::computed::patch_value(output, at, &W::from_u64(word), endian)
}

/// Reading a variant without a value of an enum chosen by a word's first
/// bits: the word's other bits must be 0, which is what its writer writes.
pub fn unit_rest(at: u64, rest: u64, variant: &'static str) -> Result<(), Error> {
    if rest == 0 {
        return Ok(());
    }
    Err(Error::at_byte(
        at,
        ErrorKind::Invalid(format!(
            "the bits after the tag are {rest:#x}, but `{variant}` holds no value to keep them"
        )),
    ))
}

/// A struct whose first fields are bit fields continuing a word its
/// holder began: the variants of an enum chosen by the word's first bits
/// (`#[schema(tag = u16, bits = 3)]`). The holder reads and writes the
/// word; the struct reads and writes what follows it.
pub trait WordTail: HasContext + Sized {
    /// The bits its first fields take: the word's after the holder's.
    const BITS: u32;
    /// Those fields, for the byte map.
    const PARTS: &'static [BitPart];
    /// Fewest bytes it takes after the word.
    const MIN_SIZE: u64;

    /// The value, given the word's bits it holds (its low [`Self::BITS`]).
    fn decode_tail<I: Input>(
        bits: u64,
        input: &mut I,
        endian: Endian,
        context: &Self::Context,
    ) -> Result<Self, Error>;

    /// [`WordTail::decode_tail`], the value handed to `give` where it is
    /// built: the derive reads the fields, then gives `give` the value
    /// made from them, so that a caller keeping it elsewhere (the variant
    /// of an enum chosen by a word's bits, in a list) builds it there.
    #[inline]
    fn decode_tail_giving<I: Input, R>(
        bits: u64,
        input: &mut I,
        endian: Endian,
        context: &Self::Context,
        give: impl FnOnce(Self) -> Result<R, Error>,
    ) -> Result<R, Error> {
        give(Self::decode_tail(bits, input, endian, context)?)
    }

    /// Writes what follows the word, then gives the word's bits it holds
    /// (which may count what it wrote).
    fn encode_tail<O: Output>(
        &self,
        output: &mut O,
        endian: Endian,
        context: &Self::Context,
    ) -> Result<u64, Error>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_take_their_bits_and_refuse_what_does_not_fit() {
        assert_eq!(part(0b101_0000000000011, 13, 3), 0b101);
        assert_eq!(part(0b101_0000000000011, 0, 13), 3);
        assert_eq!(i8::from_bits(0b111, 3), -1);
        assert_eq!(i8::from_bits(0b011, 3), 3);
        assert_eq!((-4i8).to_bits(3), Some(0b100));
        assert_eq!(4i8.to_bits(3), None);
        assert_eq!(7u8.to_bits(3), Some(7));
        assert_eq!(
            bits_of("count", &8u16, 3).unwrap_err().to_string(),
            "count: 8 does not fit 3 bits"
        );
        assert_eq!(
            count_bits("count", 9000, 13).unwrap_err().to_string(),
            "count: 9000 entries do not fit a count of 13 bits"
        );
    }
}
