//! The schema runtime: what `#[derive(Schema)]` expands to.
//!
//! A derived type implements [`Decode`] and [`Encode`] (the workhorses, with
//! byte offsets and field paths in their errors), with the `binrw`
//! feature binrw's `BinRead` and `BinWrite` on top of them (so schema types
//! nest inside anyone's binrw types), [`Layout`] (the field table the docs are generated from) and
//! [`BinarySchema`] (`from_bytes`, `to_bytes`, `read_from`, `write_to`,
//! and `read_from_stream` from a `Read` that cannot seek, for a layout
//! that reads forward only: [`ReadsForward`]).
//! Text layouts have their counterparts in [`text`]. Reading and writing,
//! binary and text, fail with one [`Error`]; `json` (the `json` feature)
//! moves values to and from JSON with every float kept bit for bit; [`map`] records, when
//! asked, where every value a reader read came from (the byte map).
//!
//! The helpers the expansions call are not part of this API: they are
//! reached through the crate's hidden `__private` module.
//!
//! This crate is the runtime alone, as `binrw` is beside `binrw_derive`: it
//! knows no game format, and its features (`binrw`, `json`, `huge-pages`,
//! `testing`, all off by default; the README lists what each brings) add
//! what its codecs do not need. A crate that depends on `ossuary-schema`
//! alone derives with [`Schema`], whose expansions name this crate
//! `::ossuary_schema` (a crate that renames it says where it is with
//! `#[schema(crate = "...")]`); Ossuary's `formats` re-exports this crate
//! as `formats::schema`, and its own `formats::Schema` derives the same way
//! from a crate that depends on `formats` alone. Turn `testing` on (as
//! `formats` does) to get the round-trip tests the derive generates.
//!
//! # The attribute vocabulary
//!
//! On a struct (`#[schema(...)]` before it):
//!
//! | attribute | meaning |
//! |---|---|
//! | `big`, `little` | the byte order of every field (a binary layout must state one) |
//! | `endian = param` | instead of `big`/`little`: the byte order is the value of the context parameter `param`, of type [`Endian`] (see [`reference`](mod@reference)) |
//! | `form = "TYPE"` | the struct is an IFF `FORM` of this type |
//! | `chunk = "TAG"` | the struct is an IFF chunk with this tag, its fields the payload |
//! | `text`, `one_line` | a text layout (see [`text`]) |
//! | `binary(little)` beside `text` | both encodings on one type: a binary layout (its `big`/`little`/`endian`, `form`, `chunk` inside `binary(...)`) and a text one (`text(one_line)`, `text(comments)`); see [`reference`](mod@reference#both-encodings-on-one-type) |
//! | `context(name: Type, ...)` | values the type needs from the type holding it; generates a `<Type>Context` struct with those public fields |
//! | `binary(context(name: Type, ...))` beside `text` | values only the binary encoding takes (a byte order), never given to the text: the `<Type>Context` holds them, the text's context ([`HasContext::TextContext`]) leaves them out; see [`reference`](mod@reference#both-encodings-on-one-type) |
//! | `crate = "path"` | where the runtime is, when not at `::schema` (for `ossuary_schema::Schema`) or `::formats` (for `ossuary_schema::Schema`) |
//! | `struct Name<T, const N: usize>` | a struct with a binary encoding alone takes type and const parameters; each type parameter is a value needing no context (see [`reference`](mod@reference#generic-types)) |
//! | `check = path` | once every field is read, `path(&value)` must return `Ok`, else [`Refusal`] is an error at the place it names (a field, then indices and fields inside it: the runtime finds its byte from where the field began and the layout's fixed sizes), else at the value's first byte (or as many bytes on as it says): a rule across fields; the writer checks it too, once every field is written, with the same error |
//!
//! On a field:
//!
//! | attribute | field type | in the file |
//! |---|---|---|
//! | `big`, `little`, `endian = param` | any | this field's byte order (`endian`: a context parameter's value, of type [`Endian`]) |
//! | `pascal`, `null_terminated`, `fixed_width = N` | `RawString` | a string so encoded |
//! | `prefix = u32` | `Vec<T>` | a count of that type, then the elements |
//! | `prefix = i32` | `RawString` | a length of that type, then the bytes |
//! | `count = name` | `Vec<T>` | as many elements as an earlier `Count<_>` field (which the writer fills in, and which several lists may share) or a context parameter (data: the writer checks the length against it) says |
//! | `count = expr` | `Vec<T>` | as many elements as a Rust expression over earlier fields and context parameters gives (`usize::from(width) * usize::from(height)`; data: the writer checks the length against it) |
//! | `to_end` | `Vec<T>` | elements until the input ends: the file, the enclosing chunk, or the `size` block |
//! | `until = expr` | `Vec<T>` | elements until one for which the function (`\|byte: &u8\| *byte == 0`) gives true, that one included |
//! | `size = expr` | any; [`Block<T>`] to keep what the value leaves | the value, read from a block of that many bytes (see [`reference`](mod@reference)) |
//! | `calc = expr`, `keep` | [`Calc<T>`] | a `T` the writer computes from the rest of the value, `size_of(field)` (a field's size in bytes) included; checked on reading, or, with `keep`, kept when it disagrees |
//! | `offset = T`, `from = file` or `from = field` | [`At<V>`] (`Vec<At<V>>` with a count: a list of offsets) | an offset of type `T`, counted from the enclosing block's start (the file's, or where an earlier field begins); the value lies there, placed by the writer, which fills in the offset (a file's order, gaps and shared targets kept); a [`Lazy<V>`] there keeps the bytes up to the next value |
//! | nothing | [`Transformed<X, T>`] | every byte left in the input (a chunk's, a `size` block's, the file's), decoded by `X` (gzip, zlib, one's own [`Transform`]), `T` read from the decoded bytes; the file's encoded bytes written back while the value is unchanged |
//! | `word = T`, `bits = N`, `lsb_first` | an integer, `bool`, `Count<_>` or `Calc<_>` | N bits of a word of type `T` that the field beginning it (`word = T`) and those after it fill, the first in its most significant bits (its least with `lsb_first`); on a struct's first fields without `word`, the bits the enum holding it leaves of its word |
//! | `align = N`, `pad = N` | [`Padding`] | zeros to the next multiple of N bytes from the start of the enclosing block (chunk, form, `size` block, file), or N of them; what a file holds that is not zero is kept |
//! | `map = S`, `try_map = S` | any | the value (each element) stored as an `S`, converted with `From` (or `TryFrom`) both ways |
//! | `flag = u8` | `Option<T>` | 0 or 1, then the value when 1 |
//! | `present_if = EXPR` | `Option<T>` | the value when the condition holds: a boolean expression over earlier fields and context parameters (`version >= 300`, `flags & 4 != 0`, `mode == Mode::Bones`; a bare name: it is not 0); writing a value whose presence disagrees is an error naming the field |
//! | `check = expr, "message"` | any value | a condition over the value (by its field's name), earlier fields and parameters; a refusal says the message |
//! | `check = path(a, b)` | any value, or a binary `Count<_>` (given as a `usize`, checked before the elements it counts are read) | nothing more: once read, `path(&value, &a, &b)` must return `Ok`, else [`Refusal`] is an error at the value's first byte with its field path (a refused element of a list or array, and a field inside it, at its own byte when the elements have one size); the writer checks it too (binary: before writing the value; text: once written, at the same line and column), and refuses with the same error |
//! | `magic = 1u32`, `magic = b"TAG"` | [`Magic`] | a constant |
//! | `chunk = "TAG"` | any | an IFF chunk holding the field; fields in a row naming one tag share one chunk (`INFO` holding several counts) |
//! | `form = "TYPE"` | any | an IFF `FORM` of this type whose children the field is (a list of forms or chunks) |
//! | nothing | `Option<T>`, in IFF | the value when the next child begins as it does: the field's chunk or form, or `T` itself (a form, a chunk, an enum of them); nothing at the end of the enclosing form |
//! | `to_end` | `Vec<`[`RawChunk`]`>` | every child left in the form, kept as it is, in order |
//! | `with = path` | any | `path::read`/`write`/`strategy` do it; `context(...)` values are passed to them as extra arguments, in the order written |
//! | `binary(...)`, `text(...)` | any, on a type with both encodings | what only that encoding has (`binary(pascal)`, `text(line)`, `text(vector)`); what both share (`present_if`, `context`, `check`, `count`, `to_end`, and `prefix = u32`: a `u32` in binary, a count line in text) is written once, outside |
//! | `context(param = name, ...)` | a type with context | passes an earlier field's value or one of the type's own parameters (`context(param)` passes the value of the same name; a `Count<_>` field passes its count, as the parameter's integer type), a list's length (`len(list)`, a `usize`; 0 for an absent `Option`; see [`ListLen`]), or any other expression, over earlier fields and parameters or none (`context(order = Endian::Big)`, `context(cells = 2 * usize::from(width))`); a list passes the same context to every element |
//!
//! An enum is chosen by one of:
//!
//! | on the enum | on each variant | the file holds |
//! |---|---|---|
//! | `little, tag = u8` | `when = 0xFF`, or `other` (holds the tag itself) | the tag, then the variant's value |
//! | `little, tag = u16, bits = 3` | `when = 5` | a word whose top 3 bits are the tag; the variant's value (a struct whose first fields are bit fields without a word: see [`WordTail`]) takes its other bits, then follows it |
//! | `little, context(mode: u8), select = mode` (or `text, ...`) | `when = 1` (any expression of the parameter's type) | the variant's value alone: the context chose it |
//! | `text` | `keyword = "Mesh (absolute)"` (unit variants) | a line spelling the phrase, quoted or not |
//! | nothing (or `context(name: Type)`, values its variants pass on) | nothing, each variant holding a `form` or `chunk` struct; or `form = "TYPE"` or `chunk = "TAG"`, wrapping a struct of fields (versions sharing one layout); `context(version = 2u16)` passes the value constants or the enum's parameters (a version gates its chunks) | the `FORM` or chunk, chosen by its type or tag |
//!
//! A count whose collections are all absent options must be 0 (so that
//! the file writes back the same).
//!
//! A variant holds one value or none; `context(...)` on a variant passes the
//! enum's parameters to its value. Writing a variant its selector does not
//! choose, or an `other` variant holding a tag another variant owns, is an
//! error naming the field.
//!
//! A type with context reads and writes with [`BinarySchema::from_bytes_with`]
//! and [`BinarySchema::to_bytes_with`] (binrw: the context is the type's
//! `Args`); a type without has `from_bytes` and `to_bytes` as well.

