//! The one error of the schema runtime, binary and text, reading and
//! writing: where (a byte offset or a line and column, and a field path) and what.

use std::fmt;

/// One step of a field path: a field, an element of a collection, or an IFF chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Field(&'static str),
    Index(usize),
    Chunk([u8; 4]),
}

/// A path from the outermost type to the value an error is about,
/// e.g. `bones[3].name` or `SLOD/0000/SKTM/0002/PRNT[37]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldPath {
    /// Innermost segment first: errors collect segments while unwinding.
    reversed: Vec<Segment>,
}

impl FieldPath {
    pub fn push_outer(&mut self, segment: Segment) {
        self.reversed.push(segment);
    }

    pub fn is_empty(&self) -> bool {
        self.reversed.is_empty()
    }

    pub fn segments(&self) -> impl Iterator<Item = &Segment> {
        self.reversed.iter().rev()
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut previous: Option<&Segment> = None;
        // An element of a list of forms shows its index after the form's
        // type (`SLOD/0000/SKTM[1]/0002`), not after the enclosing form.
        let mut pending_index: Option<usize> = None;
        let mut segments = self.segments().peekable();
        while let Some(segment) = segments.next() {
            match (segment, previous) {
                (Segment::Index(index), _)
                    if matches!(segments.peek(), Some(Segment::Chunk(_))) =>
                {
                    pending_index = Some(*index);
                    continue;
                }
                (Segment::Field(name), None) => f.write_str(name)?,
                (Segment::Field(name), Some(Segment::Chunk(_))) => write!(f, "/{name}")?,
                (Segment::Field(name), Some(_)) => write!(f, ".{name}")?,
                (Segment::Index(index), _) => write!(f, "[{index}]")?,
                (Segment::Chunk(tag), None) => write!(f, "{}", tag.escape_ascii())?,
                (Segment::Chunk(tag), Some(_)) => write!(f, "/{}", tag.escape_ascii())?,
            }
            if let (Segment::Chunk(_), Some(index)) = (segment, pending_index.take()) {
                write!(f, "[{index}]")?;
            }
            previous = Some(segment);
        }
        Ok(())
    }
}

/// Where in the input an error was found. Writes have none: the value,
/// not a file, is at fault, and the field path says where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// A byte offset in a binary file.
    Byte(u64),
    /// A line and column of a text file, both from 1.
    Text { line: usize, column: usize },
}

/// The most characters of input a message quotes: about a line's worth.
const QUOTE_LIMIT: usize = 60;

/// Bytes of the input as an error message quotes them: at most
/// 60 characters (about a line's worth), then `...`; control characters, the
/// characters that reorder or hide text on a terminal, and bytes that are
/// not UTF-8 written as escapes (`\x1b`, `\u202e`). A message then stays
/// one short line whatever the input holds (a gigabyte of NULs, a
/// terminal's escape sequences), and only the first bytes are looked at.
pub fn quoted(bytes: &[u8]) -> String {
    // Each character shown takes at least one byte (an escape more), so
    // these are enough to fill the quote.
    let looked_at = bytes.get(..QUOTE_LIMIT).unwrap_or(bytes);
    let mut text = String::new();
    let mut shown = 0;
    for chunk in looked_at.utf8_chunks() {
        let valid = chunk
            .valid()
            .chars()
            .map(|c| escape(c).unwrap_or_else(|| c.to_string()));
        let invalid = chunk.invalid().iter().map(|byte| format!("\\x{byte:02x}"));
        for piece in valid.chain(invalid) {
            let width = piece.chars().count();
            if shown + width > QUOTE_LIMIT {
                text.push_str("...");
                return text;
            }
            shown += width;
            text.push_str(&piece);
        }
    }
    if looked_at.len() < bytes.len() {
        text.push_str("...");
    }
    text
}

