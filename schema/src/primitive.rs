//! Integers, floats and fixed arrays. Floats travel as their bit patterns,
//! so NaN payloads and negative zero survive a round trip.

use arrayvec::ArrayVec;

use crate::map::SpanKind;

use super::{
    Decode, Encode, Endian, Error, ErrorKind, HasContext, Input, NumberText, Output, Segment,
    TypeLayout,
};

/// A number from its bytes in either order.
trait FromEndianBytes {
    type Bytes;
    fn from_endian_bytes(bytes: Self::Bytes, endian: Endian) -> Self;
}

#[inline]
fn from_bytes<T: FromEndianBytes>(bytes: T::Bytes, endian: Endian) -> T {
    T::from_endian_bytes(bytes, endian)
}

/// A number read while the byte map records: noted as a span.
#[cold]
#[inline(never)]
fn decode_noted<T, I, const N: usize>(
    input: &mut I,
    endian: Endian,
    type_name: &'static str,
) -> Result<T, Error>
where
    T: FromEndianBytes<Bytes = [u8; N]> + std::fmt::Debug,
    I: Input,
{
    let start = input.position()?;
    let value: T = from_bytes(input.read_array()?, endian);
    crate::map::note(start, start + N as u64, type_name, SpanKind::Field, || {
        format!("{value:?}")
    });
    Ok(value)
}

/// A number's value as the byte map shows it (as `Debug` prints it).
fn number_text<T: Decode + std::fmt::Debug>(bytes: &[u8], endian: Endian, text: &mut String) {
    use std::fmt::Write as _;
    if let Some(value) = T::decode_plain(bytes, endian) {
        let _ = write!(text, "{value:?}");
    }
}

/// An array of numbers' value as the byte map shows it: `[1, 2, 3]`.
fn array_text<T: Decode>(bytes: &[u8], endian: Endian, text: &mut String) {
    let (Some(size), Some(element)) = (T::PLAIN_SIZE, T::NUMBER_TEXT) else {
        return;
    };
    text.push('[');
    for (index, one) in bytes.chunks_exact(size.max(1)).enumerate() {
        if index > 0 {
            text.push_str(", ");
        }
        (element.write)(one, endian, text);
    }
    text.push(']');
}

/// Notes `bytes`, read from `start`, as one span of numbers of type `T`
/// (an array or a list of them, `type_name`): its value the first few
/// numbers and how many there are; bytes (`u8`) as a byte string, as a
/// chunk tag is written (`b"SPR2"`).
#[cold]
#[inline(never)]
pub(crate) fn note_numbers<T: Decode>(
    start: u64,
    bytes: &[u8],
    endian: Endian,
    type_name: &'static str,
) {
    /// How many numbers, and how many bytes of a byte string, the value
    /// shows.
    const SHOWN: usize = 16;
    const SHOWN_BYTES: usize = 48;
    let (Some(size), Some(text)) = (T::PLAIN_SIZE.filter(|&size| size > 0), T::NUMBER_TEXT) else {
        return;
    };
    let count = bytes.len() / size;
    let end = start + bytes.len() as u64;
    crate::map::note(start, end, type_name, SpanKind::Field, || {
        if text.is_byte {
            let shown = bytes.get(..SHOWN_BYTES).unwrap_or(bytes);
            let mut value = crate::byte_string(shown);
            if count > SHOWN_BYTES {
                value.push_str(&format!(" ... {count} bytes in all"));
            }
            return value;
        }
        let mut value = String::from("[");
        for (index, element) in bytes.chunks_exact(size).take(SHOWN).enumerate() {
            if index > 0 {
                value.push_str(", ");
            }
            (text.write)(element, endian, &mut value);
        }
        if count > SHOWN {
            value.push_str(&format!(", ... {count} in all"));
        }
        value.push(']');
        value
    });
}

/// A list of bytes in memory is its own encoding: decoded and encoded as
/// one copy, not byte by byte.
fn bytes_as_they_are(bytes: &[u8]) -> Option<&[u8]> {
    Some(bytes)
}

