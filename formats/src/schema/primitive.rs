//! Integers, floats and fixed arrays. Floats travel as their bit patterns,
//! so NaN payloads and negative zero survive a round trip.

use std::io::{Read, Seek, Write};

use super::io::read_array;
use super::{Decode, Encode, Endian, Error, HasContext, Segment, TypeLayout};

macro_rules! number {
    ($($ty:ty),*) => {$(
        impl HasContext for $ty {
            type Context = ();
        }

        impl Decode for $ty {
            const MIN_SIZE: u64 = std::mem::size_of::<$ty>() as u64;
            const FIXED_SIZE: Option<u64> = Some(Self::MIN_SIZE);

            fn decode<R: Read + Seek>(reader: &mut R, endian: Endian, _: &()) -> Result<Self, Error> {
                let bytes = read_array::<{ std::mem::size_of::<$ty>() }, R>(reader)?;
                Ok(match endian {
                    Endian::Big => <$ty>::from_be_bytes(bytes),
                    Endian::Little => <$ty>::from_le_bytes(bytes),
                })
            }
        }

        impl Encode for $ty {
            fn encode<W: Write + Seek>(&self, writer: &mut W, endian: Endian, _: &()) -> Result<(), Error> {
                let bytes = match endian {
                    Endian::Big => self.to_be_bytes(),
                    Endian::Little => self.to_le_bytes(),
                };
                writer.write_all(&bytes)?;
                Ok(())
            }
        }
    )*};
}

number!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);

/// Every element gets the array's context.
impl<T: HasContext, const N: usize> HasContext for [T; N] {
    type Context = T::Context;
}

impl<T: Decode, const N: usize> Decode for [T; N] {
    const MIN_SIZE: u64 = T::MIN_SIZE.saturating_mul(N as u64);
    const FIXED_SIZE: Option<u64> = match T::FIXED_SIZE {
        Some(size) => Some(size.saturating_mul(N as u64)),
        None => None,
    };
    const NESTED_LAYOUT: Option<fn() -> TypeLayout> = T::NESTED_LAYOUT;

    fn decode<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        context: &T::Context,
    ) -> Result<Self, Error> {
        let mut elements = Vec::with_capacity(N);
        for index in 0..N {
            elements.push(
                T::decode(reader, endian, context).map_err(|e| e.within(Segment::Index(index)))?,
            );
        }
        // The loop pushed exactly N elements, so the conversion always succeeds.
        elements.try_into().map_err(|_| {
            Error::at_byte(
                0,
                super::ErrorKind::Invalid("array length mismatch".to_owned()),
            )
        })
    }
}

impl<T: Encode, const N: usize> Encode for [T; N] {
    fn encode<W: Write + Seek>(
        &self,
        writer: &mut W,
        endian: Endian,
        context: &T::Context,
    ) -> Result<(), Error> {
        for (index, element) in self.iter().enumerate() {
            element
                .encode(writer, endian, context)
                .map_err(|e| e.within(Segment::Index(index)))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

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
