//! The text reader: lines, tokens, numbers, and the file's style as it goes.

use super::comments::{comment_start, is_comment_line, is_space};
use super::number::{PrintedBy, TextNumber};
use super::style::{FloatStyle, LineEnding, RawLine, RawNumber, TextStyle};
use crate::collection::{input_needed, push_within_capacity, CountInt};
use crate::map::SpanKind;
use crate::{Error, ErrorKind};
use crate::{RawString, Segment};

/// Reads a text layout line by line and token by token, recording the line
/// ending, which number tokens each float style would print differently,
/// and, once a layout allows them, `//` comments.
pub struct TextReader<'a> {
    text: &'a [u8],
    /// Byte offset where the next line starts.
    next_line: usize,
    /// Lines taken so far; the open line's number (from 1) while one is open.
    lines_taken: usize,
    total_lines: usize,
    /// The open line without its ending, where it starts in `text`, and
    /// the token cursor in it.
    line: &'a [u8],
    line_start: usize,
    cursor: usize,
    /// The open line, as far as the cursor, is its tokens joined by single
    /// spaces: no space or tab before the first, no tab, no two spaces.
    single_spaced: bool,
    line_ending: Option<LineEnding>,
    final_line_ending: bool,
    numbers_read: usize,
    /// Number tokens each float style would not print as they are.
    msvc_misses: Vec<RawNumber>,
    shortest_misses: Vec<RawNumber>,
    raw_lines: Vec<RawLine>,
    /// Whether `//` comments may stand anywhere (see [`Self::allow_comments`]).
    comments: bool,
    comment_lines: Vec<RawLine>,
    trailing_comments: Vec<RawLine>,
    /// Inside a flowing list (see [`read_flowing_list`]): its progress.
    flow: Option<Flow>,
}

/// A flowing list's progress on the open line: enough to tell whether the
/// line holds exactly one whole element, the layout's own way of writing
/// it, or must be kept verbatim in the style.
#[derive(Debug, Default)]
struct Flow {
    /// A line is open for the list's tokens.
    open: bool,
    /// The open line began inside an element.
    began_inside: bool,
    /// Elements with a token on the open line.
    elements: usize,
    /// Tokens of the current element read so far.
    element_tokens: usize,
}

/// The column (from 1) of byte `at` (from 0) of a line, as a span notes
/// it.
fn column(at: usize) -> u32 {
    u32::try_from(at + 1).unwrap_or(u32::MAX)
}

/// A line's text without its ending, its ending, and the bytes it takes.
type PeekedLine<'a> = (&'a [u8], Option<LineEnding>, usize);

/// Where a field begins, taken before it is read, so that a `check`
/// refusing its value can point at it (see [`TextReader::mark`]).
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    /// The line and column of its first token, when that is on the open line.
    on_open_line: Option<(usize, usize)>,
    /// Otherwise the first value line from this byte offset, whose number
    /// this is (comment lines passed over).
    next_line: usize,
    next_line_number: usize,
}

fn trim_spaces(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(start, |end| end + 1);
    line.get(start..end).unwrap_or_default()
}

/// The phrase a keyword line spells: without spaces around it and without
/// one pair of double quotes around it.
pub(super) fn keyword_text(line: &[u8]) -> &[u8] {
    let trimmed = trim_spaces(line);
    trimmed
        .strip_prefix(b"\"")
        .and_then(|rest| rest.strip_suffix(b"\""))
        .unwrap_or(trimmed)
}

impl<'a> TextReader<'a> {
    pub fn new(text: &'a [u8]) -> Self {
        let breaks = memchr::memchr_iter(b'\n', text).count();
        let unterminated_last = !text.is_empty() && !text.ends_with(b"\n");
        TextReader {
            text,
            next_line: 0,
            lines_taken: 0,
            total_lines: breaks + usize::from(unterminated_last),
            line: &[],
            line_start: 0,
            cursor: 0,
            single_spaced: true,
            line_ending: None,
            final_line_ending: true,
            numbers_read: 0,
            msvc_misses: Vec::new(),
            shortest_misses: Vec::new(),
            raw_lines: Vec::new(),
            comments: false,
            comment_lines: Vec::new(),
            trailing_comments: Vec::new(),
            flow: None,
        }
    }

