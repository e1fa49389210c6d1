//! Reading from a `Read` that cannot seek (a pipe, a socket, a
//! decompressor): [`StreamInput`] moves forward only, holding the bytes
//! it looked ahead at (a count's elements, checked to exist before they
//! are decoded) until they are read. A layout that never moves back
//! ([`ReadsForward`]) reads from it alike, with the same values and errors.

use std::io::{self, Read, Seek, SeekFrom};

use super::block::enter_block;
use super::{Block, Error, ErrorKind, Input, Transformed};

/// A type whose decoding reads forward only: it never moves back in the
/// input (to values at offsets, to an IFF child looked at before it is
/// read) nor hands it to a codec that may (`with = path`, a `Decode`
/// written by hand). `#[derive(Schema)]` implements it for every such
/// layout, whose fields' types read forward too; it is what
/// [`BinarySchema::read_from_stream`](crate::BinarySchema::read_from_stream)
/// asks.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is read by seeking (a value at an offset, an IFF chunk or form, a \
               hand-written codec), so not from a stream that cannot seek",
    label = "read from a `Read + Seek` (`read_from`) or from bytes (`from_bytes`)"
)]
pub trait ReadsForward {}

impl<T: ReadsForward, const N: usize> ReadsForward for [T; N] {}

impl<T: ReadsForward> ReadsForward for Block<T> {}

/// The encoded bytes are read to the input's end, and the value from the
/// decoded bytes in memory.
impl<X, T> ReadsForward for Transformed<X, T> {}

/// A forward-only input over a reader. It reads no byte past the last
/// one asked for, so a value read from it leaves the reader just after
/// the value (but for a list read to the end, which reads the rest).
pub struct StreamInput<R> {
    reader: R,
    /// Bytes read from the reader and not yet consumed, from `taken` on.
    ahead: Vec<u8>,
    taken: usize,
    /// The offset of the next byte, counted from where the reader began.
    position: u64,
    /// Where the enclosing `size` block ends, inside one.
    end: Option<u64>,
}

impl<R: Read> StreamInput<R> {
    pub fn new(reader: R) -> Self {
        StreamInput {
            reader,
            ahead: Vec::new(),
            taken: 0,
            position: 0,
            end: None,
        }
    }

    /// Bytes up to the enclosing block's end (all, outside one).
    fn limit(&self) -> u64 {
        self.end
            .map_or(u64::MAX, |end| end.saturating_sub(self.position))
    }

    fn buffered(&self) -> &[u8] {
        self.ahead.get(self.taken..).unwrap_or_default()
    }

    /// Reads ahead until `wanted` bytes (at most the block's) are held, or
    /// the reader ends; the bytes held, which may be fewer.
    fn fill(&mut self, wanted: u64) -> Result<u64, Error> {
        let wanted = wanted.min(self.limit());
        let held = self.buffered().len() as u64;
        if held >= wanted {
            return Ok(wanted);
        }
        self.ahead.drain(..self.taken);
        self.taken = 0;
        (&mut self.reader)
            .take(wanted - held)
            .read_to_end(&mut self.ahead)
            .map_err(|e| Error::at_byte(self.position.saturating_add(held), ErrorKind::Io(e)))?;
        Ok(self.buffered().len() as u64)
    }

    /// The next `len` bytes, consumed; `None` when the input holds fewer.
    fn take(&mut self, len: u64) -> Result<Option<&[u8]>, Error> {
        if self.fill(len)? < len {
            return Ok(None);
        }
        let start = self.taken;
        let Some(end) = usize::try_from(len)
            .ok()
            .and_then(|len| start.checked_add(len))
        else {
            return Ok(None);
        };
        self.taken = end;
        self.position += len;
        Ok(self.ahead.get(start..end))
    }

    #[cold]
    fn too_short(&mut self, needed: u64) -> Error {
        let available = self.fill(needed).unwrap_or(0);
        Error::at_byte(
            self.position,
            ErrorKind::UnexpectedEnd { needed, available },
        )
    }
}

impl<R: Read> Input for StreamInput<R> {
    type Narrowed<'a>
        = StreamInput<R>
    where
        Self: 'a;
    type Stream<'a>
        = ForwardSeek<'a, R>
    where
        Self: 'a;

    fn position(&mut self) -> Result<u64, Error> {
        Ok(self.position)
    }

    /// Inside a block, its bytes left; outside, the whole rest of the
    /// reader, which is read (a list to the end, a transform, need it).
    fn remaining(&mut self) -> Result<u64, Error> {
        match self.end {
            Some(_) => Ok(self.limit()),
            None => self.fill(u64::MAX),
        }
    }

    /// Reads ahead no further than `len`.
    fn remaining_up_to(&mut self, len: u64) -> Result<u64, Error> {
        self.fill(len)
    }