#[inline]
fn bytes_to_vec(bytes: &[u8]) -> Option<Vec<u8>> {
    Some(bytes.to_vec())
}

/// An array of bytes is its bytes: one copy.
#[inline]
fn byte_array<const N: usize>(bytes: &[u8]) -> Option<[u8; N]> {
    bytes.try_into().ok()
}

fn not_byte_array<T, const N: usize>(_: &[u8]) -> Option<[T; N]> {
    None
}

/// A list of wider numbers has a byte order: decoded and encoded value by
/// value.
fn not_bytes<T>(_: &[T]) -> Option<&[u8]> {
    None
}

fn not_from_bytes<T>(_: &[u8]) -> Option<Vec<T>> {
    None
}

/// Each number type, whether it is a byte (`u8`), and how a list of them
/// is taken as bytes and made from them, and an array of them from bytes.
macro_rules! number {
    ($($ty:ty: $is_byte:literal, $as_bytes:ident, $from_bytes:ident, $array:ident),*) => {$(
        impl FromEndianBytes for $ty {
            type Bytes = [u8; std::mem::size_of::<$ty>()];
            fn from_endian_bytes(bytes: Self::Bytes, endian: Endian) -> Self {
                match endian {
                    Endian::Big => <$ty>::from_be_bytes(bytes),
                    Endian::Little => <$ty>::from_le_bytes(bytes),
                }
            }
        }

        impl HasContext for $ty {
            type Context = ();
            type TextContext = ();
        }

        impl crate::ReadsForward for $ty {}

        impl Decode for $ty {
            const MIN_SIZE: u64 = std::mem::size_of::<$ty>() as u64;
            const FIXED_SIZE: Option<u64> = Some(Self::MIN_SIZE);

            const PLAIN_SIZE: Option<usize> = Some(std::mem::size_of::<$ty>());
            const NUMBER_TEXT: Option<NumberText> = Some(NumberText {
                write: number_text::<$ty>,
                is_byte: $is_byte,
            });

            decode_through_input!();

            #[inline]
            fn decode_input<I: Input>(input: &mut I, endian: Endian, _: &()) -> Result<Self, Error> {
                if crate::map::recording_in::<I>() {
                    return decode_noted(input, endian, stringify!($ty));
                }
                Ok(from_bytes(input.read_array()?, endian))
            }

            #[inline]
            fn decode_plain(bytes: &[u8], endian: Endian) -> Option<Self> {
                Some(from_bytes(*bytes.first_chunk()?, endian))
            }

            #[inline]
            fn decode_plain_bytes(bytes: &[u8]) -> Option<Vec<Self>> {
                $from_bytes(bytes)
            }

            /// After the length check every chunk decodes, so the zero the
            /// array would take past the end of `bytes` is never used.
            #[inline]
            fn decode_plain_array<const N: usize>(bytes: &[u8], endian: Endian) -> Option<[Self; N]> {
                if let Some(array) = $array(bytes) {
                    return Some(array);
                }
                const SIZE: usize = std::mem::size_of::<$ty>();
                if bytes.len() != SIZE.checked_mul(N)? {
                    return None;
                }
                let mut values = bytes
                    .chunks_exact(SIZE)
                    .map(|chunk| chunk.first_chunk().map_or(0 as $ty, |chunk| from_bytes(*chunk, endian)));
                Some(std::array::from_fn(|_| values.next().unwrap_or(0 as $ty)))
            }
        }

        impl Encode for $ty {
            encode_through_output!();

            #[inline]
            fn encode_output<O: Output>(&self, output: &mut O, endian: Endian, _: &()) -> Result<(), Error> {
                let bytes = match endian {
                    Endian::Big => self.to_be_bytes(),
                    Endian::Little => self.to_le_bytes(),
                };
                output.write_bytes(&bytes)
            }

            #[inline]
            fn plain_bytes(elements: &[Self]) -> Option<&[u8]> {
                $as_bytes(elements)
            }

            #[inline]
            fn encode_plain(&self, bytes: &mut [u8], endian: Endian) -> bool {
                let Some(slot) = bytes.first_chunk_mut() else {
                    return false;
                };
                *slot = match endian {
                    Endian::Big => self.to_be_bytes(),
                    Endian::Little => self.to_le_bytes(),
                };
                true
            }
        }
    )*};
}