    /// From here to the end of the text, `//` comments may stand anywhere:
    /// a line holding only a comment is passed over, and a comment after a
    /// line's values ends the line. Both are kept in the style. A `//`
    /// starts a comment at the start of a line or after a space or tab.
    pub fn allow_comments(&mut self) {
        self.comments = true;
    }

    /// The open line's number, from 1.
    pub fn line_number(&self) -> usize {
        self.lines_taken.max(1)
    }

    /// An error at the cursor of the open line.
    pub fn error_here(&self, kind: ErrorKind) -> Error {
        Error::at_text(self.line_number(), self.cursor + 1, kind)
    }

    /// An error about the line that would be read next.
    pub fn error_at_next_line(&self, kind: ErrorKind) -> Error {
        Error::at_text(self.lines_taken + 1, 1, kind)
    }

    /// The line starting at byte `from`: its text without its ending, its
    /// ending (none for a last line without one) and the bytes it takes;
    /// `None` at the end of the text. Its text may hold a stray CR.
    fn peek_line(&self, from: usize) -> Option<PeekedLine<'a>> {
        let rest = self.text.get(from..).unwrap_or_default();
        if rest.is_empty() {
            return None;
        }
        Some(match memchr::memchr(b'\n', rest) {
            Some(end) => {
                let body = rest.get(..end).unwrap_or_default();
                match body.strip_suffix(b"\r") {
                    Some(body) => (body, Some(LineEnding::Crlf), end + 1),
                    None => (body, Some(LineEnding::Lf), end + 1),
                }
            }
            None => (rest, None, rest.len()),
        })
    }

    /// Takes the next line as it is (without its ending), checking the
    /// ending against the earlier lines'.
    fn take_line(&mut self, expected: &'static str) -> Result<&'a [u8], Error> {
        let rest = self.text.get(self.next_line..).unwrap_or_default();
        if rest.is_empty() {
            return Err(Error::at_text(
                self.lines_taken + 1,
                1,
                ErrorKind::EndOfText { expected },
            ));
        }
        self.lines_taken += 1;
        // One search finds the line's end and any CR before it. A bare CR
        // is neither part of a value nor a line ending the writer could
        // reproduce, so it is refused rather than guessed at.
        let (line, ending, consumed) = match memchr::memchr2(b'\r', b'\n', rest) {
            None => (rest, None, rest.len()),
            Some(end) => match rest.get(end..) {
                Some([b'\n', ..]) => (
                    rest.get(..end).unwrap_or_default(),
                    Some(LineEnding::Lf),
                    end + 1,
                ),
                Some([b'\r', b'\n', ..]) => (
                    rest.get(..end).unwrap_or_default(),
                    Some(LineEnding::Crlf),
                    end + 2,
                ),
                _ => {
                    return Err(Error::at_text(
                        self.lines_taken,
                        end + 1,
                        ErrorKind::StrayCarriageReturn,
                    ))
                }
            },
        };
        self.next_line += consumed;
        self.final_line_ending = ending.is_some();
        match (self.line_ending, ending) {
            (_, None) => {}
            (None, Some(found)) => self.line_ending = Some(found),
            (Some(expected), Some(found)) if expected != found => {
                return Err(Error::at_text(
                    self.lines_taken,
                    line.len() + 1,
                    ErrorKind::MixedLineEndings {
                        expected: expected.name(),
                        found: found.name(),
                    },
                ));
            }
            (Some(_), Some(_)) => {}
        }
        Ok(line)
    }

    /// Notes the line taken last in the byte map, as what the reader
    /// expected there.
    fn note_line(&self, expected: &'static str, line: &[u8], kind: SpanKind) {
        let number = self.lines_taken as u64;
        crate::map::note(number, number + 1, expected, kind, || {
            String::from_utf8_lossy(line).into_owned()
        });
    }

    /// The index (from 0) of the line taken last.
    fn line_index(&self) -> usize {
        self.lines_taken.saturating_sub(1)
    }

    /// Opens the next line for tokens. Where comments are allowed, comment
    /// lines before it are passed over and a comment after its values is
    /// cut off, both kept for the style.
    pub fn begin_line(&mut self, expected: &'static str) -> Result<(), Error> {
        let mut start = self.next_line;
        let mut line = self.take_line(expected)?;
        while self.comments && is_comment_line(line) {
            self.keep_comment_line(line);
            start = self.next_line;
            line = self.take_line(expected)?;
        }
        self.note_line(expected, line, SpanKind::Field);
        if let Some(start) = self.comments.then(|| comment_start(line)).flatten() {
            self.trailing_comments.push(RawLine {
                index: self.line_index(),
                text: RawString(line.get(start..).unwrap_or_default().to_vec()),
            });
            line = line.get(..start).unwrap_or_default();
        }
        self.line = line;
        self.line_start = start;
        self.cursor = 0;
        self.single_spaced = true;
        Ok(())
    }

    fn keep_comment_line(&mut self, line: &[u8]) {
        self.note_line("comment line (kept as found)", line, SpanKind::Opaque);
        self.comment_lines.push(RawLine {
            index: self.line_index(),
            text: RawString(line.to_vec()),
        });
    }

    /// Where comments are allowed, takes the comment lines that come next.
    pub fn skip_comment_lines(&mut self) -> Result<(), Error> {
        while self.comments
            && self
                .peek_line(self.next_line)
                .is_some_and(|(line, _, _)| is_comment_line(line))
        {
            let line = self.take_line("a comment line")?;
            self.keep_comment_line(line);
        }
        Ok(())
    }

    /// The next line exactly as it is, a comment or not (`comment` fields).
    pub fn raw_line(&mut self, expected: &'static str) -> Result<&'a [u8], Error> {
        let start = self.next_line;
        self.line = self.take_line(expected)?;
        self.note_line(expected, self.line, SpanKind::Field);
        self.line_start = start;
        self.cursor = self.line.len();
        Ok(self.line)
    }

    /// Closes the open line: nothing may follow its last value. A line not
    /// written as its tokens joined by single spaces is kept verbatim.
    pub fn end_line(&mut self) -> Result<(), Error> {
        self.close_line(false)
    }

    /// [`Self::end_line`]; `keep` keeps the line verbatim whatever its spacing.
    fn close_line(&mut self, keep: bool) -> Result<(), Error> {
        self.skip_spaces();
        if self.cursor < self.line.len() {
            let found = self.peek_token();
            return Err(self.error_here(ErrorKind::ExtraText {
                found: crate::quoted(found),
            }));
        }
        let line = self.line;
        if keep || !self.single_spaced {
            self.raw_lines.push(RawLine {
                index: self.lines_taken - 1,
                text: RawString(line.to_vec()),
            });
        }
        Ok(())
    }

    /// A whole line, verbatim: without its ending, and without the comment
    /// after its value where comments are allowed.
    pub fn whole_line(&mut self, expected: &'static str) -> Result<&'a [u8], Error> {
        self.begin_line(expected)?;
        self.cursor = self.line.len();
        Ok(self.line)
    }

    /// Moves past the spaces and tabs at the cursor, noting whether they
    /// are the single space between two tokens. (Every other byte of a
    /// line is in a token, which holds neither, or a `<name>`, which
    /// notes its own spacing.)
    #[inline]
    fn skip_spaces(&mut self) {
        let start = self.cursor;
        while self.line.get(self.cursor).is_some_and(|&b| is_space(b)) {
            self.cursor += 1;
        }
        if self.cursor > start {
            let between_tokens = start > 0 && self.cursor < self.line.len();
            let single_space = self.cursor == start + 1 && self.line.get(start) == Some(&b' ');
            self.single_spaced &= between_tokens && single_space;
        }
    }

    fn peek_token(&self) -> &'a [u8] {
        let rest = self.line.get(self.cursor..).unwrap_or_default();
        let len = rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len());
        rest.get(..len).unwrap_or_default()
    }

    /// In a flowing list, opens lines until the open one has a token left
    /// (closing the exhausted one); elsewhere nothing.
    #[inline]
    fn flow_to_token(&mut self, expected: &'static str) -> Result<(), Error> {
        match &self.flow {
            Some(flow) => {
                let open = flow.open;
                self.flow_to_token_from(open, expected)
            }
            None => Ok(()),
        }
    }

    /// [`Self::flow_to_token`] in a flowing list, whose line is `open` or not.
    fn flow_to_token_from(&mut self, mut open: bool, expected: &'static str) -> Result<(), Error> {
        loop {
            if open {
                self.skip_spaces();
                if self.cursor < self.line.len() {
                    return Ok(());
                }
                self.close_flow_line()?;
            }
            self.begin_line(expected)?;
            open = true;
            if let Some(flow) = &mut self.flow {
                flow.began_inside = flow.element_tokens > 0;
                flow.elements = 0;
                flow.open = true;
            }
        }
    }

    /// Closes a flowing list's open line, kept verbatim unless it holds
    /// exactly one whole element.
    fn close_flow_line(&mut self) -> Result<(), Error> {
        let Some(flow) = self.flow.as_mut().filter(|flow| flow.open) else {
            return Ok(());
        };
        flow.open = false;
        let one_element = !flow.began_inside && flow.elements == 1 && flow.element_tokens == 0;
        self.close_line(!one_element)
    }

    /// The next whitespace-separated token of the open line (in a flowing
    /// list, of the next line holding one).
    pub fn token(&mut self, expected: &'static str) -> Result<&'a [u8], Error> {
        self.flow_to_token(expected)?;
        self.skip_spaces();
        let token = self.peek_token();
        if token.is_empty() {
            return Err(self.error_here(ErrorKind::EndOfLine { expected }));
        }
        Ok(token)
    }

    /// Moves past a token returned by [`Self::token`] once it is accepted, so
    /// an error about it points at its first column.
    fn accept(&mut self, token: &[u8], type_name: &'static str) {
        let first = self.cursor;
        self.cursor += token.len();
        let columns = (column(first), column(self.cursor));
        crate::map::note_token(self.lines_taken as u64, columns, type_name, || {
            String::from_utf8_lossy(token).into_owned()
        });
        if let Some(flow) = &mut self.flow {
            if flow.element_tokens == 0 {
                flow.elements += 1;
            }
            flow.element_tokens += 1;
        }
    }

    /// The next token, which must be exactly `keyword`.
    pub fn keyword(&mut self, keyword: &'static str) -> Result<(), Error> {
        let token = self.token(keyword)?;
        if token != keyword.as_bytes() {
            return Err(self.error_here(ErrorKind::Unexpected {
                expected: keyword,
                found: crate::quoted(token),
            }));
        }
        self.accept(token, "keyword");
        Ok(())
    }

    /// Takes the next token if it is exactly `word` (a word standing for
    /// "none", such as `*`).
    pub fn take_word(&mut self, word: &str) -> bool {
        // At the end of the text there is no word to take; the value's
        // reader then says what it expected.
        if self.flow_to_token("a word").is_err() {
            return false;
        }
        self.skip_spaces();
        let token = self.peek_token();
        let taken = token == word.as_bytes();
        if taken {
            self.accept(token, "word");
        }
        taken
    }

    /// A name between `<` and `>`, spaces allowed (`<Bip01 L Thigh>`).
    pub fn angle_bracketed(&mut self) -> Result<RawString, Error> {
        const EXPECTED: &str = "a `<name>`";
        self.flow_to_token(EXPECTED)?;
        self.skip_spaces();
        let rest = self.line.get(self.cursor..).unwrap_or_default();
        let Some(inside) = rest.strip_prefix(b"<") else {
            let token = self.token(EXPECTED)?;
            return Err(self.error_here(ErrorKind::Unexpected {
                expected: EXPECTED,
                found: crate::quoted(token),
            }));
        };
        let Some(end) = inside.iter().position(|&b| b == b'>') else {
            return Err(self.error_here(ErrorKind::Invalid(
                "the `<` has no closing `>` on its line".to_owned(),
            )));
        };
        let name = inside.get(..end).unwrap_or_default();
        self.single_spaced &=
            memchr::memchr(b'\t', name).is_none() && memchr::memmem::find(name, b"  ").is_none();
        self.accept(
            rest.get(..end + 2).unwrap_or_default(),
            "RawString (<name>)",
        );
        Ok(RawString(name.to_vec()))
    }

    /// The next token as a string.
    pub fn string_token(&mut self) -> Result<RawString, Error> {
        let token = self.token("a word")?;
        self.accept(token, "RawString");
        Ok(RawString(token.to_vec()))
    }

    /// The next token as a number, noting how each float style prints it.
    #[inline]
    pub fn number<T: TextNumber>(&mut self) -> Result<T, Error> {
        self.flow_to_token(T::EXPECTED)?;
        self.skip_spaces();
        // The text from the cursor to the end, not to the line's: a number
        // is read eight bytes at a time, and it ends at the line's end all
        // the same (a line is followed by its ending, by the spaces before
        // a comment it had, or by nothing).
        let rest = self
            .text
            .get(self.line_start + self.cursor..)
            .unwrap_or_default();
        let (value, printed_by, token) = match T::read_leading(rest) {
            Some((value, printed_by, len)) => {
                (value, printed_by, rest.get(..len).unwrap_or_default())
            }
            None => {
                let token = self.token(T::EXPECTED)?;
                let Some((value, printed_by)) = T::read(token) else {
                    return Err(self.error_here(ErrorKind::Unexpected {
                        expected: T::EXPECTED,
                        found: crate::quoted(token),
                    }));
                };
                (value, printed_by, token)
            }
        };
        self.accept(token, std::any::type_name::<T>());
        let index = self.numbers_read;
        self.numbers_read += 1;
        if !(printed_by.msvc && printed_by.shortest) {
            self.keep_miss(index, token, printed_by);
        }
        Ok(value)
    }

    /// Notes number token `index` for each float style that would not
    /// print it as it is.
    #[cold]
    fn keep_miss(&mut self, index: usize, token: &[u8], printed_by: PrintedBy) {
        for (printed, misses) in [
            (printed_by.msvc, &mut self.msvc_misses),
            (printed_by.shortest, &mut self.shortest_misses),
        ] {
            if !printed {
                misses.push(RawNumber {
                    index,
                    // A token that reads as a number is ASCII.
                    text: String::from_utf8_lossy(token).into_owned(),
                });
            }
        }
    }

    /// A count before a list whose elements take at least `min_lines` lines
    /// each. A count the remaining lines cannot hold fails here, before
    /// anything is allocated for it.
    pub fn count(&mut self, min_lines: u64) -> Result<usize, Error> {
        self.skip_spaces();
        let (line, column) = (self.line_number(), self.cursor + 1);
        let count: u64 = self.number()?;
        let needed = input_needed(count, min_lines);
        let remaining = self.total_lines.saturating_sub(self.lines_taken) as u64;
        if needed > remaining {
            let kind = ErrorKind::CountExceedsLines {
                count,
                needed,
                remaining,
            };
            return Err(Error::at_text(line, column, kind));
        }
        // `needed <= remaining`, a number of lines in memory, so this holds.
        usize::try_from(count).map_err(|_| {
            let kind = ErrorKind::Invalid(format!("count {count} is too large"));
            Error::at_text(line, column, kind)
        })
    }

    /// Whether every line has been read.
    pub fn at_end(&self) -> bool {
        self.next_line >= self.text.len()
    }

    /// Lines not yet read.
    fn lines_left(&self) -> u64 {
        self.total_lines.saturating_sub(self.lines_taken) as u64
    }

    /// A line holding one of the `choices`' phrases (words with single
    /// spaces between), bare or in double quotes, with any spaces around it;
    /// returns the value paired with it.
    /// A line not spelled exactly as its phrase is kept verbatim in the
    /// style, so it is written back as found.
    pub fn keyword_line<'c, T>(
        &mut self,
        choices: &'c [(&'static str, T)],
    ) -> Result<&'c T, Error> {
        let line = self.whole_line("a keyword line")?;
        let spelled = keyword_text(line);
        let Some((phrase, value)) = choices
            .iter()
            .find(|(phrase, _)| phrase.as_bytes() == spelled)
        else {
            let known = choices
                .iter()
                .map(|(phrase, _)| format!("`{phrase}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let column = line.len() - line.iter().skip_while(|&&b| is_space(b)).count() + 1;
            return Err(Error::at_text(
                self.line_number(),
                column,
                ErrorKind::UnknownKeyword {
                    found: crate::quoted(trim_spaces(line)),
                    known,
                },
            ));
        };
        if phrase.as_bytes() != line {
            self.raw_lines.push(RawLine {
                index: self.lines_taken - 1,
                text: RawString(line.to_vec()),
            });
        }
        Ok(value)
    }

    /// A count line holding a `C` (`Count<C>` fields).
    pub fn count_line<C: TextNumber + CountInt>(&mut self) -> Result<usize, Error> {
        self.begin_line("a count")?;
        let count = self.count_token::<C>()?;
        self.end_line()?;
        Ok(count)
    }

    /// A count token holding a `C`, on a line of other values.
    pub fn count_token<C: TextNumber + CountInt>(&mut self) -> Result<usize, Error> {
        self.skip_spaces();
        let (line, column) = (self.line_number(), self.cursor + 1);
        let count = self.number::<C>()?.to_u64();
        let fail = |message: String| Error::at_text(line, column, ErrorKind::Invalid(message));
        if count > C::MAX {
            return Err(fail(format!("the {} count is negative", C::NAME)));
        }
        usize::try_from(count)
            .map_err(|_| fail(format!("count {count} does not fit this machine's memory")))
    }

    /// Where the next value starts, for a `check` that may refuse it.
    pub fn mark(&self) -> Mark {
        let rest = self.line.get(self.cursor..).unwrap_or_default();
        Mark {
            on_open_line: rest
                .iter()
                .position(|&b| !is_space(b))
                .map(|offset| (self.line_number(), self.cursor + offset + 1)),
            next_line: self.next_line,
            next_line_number: self.lines_taken + 1,
        }
    }

    /// The line and column a mark stands for: on the open line, or the
    /// first value line after it.
    pub(super) fn position_of(&self, mark: Mark) -> (usize, usize) {
        if let Some(position) = mark.on_open_line {
            return position;
        }
        let (mut offset, mut number) = (mark.next_line, mark.next_line_number);
        while let Some((line, _, taken)) = self.peek_line(offset) {
            if !(self.comments && is_comment_line(line)) {
                let column = line.iter().position(|&b| !is_space(b)).unwrap_or(0);
                return (number, column + 1);
            }
            offset += taken;
            number += 1;
        }
        (number, 1)
    }

    /// The style seen so far: the float style that reproduces more number
    /// tokens (MSVC on a tie), with the tokens it does not reproduce kept.
    pub fn style(&self) -> TextStyle {
        let (float_style, raw_numbers) = if self.msvc_misses.len() <= self.shortest_misses.len() {
            (FloatStyle::Msvc, &self.msvc_misses)
        } else {
            (FloatStyle::Shortest, &self.shortest_misses)
        };
        TextStyle {
            line_ending: self.line_ending.unwrap_or_default(),
            final_line_ending: self.final_line_ending,
            float_style,
            raw_numbers: raw_numbers.clone(),
            raw_lines: self.raw_lines.clone(),
            comment_lines: self.comment_lines.clone(),
            trailing_comments: self.trailing_comments.clone(),
        }
    }

    /// Fails if anything but the end of the text (or, where comments are
    /// allowed, comment lines) follows.
    pub fn finish(&mut self) -> Result<(), Error> {
        self.skip_comment_lines()?;
        if self.next_line < self.text.len() {
            return Err(Error::at_text(
                self.lines_taken + 1,
                1,
                ErrorKind::TrailingText,
            ));
        }
        Ok(())
    }
}