/// `Decode::decode` of a runtime type that implements `decode_input`:
/// through it, the stream an input.
macro_rules! decode_through_input {
    () => {
        fn decode<R: std::io::Read + std::io::Seek>(
            reader: &mut R,
            endian: crate::Endian,
            context: &Self::Context,
        ) -> Result<Self, crate::Error> {
            Self::decode_input(reader, endian, context)
        }
    };
}

/// `Encode::encode` of a runtime type that implements `encode_output`.
macro_rules! encode_through_output {
    () => {
        fn encode<W: std::io::Write + std::io::Seek>(
            &self,
            writer: &mut W,
            endian: crate::Endian,
            context: &Self::Context,
        ) -> Result<(), crate::Error> {
            self.encode_output(writer, endian, context)
        }
    };
}

mod bits;
mod block;
pub(crate) mod check;
pub(crate) mod choice;
pub(crate) mod collection;
mod computed;
#[cfg(test)]
mod context_tests;
mod convert;
#[cfg(test)]
mod derive_tests;
mod error;
pub(crate) mod iff;
#[cfg(test)]
mod iff_tests;
pub(crate) mod input;
pub mod io;
#[cfg(any(test, feature = "json"))]
pub mod json;
mod layout;
pub mod map;
pub(crate) mod markers;
mod offsets;
pub(crate) mod output;
mod padding;
mod pages;
mod primitive;
pub mod reference;
pub(crate) mod size;
mod stream;
pub(crate) mod string;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod text;
mod transform;
#[cfg(test)]
mod twin_tests;

