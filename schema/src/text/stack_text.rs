//! Short text written on the stack: numbers are formatted and compared
//! without a heap allocation each.

use std::fmt;

/// Up to `N` bytes of ASCII text. Writing past the end fails (`fmt::Error`)
/// and keeps what fitted; callers size `N` for the longest text they write.
#[derive(Clone, Copy)]
pub struct StackText<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

/// A number token: the longest an `f32` prints is 48 bytes (`-0.` and 45
/// digits for the least subnormal in the shortest style).
pub type NumberText = StackText<64>;

impl<const N: usize> StackText<N> {
    pub fn new() -> Self {
        StackText {
            bytes: [0; N],
            len: 0,
        }
    }

    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }

    pub fn push_bytes(&mut self, bytes: &[u8]) -> fmt::Result {
        let end = self.len + bytes.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }

    #[inline]
    pub fn push(&mut self, byte: u8) -> fmt::Result {
        let slot = self.bytes.get_mut(self.len).ok_or(fmt::Error)?;
        *slot = byte;
        self.len += 1;
        Ok(())
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        self.bytes.get_mut(..self.len).unwrap_or_default()
    }
}

impl<const N: usize> Default for StackText<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> fmt::Write for StackText<N> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.push_bytes(text.as_bytes())
    }
}

impl<const N: usize> PartialEq for StackText<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl<const N: usize> PartialEq<&str> for StackText<N> {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl<const N: usize> fmt::Debug for StackText<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> fmt::Display for StackText<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