/// Reads a list: a count line, then `count` elements of at least
/// `min_lines` lines each; errors name the element's index.
pub fn read_list<'a, T>(
    reader: &mut TextReader<'a>,
    min_lines: u64,
    read_one: impl FnMut(&mut TextReader<'a>) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    reader.begin_line("a count")?;
    let count = reader.count(min_lines)?;
    reader.end_line()?;
    read_elements(reader, count, read_one)
}

/// Reads `count` elements of at least `min_lines` lines each, the count
/// given elsewhere (an earlier count line, the context). A count the
/// remaining lines cannot hold fails before anything is allocated.
pub fn read_counted<'a, T>(
    reader: &mut TextReader<'a>,
    count: usize,
    min_lines: u64,
    read_one: impl FnMut(&mut TextReader<'a>) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    let needed = input_needed(count as u64, min_lines);
    let remaining = reader.lines_left();
    if needed > remaining {
        let kind = ErrorKind::CountExceedsLines {
            count: count as u64,
            needed,
            remaining,
        };
        return Err(Error::at_text(reader.line_number() + 1, 1, kind));
    }
    read_elements(reader, count, read_one)
}

/// Reads elements until the text ends.
pub fn read_lines_to_end<'a, T>(
    reader: &mut TextReader<'a>,
    mut read_one: impl FnMut(&mut TextReader<'a>) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    let mut elements = Vec::new();
    let recording = crate::map::recording();
    loop {
        reader.skip_comment_lines()?;
        if reader.at_end() {
            break;
        }
        let before = reader.next_line;
        let index = elements.len();
        let entered = crate::map::enter_if(recording, Segment::Index(index));
        let element = read_one(reader).map_err(|e| e.within(Segment::Index(index)))?;
        drop(entered);
        if reader.next_line == before {
            return Err(reader
                .error_here(ErrorKind::EmptyElement)
                .within(Segment::Index(index)));
        }
        elements.push(element);
    }
    Ok(elements)
}