// Lets the derive's `::ossuary_schema::__private` paths resolve inside this crate
// too (its own tests and examples derive).
extern crate self as ossuary_schema;

// The README's example runs as a doctest, so the README cannot drift.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

use std::fmt::Debug;
use std::io::{Read, Seek, Write};

pub use bits::{BitField, BitPart, Word, WordTail};
pub use block::Block;
pub use check::{checked_at_byte, without_checks, Refusal};
pub use collection::ListLen;
pub use computed::Calc;
pub use error::{
    byte_string, printable, quoted, Error, ErrorDetail, ErrorKind, FieldPath, Position, Segment,
};
pub use iff::{IffBody, IffElement, IffStart, RawChunk, Start};
pub use input::{Input, SliceInput};
pub use layout::{ByteOrder, ContextLayout, FieldLayout, Layout, TextLayout, TypeLayout};
pub use markers::{ByteOrderParam, Count, Magic, NoContext};
pub use offsets::{At, Lazy};
pub use output::{EstimateOutput, Output, SizeOutput, VecOutput};
pub use padding::Padding;
pub use stream::{ForwardSeek, ReadsForward, StreamInput};
pub use string::RawString;
pub use transform::{Gzip, Transform, Transformed, Zlib};

/// `#[derive(Schema)]`, for a crate that depends on `ossuary-schema` (the
/// attribute vocabulary is above and in [`text`]); its expansions reach
/// this crate as `::ossuary_schema`.
pub use schema_derive::Schema;

