//! How a text file was written: line endings, number style, and the few
//! tokens and lines the style does not reproduce, kept verbatim.

use serde::{Deserialize, Serialize};

use std::fmt::Write as _;

use super::float::g_text;
use super::stack_text::NumberText;
use crate::RawString;

/// The bytes that end each line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineEnding {
    /// `\r\n`, as every file written by the original tools.
    #[default]
    Crlf,
    /// `\n`.
    Lf,
}

impl LineEnding {
    pub fn bytes(self) -> &'static [u8] {
        match self {
            LineEnding::Crlf => b"\r\n",
            LineEnding::Lf => b"\n",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            LineEnding::Crlf => "CRLF",
            LineEnding::Lf => "LF",
        }
    }
}

/// How floats are printed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FloatStyle {
    /// The old MSVC `printf("%g")`: `-5.88894e-005`, `0.5`, `700000`
    /// (see [`super::float`]). The original tools' style.
    #[default]
    Msvc,
    /// The shortest decimal that reads back to the same `f32` (Rust's
    /// `Display`): `0.1`, `0.000012345678`, `-0`, `NaN`, `inf`.
    Shortest,
}

impl FloatStyle {
    pub fn format(self, value: f32) -> String {
        self.text(value).as_str().to_owned()
    }

    /// [`FloatStyle::format`] on the stack.
    pub fn text(self, value: f32) -> NumberText {
        match self {
            FloatStyle::Msvc => g_text(value),
            FloatStyle::Shortest => {
                let mut text = NumberText::new();
                // At most 48 characters: the buffer holds them.
                let _ = write!(text, "{value}");
                text
            }
        }
    }
}

/// A number token the file's style does not print that way (e.g. `+5`,
/// `1.5e-05` in an MSVC-style file), by its position among all number tokens.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RawNumber {
    /// 0 for the file's first number token (counts included), 1 for the next...
    pub index: usize,
    pub text: String,
}

/// A line kept as the file had it, by its line index (0 = the first
/// line): a line of tokens not written as the tokens joined by single spaces
/// (extra spaces, tabs), a keyword line quoted or spaced, or a `//` comment.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RawLine {
    pub index: usize,
    pub text: RawString,
}

/// Everything needed to write a text file back byte for byte, beyond its values.
///
/// The writer prints each number in `float_style` (integers always as `%d`),
/// except where `raw_numbers` holds the token the file had at that position
/// *and* that token still reads as the value being written: a value changed
/// since reading is printed in the style. Lines work the same way with
/// `raw_lines`, which are used only while they hold the same tokens.
///
/// In a layout that allows `//` comments, `comment_lines` are the lines that
/// hold nothing but a comment, written where they stood, and
/// `trailing_comments` the comments after a line's values (from the spaces
/// before the `//` to the end of the line), written after the values of the
/// line at that index. Both are kept by line index: a value edited to take
/// more or fewer lines moves the comments after it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TextStyle {
    pub line_ending: LineEnding,
    /// Whether the last line ends with a line ending too.
    pub final_line_ending: bool,
    pub float_style: FloatStyle,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub raw_numbers: Vec<RawNumber>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub raw_lines: Vec<RawLine>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comment_lines: Vec<RawLine>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing_comments: Vec<RawLine>,
}

impl Default for TextStyle {
    /// The original tools' style: CRLF after every line, MSVC `%g` floats.
    fn default() -> Self {
        TextStyle {
            line_ending: LineEnding::Crlf,
            final_line_ending: true,
            float_style: FloatStyle::Msvc,
            raw_numbers: Vec::new(),
            raw_lines: Vec::new(),
            comment_lines: Vec::new(),
            trailing_comments: Vec::new(),
        }
    }
}
