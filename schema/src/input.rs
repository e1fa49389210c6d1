//! Where decoders read from: any `Read + Seek` stream (binrw's readers, files,
//! cursors) or a byte slice held whole ([`SliceInput`], what `from_bytes`
//! reads). Both give the same values and the same errors (byte offset and
//! field path); the slice answers bounds and positions without I/O calls,
//! borrows its bytes, and decodes runs of fixed-size fields after one check.

use std::io::{Cursor, Read, Seek, SeekFrom};

use super::block::enter_block;
use super::iff::Bounded;
use super::io::{self, read_array};
use super::{Decode, Endian, Error, ErrorKind};

/// A source of bytes with file positions. Positions are offsets in the
/// whole input (the file), also inside a chunk's narrowed input.
pub trait Input {
    /// The input a chunk or form reads its contents from: ends where it ends.
    type Narrowed<'a>: Input
    where
        Self: 'a;
    /// What a hand-written codec (`with = path`, a `Decode` written by
    /// hand) reads from.
    type Stream<'a>: Read + Seek
    where
        Self: 'a;

    /// Whether what is read from this input can be recorded in a byte map
    /// ([`record_map`](crate::map::record_map)). An input that is not is read
    /// with none of the map's checks compiled in: `from_bytes` reads from
    /// one unless this thread is recording. Its narrowed inputs answer
    /// the same.
    const RECORDS: bool = true;

    fn position(&mut self) -> Result<u64, Error>;

    /// Bytes between the position and the end of the input.
    fn remaining(&mut self) -> Result<u64, Error>;

    /// [`Input::remaining`], counted up to `len`: whether `len` bytes are
    /// left, or how many are when fewer, which a stream that cannot seek
    /// answers by reading ahead no further than `len`.
    fn remaining_up_to(&mut self, len: u64) -> Result<u64, Error> {
        Ok(self.remaining()?.min(len))
    }

    /// Exactly `N` bytes. On a short read the error's offset is where the
    /// value began.
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N], Error>;

    /// Exactly `len` bytes into a new vector, after checking they exist.
    fn read_bytes(&mut self, len: u64) -> Result<Vec<u8>, Error>;

    /// Bytes up to a 0 byte, which is consumed and not kept.
    fn read_null_terminated(&mut self) -> Result<Vec<u8>, Error>;

    /// Moves back to an earlier position (after looking at what comes next).
    fn seek_to(&mut self, position: u64) -> Result<(), Error>;

    /// Runs `read` on the next `size` bytes alone (a chunk's or form's
    /// contents, a `size` block), a block of their own (positions inside
    /// it count from the block's start), then continues after what it read.
    fn narrowed<'s, T>(
        &'s mut self,
        size: u64,
        read: impl FnOnce(&mut Self::Narrowed<'s>) -> Result<T, Error>,
    ) -> Result<T, Error>;

    /// Runs a `Read + Seek` reader over the same bytes and positions.
    fn as_stream<'s, T>(
        &'s mut self,
        read: impl FnOnce(&mut Self::Stream<'s>) -> Result<T, Error>,
    ) -> Result<T, Error>;

    /// `decode` applied to the next `size` bytes when they are at hand
    /// without I/O, which are then consumed; `None` (nothing consumed) when
    /// they are not, or when `decode` gives `None`: the caller then reads
    /// value by value, which finds any error where a stream would.
    fn read_plain<T>(&mut self, size: usize, decode: impl FnOnce(&[u8]) -> Option<T>) -> Option<T>;

    /// Where the innermost block being read begins ([`Input::narrowed`]),
    /// or 0: what alignment counts from. A slice keeps it; other inputs
    /// ask the thread.
    #[inline]
    fn block_start(&self) -> u64 {
        crate::block::block_start()
    }

    /// Runs `read` on this input, which may first copy itself where the
    /// compiler keeps it in registers (a slice does), so that a long loop
    /// does not store its position at every step; where `read` leaves the
    /// copy is where this input then is.
    #[inline]
    fn held<T>(&mut self, read: impl FnOnce(&mut Self) -> T) -> T {
        read(self)
    }
}

impl<R: Read + Seek> Input for R {
    type Narrowed<'a>
        = Bounded<'a, R>
    where
        Self: 'a;
    type Stream<'a>
        = R
    where
        Self: 'a;

    fn position(&mut self) -> Result<u64, Error> {
        io::position(self)
    }

    fn remaining(&mut self) -> Result<u64, Error> {
        io::remaining(self)
    }