/// What a type needs from its surroundings to be read or written: values
/// of the enclosing type (counts, modes) it cannot find in its own bytes.
/// `()` for a type that needs none. `#[derive(Schema)]` makes a struct
/// `<Type>Context` with one public field per declared parameter
/// (`#[schema(context(records: u32))]`); binrw sees it as the type's `Args`.
pub trait HasContext {
    type Context: Clone + Debug + 'static;
    /// What the type needs to be read or written as text: its `Context`,
    /// but for a type with both encodings whose binary encoding alone
    /// takes some parameters (`binary(context(order: Endian))`), which its
    /// text encoding is never given. `()` when none are left; otherwise
    /// `#[derive(Schema)]` makes a struct `<Type>TextContext` of the rest.
    type TextContext: Clone + Debug + 'static;
}

/// A byte order: what `#[schema(big)]` and `#[schema(little)]` fix, and
/// what a type without either is given by the type holding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endian {
    /// Most significant byte first.
    Big,
    /// Least significant byte first.
    Little,
}

/// With the `binrw` feature: binrw's byte order is the same two values.
#[cfg(feature = "binrw")]
impl From<binrw::Endian> for Endian {
    fn from(endian: binrw::Endian) -> Self {
        match endian {
            binrw::Endian::Big => Endian::Big,
            binrw::Endian::Little => Endian::Little,
        }
    }
}

#[cfg(feature = "binrw")]
impl From<Endian> for binrw::Endian {
    fn from(endian: Endian) -> Self {
        match endian {
            Endian::Big => binrw::Endian::Big,
            Endian::Little => binrw::Endian::Little,
        }
    }
}

