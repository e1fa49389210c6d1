//! The text runtime: what `#[derive(Schema)]` expands to for `#[schema(text)]`.
//!
//! A text layout is a sequence of lines. In a `#[schema(text)]` record each
//! field takes its own line(s); a `#[schema(text, one_line)]` record is one
//! line of whitespace-separated tokens. Field attributes:
//!
//! | attribute | field type | in the file |
//! |---|---|---|
//! | (none) | number, `RawString`, `[T; N]`, nested record | a line of tokens (a record: its own layout) |
//! | `line` | `RawString` | a whole line, spaces included |
//! | `comment` | `RawString` | a `//` line; the text after `//` is kept |
//! | `vector` | `[T; N]` | `\| x y z \|` |
//! | `prefix` | `Vec<T>` | a count line, then the elements (with `line` or `vector`: of that form) |
//! | `magic = "version 300"` | `Magic` | a line that must read exactly so |
//! | `style` | [`TextStyle`] | nothing: filled in by the reader, used by the writer |
//!
//! Reading records the file's [`TextStyle`]: its line ending, float style, and
//! the tokens and lines that style would not reproduce, so that a file read
//! and written back comes out byte for byte.

#[cfg(test)]
mod derive_tests;
mod error;
pub mod float;
mod number;
mod reader;
mod style;
mod writer;

pub use error::{TextError, TextErrorKind};
pub use number::TextNumber;
pub use reader::{read_list, TextReader};
pub use style::{FloatStyle, LineEnding, RawLine, RawNumber, TextStyle};
pub use writer::{write_list, TextWriter};

use super::{Magic, RawString, Segment, WriteError};

/// A value that takes whole lines.
pub trait TextRead: Sized {
    /// Fewest lines any value takes: bounds what a count may allocate.
    const MIN_LINES: u64;

    fn read_text(reader: &mut TextReader<'_>) -> Result<Self, TextError>;
}

/// The writing half of [`TextRead`].
pub trait TextWrite {
    fn write_text(&self, writer: &mut TextWriter) -> Result<(), WriteError>;
}

/// A value made of tokens within a line: numbers, words, arrays and
/// one-line records.
pub trait TextTokens: Sized {
    /// What a reader expected on a line of these, for errors.
    const EXPECTED: &'static str;

    fn read_tokens(reader: &mut TextReader<'_>) -> Result<Self, TextError>;
    fn write_tokens(&self, writer: &mut TextWriter) -> Result<(), WriteError>;
}

/// Conveniences for a whole text file, implemented by `#[derive(Schema)]`.
pub trait TextSchema: TextRead + TextWrite {
    /// The style a `#[schema(style)]` field holds, if the type has one.
    fn text_style(&self) -> Option<&TextStyle> {
        None
    }

    /// Reads a whole file; lines left over after the value are an error.
    fn from_text(text: &[u8]) -> Result<Self, TextError> {
        let mut reader = TextReader::new(text);
        let value = Self::read_text(&mut reader)?;
        reader.finish()?;
        Ok(value)
    }