    fn read_array<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        read_array(self)
    }

    fn read_bytes(&mut self, len: u64) -> Result<Vec<u8>, Error> {
        io::read_bytes(self, len)
    }

    fn read_null_terminated(&mut self) -> Result<Vec<u8>, Error> {
        let start = io::position(self)?;
        let mut bytes = Vec::new();
        loop {
            match read_array::<1, R>(self) {
                Ok([0]) => return Ok(bytes),
                Ok([byte]) => bytes.push(byte),
                Err(error) if matches!(error.kind, ErrorKind::UnexpectedEnd { .. }) => {
                    return Err(unterminated(start))
                }
                Err(other) => return Err(other),
            }
        }
    }

    fn seek_to(&mut self, position: u64) -> Result<(), Error> {
        self.seek(SeekFrom::Start(position))
            .map_err(|e| Error::at_byte(position, ErrorKind::Io(e)))?;
        Ok(())
    }

    fn narrowed<'s, T>(
        &'s mut self,
        size: u64,
        read: impl FnOnce(&mut Self::Narrowed<'s>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let start = io::position(self)?;
        let _block = enter_block(start);
        read(&mut Bounded::new(self, start, start.saturating_add(size)))
    }

    fn as_stream<'s, T>(
        &'s mut self,
        read: impl FnOnce(&mut Self::Stream<'s>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        read(self)
    }

    /// A stream reads value by value, as it always has.
    fn read_plain<T>(&mut self, _: usize, _: impl FnOnce(&[u8]) -> Option<T>) -> Option<T> {
        None
    }
}

/// A run of fields decoded from bytes in hand: `size` is the sum of their
/// [`Decode::PLAIN_SIZE`]s (`None` when one of them is not plain), and
/// `decode` splits the bytes with [`decode_plain_next`]. `None` when the
/// input cannot hand them over: the caller reads field by field.
#[inline]
pub fn read_plain_run<I: Input, T>(
    input: &mut I,
    size: Option<usize>,
    decode: impl FnOnce(&[u8]) -> Option<T>,
) -> Option<T> {
    input.read_plain(size?, decode)
}

/// The plain value at the front of `bytes`, which then start after it.
#[inline]
pub fn decode_plain_next<T: Decode>(bytes: &mut &[u8], endian: Endian) -> Option<T> {
    let (value, rest) = bytes.split_at_checked(T::PLAIN_SIZE?)?;
    *bytes = rest;
    T::decode_plain(value, endian)
}

#[cold]
fn unterminated(start: u64) -> Error {
    Error::at_byte(start, ErrorKind::UnterminatedString)
}

/// A whole input in memory. `position` indexes `bytes`, which begin at the
/// file's start even inside a chunk, so it is a file offset too.
/// `RECORDS` is [`Input::RECORDS`]: what it reads can be recorded in a
/// byte map, unless it was made [`SliceInput::unrecorded`].
#[derive(Debug, Clone, Copy)]
pub struct SliceInput<'data, const RECORDS: bool = true> {
    /// The file's bytes up to the end of the block being read: a narrowed
    /// input holds fewer, so that one comparison bounds every read.
    bytes: &'data [u8],
    position: usize,
    /// Where the block being read begins ([`Input::block_start`]).
    block_start: usize,
}

impl<'data> SliceInput<'data> {
    pub fn new(bytes: &'data [u8]) -> Self {
        SliceInput::over(bytes)
    }
}

impl<'data> SliceInput<'data, false> {
    /// An input whose reading is never recorded in a byte map, and so
    /// never checks whether it is.
    pub fn unrecorded(bytes: &'data [u8]) -> Self {
        SliceInput::over(bytes)
    }
}

impl<'data, const RECORDS: bool> SliceInput<'data, RECORDS> {
    fn over(bytes: &'data [u8]) -> Self {
        SliceInput {
            bytes,
            position: 0,
            block_start: 0,
        }
    }

    /// The offset of the next byte.
    #[inline]
    pub fn offset(&self) -> usize {
        self.position
    }

    /// The bytes left, which `take` hands out.
    #[inline]
    fn rest(&self) -> &'data [u8] {
        self.bytes.get(self.position..).unwrap_or_default()
    }

    /// The next `len` bytes, consumed; `None` (nothing consumed) if fewer remain.
    #[inline]
    fn take(&mut self, len: usize) -> Option<&'data [u8]> {
        let taken = self.rest().get(..len)?;
        self.position += len;
        Some(taken)
    }

    #[inline]
    fn offset_u64(&self) -> u64 {
        self.position as u64
    }

    #[inline]
    fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.position)
    }

    /// The error for a value of `needed` bytes starting here, where fewer
    /// are left. Out of line, so the readers that inline keep only their
    /// common path.
    #[cold]
    fn too_short(self, needed: u64) -> Error {
        Error::at_byte(
            self.offset_u64(),
            ErrorKind::UnexpectedEnd {
                needed,
                available: self.left() as u64,
            },
        )
    }
}

