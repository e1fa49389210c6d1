//! The text writer: lines and tokens in a file's recorded style.

use super::comments::{comment_start, is_comment_line, is_space};
use super::number::TextNumber;
use super::reader::keyword_text;
use super::style::{RawLine, RawNumber, TextStyle};
use crate::collection::CountInt;
use crate::{Error, ErrorKind, Segment};

/// Writes a text layout in a [`TextStyle`].
pub struct TextWriter {
    out: Vec<u8>,
    style: TextStyle,
    /// Where the open line of tokens starts in `out`.
    line_start: usize,
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
    next_comment_line: usize,
    next_trailing_comment: usize,
    /// Whether the layout allows comments, so that a value that would read
    /// back as one is refused (see [`Self::allow_comments`]).
    comments: bool,
    /// Inside a flowing list (see [`write_flowing_list`]): its open line,
    /// if one is open.
    flow: Option<Option<FlowLine>>,
}

/// A flowing list's open line: how many tokens the file had on the line
/// at this index (none recorded: one element per line), and how many are
/// written.
#[derive(Debug, Clone, Copy)]
struct FlowLine {
    capacity: Option<usize>,
    tokens: usize,
}

fn invalid(message: &str) -> Error {
    Error::new(ErrorKind::Invalid(message.to_owned()))
}

fn check_no_line_break(line: &[u8]) -> Result<(), Error> {
    if line.iter().any(|&b| b == b'\r' || b == b'\n') {
        return Err(invalid("a line cannot hold a line break"));
    }
    Ok(())
}

/// The tokens of a line, a `<name>` with its spaces as one: two lines with
/// the same tokens hold the same values.
fn tokens(line: &[u8]) -> Vec<&[u8]> {
    let mut tokens = Vec::new();
    let mut rest = line;
    loop {
        let start = rest
            .iter()
            .position(|&b| !is_space(b))
            .unwrap_or(rest.len());
        rest = rest.get(start..).unwrap_or_default();
        if rest.is_empty() {
            return tokens;
        }
        let len = match rest.strip_prefix(b"<") {
            Some(inside) => inside
                .iter()
                .position(|&b| b == b'>')
                .map_or(rest.len(), |end| end + 2),
            None => rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len()),
        };
        let (token, after) = rest.split_at(len.min(rest.len()));
        tokens.push(token);
        rest = after;
    }
}

impl TextWriter {
    pub fn new(mut style: TextStyle) -> Self {
        // Values edited through JSON may list these in any order.
        style.raw_numbers.sort_by_key(|raw| raw.index);
        style.raw_lines.sort_by_key(|raw| raw.index);
        TextWriter {
            out: Vec::new(),
            style,
            line_start: 0,
            lines_written: 0,
            ending_pending: false,
            last_line_empty: false,
            numbers_written: 0,
            next_raw_number: 0,
            next_raw_line: 0,
            next_comment_line: 0,
            next_trailing_comment: 0,
            comments: false,
            flow: None,
        }
    }

    /// From here on the layout allows `//` comments: a value that would
    /// read back as a comment is refused.
    pub fn allow_comments(&mut self) {
        self.comments = true;
    }

    /// Starts a line: the style's comment lines that stand before it first.
    fn start_line(&mut self) -> Result<(), Error> {
        while let Some(comment) = self
            .style
            .comment_lines
            .get(self.next_comment_line)
            .filter(|comment| comment.index <= self.lines_written)
        {
            let text = comment.text.0.clone();
            self.next_comment_line += 1;
            self.write_comment_line(&text)?;
        }
        self.put_line_break();
        Ok(())
    }

    fn put_line_break(&mut self) {
        if self.ending_pending {
            self.out.extend_from_slice(self.style.line_ending.bytes());
        }
        self.ending_pending = true;
    }

    fn write_comment_line(&mut self, text: &[u8]) -> Result<(), Error> {
        check_no_line_break(text)?;
        if !is_comment_line(text) {
            return Err(invalid(
                "a comment line holds a `//` comment, maybe after spaces",
            ));
        }
        self.put_line_break();
        self.lines_written += 1;
        self.out.extend_from_slice(text);
        self.last_line_empty = false;
        Ok(())
    }

    /// Writes a started line's text, then, unless the line is `raw`, the
    /// style's comment after its values if it kept one.
    fn put_line(&mut self, line: &[u8], raw: bool) -> Result<(), Error> {
        let line_start = self.out.len();
        self.out.extend_from_slice(line);
        self.close_line(line_start, raw)
    }