number!(
    u8: true, bytes_as_they_are, bytes_to_vec, byte_array,
    u16: false, not_bytes, not_from_bytes, not_byte_array,
    u32: false, not_bytes, not_from_bytes, not_byte_array,
    u64: false, not_bytes, not_from_bytes, not_byte_array,
    i8: false, not_bytes, not_from_bytes, not_byte_array,
    i16: false, not_bytes, not_from_bytes, not_byte_array,
    i32: false, not_bytes, not_from_bytes, not_byte_array,
    i64: false, not_bytes, not_from_bytes, not_byte_array,
    f32: false, not_bytes, not_from_bytes, not_byte_array,
    f64: false, not_bytes, not_from_bytes, not_byte_array
);

/// Every element gets the array's context.
impl<T: HasContext, const N: usize> HasContext for [T; N] {
    type Context = T::Context;
    type TextContext = T::TextContext;
}

impl<T: Decode, const N: usize> Decode for [T; N] {
    const MIN_SIZE: u64 = T::MIN_SIZE.saturating_mul(N as u64);
    const FIXED_SIZE: Option<u64> = match T::FIXED_SIZE {
        Some(size) => Some(size.saturating_mul(N as u64)),
        None => None,
    };
    const NESTED_LAYOUT: Option<fn() -> TypeLayout> = T::NESTED_LAYOUT;
    const ELEMENT_SIZE: Option<u64> = T::FIXED_SIZE;
    const PLAIN_SIZE: Option<usize> = match T::PLAIN_SIZE {
        Some(size) => size.checked_mul(N),
        None => None,
    };
    const NUMBER_TEXT: Option<NumberText> = match T::NUMBER_TEXT {
        Some(_) => Some(NumberText {
            write: array_text::<T>,
            is_byte: false,
        }),
        None => None,
    };

    decode_through_input!();

    #[inline]
    fn decode_input<I: Input>(
        input: &mut I,
        endian: Endian,
        context: &T::Context,
    ) -> Result<Self, Error> {
        if let Some(size) = Self::PLAIN_SIZE {
            if let Some(array) = input.read_plain(size, |bytes| Self::decode_plain(bytes, endian)) {
                return Ok(array);
            }
            if T::NUMBER_TEXT.is_some() && crate::map::recording_in::<I>() {
                return decode_numbers_noted(input, size, endian);
            }
        }
        let mut elements = ArrayVec::<T, N>::new();
        let recording = crate::map::recording_in::<I>();
        for index in 0..N {
            let _entered = crate::map::enter_if(recording, Segment::Index(index));
            let element = T::decode_input(input, endian, context)
                .map_err(|e| e.within(Segment::Index(index)))?;
            elements.try_push(element).map_err(|_| array_overflow())?;
        }
        elements.into_inner().map_err(|_| array_overflow())
    }

    #[inline]
    fn decode_plain(bytes: &[u8], endian: Endian) -> Option<Self> {
        T::decode_plain_array(bytes, endian)
    }
}

/// An array of numbers read while the byte map records: one span.
#[cold]
#[inline(never)]
fn decode_numbers_noted<T: Decode, I: Input, const N: usize>(
    input: &mut I,
    size: usize,
    endian: Endian,
) -> Result<[T; N], Error> {
    let start = input.position()?;
    let bytes = input.read_bytes(size as u64)?;
    let array = T::decode_plain_array(&bytes, endian).ok_or_else(array_overflow)?;
    note_numbers::<T>(start, &bytes, endian, std::any::type_name::<[T; N]>());
    Ok(array)
}

