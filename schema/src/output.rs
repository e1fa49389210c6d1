//! Where encoders write to: any `Write + Seek` stream (binrw's writers,
//! files, cursors) or a growing byte vector ([`VecOutput`], what `to_bytes`
//! writes). Both write the same bytes and fail the same way; the vector
//! takes each value with one append and patches IFF sizes in place.

use std::io::{Cursor, Seek, SeekFrom, Write};

use super::pages::vec_to_fill;
use super::{Decode, Encode, Endian, Error};

/// A sink for bytes that knows its position and can patch bytes already
/// written (an IFF size, once the contents are known).
pub trait Output {
    /// True for an output that only counts the bytes ([`SizeOutput`]):
    /// encoders may leave it checks that change no count (a 0 byte inside
    /// a null-terminated string), which the pass that writes makes.
    const COUNTS_ONLY: bool = false;

    /// True for an output that estimates the size ([`EstimateOutput`]):
    /// a list of elements that are not plain is counted from its first
    /// element, and [`Output::assume`]s the rest are as long.
    const ESTIMATES: bool = false;

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

    /// Appends `size` bytes that `encode` fills in place (plain values,
    /// see [`Encode::encode_plain`](super::Encode::encode_plain)); false,
    /// with nothing written, when `encode` fails or the output cannot lend
    /// its bytes: the caller then writes value by value.
    fn write_plain(&mut self, size: usize, encode: impl FnOnce(&mut [u8]) -> bool) -> bool;

    /// Writes `bytes`, a run of plain values' encoding already at hand
    /// (see [`Encode::plain_bytes`](crate::Encode::plain_bytes)), when the
    /// output takes them without I/O: true. False, writing nothing, when
    /// it does not: the caller then writes value by value, which fails
    /// where a stream would.
    fn write_plain_bytes(&mut self, _bytes: &[u8]) -> bool {
        false
    }

    /// Runs a `Write + Seek` writer over the same output, at its position.
    fn as_stream<'s, T>(
        &'s mut self,
        write: impl FnOnce(&mut Self::Stream<'s>) -> Result<T, Error>,
    ) -> Result<T, Error>;

    /// Counts `bytes` more without anything written: what an output that
    /// [`Output::ESTIMATES`] takes for the elements it does not walk.
    /// Others are never asked, and ignore it.
    fn assume(&mut self, _bytes: u64) {}
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

    fn write_plain(&mut self, _: usize, _: impl FnOnce(&mut [u8]) -> bool) -> bool {
        false
    }

    fn as_stream<'s, T>(
        &'s mut self,
        write: impl FnOnce(&mut Self::Stream<'s>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        write(self)
    }
}

/// A run of fields encoded into bytes in place: `size` is the sum of their
/// [`Decode::PLAIN_SIZE`]s (`None` when one of them is not plain), and
/// `encode` fills the bytes with [`encode_plain_next`]. False when the
/// output cannot lend them: the caller writes field by field.
#[inline]
pub fn write_plain_run<O: Output>(
    output: &mut O,
    size: Option<usize>,
    encode: impl FnOnce(&mut [u8]) -> bool,
) -> bool {
    size.is_some_and(|size| output.write_plain(size, encode))
}

/// Encodes a plain value at the front of `bytes`, which then start after it.
#[inline]
pub fn encode_plain_next<T: Encode + Decode>(
    bytes: &mut &mut [u8],
    value: &T,
    endian: Endian,
) -> bool {
    let Some(size) = T::PLAIN_SIZE else {
        return false;
    };
    let Some((front, rest)) = std::mem::take(bytes).split_at_mut_checked(size) else {
        return false;
    };
    *bytes = rest;
    value.encode_plain(front, endian)
}

/// A whole output in memory: every write appends.
#[derive(Debug, Default)]
pub struct VecOutput {
    bytes: Vec<u8>,
}

