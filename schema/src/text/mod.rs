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
//! | `angle_brackets` | `RawString` | `<Bip01 L Thigh>`: a name between `<` and `>`, spaces allowed |
//! | `none = "*"` | `Option<T>`, `T` tokens | the word `*` for none, else the value: `*` or `0` |
//! | `present_if = EXPR` | `Option<T>` | the value when the condition holds (`version >= 300`, over earlier fields and context parameters; a bare name: it is not 0), else nothing |
//! | `same_line` | tokens, `Count<C>` | continues the previous field's line: `2 3` for a bone index and a count |
//! | `prefix` | `Vec<T>` | a count line, then the elements (with `line` or `vector`: of that form) |
//! | `prefix, flow` | `Vec<T>`, `T` tokens | a count line, then the elements' tokens with any whitespace between them, line breaks included; lines that do not hold exactly one element are kept in the style, so the writer breaks lines where the file did |
//! | (none) | `Count<C>` | a count line for the lists that name it with `count`; the writer fills it in |
//! | `count = name` | `Vec<T>` | as many elements as an earlier `Count<_>` field or a context parameter says, with no count line of their own |
//! | `to_end` | `Vec<T>` | elements until the text ends |
//! | `context(param = name)` | nested record | passes an earlier field or a context parameter to it |
//! | `magic = "version 300"` | `Magic` | a line that must read exactly so |
//! | `style` | [`TextStyle`] | nothing: filled in by the reader, used by the writer |
//! | `check = path(a, b)` | any value | nothing more: once read, `path(&value, &a, &b)` must return `Ok` |
//!
//! A record takes `context(name: Type, ...)` as a binary one does. Text
//! enums are keyword enums (`#[schema(text)]`, each unit variant
//! `#[schema(keyword = "Euler Angles")]`: a line holding the phrase, bare or
//! in double quotes, kept as spelled; [`Keyword::keyword`] gives a value's
//! phrase) or chosen by a context value
//! (`#[schema(text, context(r: Representation), select = r)]`, each variant
//! `#[schema(when = Representation::Matrix)]`). An unknown keyword is an
//! error listing the known ones.
//!
//! `#[schema(text, comments)]` on a record lets `//` comments stand anywhere
//! from its first line to the end of the text: on lines of their own
//! (`// BonesPro structure export`) and after a line's values, with spaces or
//! tabs before them (`2\t// bones`). A `//` starts a comment at the start of
//! a line or after a space or tab, so `http://x` in a line is no comment. The
//! style keeps every comment where it stood. A value the writer would put in
//! such a file that would read back as a comment is a write error.
//!
//! A `check` function takes the value read (`&T`) and the values named in
//! its parentheses (earlier fields, `Count<_>` fields as the `usize` count
//! they hold, context parameters), each by reference, and returns
//! `Result<(), Refusal>`. A refusal is an error at the line and column where
//! the value starts, with its field path; for a list,
//! [`Refusal::at_element`] points at the element. Checks judge values as
//! they are read: the writer does not run them, and the generated
//! round-trip tests, whose values are random, leave them out.
//!
//! Reading records the file's [`TextStyle`]: its line ending, float style, and
//! the tokens and lines that style would not reproduce, so that a file read
//! and written back comes out byte for byte.

pub(crate) mod checks;
mod comments;
#[cfg(test)]
mod comments_tests;
#[cfg(test)]
mod context_tests;
#[cfg(test)]
mod derive_tests;
mod digits;
pub mod float;
pub(crate) mod forms;
#[cfg(test)]
mod forms_tests;
mod number;
pub(crate) mod reader;
mod stack_text;
mod style;
pub(crate) mod writer;

pub use super::check::Refusal;
pub use number::TextNumber;
pub use reader::{Mark, TextReader};
pub use stack_text::{NumberText, StackText};
pub use style::{FloatStyle, LineEnding, RawLine, RawNumber, TextStyle};
pub use writer::TextWriter;

use arrayvec::ArrayVec;

use super::{Error, ErrorKind, HasContext, RawString, Segment, TypeLayout};
use forms::{read_token_line, write_token_line};

/// A value that takes whole lines. Its text context
/// ([`HasContext::TextContext`]) is what it needs from the enclosing
/// record, as in binary layouts.
pub trait TextRead: HasContext + Sized {
    /// Fewest lines any value takes: bounds what a count may allocate.
    const MIN_LINES: u64;
    /// The layout a field holding this type refers to: the type's own when
    /// `#[derive(Schema)]` made it, none for numbers and strings.
    const NESTED_LAYOUT: Option<fn() -> TypeLayout> = None;

    fn read_text(reader: &mut TextReader<'_>, context: &Self::TextContext) -> Result<Self, Error>;
}

/// The writing half of [`TextRead`].
pub trait TextWrite: HasContext {
    fn write_text(&self, writer: &mut TextWriter, context: &Self::TextContext)
        -> Result<(), Error>;
}

/// A value made of tokens within a line: numbers, words, arrays and
/// one-line records.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not written as tokens within a line",
    label = "a field sharing a line (`same_line`, a `one_line` record's) holds numbers, words, \
             arrays or `one_line` records"
)]
pub trait TextTokens: Sized {
    /// What a reader expected on a line of these, for errors.
    const EXPECTED: &'static str;
    /// As [`TextRead::NESTED_LAYOUT`].
    const NESTED_LAYOUT: Option<fn() -> TypeLayout> = None;