/// A byte order is a value a type can be given as context
/// (`#[schema(context(order: Endian), endian = order)]`), itself needing
/// none.
impl HasContext for Endian {
    type Context = ();
    type TextContext = ();
}

/// A count passed as context is often a `usize` parameter (`context(count:
/// usize)`), which needs none itself.
impl HasContext for usize {
    type Context = ();
    type TextContext = ();
}

/// A value with a binary encoding. `endian` is the byte order the enclosing
/// field asks for; derived types ignore it and use their own.
pub trait Decode: HasContext + Sized {
    /// Fewest bytes any encoding of this type takes: bounds how many elements
    /// a count read from a file may pre-allocate.
    const MIN_SIZE: u64;
    /// The size of every encoding, when all have the same size.
    const FIXED_SIZE: Option<u64>;
    /// The layout a field holding this type refers to: the type's own when
    /// `#[derive(Schema)]` made it, none for numbers and strings.
    const NESTED_LAYOUT: Option<fn() -> TypeLayout> = None;
    /// For an array: the size of each element, when fixed (a `check`'s
    /// refusal of one element is placed by it).
    const ELEMENT_SIZE: Option<u64> = None;
    /// For a derived IFF form or chunk: its form type or chunk tag, which
    /// names an element of a list of them in error paths.
    const IFF_TAG: Option<[u8; 4]> = None;

    /// `Some(size)` when the type is plain: every encoding takes `size`
    /// bytes, needs no context, and every bit pattern is a value (numbers,
    /// arrays and structs of them). A run of plain values is decoded from
    /// bytes in hand after one bounds check ([`Decode::decode_plain`]).
    const PLAIN_SIZE: Option<usize> = None;

    /// For a number, or an array of numbers: how the byte map writes it.
    /// The byte map notes a list of such values as one span, where a list
    /// of other values has a span for each part of each element.
    const NUMBER_TEXT: Option<NumberText> = None;

    fn decode<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        context: &Self::Context,
    ) -> Result<Self, Error>;

    /// [`Decode::decode`] from any [`Input`]: the same values and errors,
    /// and from a byte slice without I/O calls. Derived types implement
    /// this one (their `decode` calls it); a hand-written type reads
    /// through its `decode`.
    fn decode_input<I: Input>(
        input: &mut I,
        endian: Endian,
        context: &Self::Context,
    ) -> Result<Self, Error> {
        input.as_stream(|stream| Self::decode(stream, endian, context))
    }

    /// [`Decode::decode_input`], the value handed to `give` where it is
    /// built: a derived struct reads its fields, then gives `give` the
    /// value made from them, so that a caller keeping it elsewhere (an
    /// enum's variant in a list, see [`Decode::decode_onto`]) builds it
    /// there rather than copying a returned value.
    #[inline]
    fn decode_giving<I: Input, R>(
        input: &mut I,
        endian: Endian,
        context: &Self::Context,
        give: impl FnOnce(Self) -> Result<R, Error>,
    ) -> Result<R, Error> {
        give(Self::decode_input(input, endian, context)?)
    }

    /// [`Decode::decode_input`] onto the end of `elements`, which has room
    /// for it (a list's reader makes room first; without it, an error),
    /// through [`Decode::decode_giving`]: a derived struct pushes the value
    /// where it builds it, and an enum its variant. Returned, the value
    /// went through the stack, and copying it from there stalled (its
    /// bytes were written one by one, read back as one).
    #[inline]
    fn decode_onto<I: Input>(
        input: &mut I,
        endian: Endian,
        context: &Self::Context,
        elements: &mut Vec<Self>,
    ) -> Result<(), Error> {
        Self::decode_giving(input, endian, context, |value| {
            collection::push_within_capacity(elements, value)
        })
    }

    /// The value `bytes` (exactly [`Decode::PLAIN_SIZE`] of them) hold;
    /// `None` for a type that is not plain.
    fn decode_plain(_bytes: &[u8], _endian: Endian) -> Option<Self> {
        None
    }

    /// The values `bytes` hold (a whole number of them), when a list of
    /// them in memory is those bytes (`u8`): taken as one copy. `None` for
    /// other types, which are decoded one by one.
    fn decode_plain_bytes(_bytes: &[u8]) -> Option<Vec<Self>> {
        None
    }

    /// `N` plain values from `bytes` (exactly `N` times
    /// [`Decode::PLAIN_SIZE`] of them): what a fixed array of them decodes
    /// to. Numbers build the array directly; other types in a small buffer.
    fn decode_plain_array<const N: usize>(bytes: &[u8], endian: Endian) -> Option<[Self; N]> {
        let size = Self::PLAIN_SIZE.filter(|&size| size > 0)?;
        let mut elements = arrayvec::ArrayVec::<Self, N>::new();
        for element in bytes.chunks_exact(size).take(N) {
            elements
                .try_push(Self::decode_plain(element, endian)?)
                .ok()?;
        }
        elements.into_inner().ok()
    }
}

