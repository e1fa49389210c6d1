//! Transforms: bytes decoded before a value is read from them and encoded
//! after it is written (gzip and zlib through `flate2`, or a [`Transform`]
//! of one's own), in a [`Transformed`] field. A value read from a file
//! keeps the file's encoded bytes and writes them back while its value is
//! unchanged; a changed value, or one built by hand, is encoded anew.

use std::fmt;
use std::io::{Read, Write};
use std::marker::PhantomData;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::block::enter_block;
use super::{
    Decode, Encode, Endian, Error, ErrorKind, HasContext, Input, Output, SliceInput, VecOutput,
};
use crate::map;

/// A way bytes are stored: decoded before a value is read from them,
/// encoded after it is written.
pub trait Transform {
    /// As the byte map names it.
    const NAME: &'static str;
    fn decode(encoded: &[u8]) -> Result<Vec<u8>, Error>;
    fn encode(decoded: &[u8]) -> Result<Vec<u8>, Error>;
}

/// A gzip stream (RFC 1952).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gzip;

/// A zlib stream (RFC 1950).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Zlib;

impl Transform for Gzip {
    const NAME: &'static str = "gzip stream";

    fn decode(encoded: &[u8]) -> Result<Vec<u8>, Error> {
        read_all(flate2::read::GzDecoder::new(encoded), encoded.len(), "gzip")
    }

    fn encode(decoded: &[u8]) -> Result<Vec<u8>, Error> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(decoded)?;
        Ok(encoder.finish()?)
    }
}

impl Transform for Zlib {
    const NAME: &'static str = "zlib stream";

    fn decode(encoded: &[u8]) -> Result<Vec<u8>, Error> {
        read_all(
            flate2::read::ZlibDecoder::new(encoded),
            encoded.len(),
            "zlib",
        )
    }

    fn encode(decoded: &[u8]) -> Result<Vec<u8>, Error> {
        let mut encoder =
            flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(decoded)?;
        Ok(encoder.finish()?)
    }
}

/// The most bytes a stream may decode to, per byte of it: more is taken
/// for a stream crafted to exhaust memory (gzip's own best is about 1032).
const MOST_DECODED_PER_BYTE: u64 = 1100;

/// The bytes a stream of `len` bytes decodes to: bounded, so that a stream
/// crafted to inflate without end fails instead of exhausting memory.
fn read_all(decoder: impl Read, len: usize, what: &str) -> Result<Vec<u8>, Error> {
    let most = (len as u64).saturating_mul(MOST_DECODED_PER_BYTE);
    let mut decoded = Vec::new();
    decoder
        .take(most.saturating_add(1))
        .read_to_end(&mut decoded)
        .map_err(|error| {
            Error::new(ErrorKind::Invalid(format!(
                "the {what} stream does not decode: {error}"
            )))
        })?;
    if decoded.len() as u64 > most {
        return Err(Error::new(ErrorKind::Invalid(format!(
            "the {what} stream decodes to more than {most} bytes, {MOST_DECODED_PER_BYTE} per \
             byte of it"
        ))));
    }
    Ok(decoded)
}

/// An error reading a value from decoded bytes, placed at the encoded
/// bytes' first byte, saying where in the decoded bytes it is.
fn in_decoded(mut error: Error, start: u64, what: &str) -> Error {
    let inside = match error.position {
        Some(crate::Position::Byte(byte)) => format!("byte {byte} of the decoded {what}"),
        _ => format!("the decoded {what}"),
    };
    error.position = Some(crate::Position::Byte(start));
    error.kind = ErrorKind::Invalid(format!("{inside}: {}", error.kind));
    error
}

/// A value stored through a transform `X`: read from the bytes the
/// transform decodes from every byte left in its input (a chunk's, a
/// `size` block's, the file's), written as the bytes it encodes.
pub struct Transformed<X, T> {
    pub value: T,
    /// The encoded bytes a file held, written back while the value
    /// encodes to what they decode to.
    found: Option<Vec<u8>>,
    transform: PhantomData<fn() -> X>,
}

impl<X, T> Transformed<X, T> {
    /// A value to be encoded anew.
    pub fn new(value: T) -> Self {
        Transformed {
            value,
            found: None,
            transform: PhantomData,
        }
    }

    /// The encoded bytes a file held, if the value was read from one.
    pub fn found(&self) -> Option<&[u8]> {
        self.found.as_deref()
    }
}

