//! Padding: bytes that align what follows them, or reserve room, zeros
//! when a writer makes them. A file's padding that is not zero is kept,
//! so that the file comes back byte for byte.

use serde::{Deserialize, Serialize};

use super::block::block_start;
use super::{Error, ErrorKind, Input, Output};
use crate::map;

/// A padding field (`#[schema(align = N)]` or `#[schema(pad = N)]`): the
/// bytes a file held there when any is not zero; empty for zeros, which
/// a value built by hand writes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Padding(pub Vec<u8>);

/// How long padding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaddingLength {
    /// To the next multiple of this many bytes from the start of the
    /// enclosing block: 0 to one less.
    Align(u64),
    /// Exactly this many bytes.
    Bytes(u64),
}

impl PaddingLength {
    /// The padding's length at `position`, in a block that begins at
    /// `block_start`.
    #[inline]
    fn at(self, position: u64, block_start: u64) -> u64 {
        match self {
            PaddingLength::Align(multiple) => {
                let into = position.saturating_sub(block_start) % multiple.max(1);
                (multiple - into) % multiple.max(1)
            }
            PaddingLength::Bytes(bytes) => bytes,
        }
    }
}

/// Reads padding: its bytes, kept when any is not zero. Bytes at hand are
/// looked at where they lie, so zeros (nearly all padding) allocate
/// nothing.
///
/// Inlined, so that an alignment the layout gives is known where it is
/// used, and the common case (zeros in hand) builds the empty value where
/// its caller keeps it: out of line, that value was copied through the
/// stack for every padding read.
#[inline(always)]
pub fn read_padding<I: Input>(input: &mut I, length: PaddingLength) -> Result<Padding, Error> {
    let start = input.position()?;
    let len = length.at(start, input.block_start());
    // Already aligned (half the time for `align = 2`): nothing to read.
    if len == 0 && !map::recording_in::<I>() {
        return Ok(Padding::default());
    }
    let zeros = usize::try_from(len)
        .ok()
        .and_then(|size| input.read_plain(size, |bytes| is_zero(bytes).then_some(())));
    let padding = match zeros {
        Some(()) => Padding::default(),
        None => kept(input.read_bytes(len)?),
    };
    if map::recording_in::<I>() {
        note_padding(start, len, &padding);
    }
    Ok(padding)
}

/// Notes padding in the byte map (out of line: its formatting is not
/// part of every reader that inlines [`read_padding`]).
#[cold]
#[inline(never)]
fn note_padding(start: u64, len: u64, padding: &Padding) {
    map::note(start, start + len, "padding", map::SpanKind::Field, || {
        if padding.0.is_empty() {
            format!("{len} zero byte(s)")
        } else {
            format!("{:?}, kept as found", padding.0)
        }
    });
}

#[inline]
fn is_zero(bytes: &[u8]) -> bool {
    bytes.iter().all(|&byte| byte == 0)
}

/// Padding whose bytes were not all zeros, or not in hand (a stream, or a
/// byte map being made): its bytes, kept when any is not zero. Out of line
/// on the bytes alone, so that the input (which [`read_padding`]'s caller
/// may hold in registers) is not taken by reference.
#[inline(never)]
fn kept(bytes: Vec<u8>) -> Padding {
    if is_zero(&bytes) {
        Padding::default()
    } else {
        Padding(bytes)
    }
}

/// Writes padding: the bytes kept, when they are as long as the padding
/// is here, else zeros.
#[inline]
pub fn write_padding<O: Output>(
    output: &mut O,
    length: PaddingLength,
    padding: &Padding,
) -> Result<(), Error> {
    let len = length.at(output.position()?, block_start());
    // Alignment to 2 (rows, runs) pads by none or one zero: written as a
    // constant, not copied from a run of zeros by a call.
    match len {
        0 => return Ok(()),
        1 if padding.0.is_empty() => return output.write_bytes(&[0]),
        _ => {}
    }
    if padding.0.len() as u64 == len {
        return output.write_bytes(&padding.0);
    }
    // Padding is mostly short: its zeros are taken from a constant run
    // rather than a vector made for each.
    const ZEROS: [u8; 64] = [0; 64];
    if let Some(zeros) = usize::try_from(len).ok().and_then(|len| ZEROS.get(..len)) {
        return output.write_bytes(zeros);
    }
    let zeros = usize::try_from(len)
        .map_err(|_| Error::new(ErrorKind::Invalid(format!("{len} bytes of padding"))))?;
    output.write_bytes(&vec![0; zeros])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SliceInput, VecOutput};

    #[test]
    fn padding_aligns_to_its_block_and_keeps_what_is_not_zero() {
        let mut input = SliceInput::new(&[9, 0, 7, 3, 0, 0]);
        input.read_array::<1>().unwrap();
        assert_eq!(
            read_padding(&mut input, PaddingLength::Align(2)).unwrap(),
            Padding::default()
        );
        // Three bytes in, and one into a block that began at byte 2: three
        // bytes to the block's next multiple of 4, not one to the file's.
        let kept = input
            .narrowed(4, |block| {
                block.read_array::<1>()?;
                read_padding(block, PaddingLength::Align(4))
            })
            .unwrap();
        assert_eq!(kept, Padding(vec![3, 0, 0]));
        assert_eq!(input.offset(), 6);
        // Kept bytes are written where they fit, zeros where they do not.
        let mut output = VecOutput::default();
        output.write_bytes(&[1, 2, 3]).unwrap();
        write_padding(&mut output, PaddingLength::Align(2), &Padding(vec![3])).unwrap();
        write_padding(&mut output, PaddingLength::Bytes(2), &Padding(vec![3])).unwrap();
        assert_eq!(output.into_bytes(), [1, 2, 3, 3, 0, 0]);
    }
}