/// `text` as it may go to a terminal: every character that is not a line
/// break or tab and that a terminal would act on rather than show, or
/// that hides or reorders the text around it, written as an escape (see
/// [`quoted`]). Names read from files reach messages and summaries, and a
/// file must not be able to drive the terminal that shows them.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let needs = |c: char| c != '\n' && c != '\t' && escape(c).is_some();
    if !text.chars().any(needs) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match escape(c) {
            Some(escape) if needs(c) => escaped.push_str(&escape),
            _ => escaped.push(c),
        }
    }
    std::borrow::Cow::Owned(escaped)
}

/// Bytes as a Rust byte string, the way a layout writes a constant:
/// `b"TAGL"`; a byte that is not printable ASCII as `\xNN`, and `"` and
/// `\` escaped, so the text reads back as the same bytes.
pub fn byte_string(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len() + 3);
    text.push_str("b\"");
    for &byte in bytes {
        match byte {
            b'"' => text.push_str("\\\""),
            b'\\' => text.push_str("\\\\"),
            b' '..=b'~' => text.push(char::from(byte)),
            _ => text.push_str(&format!("\\x{byte:02x}")),
        }
    }
    text.push('"');
    text
}

/// The escape a message writes for `c`, if it needs one.
fn escape(c: char) -> Option<String> {
    match c {
        '\0' => Some("\\0".to_owned()),
        '\t' => Some("\\t".to_owned()),
        '\n' => Some("\\n".to_owned()),
        '\r' => Some("\\r".to_owned()),
        c if c.is_control() && c.is_ascii() => Some(format!("\\x{:02x}", u32::from(c))),
        // Four digits, as JSON writes them, so JSON text stays JSON: such
        // characters stand only inside its strings. Every one is in the
        // Basic Multilingual Plane.
        c if c.is_control() || hides_text(c) => Some(format!("\\u{:04x}", u32::from(c))),
        _ => None,
    }
}