    fn read_array<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        match self.take(N as u64)? {
            Some(bytes) => {
                let mut array = [0; N];
                array.copy_from_slice(bytes);
                Ok(array)
            }
            None => Err(self.too_short(N as u64)),
        }
    }

    fn read_bytes(&mut self, len: u64) -> Result<Vec<u8>, Error> {
        match self.take(len)? {
            Some(bytes) => Ok(bytes.to_vec()),
            None => Err(self.too_short(len)),
        }
    }

    fn read_null_terminated(&mut self) -> Result<Vec<u8>, Error> {
        let start = self.position;
        let mut bytes = Vec::new();
        loop {
            match self.take(1)? {
                Some([0]) => return Ok(bytes),
                Some(byte) => bytes.extend_from_slice(byte),
                None => return Err(Error::at_byte(start, ErrorKind::UnterminatedString)),
            }
        }
    }

    /// Forward only: the bytes up to `position` are skipped.
    fn seek_to(&mut self, position: u64) -> Result<(), Error> {
        let skipped = position.checked_sub(self.position).ok_or_else(|| {
            Error::at_byte(
                self.position,
                ErrorKind::Invalid(format!(
                    "a stream that cannot seek cannot move back to byte {position}"
                )),
            )
        })?;
        match self.take(skipped)? {
            Some(_) => Ok(()),
            None => Err(self.too_short(skipped)),
        }
    }

    fn narrowed<'s, T>(
        &'s mut self,
        size: u64,
        read: impl FnOnce(&mut Self::Narrowed<'s>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let outer = self.end;
        self.end = Some(self.position.saturating_add(size.min(self.limit())));
        let block = enter_block(self.position);
        let value = read(self);
        drop(block);
        self.end = outer;
        value
    }

    fn as_stream<'s, T>(
        &'s mut self,
        read: impl FnOnce(&mut Self::Stream<'s>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        read(&mut ForwardSeek(self))
    }

    fn read_plain<T>(&mut self, size: usize, decode: impl FnOnce(&[u8]) -> Option<T>) -> Option<T> {
        // The byte map sees values one by one.
        if crate::map::recording() {
            return None;
        }
        let len = size as u64;
        if self.fill(len).ok()? < len {
            return None;
        }
        let bytes = self.buffered().get(..size)?;
        let value = decode(bytes)?;
        self.taken += size;
        self.position += len;
        Some(value)
    }
}

/// A [`StreamInput`] as a `Read + Seek` for a hand-written codec: it
/// tells its position and seeks forward, never back.
pub struct ForwardSeek<'a, R>(&'a mut StreamInput<R>);

impl<R: Read> Read for ForwardSeek<'_, R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let input = &mut *self.0;
        let wanted = (buffer.len() as u64).min(input.limit());
        let held = input.fill(wanted).map_err(io::Error::other)?;
        let len = usize::try_from(held)
            .unwrap_or(usize::MAX)
            .min(buffer.len());
        let start = input.taken;
        let bytes = input.ahead.get(start..start + len).unwrap_or_default();
        buffer
            .get_mut(..len)
            .unwrap_or_default()
            .copy_from_slice(bytes);
        input.taken += len;
        input.position += len as u64;
        Ok(len)
    }
}

impl<R: Read> Seek for ForwardSeek<'_, R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let here = self.0.position;
        let target = match to {
            SeekFrom::Start(target) => Some(target),
            SeekFrom::Current(by) => here.checked_add_signed(by),
            SeekFrom::End(_) => None,
        };
        match target {
            Some(target) => {
                self.0.seek_to(target).map_err(io::Error::other)?;
                Ok(target)
            }
            None => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "a stream that cannot seek has no known end",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader handing out one byte per call, as a pipe may.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buffer.first_mut()) {
                (Some((byte, rest)), Some(slot)) => {
                    *slot = *byte;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn a_stream_reads_forward_and_leaves_the_rest_unread() {
        let bytes = [1, 2, 3, 4, 5, 6];
        let mut reader = Trickle(&bytes);
        let mut input = StreamInput::new(&mut reader);
        assert_eq!(input.read_array::<2>().unwrap(), [1, 2]);
        assert_eq!(input.remaining_up_to(2).unwrap(), 2);
        assert_eq!(input.read_bytes(1).unwrap(), [3]);
        assert_eq!(input.position().unwrap(), 3);
        drop(input);
        // One byte was looked at ahead (4) and is the input's; the reader
        // holds what no one asked for.
        assert_eq!(reader.0, [5, 6]);
    }

    #[test]
    fn a_block_ends_where_its_size_says_and_the_end_is_an_error_where_it_is() {
        let mut input = StreamInput::new(&[1, 2, 3][..]);
        let inner = input.narrowed(2, |block| {
            let first = block.read_array::<1>()?;
            Ok((first, block.remaining()?))
        });
        assert_eq!(inner.unwrap(), ([1], 1));
        assert_eq!(
            input.read_array::<4>().unwrap_err().to_string(),
            "byte 1: the input ends 2 byte(s) into a 4-byte value"
        );
    }

    #[test]
    fn a_stream_skips_forward_and_refuses_to_move_back() {
        let mut input = StreamInput::new(&[1, 2, 3, 4][..]);
        input.seek_to(3).unwrap();
        assert_eq!(input.read_array::<1>().unwrap(), [4]);
        assert_eq!(
            input.seek_to(0).unwrap_err().to_string(),
            "byte 4: a stream that cannot seek cannot move back to byte 0"
        );
    }
}