impl<'data, const RECORDS: bool> Input for SliceInput<'data, RECORDS> {
    type Narrowed<'a>
        = SliceInput<'data, RECORDS>
    where
        Self: 'a;
    type Stream<'a>
        = Cursor<&'data [u8]>
    where
        Self: 'a;

    const RECORDS: bool = RECORDS;

    #[inline]
    fn position(&mut self) -> Result<u64, Error> {
        Ok(self.offset_u64())
    }

    #[inline]
    fn remaining(&mut self) -> Result<u64, Error> {
        Ok(self.left() as u64)
    }

    #[inline]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        match self.rest().first_chunk::<N>() {
            Some(bytes) => {
                self.position += N;
                Ok(*bytes)
            }
            None => Err(self.too_short(N as u64)),
        }
    }

    #[inline]
    fn read_bytes(&mut self, len: u64) -> Result<Vec<u8>, Error> {
        let taken = usize::try_from(len).ok().and_then(|len| self.take(len));
        taken.map(<[u8]>::to_vec).ok_or_else(|| self.too_short(len))
    }

    #[inline]
    fn read_null_terminated(&mut self) -> Result<Vec<u8>, Error> {
        let rest = self.rest();
        let len = memchr::memchr(0, rest).ok_or_else(|| unterminated(self.offset_u64()))?;
        let text = rest.get(..len).unwrap_or_default().to_vec();
        self.position += len + 1;
        Ok(text)
    }

    #[inline]
    fn seek_to(&mut self, position: u64) -> Result<(), Error> {
        self.position = usize::try_from(position)
            .unwrap_or(usize::MAX)
            .min(self.bytes.len());
        Ok(())
    }

    #[inline]
    fn narrowed<'s, T>(
        &'s mut self,
        size: u64,
        read: impl FnOnce(&mut Self::Narrowed<'s>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let size = usize::try_from(size).unwrap_or(usize::MAX);
        let end = self.position.saturating_add(size);
        let mut inner = SliceInput {
            bytes: self.bytes.get(..end).unwrap_or(self.bytes),
            block_start: self.position,
            ..*self
        };
        // The thread's block too, for what asks it: a stream made from the
        // inner input (`as_stream`), and offsets' `Base::position`.
        let block = enter_block(self.offset_u64());
        let value = read(&mut inner)?;
        drop(block);
        self.position = inner.position;
        Ok(value)
    }

    /// A cursor over the bytes up to this input's end, at its position.
    /// (A codec that seeks past the end and reads nothing more leaves the
    /// position at the end.)
    fn as_stream<'s, T>(
        &'s mut self,
        read: impl FnOnce(&mut Self::Stream<'s>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut cursor = Cursor::new(self.bytes);
        cursor.set_position(self.offset_u64());
        let value = read(&mut cursor)?;
        self.seek_to(cursor.position())?;
        Ok(value)
    }

    #[inline]
    fn block_start(&self) -> u64 {
        self.block_start as u64
    }

    #[inline]
    fn held<T>(&mut self, read: impl FnOnce(&mut Self) -> T) -> T {
        let mut held = *self;
        let value = read(&mut held);
        *self = held;
        value
    }

    #[inline]
    fn read_plain<T>(&mut self, size: usize, decode: impl FnOnce(&[u8]) -> Option<T>) -> Option<T> {
        // The byte map sees values one by one.
        if crate::map::recording_in::<Self>() {
            return None;
        }
        let value = decode(self.rest().get(..size)?)?;
        self.position += size;
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_narrowed_slice_ends_at_its_size_and_keeps_file_offsets() {
        let mut input = SliceInput::new(b"abcdef");
        input.read_array::<1>().unwrap();
        let error = input
            .narrowed(2, |inner| {
                assert_eq!(inner.remaining().unwrap(), 2);
                inner.read_array::<3>()
            })
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 1: the input ends 2 byte(s) into a 3-byte value"
        );
    }

    #[test]
    fn a_held_slice_continues_where_its_copy_stopped_even_after_an_error() {
        let mut input = SliceInput::new(b"abc");
        let first = input.held(|held| held.read_array::<2>());
        assert_eq!(first.unwrap(), *b"ab");
        assert_eq!(input.offset(), 2);
        let error = input
            .held(|held| {
                held.read_array::<1>()?;
                held.read_array::<1>()
            })
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 3: the input ends 0 byte(s) into a 1-byte value"
        );
        assert_eq!(input.offset(), 3);
    }

    #[test]
    fn an_unterminated_slice_string_points_at_its_start() {
        let mut input = SliceInput::new(b"ab\0cd");
        assert_eq!(input.read_null_terminated().unwrap(), b"ab");
        assert_eq!(
            input.read_null_terminated().unwrap_err().to_string(),
            "byte 3: string has no terminating NUL before the end of the input"
        );
    }
}
