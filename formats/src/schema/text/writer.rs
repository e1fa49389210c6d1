//! The text writer: lines and tokens in a file's recorded style.

use super::number::TextNumber;
use super::reader::keyword_text;
use super::style::{RawLine, RawNumber, TextStyle};
use crate::schema::collection::CountInt;
use crate::schema::{Error, ErrorKind, Segment};

/// Writes a text layout in a [`TextStyle`].
pub struct TextWriter {
    out: Vec<u8>,
    style: TextStyle,
    /// The open line of tokens, written out when it ends.
    line: Vec<u8>,
    lines_written: usize,
    /// A line ending is written before the next line, so the last line's
    /// ending can follow the style.
    ending_pending: bool,
    /// An empty last line needs its ending, or it would not be there.
    last_line_empty: bool,
    numbers_written: usize,
    /// Positions in the style's (sorted) raw lists of the next candidates.
    next_raw_number: usize,
    next_raw_line: usize,
}

fn invalid(message: &str) -> Error {
    Error::new(ErrorKind::Invalid(message.to_owned()))
}

fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&b| b == b' ' || b == b'\t')
        .filter(|token| !token.is_empty())
}

impl TextWriter {
    pub fn new(mut style: TextStyle) -> Self {
        // Values edited through JSON may list these in any order.
        style.raw_numbers.sort_by_key(|raw| raw.index);
        style.raw_lines.sort_by_key(|raw| raw.index);
        TextWriter {
            out: Vec::new(),
            style,
            line: Vec::new(),
            lines_written: 0,
            ending_pending: false,
            last_line_empty: false,
            numbers_written: 0,
            next_raw_number: 0,
            next_raw_line: 0,
        }
    }

    fn start_line(&mut self) {
        if self.ending_pending {
            self.out.extend_from_slice(self.style.line_ending.bytes());
        }
        self.ending_pending = true;
    }

    /// Opens a line of tokens.
    pub fn begin_line(&mut self) {
        self.start_line();
        self.line.clear();
    }

    /// Writes the open line: the file's own spelling of it when the style
    /// kept one holding the same tokens.
    pub fn end_line(&mut self) {
        let index = self.lines_written;
        self.lines_written += 1;
        let raw = raw_at(
            &self.style.raw_lines,
            &mut self.next_raw_line,
            index,
            |raw: &RawLine| raw.index,
        );
        let line = match raw {
            Some(raw) if tokens(&raw.text.0).eq(tokens(&self.line)) => &raw.text.0,
            _ => &self.line,
        };
        self.out.extend_from_slice(line);
        self.last_line_empty = line.is_empty();
    }

    /// A whole line, verbatim.
    pub fn whole_line(&mut self, line: &[u8]) -> Result<(), Error> {
        if line.iter().any(|&b| b == b'\r' || b == b'\n') {
            return Err(invalid("a line cannot hold a line break"));
        }
        self.start_line();
        self.lines_written += 1;
        self.out.extend_from_slice(line);
        self.last_line_empty = line.is_empty();
        Ok(())
    }

    /// Adds a token to the open line.
    pub fn token(&mut self, token: &[u8]) -> Result<(), Error> {
        if token.is_empty()
            || token
                .iter()
                .any(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        {
            return Err(invalid(
                "a word cannot be empty or hold spaces, tabs or line breaks",
            ));
        }
        if !self.line.is_empty() {
            self.line.push(b' ');
        }
        self.line.extend_from_slice(token);
        Ok(())
    }

    /// Adds a number: the file's own spelling when the style kept one at this
    /// position that still reads as `value`, otherwise the style's.
    pub fn number<T: TextNumber>(&mut self, value: T) -> Result<(), Error> {
        let index = self.numbers_written;
        self.numbers_written += 1;
        let raw = raw_at(
            &self.style.raw_numbers,
            &mut self.next_raw_number,
            index,
            |raw: &RawNumber| raw.index,
        );
        match raw {
            Some(raw) if T::parse(&raw.text).is_some_and(|read| read.same(value)) => {
                let text = raw.text.clone();
                self.token(text.as_bytes())
            }
            _ => {
                let text = value.format(self.style.float_style);
                self.token(text.as_bytes())
            }
        }
    }

    /// A keyword line: the file's own spelling of it (quoted, spaced) when
    /// the style kept one for this line that holds the same phrase.
    pub fn keyword_line(&mut self, phrase: &'static str) -> Result<(), Error> {
        let index = self.lines_written;
        let raw = raw_at(
            &self.style.raw_lines,
            &mut self.next_raw_line,
            index,
            |raw: &RawLine| raw.index,
        );
        let line = match raw {
            Some(raw) if keyword_text(&raw.text.0) == phrase.as_bytes() => raw.text.0.clone(),
            _ => phrase.as_bytes().to_vec(),
        };
        self.whole_line(&line)
    }

    /// A count line holding `len` as a `C` (`Count<C>` fields).
    pub fn count_line<C: TextNumber + CountInt>(&mut self, len: usize) -> Result<(), Error> {
        let count = C::from_len(len).ok_or_else(|| {
            Error::new(ErrorKind::TooLong {
                len,
                count_type: C::NAME,
                max: C::MAX,
            })
        })?;
        self.begin_line();
        self.number(count)?;
        self.end_line();
        Ok(())
    }

    /// A count line: the length of the list that follows.
    pub fn count(&mut self, len: usize) -> Result<(), Error> {
        self.begin_line();
        self.number(len as u64)?;
        self.end_line();
        Ok(())
    }

    /// The written text, ending as the style says.
    pub fn finish(mut self) -> Vec<u8> {
        if self.ending_pending && (self.style.final_line_ending || self.last_line_empty) {
            self.out.extend_from_slice(self.style.line_ending.bytes());
        }
        self.out
    }
}

/// The entry for `index` in a list sorted by index, moving `next` past
/// entries for earlier positions.
fn raw_at<'s, T>(
    list: &'s [T],
    next: &mut usize,
    index: usize,
    index_of: impl Fn(&T) -> usize,
) -> Option<&'s T> {
    while list.get(*next).is_some_and(|raw| index_of(raw) < index) {
        *next += 1;
    }
    list.get(*next).filter(|raw| index_of(raw) == index)
}

/// Writes the elements of a list whose count is stored elsewhere (or which
/// runs to the end of the text); errors name the element's index.
pub fn write_elements<T>(
    writer: &mut TextWriter,
    elements: &[T],
    mut write_one: impl FnMut(&mut TextWriter, &T) -> Result<(), Error>,
) -> Result<(), Error> {
    for (index, element) in elements.iter().enumerate() {
        write_one(writer, element).map_err(|e| e.within(Segment::Index(index)))?;
    }
    Ok(())
}

/// Writes a list: its length on a count line, then each element; errors
/// name the element's index.
pub fn write_list<T>(
    writer: &mut TextWriter,
    elements: &[T],
    write_one: impl FnMut(&mut TextWriter, &T) -> Result<(), Error>,
) -> Result<(), Error> {
    writer.count(elements.len())?;
    write_elements(writer, elements, write_one)
}
