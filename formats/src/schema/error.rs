//! Errors of the binary schema runtime: where (byte offset, field path) and what.

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
                (Segment::Chunk(tag), None) => f.write_str(&String::from_utf8_lossy(tag))?,
                (Segment::Chunk(tag), Some(_)) => write!(f, "/{}", String::from_utf8_lossy(tag))?,
            }
            if let (Segment::Chunk(_), Some(index)) = (segment, pending_index.take()) {
                write!(f, "[{index}]")?;
            }
            previous = Some(segment);
        }
        Ok(())
    }
}

/// What went wrong while reading.
#[derive(Debug, thiserror::Error)]
pub enum ReadErrorKind {
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
    #[error("unknown FORM {found}; known: {known}")]
    UnknownForm { found: String, known: String },
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A read failure at a byte offset, inside a field path.
#[derive(Debug)]
pub struct ReadError {
    pub offset: u64,
    pub path: FieldPath,
    pub kind: ReadErrorKind,
}

impl ReadError {
    pub fn new(offset: u64, kind: ReadErrorKind) -> Self {
        ReadError {
            offset,
            path: FieldPath::default(),
            kind,
        }
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
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: ", self.offset)?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.kind.source()
    }
}

/// What went wrong while writing.
#[derive(Debug, thiserror::Error)]
pub enum WriteErrorKind {
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
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A write failure inside a field path.
#[derive(Debug)]
pub struct WriteError {
    pub path: FieldPath,
    pub kind: WriteErrorKind,
}

impl WriteError {
    pub fn new(kind: WriteErrorKind) -> Self {
        WriteError {
            path: FieldPath::default(),
            kind,
        }
    }

    pub fn within(mut self, segment: Segment) -> Self {
        self.path.push_outer(segment);
        self
    }

    pub fn in_field(self, name: &'static str) -> Self {
        self.within(Segment::Field(name))
    }
}

impl From<std::io::Error> for WriteError {
    fn from(error: std::io::Error) -> Self {
        WriteError::new(WriteErrorKind::Io(error))
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.kind.source()
    }
}

impl From<ReadError> for binrw::Error {
    fn from(error: ReadError) -> Self {
        binrw::Error::Custom {
            pos: error.offset,
            err: Box::new(error),
        }
    }
}

impl From<WriteError> for binrw::Error {
    fn from(error: WriteError) -> Self {
        binrw::Error::Custom {
            pos: 0,
            err: Box::new(error),
        }
    }
}