impl VecOutput {
    /// An empty output with room for `capacity` bytes, which are meant to
    /// be written. A large one is backed by 2 MiB pages where the system
    /// allows it: writing fresh memory costs a page fault per page, and on
    /// 4 KiB pages those faults took most of the time of encoding a large
    /// file.
    pub fn with_capacity(capacity: usize) -> Self {
        VecOutput {
            bytes: vec_to_fill(capacity),
        }
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// Appends to an existing vector (one reused between files keeps its
/// capacity, so its memory is not mapped again).
impl From<Vec<u8>> for VecOutput {
    fn from(bytes: Vec<u8>) -> Self {
        VecOutput { bytes }
    }
}

impl Output for VecOutput {
    type Stream<'a> = Cursor<&'a mut Vec<u8>>;

    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn position(&mut self) -> Result<u64, Error> {
        Ok(self.bytes.len() as u64)
    }

    #[inline]
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

    #[inline]
    fn reserve(&mut self, additional: usize) {
        self.bytes.reserve(additional);
    }

    /// The run is zero-filled at the end of the output and encoded in
    /// place. Encoding a small value on the stack and appending it with
    /// one copy wrote new pages once, but the copy's wide loads waited on
    /// the encoder's narrow stores to the same bytes (a store that cannot
    /// be forwarded), which stalled every `.skel` bone and `.bmf` vertex.
    #[inline]
    fn write_plain(&mut self, size: usize, encode: impl FnOnce(&mut [u8]) -> bool) -> bool {
        let start = self.bytes.len();
        let Some(end) = start.checked_add(size) else {
            return false;
        };
        self.bytes.resize(end, 0);
        let written = self.bytes.get_mut(start..).is_some_and(encode);
        if !written {
            self.bytes.truncate(start);
        }
        written
    }

    #[inline]
    fn write_plain_bytes(&mut self, bytes: &[u8]) -> bool {
        self.bytes.extend_from_slice(bytes);
        true
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

/// Counts the bytes an encoder writes without keeping them: what `to_bytes`
/// runs first, so that its output is allocated once, at its size, and
/// never grown and copied. Plain runs are counted, not encoded, and checks
/// that change no count are left to the pass that writes (see
/// [`Output::COUNTS_ONLY`]): a value that cannot be written may still be
/// counted, and fails when it is written.
#[derive(Debug, Default)]
pub struct SizeOutput {
    len: u64,
}

impl SizeOutput {
    /// The bytes written so far: exact for derived codecs; a hand-written
    /// codec that seeks to absolute offsets may come out differently here
    /// (its stream starts at 0), so treat it as a capacity to reserve.
    pub fn counted(&self) -> u64 {
        self.len
    }
}

impl Output for SizeOutput {
    type Stream<'a> = Cursor<Vec<u8>>;

    const COUNTS_ONLY: bool = true;

    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.len += bytes.len() as u64;
        Ok(())
    }

    fn position(&mut self) -> Result<u64, Error> {
        Ok(self.len)
    }

    fn patch(&mut self, at: u64, bytes: &[u8]) -> Result<(), Error> {
        if at.saturating_add(bytes.len() as u64) > self.len {
            return Err(Error::from(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "patch past the end of the output",
            )));
        }
        Ok(())
    }

    fn reserve(&mut self, _: usize) {}

    #[inline]
    fn write_plain(&mut self, size: usize, _: impl FnOnce(&mut [u8]) -> bool) -> bool {
        self.len += size as u64;
        true
    }

    #[inline]
    fn write_plain_bytes(&mut self, bytes: &[u8]) -> bool {
        self.len += bytes.len() as u64;
        true
    }

    /// A scratch stream, whose length is counted once the writer is done.
    fn as_stream<'s, T>(
        &'s mut self,
        write: impl FnOnce(&mut Self::Stream<'s>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut scratch = Cursor::new(Vec::new());
        let value = write(&mut scratch)?;
        self.len += scratch.get_ref().len() as u64;
        Ok(value)
    }
}

/// Estimates the bytes an encoder writes, so that `to_bytes` allocates its
/// output once: it counts as [`SizeOutput`] does, except that a list of
/// elements that are not plain is counted as its first element times its
/// length. Counting every bone of a 10,000-bone `.skel` cost a fifth of
/// encoding it; the writing pass grows the output in the rare file whose
/// later elements are longer than its first. (Room to spare on top cost
/// more than it saved: an output an eighth larger than the others of its
/// size missed glibc's reuse of them, and was mapped anew each time.)
#[derive(Debug, Default)]
pub struct EstimateOutput {
    size: SizeOutput,
}

impl EstimateOutput {
    /// The bytes estimated so far.
    pub fn estimated(&self) -> u64 {
        self.size.counted()
    }
}

impl Output for EstimateOutput {
    type Stream<'a> = <SizeOutput as Output>::Stream<'a>;

    const COUNTS_ONLY: bool = true;
    const ESTIMATES: bool = true;

    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.size.write_bytes(bytes)
    }

    fn position(&mut self) -> Result<u64, Error> {
        self.size.position()
    }

    fn patch(&mut self, at: u64, bytes: &[u8]) -> Result<(), Error> {
        self.size.patch(at, bytes)
    }

    fn reserve(&mut self, _: usize) {}

    #[inline]
    fn write_plain(&mut self, size: usize, encode: impl FnOnce(&mut [u8]) -> bool) -> bool {
        self.size.write_plain(size, encode)
    }

    fn write_plain_bytes(&mut self, bytes: &[u8]) -> bool {
        self.size.write_plain_bytes(bytes)
    }

    fn as_stream<'s, T>(
        &'s mut self,
        write: impl FnOnce(&mut Self::Stream<'s>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        self.size.as_stream(write)
    }

    fn assume(&mut self, bytes: u64) {
        self.size.len = self.size.len.saturating_add(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Schema;
    use crate::{BinarySchema, Encode, RawString};

    #[derive(Debug, Clone, PartialEq, Schema)]
    #[schema(little)]
    struct Named {
        #[schema(pascal)]
        name: RawString,
    }

    #[derive(Debug, Clone, PartialEq, Schema)]
    #[schema(little)]
    struct Names {
        #[schema(prefix = u16)]
        names: Vec<Named>,
        #[schema(prefix = u16)]
        numbers: Vec<u32>,
    }

    fn names(lengths: &[usize]) -> Names {
        Names {
            names: lengths
                .iter()
                .map(|&len| Named {
                    name: RawString(vec![b'a'; len]),
                })
                .collect(),
            numbers: vec![7; 5],
        }
    }

    fn estimate(value: &Names) -> EstimateOutput {
        let mut estimate = EstimateOutput::default();
        value
            .encode_output(&mut estimate, Endian::Little, &())
            .expect("estimates");
        estimate
    }

    #[test]
    fn an_estimate_walks_the_first_element_of_a_list_and_assumes_the_rest() {
        // Names: a u16 count and four times (a length byte and 3 bytes);
        // numbers: a u16 count and five u32s, counted exactly.
        let estimate = estimate(&names(&[3, 1, 250, 0]));
        assert_eq!(estimate.estimated(), 2 + 4 * (1 + 3) + 2 + 5 * 4);
    }

    /// A u8 count, its u32 offsets, and the values they point to.
    #[derive(Debug, Clone, PartialEq, Schema)]
    #[schema(little)]
    struct Pointed {
        count: crate::Count<u8>,
        #[schema(count = count, offset = u32)]
        values: Vec<crate::At<Named>>,
    }

    #[test]
    fn an_estimate_counts_each_value_at_an_offset_after_its_gap() {
        // A count, two offsets, a 2-byte gap, "ab" (3 bytes), "c" (2):
        // each value where it lay, in order, after its gap.
        let bytes = [2, 11, 0, 0, 0, 14, 0, 0, 0, 9, 9, 2, b'a', b'b', 1, b'c'];
        let pointed = Pointed::from_bytes(&bytes).expect("decodes");
        let mut estimate = EstimateOutput::default();
        pointed
            .encode_output(&mut estimate, Endian::Little, &())
            .expect("estimates");
        assert_eq!(estimate.estimated(), bytes.len() as u64);
        assert_eq!(pointed.to_bytes().expect("encodes"), bytes);
        // Two offsets sharing a value: counted twice, written once.
        let shared = [2, 9, 0, 0, 0, 9, 0, 0, 0, 1, b'z'];
        let pointed = Pointed::from_bytes(&shared).expect("decodes");
        let mut estimate = EstimateOutput::default();
        pointed
            .encode_output(&mut estimate, Endian::Little, &())
            .expect("estimates");
        assert_eq!(estimate.estimated(), 9 + 2 * 2);
        assert_eq!(pointed.to_bytes().expect("encodes"), shared);
    }

    #[test]
    fn elements_longer_than_the_first_grow_the_output_and_come_out_whole() {
        let varied = names(&[1, 40, 200, 7]);
        let bytes = varied.to_bytes().expect("encodes");
        let mut expected = vec![4, 0];
        for len in [1u8, 40, 200, 7] {
            expected.push(len);
            expected.extend(std::iter::repeat_n(b'a', usize::from(len)));
        }
        expected.extend([5, 0]);
        for _ in 0..5 {
            expected.extend([7, 0, 0, 0]);
        }
        assert_eq!(bytes, expected);
        assert_eq!(Names::from_bytes(&bytes).expect("decodes"), varied);
    }
}
