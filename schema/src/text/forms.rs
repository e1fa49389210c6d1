//! How one field of a text record appears in the file: a line of tokens, a
//! whole line, a `//` comment, a `| ... |` vector, a `<name>`, a value or
//! the word standing for none, or constant keywords. Only the derive's
//! expansions call these.

use super::{TextReader, TextWriter};
use crate::{Error, ErrorKind, Magic, RawString};

/// A line holding exactly the tokens `read_tokens` reads.
pub fn read_token_line<'a, T>(
    reader: &mut TextReader<'a>,
    expected: &'static str,
    read_tokens: impl FnOnce(&mut TextReader<'a>) -> Result<T, Error>,
) -> Result<T, Error> {
    reader.begin_line(expected)?;
    let value = read_tokens(reader)?;
    reader.end_line()?;
    Ok(value)
}

pub fn write_token_line(
    writer: &mut TextWriter,
    write_tokens: impl FnOnce(&mut TextWriter) -> Result<(), Error>,
) -> Result<(), Error> {
    writer.begin_line()?;
    write_tokens(writer)?;
    writer.end_line()
}

/// A whole line as a string, spaces included.
pub fn read_line_string(reader: &mut TextReader<'_>) -> Result<RawString, Error> {
    reader
        .whole_line("a line")
        .map(|line| RawString(line.to_vec()))
}

pub fn write_line_string(writer: &mut TextWriter, value: &RawString) -> Result<(), Error> {
    writer.whole_line(&value.0)
}

/// A `//` comment line; the text after the `//` is the value.
pub fn read_comment(reader: &mut TextReader<'_>) -> Result<RawString, Error> {
    const EXPECTED: &str = "a `//` comment line";
    let line = reader.raw_line(EXPECTED)?;
    match line.strip_prefix(b"//") {
        Some(text) => Ok(RawString(text.to_vec())),
        None => Err(Error::at_text(
            reader.line_number(),
            1,
            ErrorKind::Unexpected {
                expected: EXPECTED,
                found: crate::quoted(line),
            },
        )),
    }
}

pub fn write_comment(writer: &mut TextWriter, text: &RawString) -> Result<(), Error> {
    let mut line = b"//".to_vec();
    line.extend_from_slice(&text.0);
    writer.raw_line(&line)
}

/// `<name with spaces>`.
pub fn read_angle_bracketed(reader: &mut TextReader<'_>) -> Result<RawString, Error> {
    reader.angle_bracketed()
}

pub fn write_angle_bracketed(writer: &mut TextWriter, name: &RawString) -> Result<(), Error> {
    writer.angle_bracketed(&name.0)
}

/// The word standing for none (`*`), or a value's tokens.
pub fn read_or_none<'a, T>(
    reader: &mut TextReader<'a>,
    none: &'static str,
    read_tokens: impl FnOnce(&mut TextReader<'a>) -> Result<T, Error>,
) -> Result<Option<T>, Error> {
    if reader.take_word(none) {
        return Ok(None);
    }
    read_tokens(reader).map(Some)
}

pub fn write_or_none<T>(
    writer: &mut TextWriter,
    none: &'static str,
    value: Option<&T>,
    write_tokens: impl FnOnce(&mut TextWriter, &T) -> Result<(), Error>,
) -> Result<(), Error> {
    match value {
        Some(value) => write_tokens(writer, value),
        None => writer.token(none.as_bytes()),
    }
}

/// `| tokens |`: the value's tokens between two `|` tokens.
pub fn read_vector<'a, T>(
    reader: &mut TextReader<'a>,
    read_tokens: impl FnOnce(&mut TextReader<'a>) -> Result<T, Error>,
) -> Result<T, Error> {
    reader.keyword("|")?;
    let value = read_tokens(reader)?;
    reader.keyword("|")?;
    Ok(value)
}

pub fn write_vector(
    writer: &mut TextWriter,
    write_tokens: impl FnOnce(&mut TextWriter) -> Result<(), Error>,
) -> Result<(), Error> {
    writer.token(b"|")?;
    write_tokens(writer)?;
    writer.token(b"|")
}

/// A constant: the tokens of `constant` (split at spaces), each exactly.
pub fn read_keywords(reader: &mut TextReader<'_>, constant: &'static str) -> Result<Magic, Error> {
    for keyword in constant.split_whitespace() {
        reader.keyword(keyword)?;
    }
    Ok(Magic)
}

pub fn write_keywords(writer: &mut TextWriter, constant: &'static str) -> Result<(), Error> {
    for keyword in constant.split_whitespace() {
        writer.token(keyword.as_bytes())?;
    }
    Ok(())
}
