//! Where encoders write to: any `Write + Seek` stream (binrw's writers,
//! files, cursors) or a growing byte vector ([`VecOutput`], what `to_bytes`
//! writes). Both write the same bytes and fail the same way; the vector
//! takes each value with one append and patches IFF sizes in place.

use std::io::{Cursor, Seek, SeekFrom, Write};

use super::Error;

/// A sink for bytes that knows its position and can patch bytes already
/// written (an IFF size, once the contents are known).
pub trait Output {
    /// What a hand-written codec (`with = path`, an `Encode` written by
    /// hand) writes to.
    type Stream<'a>: Write + Seek
    where
        Self: 'a;

    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), Error>;

    fn position(&mut self) -> Result<u64, Error>;

    /// Overwrites the bytes at `at`, which were written already, and
    /// continues at the end.
    fn patch(&mut self, at: u64, bytes: &[u8]) -> Result<(), Error>;

    /// Room for `additional` more bytes, when the output can make it.
    fn reserve(&mut self, additional: usize);

    /// Runs a `Write + Seek` writer over the same output, at its position.
    fn as_stream<'s, T>(
        &'s mut self,
        write: impl FnOnce(&mut Self::Stream<'s>) -> Result<T, Error>,
    ) -> Result<T, Error>;
}

impl<W: Write + Seek> Output for W {
    type Stream<'a>
        = W
    where
        Self: 'a;

    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        Ok(self.write_all(bytes)?)
    }

    fn position(&mut self) -> Result<u64, Error> {
        Ok(self.stream_position()?)
    }

    fn patch(&mut self, at: u64, bytes: &[u8]) -> Result<(), Error> {
        let end = self.stream_position()?;
        self.seek(SeekFrom::Start(at))?;
        self.write_all(bytes)?;
        self.seek(SeekFrom::Start(end))?;
        Ok(())
    }

    fn reserve(&mut self, _: usize) {}

    fn as_stream<'s, T>(
        &'s mut self,
        write: impl FnOnce(&mut Self::Stream<'s>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        write(self)
    }
}

/// A whole output in memory: every write appends.
#[derive(Debug, Default)]
pub struct VecOutput {
    bytes: Vec<u8>,
}

impl VecOutput {
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

impl Output for VecOutput {
    type Stream<'a> = Cursor<&'a mut Vec<u8>>;

    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }

    fn position(&mut self) -> Result<u64, Error> {
        Ok(self.bytes.len() as u64)
    }

    fn patch(&mut self, at: u64, bytes: &[u8]) -> Result<(), Error> {
        let patched = usize::try_from(at)
            .ok()
            .and_then(|at| self.bytes.get_mut(at..at.checked_add(bytes.len())?));
        match patched {
            Some(patched) => {
                patched.copy_from_slice(bytes);
                Ok(())
            }
            // Only bytes this output wrote are patched; past its end there
            // is nothing to patch, as a stream would fail to.
            None => Err(Error::from(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "patch past the end of the output",
            ))),
        }
    }

    fn reserve(&mut self, additional: usize) {
        self.bytes.reserve(additional);
    }

    /// A cursor at the end, where everything written so far ends: a
    /// hand-written codec appends (or seeks back and patches) as it would
    /// in a stream.
    fn as_stream<'s, T>(
        &'s mut self,
        write: impl FnOnce(&mut Self::Stream<'s>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let end = self.bytes.len() as u64;
        let mut cursor = Cursor::new(&mut self.bytes);
        cursor.set_position(end);
        write(&mut cursor)
    }
}