/// The writing half of [`Decode`]. A writer fails, naming the field, when
/// the value disagrees with its context (a list longer than the count the
/// context gives, a variant its selector does not choose).
pub trait Encode: HasContext {
    fn encode<W: Write + Seek>(
        &self,
        writer: &mut W,
        endian: Endian,
        context: &Self::Context,
    ) -> Result<(), Error>;

    /// [`Encode::encode`] to any [`Output`]: the same bytes and errors, and
    /// into a vector without seeks. Derived types implement this one
    /// (their `encode` calls it); a hand-written type writes through its
    /// `encode`.
    fn encode_output<O: Output>(
        &self,
        output: &mut O,
        endian: Endian,
        context: &Self::Context,
    ) -> Result<(), Error> {
        output.as_stream(|stream| self.encode(stream, endian, context))
    }

    /// The encoding of a list of these values, when it is the list's
    /// bytes in memory (bytes, and arrays of them): written as one copy.
    /// `None` for other types, which are encoded one by one.
    fn plain_bytes(_elements: &[Self]) -> Option<&[u8]>
    where
        Self: Sized,
    {
        None
    }

    /// Writes a plain value (see [`Decode::PLAIN_SIZE`]) into `bytes`,
    /// exactly that many, the mirror of [`Decode::decode_plain`]; false,
    /// writing nothing, for a type that is not plain.
    fn encode_plain(&self, _bytes: &mut [u8], _endian: Endian) -> bool {
        false
    }
}

/// How the byte map writes a number, or an array of numbers
/// ([`Decode::NUMBER_TEXT`]).
#[derive(Debug, Clone, Copy)]
pub struct NumberText {
    /// Writes the value the bytes hold (exactly [`Decode::PLAIN_SIZE`] of
    /// them).
    pub write: fn(&[u8], Endian, &mut String),
    /// Whether the value is a byte (`u8`), so that a run of them reads as a
    /// byte string (`b"SPR2"`).
    pub is_byte: bool,
}

/// A whole file's value from `input`, which holds the file; bytes left
/// over after the value are an error.
fn decode_whole<T: Decode, const RECORDS: bool>(
    mut input: SliceInput<'_, RECORDS>,
    context: &T::Context,
) -> Result<T, Error> {
    let len = input.remaining()?;
    let value =
        offsets::with_read_budget(len, || T::decode_input(&mut input, Endian::Little, context))?;
    let end = input.offset() as u64;
    if end != len {
        return Err(Error::at_byte(
            end,
            ErrorKind::Invalid(format!("{} byte(s) follow the end of the data", len - end)),
        ));
    }
    Ok(value)
}