    /// Counts the line written from `line_start` on, then, unless the line
    /// is `raw`, writes the style's comment after its values if it kept one.
    fn close_line(&mut self, line_start: usize, raw: bool) -> Result<(), Error> {
        let index = self.lines_written;
        self.lines_written += 1;
        let line = self.out.get(line_start..).unwrap_or_default();
        self.last_line_empty = line.is_empty();
        let comment = raw_at(
            &self.style.trailing_comments,
            &mut self.next_trailing_comment,
            index,
            |raw: &RawLine| raw.index,
        );
        let Some(comment) = comment.filter(|_| !raw) else {
            return Ok(());
        };
        let text = &comment.text.0;
        if !text.first().copied().is_some_and(is_space)
            || !is_comment_line(text)
            || text.iter().any(|&b| b == b'\r' || b == b'\n')
        {
            return Err(invalid(
                "a comment after a line's values starts with spaces or tabs, then `//`, and \
                 holds no line break",
            ));
        }
        if line.iter().all(|&b| is_space(b)) {
            return Err(invalid(
                "a comment after a blank line would read back as a comment line",
            ));
        }
        self.out.extend_from_slice(text);
        self.last_line_empty = false;
        Ok(())
    }

    /// Where the next value will be written, for a `check` that may refuse
    /// it once written (see [`Self::position_of`]).
    pub fn mark(&self) -> usize {
        self.out.len()
    }

    /// The line and column (from 1) of the first value written from `mark`
    /// on, as the reader finds them from its own mark there: on the line
    /// then open, or on the first line after it that is not a comment.
    pub fn position_of(&self, mark: usize) -> (usize, usize) {
        let written = self.out.get(..mark).unwrap_or_default();
        let mut number = 1 + memchr::memchr_iter(b'\n', written).count();
        let line_start = memchr::memrchr(b'\n', written).map_or(0, |at| at + 1);
        let mut rest = self.out.get(mark..).unwrap_or_default();
        let mut column = mark - line_start;
        loop {
            let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            let line = rest.get(..end).unwrap_or_default();
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let first = line.iter().position(|&b| !is_space(b));
            let skipped = column == 0 && self.comments && is_comment_line(line);
            match first {
                Some(offset) if !skipped => return (number, column + offset + 1),
                None if column == 0 && !skipped => return (number, 1),
                _ => {}
            }
            if end >= rest.len() {
                return (number, column + 1);
            }
            rest = rest.get(end + 1..).unwrap_or_default();
            number += 1;
            column = 0;
        }
    }

    /// Opens a line of tokens.
    pub fn begin_line(&mut self) -> Result<(), Error> {
        self.start_line()?;
        self.line_start = self.out.len();
        Ok(())
    }

    /// Writes the open line: the file's own spelling of it when the style
    /// kept one holding the same tokens.
    pub fn end_line(&mut self) -> Result<(), Error> {
        let raw = raw_at(
            &self.style.raw_lines,
            &mut self.next_raw_line,
            self.lines_written,
            |raw: &RawLine| raw.index,
        );
        let line = self.out.get(self.line_start..).unwrap_or_default();
        let spelled = raw
            .filter(|raw| tokens(&raw.text.0) == tokens(line))
            .map(|raw| raw.text.0.clone());
        if let Some(spelled) = spelled {
            self.out.truncate(self.line_start);
            self.out.extend_from_slice(&spelled);
        }
        self.close_line(self.line_start, false)
    }

    /// A whole line, verbatim. Where comments are allowed, a line that
    /// would read back with a comment in it is refused.
    pub fn whole_line(&mut self, line: &[u8]) -> Result<(), Error> {
        self.start_line()?;
        self.put_whole_line(line)
    }

    fn put_whole_line(&mut self, line: &[u8]) -> Result<(), Error> {
        check_no_line_break(line)?;
        if self.comments && comment_start(line).is_some() {
            return Err(invalid(
                "a `//` at the start of the line or after a space would read back as a comment",
            ));
        }
        self.put_line(line, false)
    }

    /// A line exactly as given, a comment or not (`comment` fields).
    pub fn raw_line(&mut self, line: &[u8]) -> Result<(), Error> {
        check_no_line_break(line)?;
        self.start_line()?;
        self.put_line(line, true)
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
        if self.comments && token.starts_with(b"//") {
            return Err(invalid(
                "a word starting with `//` would read back as a comment",
            ));
        }
        self.push_token(token)
    }

    fn push_token(&mut self, token: &[u8]) -> Result<(), Error> {
        self.open_flow_line()?;
        if self.out.len() > self.line_start {
            self.out.push(b' ');
        }
        self.out.extend_from_slice(token);
        let full = self
            .flow
            .as_mut()
            .and_then(Option::as_mut)
            .is_some_and(|line| {
                line.tokens += 1;
                line.capacity
                    .is_some_and(|capacity| line.tokens >= capacity)
            });
        if full {
            self.close_flow_line()?;
        }
        Ok(())
    }

    /// In a flowing list with no line open, opens one, as long as the
    /// file's line at this index held tokens (an empty one is written as
    /// it was).
    fn open_flow_line(&mut self) -> Result<(), Error> {
        if !matches!(self.flow, Some(None)) {
            return Ok(());
        }
        loop {
            let kept = raw_at(
                &self.style.raw_lines,
                &mut self.next_raw_line,
                self.lines_written,
                |raw: &RawLine| raw.index,
            )
            .map(|raw| tokens(&raw.text.0).len());
            self.begin_line()?;
            if kept == Some(0) {
                self.end_line()?;
                continue;
            }
            self.flow = Some(Some(FlowLine {
                capacity: kept,
                tokens: 0,
            }));
            return Ok(());
        }
    }

