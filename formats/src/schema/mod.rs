//! The schema runtime: what `#[derive(Schema)]` expands to.
//!
//! A derived type implements [`Decode`] and [`Encode`] (the workhorses, with
//! byte offsets and field paths in their errors), binrw's `BinRead` and
//! `BinWrite` on top of them (so schema types nest inside anyone's binrw
//! types), [`Layout`] (the field table the docs are generated from) and
//! [`BinarySchema`] (`from_bytes`, `to_bytes`, `read_from`, `write_to`).

mod collection;
#[cfg(test)]
mod derive_tests;
mod error;
mod iff;
mod io;
pub mod json;
mod layout;
mod markers;
mod primitive;
mod string;
#[cfg(test)]
pub mod testing;
pub mod text;

use std::io::{Cursor, Read, Seek, Write};

pub use binrw::{self, Endian};
pub use collection::{
    check_presence, read_count, read_flagged, read_vec, shared_len, write_count, write_each,
    write_flagged, CountInt, FlagInt,
};
pub use error::{FieldPath, ReadError, ReadErrorKind, Segment, WriteError, WriteErrorKind};
pub use iff::{
    peek_form_type, read_chunk, read_form, tag_text, unknown_form, write_chunk, write_form,
    Bounded, FormType, IffForm, CHUNK_HEADER_SIZE, FORM_HEADER_SIZE,
};
pub use io::{read_array, remaining};
pub use layout::{FieldLayout, Layout, TypeLayout};
pub use markers::{read_magic, write_magic, Count, CountField, Magic};
pub use string::{
    read_fixed_width, read_null_terminated, read_pascal, write_fixed_width, write_null_terminated,
    write_pascal, RawString,
};

/// A value with a binary encoding. `endian` is the byte order the enclosing
/// field asks for; derived types ignore it and use their own.
pub trait Decode: Sized {
    /// Fewest bytes any encoding of this type takes: bounds how many elements
    /// a count read from a file may pre-allocate.
    const MIN_SIZE: u64;
    /// The size of every encoding, when all have the same size.
    const FIXED_SIZE: Option<u64>;

    fn decode<R: Read + Seek>(reader: &mut R, endian: Endian) -> Result<Self, ReadError>;
}

/// The writing half of [`Decode`].
pub trait Encode {
    fn encode<W: Write + Seek>(&self, writer: &mut W, endian: Endian) -> Result<(), WriteError>;
}

/// Conveniences for a whole binary file, implemented by `#[derive(Schema)]`.
pub trait BinarySchema: Decode + Encode {
    /// Decodes a whole file; bytes left over after the value are an error.
    fn from_bytes(bytes: &[u8]) -> Result<Self, ReadError> {
        let mut cursor = Cursor::new(bytes);
        let value = Self::decode(&mut cursor, Endian::Little)?;
        let end = cursor.position();
        if end != bytes.len() as u64 {
            return Err(ReadError::new(
                end,
                ReadErrorKind::Invalid(format!(
                    "{} byte(s) follow the end of the data",
                    bytes.len() as u64 - end
                )),
            ));
        }
        Ok(value)
    }

    fn to_bytes(&self) -> Result<Vec<u8>, WriteError> {
        let mut cursor = Cursor::new(Vec::new());
        self.encode(&mut cursor, Endian::Little)?;
        Ok(cursor.into_inner())
    }

    /// Decodes one value from the reader's current position.
    fn read_from<R: Read + Seek>(reader: &mut R) -> Result<Self, ReadError> {
        Self::decode(reader, Endian::Little)
    }

    fn write_to<W: Write + Seek>(&self, writer: &mut W) -> Result<(), WriteError> {
        self.encode(writer, Endian::Little)
    }
}

/// Sum of two minimum sizes, for the constants the derive emits.
pub const fn add_min(a: u64, b: u64) -> u64 {
    a.saturating_add(b)
}

/// The smaller of two minimum sizes: an enum's is its smallest variant's.
pub const fn lesser_min(a: u64, b: u64) -> u64 {
    if a < b {
        a
    } else {
        b
    }
}

/// Sum of two fixed sizes; `None` once any part varies.
pub const fn add_fixed(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.saturating_add(b)),
        _ => None,
    }
}