/// Conveniences for a whole binary file, implemented by `#[derive(Schema)]`.
/// The `_with` forms take the type's context; the others are for types
/// that need none.
pub trait BinarySchema: Decode + Encode {
    /// Decodes a whole file; bytes left over after the value are an error.
    ///
    /// Unless this thread is recording a byte map, the bytes are read from
    /// an input that is never recorded, so the reader checks for no map.
    fn from_bytes_with(bytes: &[u8], context: &Self::Context) -> Result<Self, Error> {
        if map::recording() {
            decode_whole(SliceInput::new(bytes), context)
        } else {
            decode_whole(SliceInput::unrecorded(bytes), context)
        }
    }

    /// Encodes a whole file in two passes: the first estimates its bytes
    /// ([`EstimateOutput`]), so the second writes into a vector allocated
    /// once at that size.
    fn to_bytes_with(&self, context: &Self::Context) -> Result<Vec<u8>, Error> {
        let mut estimate = EstimateOutput::default();
        self.encode_output(&mut estimate, Endian::Little, context)?;
        let capacity = usize::try_from(estimate.estimated()).unwrap_or(0);
        let mut output = VecOutput::with_capacity(capacity);
        self.encode_output(&mut output, Endian::Little, context)?;
        Ok(output.into_bytes())
    }

    /// Decodes one value from the reader's current position.
    fn read_from_with<R: Read + Seek>(
        reader: &mut R,
        context: &Self::Context,
    ) -> Result<Self, Error> {
        let len = Input::remaining(reader)?;
        offsets::with_read_budget(len, || Self::decode(reader, Endian::Little, context))
    }

    /// Decodes one value from a reader that cannot seek (a pipe, a socket,
    /// a decompressor), reading no further than its last byte (but for a
    /// list read to the end). A type whose layout seeks does not compile
    /// with it (see [`ReadsForward`]).
    fn read_from_stream_with<R: Read>(reader: R, context: &Self::Context) -> Result<Self, Error>
    where
        Self: ReadsForward,
    {
        Self::decode_input(&mut StreamInput::new(reader), Endian::Little, context)
    }

    fn write_to_with<W: Write + Seek>(
        &self,
        writer: &mut W,
        context: &Self::Context,
    ) -> Result<(), Error> {
        self.encode(writer, Endian::Little, context)
    }