/// A count line, then that many elements whose tokens flow: any
/// whitespace, line breaks included, stands between them (where a format
/// does not fix the line breaks). Each line that does not hold exactly one
/// whole element is kept verbatim in the style, so the writer breaks the
/// lines where the file did. Each element takes at least one byte, which
/// bounds the count before anything is allocated.
pub fn read_flowing_list<'a, T>(
    reader: &mut TextReader<'a>,
    mut read_tokens: impl FnMut(&mut TextReader<'a>) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    reader.begin_line("a count")?;
    let count = reader.count(0)?;
    reader.end_line()?;
    let remaining = reader.text.len().saturating_sub(reader.next_line) as u64;
    if count as u64 > remaining {
        let kind = ErrorKind::CountTooLarge {
            count: count as u64,
            needed: count as u64,
            remaining,
        };
        return Err(Error::at_text(reader.line_number() + 1, 1, kind));
    }
    reader.flow = Some(Flow::default());
    let elements = (|| {
        let mut elements = Vec::with_capacity(count);
        let recording = crate::map::recording();
        for index in 0..count {
            if let Some(flow) = &mut reader.flow {
                flow.element_tokens = 0;
            }
            let _entered = crate::map::enter_if(recording, Segment::Index(index));
            elements.push(read_tokens(reader).map_err(|e| e.within(Segment::Index(index)))?);
        }
        if let Some(flow) = &mut reader.flow {
            flow.element_tokens = 0;
        }
        reader.close_flow_line()?;
        Ok(elements)
    })();
    reader.flow = None;
    elements
}

fn read_elements<'a, T>(
    reader: &mut TextReader<'a>,
    count: usize,
    mut read_one: impl FnMut(&mut TextReader<'a>) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    let mut elements = Vec::with_capacity(count);
    let recording = crate::map::recording();
    for index in 0..count {
        // As the binary lists (`push_within_capacity`): one move, no growth.
        let entered = crate::map::enter_if(recording, Segment::Index(index));
        let read = read_one(reader);
        drop(entered);
        match read {
            Ok(element) => push_within_capacity(&mut elements, element)?,
            Err(error) => return Err(error.within(Segment::Index(index))),
        }
    }
    Ok(elements)
}