    /// Writes a flowing list's open line, if one is open.
    fn close_flow_line(&mut self) -> Result<(), Error> {
        if matches!(self.flow, Some(Some(_))) {
            self.flow = Some(None);
            self.end_line()?;
        }
        Ok(())
    }

    /// Adds a name between `<` and `>`, spaces allowed.
    pub fn angle_bracketed(&mut self, name: &[u8]) -> Result<(), Error> {
        if name.iter().any(|&b| matches!(b, b'>' | b'\r' | b'\n')) {
            return Err(invalid("a `<name>` cannot hold a `>` or a line break"));
        }
        let mut token = Vec::with_capacity(name.len() + 2);
        token.push(b'<');
        token.extend_from_slice(name);
        token.push(b'>');
        if self.comments && comment_start(&token).is_some() {
            return Err(invalid(
                "a `//` after a space in a `<name>` would read back as a comment",
            ));
        }
        self.push_token(&token)
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
            // A number's own text is a word that reads back as itself.
            _ => {
                let text = value.text(self.style.float_style);
                self.push_token(text.as_bytes())
            }
        }
    }

    /// A keyword line: the file's own spelling of it (quoted, spaced) when
    /// the style kept one for this line that holds the same phrase.
    pub fn keyword_line(&mut self, phrase: &'static str) -> Result<(), Error> {
        self.start_line()?;
        let raw = raw_at(
            &self.style.raw_lines,
            &mut self.next_raw_line,
            self.lines_written,
            |raw: &RawLine| raw.index,
        );
        let line = match raw {
            Some(raw) if keyword_text(&raw.text.0) == phrase.as_bytes() => raw.text.0.clone(),
            _ => phrase.as_bytes().to_vec(),
        };
        self.put_whole_line(&line)
    }

    /// A count line holding `len` as a `C` (`Count<C>` fields).
    pub fn count_line<C: TextNumber + CountInt>(&mut self, len: usize) -> Result<(), Error> {
        self.begin_line()?;
        self.count_token::<C>(len)?;
        self.end_line()
    }

    /// A count token holding `len` as a `C`, on a line of other values.
    pub fn count_token<C: TextNumber + CountInt>(&mut self, len: usize) -> Result<(), Error> {
        let count = C::from_len(len).ok_or_else(|| {
            Error::new(ErrorKind::TooLong {
                len,
                count_type: C::NAME,
                max: C::MAX,
            })
        })?;
        self.number(count)
    }

    /// A count line: the length of the list that follows.
    pub fn count(&mut self, len: usize) -> Result<(), Error> {
        self.begin_line()?;
        self.number(len as u64)?;
        self.end_line()
    }

    /// The written text, ending as the style says, with the comment lines
    /// that stood after the last value.
    pub fn finish(mut self) -> Result<Vec<u8>, Error> {
        let rest = self
            .style
            .comment_lines
            .get(self.next_comment_line..)
            .unwrap_or_default()
            .to_vec();
        for comment in rest {
            self.write_comment_line(&comment.text.0)?;
        }
        if self.ending_pending && (self.style.final_line_ending || self.last_line_empty) {
            self.out.extend_from_slice(self.style.line_ending.bytes());
        }
        Ok(self.out)
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

/// Writes a flowing list (see `read_flowing_list`): its length on a count
/// line, then the elements' tokens, breaking lines where the style says the
/// file did, else after each element.
pub fn write_flowing_list<T>(
    writer: &mut TextWriter,
    elements: &[T],
    mut write_tokens: impl FnMut(&mut TextWriter, &T) -> Result<(), Error>,
) -> Result<(), Error> {
    writer.count(elements.len())?;
    writer.flow = Some(None);
    let written = (|| {
        for (index, element) in elements.iter().enumerate() {
            write_tokens(writer, element).map_err(|e| e.within(Segment::Index(index)))?;
            if matches!(writer.flow, Some(Some(FlowLine { capacity: None, .. }))) {
                writer.close_flow_line()?;
            }
        }
        writer.close_flow_line()
    })();
    writer.flow = None;
    written
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

#[cfg(test)]
mod position_tests {
    use super::*;

    #[test]
    fn a_mark_finds_the_value_written_after_it_as_the_reader_would() {
        let mut style = TextStyle::default();
        style.line_ending = super::super::style::LineEnding::Crlf;
        let mut writer = TextWriter::new(style);
        writer.allow_comments();
        writer.begin_line().unwrap();
        writer.token(b"first").unwrap();
        let on_the_line = writer.mark();
        writer.token(b"second").unwrap();
        writer.end_line().unwrap();
        let before_the_next_line = writer.mark();
        writer.write_comment_line(b"// a comment").unwrap();
        writer.begin_line().unwrap();
        writer.token(b"third").unwrap();
        writer.end_line().unwrap();
        assert_eq!(writer.position_of(0), (1, 1));
        assert_eq!(writer.position_of(on_the_line), (1, 7));
        assert_eq!(writer.position_of(before_the_next_line), (3, 1));
    }
}