    fn read_tokens(reader: &mut TextReader<'_>) -> Result<Self, Error>;
    fn write_tokens(&self, writer: &mut TextWriter) -> Result<(), Error>;
}

/// The phrase a keyword enum's value is written as (`Mesh (absolute)`),
/// implemented by `#[derive(Schema)]` for keyword enums.
pub trait Keyword {
    fn keyword(&self) -> &'static str;
}

/// Conveniences for a whole text file, implemented by `#[derive(Schema)]`.
pub trait TextSchema: TextRead + TextWrite {
    /// The style a `#[schema(style)]` field holds, if the type has one.
    fn text_style(&self) -> Option<&TextStyle> {
        None
    }

    /// Reads a whole file; lines left over after the value are an error.
    fn from_text_with(text: &[u8], context: &Self::TextContext) -> Result<Self, Error> {
        let mut reader = TextReader::new(text);
        let value = Self::read_text(&mut reader, context)?;
        reader.finish()?;
        Ok(value)
    }

    /// Writes a whole file in the value's style (the original tools' style,
    /// [`TextStyle::default`], when it has none).
    fn to_text_with(&self, context: &Self::TextContext) -> Result<Vec<u8>, Error> {
        let mut writer = TextWriter::new(self.text_style().cloned().unwrap_or_default());
        self.write_text(&mut writer, context)?;
        writer.finish()
    }

    /// [`Self::from_text_with`] for a type that needs no context.
    fn from_text(text: &[u8]) -> Result<Self, Error>
    where
        Self: HasContext<TextContext = ()>,
    {
        Self::from_text_with(text, &())
    }

    /// [`Self::to_text_with`] for a type that needs no context.
    fn to_text(&self) -> Result<Vec<u8>, Error>
    where
        Self: HasContext<TextContext = ()>,
    {
        self.to_text_with(&())
    }
}

macro_rules! text_number {
    ($($ty:ty),*) => {$(
        impl TextTokens for $ty {
            const EXPECTED: &'static str = <$ty as TextNumber>::EXPECTED;

            #[inline]
            fn read_tokens(reader: &mut TextReader<'_>) -> Result<Self, Error> {
                reader.number()
            }

            fn write_tokens(&self, writer: &mut TextWriter) -> Result<(), Error> {
                writer.number(*self)
            }
        }
    )*};
}

text_number!(u8, u16, u32, u64, i8, i16, i32, i64, f32);

impl HasContext for RawString {
    type Context = ();
    type TextContext = ();
}

/// A `RawString` without `line` is one word (no spaces).
impl TextTokens for RawString {
    const EXPECTED: &'static str = "a word";

    fn read_tokens(reader: &mut TextReader<'_>) -> Result<Self, Error> {
        reader.string_token()
    }

    fn write_tokens(&self, writer: &mut TextWriter) -> Result<(), Error> {
        writer.token(&self.0)
    }
}

impl<T: TextTokens, const N: usize> TextTokens for [T; N] {
    const EXPECTED: &'static str = "a line of values";
    const NESTED_LAYOUT: Option<fn() -> TypeLayout> = T::NESTED_LAYOUT;

    fn read_tokens(reader: &mut TextReader<'_>) -> Result<Self, Error> {
        let mut elements = ArrayVec::<T, N>::new();
        for index in 0..N {
            let element = T::read_tokens(reader).map_err(|e| e.within(Segment::Index(index)))?;
            // At most N elements are pushed, so this never fails.
            elements
                .try_push(element)
                .map_err(|_| reader.error_here(array_overflow()))?;
        }
        elements
            .into_inner()
            .map_err(|_| reader.error_here(array_overflow()))
    }

    fn write_tokens(&self, writer: &mut TextWriter) -> Result<(), Error> {
        for (index, element) in self.iter().enumerate() {
            element
                .write_tokens(writer)
                .map_err(|e| e.within(Segment::Index(index)))?;
        }
        Ok(())
    }
}

/// The loop above pushes exactly N elements, so this is never returned.
fn array_overflow() -> ErrorKind {
    ErrorKind::Invalid("array length mismatch".to_owned())
}

/// Values made of tokens take one line of their own in a `text` record.
macro_rules! token_line {
    ($($ty:ty),*) => {$(
        impl TextRead for $ty {
            const MIN_LINES: u64 = 1;

            fn read_text(reader: &mut TextReader<'_>, _: &()) -> Result<Self, Error> {
                read_token_line(reader, <Self as TextTokens>::EXPECTED, <Self as TextTokens>::read_tokens)
            }
        }

        impl TextWrite for $ty {
            fn write_text(&self, writer: &mut TextWriter, _: &()) -> Result<(), Error> {
                write_token_line(writer, |writer| self.write_tokens(writer))
            }
        }
    )*};
}

token_line!(u8, u16, u32, u64, i8, i16, i32, i64, f32, RawString);

impl<T: TextTokens + HasContext, const N: usize> TextRead for [T; N] {
    const MIN_LINES: u64 = 1;
    const NESTED_LAYOUT: Option<fn() -> TypeLayout> = T::NESTED_LAYOUT;

    fn read_text(reader: &mut TextReader<'_>, _: &T::TextContext) -> Result<Self, Error> {
        read_token_line(reader, Self::EXPECTED, Self::read_tokens)
    }
}

impl<T: TextTokens + HasContext, const N: usize> TextWrite for [T; N] {
    fn write_text(&self, writer: &mut TextWriter, _: &T::TextContext) -> Result<(), Error> {
        write_token_line(writer, |writer| self.write_tokens(writer))
    }
}