    /// Writes a whole file in the value's style (the original tools' style,
    /// [`TextStyle::default`], when it has none).
    fn to_text(&self) -> Result<Vec<u8>, WriteError> {
        let mut writer = TextWriter::new(self.text_style().cloned().unwrap_or_default());
        self.write_text(&mut writer)?;
        Ok(writer.finish())
    }
}

/// A line holding exactly the tokens `read_tokens` reads.
pub fn read_token_line<'a, T>(
    reader: &mut TextReader<'a>,
    expected: &'static str,
    read_tokens: impl FnOnce(&mut TextReader<'a>) -> Result<T, TextError>,
) -> Result<T, TextError> {
    reader.begin_line(expected)?;
    let value = read_tokens(reader)?;
    reader.end_line()?;
    Ok(value)
}

pub fn write_token_line(
    writer: &mut TextWriter,
    write_tokens: impl FnOnce(&mut TextWriter) -> Result<(), WriteError>,
) -> Result<(), WriteError> {
    writer.begin_line();
    write_tokens(writer)?;
    writer.end_line();
    Ok(())
}

/// A whole line as a string, spaces included.
pub fn read_line_string(reader: &mut TextReader<'_>) -> Result<RawString, TextError> {
    reader
        .whole_line("a line")
        .map(|line| RawString(line.to_vec()))
}

pub fn write_line_string(writer: &mut TextWriter, value: &RawString) -> Result<(), WriteError> {
    writer.whole_line(&value.0)
}

/// A `//` comment line; the text after the `//` is the value.
pub fn read_comment(reader: &mut TextReader<'_>) -> Result<RawString, TextError> {
    const EXPECTED: &str = "a `//` comment line";
    let line = reader.whole_line(EXPECTED)?;
    match line.strip_prefix(b"//") {
        Some(text) => Ok(RawString(text.to_vec())),
        None => Err(TextError::new(
            reader.line_number(),
            1,
            TextErrorKind::Unexpected {
                expected: EXPECTED,
                found: String::from_utf8_lossy(line).into_owned(),
            },
        )),
    }
}

pub fn write_comment(writer: &mut TextWriter, text: &RawString) -> Result<(), WriteError> {
    let mut line = b"//".to_vec();
    line.extend_from_slice(&text.0);
    writer.whole_line(&line)
}

/// `| tokens |`: the value's tokens between two `|` tokens.
pub fn read_vector<'a, T>(
    reader: &mut TextReader<'a>,
    read_tokens: impl FnOnce(&mut TextReader<'a>) -> Result<T, TextError>,
) -> Result<T, TextError> {
    reader.keyword("|")?;
    let value = read_tokens(reader)?;
    reader.keyword("|")?;
    Ok(value)
}

pub fn write_vector(
    writer: &mut TextWriter,
    write_tokens: impl FnOnce(&mut TextWriter) -> Result<(), WriteError>,
) -> Result<(), WriteError> {
    writer.token(b"|")?;
    write_tokens(writer)?;
    writer.token(b"|")
}

/// A constant: the tokens of `constant` (split at spaces), each exactly.
pub fn read_keywords(
    reader: &mut TextReader<'_>,
    constant: &'static str,
) -> Result<Magic, TextError> {
    for keyword in constant.split_whitespace() {
        reader.keyword(keyword)?;
    }
    Ok(Magic)
}

pub fn write_keywords(writer: &mut TextWriter, constant: &'static str) -> Result<(), WriteError> {
    for keyword in constant.split_whitespace() {
        writer.token(keyword.as_bytes())?;
    }
    Ok(())
}

macro_rules! text_number {
    ($($ty:ty),*) => {$(
        impl TextTokens for $ty {
            const EXPECTED: &'static str = <$ty as TextNumber>::EXPECTED;

            fn read_tokens(reader: &mut TextReader<'_>) -> Result<Self, TextError> {
                reader.number()
            }

            fn write_tokens(&self, writer: &mut TextWriter) -> Result<(), WriteError> {
                writer.number(*self)
            }
        }
    )*};
}

text_number!(u8, u16, u32, u64, i8, i16, i32, i64, f32);

/// A `RawString` without `line` is one word (no spaces).
impl TextTokens for RawString {
    const EXPECTED: &'static str = "a word";

    fn read_tokens(reader: &mut TextReader<'_>) -> Result<Self, TextError> {
        reader.string_token()
    }

    fn write_tokens(&self, writer: &mut TextWriter) -> Result<(), WriteError> {
        writer.token(&self.0)
    }
}

impl<T: TextTokens, const N: usize> TextTokens for [T; N] {
    const EXPECTED: &'static str = "a line of values";

    fn read_tokens(reader: &mut TextReader<'_>) -> Result<Self, TextError> {
        let mut elements = Vec::with_capacity(N);
        for index in 0..N {
            elements.push(T::read_tokens(reader).map_err(|e| e.within(Segment::Index(index)))?);
        }
        // Exactly N elements were pushed, so the conversion cannot fail.
        elements.try_into().map_err(|_| {
            reader.error_here(TextErrorKind::Invalid("array length mismatch".to_owned()))
        })
    }

    fn write_tokens(&self, writer: &mut TextWriter) -> Result<(), WriteError> {
        for (index, element) in self.iter().enumerate() {
            element
                .write_tokens(writer)
                .map_err(|e| e.within(Segment::Index(index)))?;
        }
        Ok(())
    }
}

/// Values made of tokens take one line of their own in a `text` record.
macro_rules! token_line {
    ($($ty:ty),*) => {$(
        impl TextRead for $ty {
            const MIN_LINES: u64 = 1;

            fn read_text(reader: &mut TextReader<'_>) -> Result<Self, TextError> {
                read_token_line(reader, <Self as TextTokens>::EXPECTED, <Self as TextTokens>::read_tokens)
            }
        }

        impl TextWrite for $ty {
            fn write_text(&self, writer: &mut TextWriter) -> Result<(), WriteError> {
                write_token_line(writer, |writer| self.write_tokens(writer))
            }
        }
    )*};
}

token_line!(u8, u16, u32, u64, i8, i16, i32, i64, f32, RawString);

impl<T: TextTokens, const N: usize> TextRead for [T; N] {
    const MIN_LINES: u64 = 1;

    fn read_text(reader: &mut TextReader<'_>) -> Result<Self, TextError> {
        read_token_line(reader, Self::EXPECTED, Self::read_tokens)
    }
}

impl<T: TextTokens, const N: usize> TextWrite for [T; N] {
    fn write_text(&self, writer: &mut TextWriter) -> Result<(), WriteError> {
        write_token_line(writer, |writer| self.write_tokens(writer))
    }
}