/// The loops above push exactly N elements, so this is never returned.
fn array_overflow() -> Error {
    Error::at_byte(0, ErrorKind::Invalid("array length mismatch".to_owned()))
}

impl<T: Encode + Decode, const N: usize> Encode for [T; N] {
    encode_through_output!();

    #[inline]
    fn encode_output<O: Output>(
        &self,
        output: &mut O,
        endian: Endian,
        context: &T::Context,
    ) -> Result<(), Error> {
        if let Some(size) = Self::PLAIN_SIZE {
            if output.write_plain(size, |bytes| self.encode_plain(bytes, endian)) {
                return Ok(());
            }
        }
        for (index, element) in self.iter().enumerate() {
            element
                .encode_output(output, endian, context)
                .map_err(|e| e.within(Segment::Index(index)))?;
        }
        Ok(())
    }

    /// Arrays of bytes are their bytes, one after another.
    #[inline]
    fn plain_bytes(elements: &[Self]) -> Option<&[u8]> {
        T::plain_bytes(elements.as_flattened())
    }

    #[inline]
    fn encode_plain(&self, bytes: &mut [u8], endian: Endian) -> bool {
        let Some(size) = T::PLAIN_SIZE.filter(|&size| size > 0) else {
            return false;
        };
        bytes.len() == size * N
            && bytes
                .chunks_exact_mut(size)
                .zip(self)
                .all(|(chunk, element)| element.encode_plain(chunk, endian))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn an_array_of_numbers_is_one_span_and_bytes_a_byte_string() {
        let (tag, spans) = crate::map::record_spans(|| {
            <[u8; 4]>::decode_input(&mut crate::SliceInput::new(b"SPR\n"), Endian::Big, &())
        });
        assert_eq!(tag.unwrap(), *b"SPR\n");
        let shown: Vec<(&str, &str, u64)> = spans
            .iter()
            .map(|span| (span.type_name, span.value.as_str(), span.end))
            .collect();
        assert_eq!(shown, [("[u8; 4]", "b\"SPR\\x0a\"", 4)]);
        let (_, spans) = crate::map::record_spans(|| {
            <[i16; 2]>::decode_input(
                &mut crate::SliceInput::new(&[0, 1, 0xff, 0xfe]),
                Endian::Big,
                &(),
            )
        });
        assert_eq!(spans.len(), 1);
        assert_eq!(spans[0].value, "[1, -2]");
    }

    #[test]
    fn numbers_follow_the_requested_byte_order() {
        let bytes = [0x12, 0x34, 0x56, 0x78];
        let big = u32::decode(&mut Cursor::new(&bytes[..]), Endian::Big, &()).unwrap();
        let little = u32::decode(&mut Cursor::new(&bytes[..]), Endian::Little, &()).unwrap();
        assert_eq!(big, 0x1234_5678);
        assert_eq!(little, 0x7856_3412);
    }

    #[test]
    fn nan_payloads_survive() {
        let signalling = f32::from_bits(0x7f80_0001);
        let mut out = Cursor::new(Vec::new());
        signalling.encode(&mut out, Endian::Little, &()).unwrap();
        assert_eq!(out.get_ref(), &[0x01, 0x00, 0x80, 0x7f]);
        let back = f32::decode(&mut Cursor::new(out.get_ref()), Endian::Little, &()).unwrap();
        assert_eq!(back.to_bits(), 0x7f80_0001);
    }

    #[test]
    fn short_input_reports_where_the_value_began() {
        let bytes = [0u8, 0, 0, 0, 0xAA, 0xBB];
        let error =
            <[u32; 2]>::decode(&mut Cursor::new(&bytes[..]), Endian::Little, &()).unwrap_err();
        assert_eq!(error.position, Some(super::super::Position::Byte(4)));
        assert_eq!(error.path.to_string(), "[1]");
        assert!(matches!(
            error.kind,
            super::super::ErrorKind::UnexpectedEnd {
                needed: 4,
                available: 2
            }
        ));
    }
}
