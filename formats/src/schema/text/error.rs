//! Errors of the text reader: where (line and column, field path) and what.

use std::fmt;

use crate::schema::{FieldPath, Segment};

/// What went wrong while reading text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextErrorKind {
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
    CountTooLarge {
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
    #[error("{0}")]
    Invalid(String),
}

/// A read failure at a line and column (both from 1), inside a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextError {
    pub line: usize,
    pub column: usize,
    pub path: FieldPath,
    pub kind: TextErrorKind,
}

impl TextError {
    pub fn new(line: usize, column: usize, kind: TextErrorKind) -> Self {
        TextError {
            line,
            column,
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

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}:{}: ", self.line, self.column)?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for TextError {}
