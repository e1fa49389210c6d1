//! Blocks of a given length (`#[schema(size = expr)]`): a value read from
//! exactly that many bytes, and [`Block`], which keeps what its value
//! leaves of them; and where the innermost block being read or written
//! begins, which padding aligns to.

use std::cell::Cell;

use serde::{Deserialize, Serialize};

use super::{Decode, Encode, Endian, Error, ErrorKind, HasContext, Input, Output};
use crate::map;

/// A value and the bytes after it in its block: what a `size` block's
/// value leaves unread (padding, data the layout does not describe) is
/// kept, and written back after the value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Block<T> {
    pub value: T,
    /// The block's bytes after the value, as found.
    pub rest: Vec<u8>,
}

impl<T> Block<T> {
    /// A block holding `value` and nothing after it.
    pub fn new(value: T) -> Self {
        Block {
            value,
            rest: Vec::new(),
        }
    }
}

impl<T: HasContext> HasContext for Block<T> {
    type Context = T::Context;
    type TextContext = T::TextContext;
}

/// The value, then every byte left in the input (the block's, when read
/// in one).
impl<T: Decode> Decode for Block<T> {
    const MIN_SIZE: u64 = T::MIN_SIZE;
    const FIXED_SIZE: Option<u64> = None;
    const NESTED_LAYOUT: Option<fn() -> crate::TypeLayout> = T::NESTED_LAYOUT;

    decode_through_input!();

    fn decode_input<I: Input>(
        input: &mut I,
        endian: Endian,
        context: &Self::Context,
    ) -> Result<Self, Error> {
        let value = T::decode_input(input, endian, context)?;
        let start = input.position()?;
        let left = input.remaining()?;
        let rest = input.read_bytes(left)?;
        if !rest.is_empty() {
            map::note(
                start,
                start + left,
                "rest of the block",
                map::SpanKind::Opaque,
                || format!("{left} byte(s) kept as found"),
            );
        }
        Ok(Block { value, rest })
    }
}

impl<T: Encode> Encode for Block<T> {
    encode_through_output!();

    fn encode_output<O: Output>(
        &self,
        output: &mut O,
        endian: Endian,
        context: &Self::Context,
    ) -> Result<(), Error> {
        self.value.encode_output(output, endian, context)?;
        output.write_bytes(&self.rest)
    }
}

thread_local! {
    static BLOCK_START: Cell<u64> = const { Cell::new(0) };
}

/// Where the innermost block being read or written on this thread begins:
/// an IFF chunk's payload, a form's children, a `size` block, or else the
/// file (0).
#[inline]
pub fn block_start() -> u64 {
    BLOCK_START.with(Cell::get)
}

/// While it lives, a block begins at the position it was made with; then
/// the enclosing one again.
#[must_use = "the block ends when the guard is dropped"]
pub struct InBlock(u64);

impl Drop for InBlock {
    #[inline]
    fn drop(&mut self) {
        BLOCK_START.with(|start| start.set(self.0));
    }
}

/// Enters a block beginning at `start`.
#[inline]
pub fn enter_block(start: u64) -> InBlock {
    InBlock(BLOCK_START.with(|block| block.replace(start)))
}

/// Reads a value from the next `size` bytes alone (`read` sees an input
/// ending there), which it must use up (a [`Block`] keeps what its value
/// leaves). A size that is no size (what its expression gave), or one
/// past the end of the input, is an error at the block's first byte,
/// before anything is read.
#[inline]
pub fn read_sized<'s, I, T, F>(
    input: &'s mut I,
    size: Result<u64, Error>,
    read: F,
) -> Result<T, Error>
where
    I: Input,
    F: FnOnce(&mut I::Narrowed<'s>) -> Result<T, Error>,
{
    let size = size.map_err(|error| error.or_at_byte(input.position().unwrap_or(0)))?;
    let available = input.remaining_up_to(size)?;
    if size > available {
        return Err(Error::at_byte(
            input.position()?,
            ErrorKind::SizePastParent { size, available },
        ));
    }
    input.narrowed(size, |block| {
        let value = read(block)?;
        let left = block.remaining()?;
        if left != 0 {
            return Err(Error::at_byte(
                block.position()?,
                ErrorKind::BytesLeftInBlock(left),
            ));
        }
        Ok(value)
    })
}

/// Writing: a block must take the bytes its `size` expression gives, or
/// the file would not read back.
pub fn check_block_size(expression: &'static str, written: u64, size: u64) -> Result<(), Error> {
    if written == size {
        return Ok(());
    }
    Err(Error::new(ErrorKind::Invalid(format!(
        "the block holds {written} byte(s), but `{expression}` gives {size}"
    ))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SliceInput;

    #[test]
    fn a_block_keeps_what_its_value_leaves() {
        let mut input = SliceInput::new(&[1, 0, 7, 8, 9]);
        let block: Block<u16> = read_sized(&mut input, Ok(4), |block| {
            Block::decode_input(block, Endian::Little, &())
        })
        .unwrap();
        assert_eq!(
            block,
            Block {
                value: 1,
                rest: vec![7, 8]
            }
        );
        assert_eq!(input.offset(), 4);
    }

    #[test]
    fn a_value_that_leaves_bytes_of_its_block_is_an_error() {
        let mut input = SliceInput::new(&[1, 0, 7]);
        let error = read_sized(&mut input, Ok(3), |block| {
            u16::decode_input(block, Endian::Little, &())
        })
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 2: 1 byte(s) of the block its `size` gives are left over"
        );
        let error = read_sized(&mut input, Ok(9), |block| {
            u16::decode_input(block, Endian::Little, &())
        })
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 0: size 9 runs past the end of the enclosing data (3 byte(s) left)"
        );
    }
}
