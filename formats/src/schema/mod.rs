//! The schema runtime: what `#[derive(Schema)]` expands to.
//!
//! A derived type implements [`Decode`] and [`Encode`] (the workhorses, with
//! byte offsets and field paths in their errors), binrw's `BinRead` and
//! `BinWrite` on top of them (so schema types nest inside anyone's binrw
//! types), [`Layout`] (the field table the docs are generated from) and
//! [`BinarySchema`] (`from_bytes`, `to_bytes`, `read_from`, `write_to`).
//! Text layouts have their counterparts in [`text`]. Reading and writing,
//! binary and text, fail with one [`Error`]; [`json`] moves values to and
//! from JSON with every float kept bit for bit.
//!
//! The helpers the expansions call are not part of this API: they are
//! reached through the crate's hidden `__private` module.

pub(crate) mod collection;
#[cfg(test)]
mod derive_tests;
mod error;
pub(crate) mod iff;
mod io;
pub mod json;
mod layout;
pub(crate) mod markers;
mod primitive;
pub(crate) mod size;
pub(crate) mod string;
#[cfg(feature = "testing")]
pub mod testing;
pub mod text;

use std::io::{Cursor, Read, Seek, Write};

pub use binrw::Endian;
pub use error::{Error, ErrorKind, FieldPath, Position, Segment};
pub use layout::{ByteOrder, FieldLayout, Layout, TypeLayout};
pub use markers::{Count, Magic};
pub use string::RawString;

/// A value with a binary encoding. `endian` is the byte order the enclosing
/// field asks for; derived types ignore it and use their own.
pub trait Decode: Sized {
    /// Fewest bytes any encoding of this type takes: bounds how many elements
    /// a count read from a file may pre-allocate.
    const MIN_SIZE: u64;
    /// The size of every encoding, when all have the same size.
    const FIXED_SIZE: Option<u64>;
    /// The layout a field holding this type refers to: the type's own when
    /// `#[derive(Schema)]` made it, none for numbers and strings.
    const NESTED_LAYOUT: Option<fn() -> TypeLayout> = None;

    fn decode<R: Read + Seek>(reader: &mut R, endian: Endian) -> Result<Self, Error>;
}

/// The writing half of [`Decode`].
pub trait Encode {
    fn encode<W: Write + Seek>(&self, writer: &mut W, endian: Endian) -> Result<(), Error>;
}

/// Conveniences for a whole binary file, implemented by `#[derive(Schema)]`.
pub trait BinarySchema: Decode + Encode {
    /// Decodes a whole file; bytes left over after the value are an error.
    fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let mut cursor = Cursor::new(bytes);
        let value = Self::decode(&mut cursor, Endian::Little)?;
        let end = cursor.position();
        if end != bytes.len() as u64 {
            return Err(Error::at_byte(
                end,
                ErrorKind::Invalid(format!(
                    "{} byte(s) follow the end of the data",
                    bytes.len() as u64 - end
                )),
            ));
        }
        Ok(value)
    }

    fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        let mut cursor = Cursor::new(Vec::new());
        self.encode(&mut cursor, Endian::Little)?;
        Ok(cursor.into_inner())
    }

    /// Decodes one value from the reader's current position.
    fn read_from<R: Read + Seek>(reader: &mut R) -> Result<Self, Error> {
        Self::decode(reader, Endian::Little)
    }

    fn write_to<W: Write + Seek>(&self, writer: &mut W) -> Result<(), Error> {
        self.encode(writer, Endian::Little)
    }
}