impl<X, T: Clone> Clone for Transformed<X, T> {
    fn clone(&self) -> Self {
        Transformed {
            value: self.value.clone(),
            found: self.found.clone(),
            transform: PhantomData,
        }
    }
}

impl<X, T: PartialEq> PartialEq for Transformed<X, T> {
    /// Values compare: the bytes a file held are how it stored them.
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<X: Transform, T: fmt::Debug> fmt::Debug for Transformed<X, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Transformed")
            .field("transform", &X::NAME)
            .field("value", &self.value)
            .field("found", &self.found.as_ref().map(Vec::len))
            .finish()
    }
}

/// In JSON, the value and the encoded bytes found (so that a file moved
/// through JSON comes back byte for byte).
#[derive(Deserialize)]
struct TransformedJson<T> {
    value: T,
    found: Option<Vec<u8>>,
}

impl<X, T: Serialize> Serialize for Transformed<X, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Borrowed<'a, T> {
            value: &'a T,
            found: &'a Option<Vec<u8>>,
        }
        Borrowed {
            value: &self.value,
            found: &self.found,
        }
        .serialize(serializer)
    }
}

impl<'de, X, T: Deserialize<'de>> Deserialize<'de> for Transformed<X, T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let json = TransformedJson::deserialize(deserializer)?;
        Ok(Transformed {
            value: json.value,
            found: json.found,
            transform: PhantomData,
        })
    }
}

impl<X, T: HasContext> HasContext for Transformed<X, T> {
    type Context = T::Context;
    type TextContext = T::TextContext;
}

impl<X: Transform, T: Decode> Decode for Transformed<X, T> {
    const MIN_SIZE: u64 = 0;
    const FIXED_SIZE: Option<u64> = None;
    const NESTED_LAYOUT: Option<fn() -> crate::TypeLayout> = T::NESTED_LAYOUT;

    decode_through_input!();

    fn decode_input<I: Input>(
        input: &mut I,
        endian: Endian,
        context: &Self::Context,
    ) -> Result<Self, Error> {
        let start = input.position()?;
        let len = input.remaining()?;
        let muted = map::mute();
        let encoded = input.read_bytes(len)?;
        drop(muted);
        let decoded = X::decode(&encoded).map_err(|error| error.or_at_byte(start))?;
        crate::offsets::widen_read_budget(decoded.len() as u64);
        // The decoded bytes are a file of their own: their positions and
        // their blocks count from their start.
        let (value, spans) = map::record_decoded(|| {
            let _block = enter_block(0);
            let mut inner = SliceInput::new(&decoded);
            let value = T::decode_input(&mut inner, endian, context)?;
            let left = decoded.len() - inner.offset();
            if left != 0 {
                return Err(Error::at_byte(
                    inner.offset() as u64,
                    ErrorKind::Invalid(format!(
                        "{left} byte(s) of the decoded {} follow the value",
                        X::NAME
                    )),
                ));
            }
            Ok(value)
        });
        let value = value.map_err(|error| in_decoded(error, start, X::NAME))?;
        map::note_decoded(
            (start, start + len),
            X::NAME,
            format!("{len} byte(s), {} decoded", decoded.len()),
            (&decoded, spans),
        );
        Ok(Transformed {
            value,
            found: Some(encoded),
            transform: PhantomData,
        })
    }
}

impl<X: Transform, T: Encode> Encode for Transformed<X, T> {
    encode_through_output!();

    fn encode_output<O: Output>(
        &self,
        output: &mut O,
        endian: Endian,
        context: &Self::Context,
    ) -> Result<(), Error> {
        // A size estimate does not compress: the bytes found, else none
        // (the output then grows once).
        if O::ESTIMATES {
            output.assume(self.found.as_ref().map_or(0, |found| found.len() as u64));
            return Ok(());
        }
        let mut decoded = VecOutput::default();
        {
            let _block = enter_block(0);
            self.value.encode_output(&mut decoded, endian, context)?;
        }
        let decoded = decoded.into_bytes();
        let unchanged = match &self.found {
            Some(found) => X::decode(found).is_ok_and(|was| was == decoded),
            None => false,
        };
        match (&self.found, unchanged) {
            (Some(found), true) => output.write_bytes(found),
            _ => output.write_bytes(&X::encode(&decoded)?),
        }
    }
}