    /// Decodes a whole file; bytes left over after the value are an error.
    fn from_bytes(bytes: &[u8]) -> Result<Self, Error>
    where
        Self: HasContext<Context = ()>,
    {
        Self::from_bytes_with(bytes, &())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, Error>
    where
        Self: HasContext<Context = ()>,
    {
        self.to_bytes_with(&())
    }

    /// Decodes one value from the reader's current position.
    fn read_from<R: Read + Seek>(reader: &mut R) -> Result<Self, Error>
    where
        Self: HasContext<Context = ()>,
    {
        Self::read_from_with(reader, &())
    }

    /// [`BinarySchema::read_from_stream_with`] for a type that needs no
    /// context.
    fn read_from_stream<R: Read>(reader: R) -> Result<Self, Error>
    where
        Self: HasContext<Context = ()> + ReadsForward,
    {
        Self::read_from_stream_with(reader, &())
    }

    fn write_to<W: Write + Seek>(&self, writer: &mut W) -> Result<(), Error>
    where
        Self: HasContext<Context = ()>,
    {
        self.write_to_with(writer, &())
    }
}

/// What `#[derive(Schema)]` expansions call, and nothing else: the one path
/// through which generated code reaches the runtime (`#[schema(crate =
/// "...")]` names another root for it). Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::bits::{
        bits_of, count_bits, note_bits, note_tagged_bits, part, patch_word, read_word,
        read_word_quietly, unit_rest, write_word, BitField, BitPart, Word, WordTail,
    };
    pub use crate::block::{check_block_size, enter_block, read_sized};
    pub use crate::check::{
        checked_at_byte, checked_elements_at_byte, checked_fields_at_byte, checking, Elements,
    };
    pub use crate::choice::{
        tag_taken, unknown_selector, unknown_tag, unknown_text_selector, variant_disagrees,
    };
    pub use crate::collection::{
        check_condition, check_len, check_presence, check_terminated, context_len, count_as,
        counted, encode_each, list_len, push_made, read_count, read_elements, read_elements_to_end,
        read_elements_until, read_flagged, read_to_end, read_until, read_vec, shared_len, until_fn,
        write_count, write_each, write_flagged, FlagInt,
    };
    pub use crate::computed::{
        calc_found, calc_to_write, calc_value, count_value, patch_value, size_value,
        write_placeholder,
    };
    pub use crate::convert::{mapped_back, try_mapped, try_mapped_back};
    pub use crate::iff::{
        check_absent_count, next_is, peek_form_type, peek_start, read_chunk, read_form,
        unknown_element, unknown_form, write_chunk, write_form, IffBody, IffElement, IffStart,
        Start, CHUNK_HEADER_SIZE, FORM_HEADER_SIZE,
    };
    pub use crate::input::{decode_plain_next, read_plain_run};
    pub use crate::map::{enter as map_enter, enter_in as map_enter_in, read_custom};
    pub use crate::markers::{
        read_magic, write_magic, ByteOrderParam, CountField, NoContext, TakesTextContext,
    };
    pub use crate::offsets::{
        read_offset, write_offset_placeholder, Base, OffsetInt, Placement, Placing,
    };
    pub use crate::output::{encode_plain_next, write_plain_run};
    pub use crate::padding::{read_padding, write_padding, PaddingLength};
    pub use crate::size::{add_fixed, add_min, add_plain, lesser_min};
    pub use crate::stream::ReadsForward;
    pub use crate::string::{
        read_fixed_width, read_null_terminated, read_pascal, read_prefixed, write_fixed_width,
        write_null_terminated, write_pascal, write_prefixed,
    };
    #[cfg(any(test, feature = "testing"))]
    pub use crate::testing::{self, proptest};
    pub use crate::text::checks::{checked, checked_written};
    pub use crate::text::forms::{
        read_angle_bracketed, read_comment, read_keywords, read_line_string, read_or_none,
        read_token_line, read_vector, write_angle_bracketed, write_comment, write_keywords,
        write_line_string, write_or_none, write_token_line, write_vector,
    };
    pub use crate::text::reader::{read_counted, read_flowing_list, read_lines_to_end, read_list};
    pub use crate::text::writer::{write_elements, write_flowing_list, write_list};
    pub use crate::text::{
        Keyword, TextRead, TextReader, TextSchema, TextStyle, TextTokens, TextWrite, TextWriter,
    };
    pub use crate::{
        BinarySchema, ByteOrder, ContextLayout, Decode, Encode, Endian, Error, FieldLayout,
        HasContext, Input, Layout, Output, Refusal, Segment, TextLayout, TypeLayout,
    };

    /// binrw's traits, which derived types implement with the `binrw`
    /// feature.
    #[cfg(feature = "binrw")]
    pub use binrw;

    /// Expands to its input with the `binrw` feature, to nothing without:
    /// the derived binrw impls are wrapped in it.
    pub use crate::__binrw_only as binrw_only;

    /// Expands to its input when the round-trip tests are built (the
    /// `testing` feature, or this crate's own tests), and to nothing
    /// otherwise: the generated round-trip test modules are wrapped in it.
    pub use crate::__testing_only as testing_only;
}

#[cfg(feature = "binrw")]
#[doc(hidden)]
#[macro_export]
macro_rules! __binrw_only {
    ($($item:tt)*) => { $($item)* };
}

#[cfg(not(feature = "binrw"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __binrw_only {
    ($($item:tt)*) => {};
}

#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __testing_only {
    ($($item:tt)*) => { $($item)* };
}

#[cfg(not(any(test, feature = "testing")))]
#[doc(hidden)]
#[macro_export]
macro_rules! __testing_only {
    ($($item:tt)*) => {};
}