/// Characters that change how a terminal shows the text around them
/// (zero-width ones, direction overrides and isolates).
fn hides_text(c: char) -> bool {
    matches!(u32::from(c), 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x2069 | 0xfeff)
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
pub enum ErrorKind {
    #[error("the input ends {available} byte(s) into a {needed}-byte value")]
    UnexpectedEnd { needed: u64, available: u64 },
    #[error("count {count} needs at least {needed} bytes but only {remaining} remain")]
    CountTooLarge {
        count: u64,
        needed: u64,
        remaining: u64,
    },
    #[error("expected the constant {expected}, found {found}")]
    BadConstant { expected: String, found: String },
    #[error("flag value {0} is neither 0 nor 1")]
    BadFlag(u64),
    #[error("string has no terminating NUL before the end of the input")]
    UnterminatedString,
    #[error("expected {expected}, found {found}")]
    WrongTag { expected: String, found: String },
    #[error("size {size} runs past the end of the enclosing data ({available} byte(s) left)")]
    SizePastParent { size: u64, available: u64 },
    #[error("{0} byte(s) are left over inside the chunk")]
    BytesLeftInChunk(u64),
    #[error("{0} byte(s) of the block its `size` gives are left over")]
    BytesLeftInBlock(u64),
    #[error("unknown FORM {found}; known: {known}")]
    UnknownForm { found: String, known: String },
    #[error("expected {expected}, found the end of the text")]
    EndOfText { expected: &'static str },
    #[error("expected {expected}, found the end of the line")]
    EndOfLine { expected: &'static str },
    #[error("expected {expected}, found `{found}`")]
    Unexpected {
        expected: &'static str,
        found: String,
    },
    #[error("unexpected `{found}` after the last value of the line")]
    ExtraText { found: String },
    #[error("count {count} needs at least {needed} more lines but only {remaining} remain")]
    CountExceedsLines {
        count: u64,
        needed: u64,
        remaining: u64,
    },
    #[error("line ends with {found} but earlier lines end with {expected}")]
    MixedLineEndings {
        expected: &'static str,
        found: &'static str,
    },
    #[error("a carriage return that does not end the line")]
    StrayCarriageReturn,
    #[error("text follows the end of the data")]
    TrailingText,
    #[error("{len} entries do not fit a {count_type} count (at most {max})")]
    TooLong {
        len: usize,
        count_type: &'static str,
        max: u64,
    },
    #[error("collections sharing one count differ in length: {0}")]
    CountMismatch(String),
    #[error("flag field `{flag}` says {flag_says} but the value is {value_is}")]
    PresenceMismatch {
        flag: &'static str,
        flag_says: &'static str,
        value_is: &'static str,
    },
    #[error("the condition `{condition}` {condition_is} but the value is {value_is}")]
    ConditionMismatch {
        condition: &'static str,
        condition_is: &'static str,
        value_is: &'static str,
    },
    #[error("{len} entries, but `{count_name}` gives {count}")]
    LengthDisagrees {
        len: usize,
        count_name: &'static str,
        count: u64,
    },
    /// `selection` reads like "`mode` is 7".
    #[error("{selection}, which chooses no variant; known: {known}")]
    UnknownSelector {
        selection: String,
        known: &'static str,
    },
    /// `selection` reads like "`mode` is 1, which chooses `Angles`".
    #[error("the value is `{variant}`, but {selection}")]
    VariantDisagrees {
        variant: &'static str,
        selection: String,
    },
    #[error("unknown tag {found}; known: {known}")]
    UnknownTag { found: String, known: &'static str },
    #[error("the `other` variant holds tag {tag}, which belongs to `{owner}`")]
    TagTaken { tag: String, owner: &'static str },
    #[error("expected one of {known}, found `{found}`")]
    UnknownKeyword { found: String, known: String },
    #[error("a list element took no bytes, so the list would never end")]
    EmptyElement,
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A read or write failure: `byte N: path: message` (binary),
/// `line L:C: path: message` (text) or `path: message` (writes).
///
/// Its [`ErrorDetail`] is boxed so that a reader's `Result` is a pointer
/// wide: every reader returns one, and a result as wide as the detail
/// went through memory on the success path too. The detail's fields read
/// and change through the error (`error.kind`, `error.path`).
pub struct Error(Box<ErrorDetail>);

/// Where a failure is and what it is.
#[derive(Debug)]
pub struct ErrorDetail {
    /// `None` for a write: the value, not a file, is at fault.
    pub position: Option<Position>,
    pub path: FieldPath,
    pub kind: ErrorKind,
}

impl Error {
    /// A failure with no place in a file, such as a value a writer cannot store.
    pub fn new(kind: ErrorKind) -> Self {
        Error::from(ErrorDetail {
            position: None,
            path: FieldPath::default(),
            kind,
        })
    }

    /// A failure at a byte offset of a binary file.
    pub fn at_byte(offset: u64, kind: ErrorKind) -> Self {
        Error::from(ErrorDetail {
            position: Some(Position::Byte(offset)),
            path: FieldPath::default(),
            kind,
        })
    }

    /// A failure at a line and column (both from 1) of a text file.
    pub fn at_text(line: usize, column: usize, kind: ErrorKind) -> Self {
        Error::from(ErrorDetail {
            position: Some(Position::Text { line, column }),
            path: FieldPath::default(),
            kind,
        })
    }

    /// Adds the enclosing segment while the error travels outwards.
    pub fn within(mut self, segment: Segment) -> Self {
        self.path.push_outer(segment);
        self
    }

    /// Adds an enclosing field name.
    pub fn in_field(self, name: &'static str) -> Self {
        self.within(Segment::Field(name))
    }

    /// Places an error that has no place yet (one an expression over the
    /// values read gives) at a byte offset.
    pub fn or_at_byte(mut self, offset: u64) -> Self {
        if self.position.is_none() {
            self.position = Some(Position::Byte(offset));
        }
        self
    }
}

impl From<ErrorDetail> for Error {
    fn from(detail: ErrorDetail) -> Self {
        Error(Box::new(detail))
    }
}

impl std::ops::Deref for Error {
    type Target = ErrorDetail;

    fn deref(&self) -> &ErrorDetail {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorDetail {
        &mut self.0
    }
}

/// As the detail, named `Error`.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("position", &self.position)
            .field("path", &self.path)
            .field("kind", &self.kind)
            .finish()
    }
}

impl From<std::io::Error> for Error {
    fn from(error: std::io::Error) -> Self {
        Error::new(ErrorKind::Io(error))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(Position::Byte(offset)) => write!(f, "byte {offset}: ")?,
            Some(Position::Text { line, column }) => write!(f, "line {line}:{column}: ")?,
            None => {}
        }
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.kind.source()
    }
}

#[cfg(feature = "binrw")]
impl From<Error> for binrw::Error {
    fn from(error: Error) -> Self {
        let pos = match error.position {
            Some(Position::Byte(offset)) => offset,
            Some(Position::Text { .. }) | None => 0,
        };
        binrw::Error::Custom {
            pos,
            err: Box::new(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_is_a_line_at_most_with_every_control_byte_escaped() {
        assert_eq!(quoted(b"version 300"), "version 300");
        assert_eq!(quoted(b"a\tb\r\n"), "a\\tb\\r\\n");
        // A terminal's title and clear-screen sequences come out inert.
        assert_eq!(
            quoted(b"\x1b]0;owned\x07\x1b[2J"),
            "\\x1b]0;owned\\x07\\x1b[2J"
        );
        // Windows-1252 bytes are not UTF-8; a direction override hides text.
        assert_eq!(quoted(b"caf\xe9"), "caf\\xe9");
        assert_eq!(quoted("a\u{202e}b".as_bytes()), "a\\u202eb");
        // A gigabyte of NULs is looked at only as far as the quote goes.
        let nuls = vec![0u8; 1 << 20];
        let quote = quoted(&nuls);
        assert_eq!(quote, format!("{}...", "\\0".repeat(30)));
        let long = quoted(&[b'x'; 61]);
        assert_eq!(long, format!("{}...", "x".repeat(60)));
        assert_eq!(quoted(&[b'x'; 60]), "x".repeat(60));
        // An escape is never cut in two.
        let mixed = [b"x".as_slice(), &[0x1b; 30]].concat();
        assert_eq!(quoted(&mixed), format!("x{}...", "\\x1b".repeat(14)));
    }

    #[test]
    fn constants_read_as_byte_strings() {
        assert_eq!(byte_string(b"TAGL"), r#"b"TAGL""#);
        assert_eq!(byte_string(b"\0\x01\xffA"), r#"b"\x00\x01\xffA""#);
        assert_eq!(byte_string(b"a\"b\\"), r#"b"a\"b\\""#);
    }

    #[test]
    fn printable_text_keeps_its_lines_and_escapes_what_drives_a_terminal() {
        assert!(matches!(
            printable("bones\n\tROOT\n"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(printable("name \x1b[2J\r\n"), "name \\x1b[2J\\r\n");
        assert_eq!(printable("\u{9b}31m"), "\\u009b31m");
    }

    #[test]
    fn the_position_and_path_lead_the_message_when_there_are_any() {
        let kind = || ErrorKind::Invalid("bad".to_owned());
        assert_eq!(
            Error::at_byte(7, kind()).in_field("name").to_string(),
            "byte 7: name: bad"
        );
        assert_eq!(
            Error::at_text(3, 5, kind())
                .within(Segment::Index(2))
                .in_field("bones")
                .to_string(),
            "line 3:5: bones[2]: bad"
        );
        assert_eq!(Error::new(kind()).in_field("name").to_string(), "name: bad");
        assert_eq!(Error::at_byte(0, kind()).to_string(), "byte 0: bad");
    }
}
