//! IFF framing: `FORM <u32 BE size> <type> children` and `<tag> <u32 BE size>
//! payload`. Sizes are always big-endian, whatever the payload's byte order.
//!
//! Reading: each chunk's or form's contents are read from an input narrowed
//! to it ([`Input::narrowed`]: a sub-slice of a slice, a [`Bounded`] reader
//! over a stream) whose end is the chunk's end, so counts are checked
//! against the chunk (not the file) before allocating, and nothing can read
//! past it.
//!
//! Writing: the size is written as a placeholder, the contents follow, then
//! the size is patched ([`Output::patch`]: in place in a vector, by seeking
//! back in a stream). Patching writes each byte once however deep forms
//! nest, where encoding each level into its own buffer would copy the
//! innermost bytes once per level.
//!
//! Choosing: an optional element is present when the next child begins as
//! it does ([`next_is`]), and an enum of elements takes the variant the next
//! child's tag or form type names ([`peek_start`]); neither consumes anything.

use std::fmt;
use std::io::{Read, Seek, SeekFrom};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[cfg(test)]
use super::io::read_array;
use super::{
    Decode, Encode, Endian, Error, ErrorKind, HasContext, Input, Output, RawString, Segment,
};
use crate::block::enter_block;
use crate::map;

/// The tag every form starts with.
const FORM: [u8; 4] = *b"FORM";

/// Bytes of a chunk header: tag and size.
pub const CHUNK_HEADER_SIZE: u64 = 8;

/// Bytes of a form header: `FORM`, size and type.
pub const FORM_HEADER_SIZE: u64 = 12;

/// How an IFF element begins: a chunk with its tag, or a `FORM` with its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    Chunk([u8; 4]),
    Form([u8; 4]),
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Start::Chunk(tag) => write!(f, "chunk {}", tag_text(*tag)),
            Start::Form(form_type) => write!(f, "FORM {}", tag_text(*form_type)),
        }
    }
}

/// Implemented by `#[derive(Schema)]` for a struct marked
/// `#[schema(form = "TYPE")]` or `#[schema(chunk = "TAG")]`: how it begins.
/// Enums of elements choose their variant by it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a form or chunk struct",
    label = "each variant of an enum of IFF elements holds a struct marked `#[schema(form = \"TYPE\")]` or `#[schema(chunk = \"TAG\")]`, or names its own with `#[schema(form = ...)]` or `#[schema(chunk = ...)]`"
)]
pub trait IffStart {
    const START: Start;
}

/// A value that is one whole IFF element: a form or chunk struct, an enum
/// of them, or a [`RawChunk`]. Inside a form, every field that is not in a
/// chunk must be one; an `Option` of one is present when the next child
/// begins as it does.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an IFF element (a form, a chunk, or an enum of them)",
    label = "inside a FORM, a field is in a chunk (`#[schema(chunk = \"TAG\")]`) or a form (`#[schema(form = \"TYPE\")]`), or its type is a form or a chunk; an `Option` outside them needs `flag` or `present_if`"
)]
pub trait IffElement {
    /// What the element can begin with.
    const STARTS: &'static [Start];

    /// Whether a child beginning with `next` is one of these.
    fn begins_with(next: Start) -> bool {
        Self::STARTS.contains(&next)
    }

    /// Whether the next child of `input` is one of these; false at the
    /// end of the input. (An `Option` of an element is present when it is:
    /// the generated code asks the type itself, so a type that is no
    /// element is one error naming this trait.)
    fn next_is<I: Input>(input: &mut I) -> Result<bool, Error> {
        next_is(input, Self::begins_with)
    }
}

/// Implemented by `#[derive(Schema)]` for a binary struct that is neither a
/// form nor a chunk: a run of fields, which a variant of an enum of
/// elements can wrap in a form or chunk of its own.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is a whole form or chunk already",
    label = "a variant's `form = ...` or `chunk = ...` wraps a struct that is neither"
)]
pub trait IffBody {}

/// A reader that ends where a chunk or form ends. Positions stay those of
/// the underlying reader, so error offsets are offsets in the file.
pub struct Bounded<'a, R> {
    inner: &'a mut R,
    position: u64,
    end: u64,
}

impl<'a, R: Read + Seek> Bounded<'a, R> {
    /// `position` must be the inner reader's current position.
    pub(crate) fn new(inner: &'a mut R, position: u64, end: u64) -> Self {
        Bounded {
            inner,
            position,
            end,
        }
    }

    fn left(&self) -> u64 {
        self.end.saturating_sub(self.position)
    }
}

impl<R: Read + Seek> Read for Bounded<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let limit = usize::try_from(self.left())
            .unwrap_or(usize::MAX)
            .min(buf.len());
        let (allowed, _) = buf.split_at_mut(limit);
        let read = self.inner.read(allowed)?;
        self.position += read as u64;
        Ok(read)
    }
}

impl<R: Read + Seek> Seek for Bounded<'_, R> {
    fn seek(&mut self, target: SeekFrom) -> std::io::Result<u64> {
        // The end of a bounded reader is the chunk's end, not the file's.
        let target = match target {
            SeekFrom::End(delta) => {
                SeekFrom::Start(self.end.checked_add_signed(delta).ok_or_else(|| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidInput,
                        "seek before the start of the input",
                    )
                })?)
            }
            other => other,
        };
        self.position = self.inner.seek(target)?;
        Ok(self.position)
    }

    fn stream_position(&mut self) -> std::io::Result<u64> {
        Ok(self.position)
    }
}

/// A tag as text for messages; bytes outside printable ASCII are escaped.
pub fn tag_text(tag: [u8; 4]) -> String {
    tag.escape_ascii().to_string()
}

/// Reads a `tag` chunk and its payload with `read_payload`, which sees an
/// input ending at the chunk's end. Payload bytes it leaves are an error.
pub fn read_chunk<'s, I, T, F>(input: &'s mut I, tag: [u8; 4], read_payload: F) -> Result<T, Error>
where
    I: Input,
    F: FnOnce(&mut I::Narrowed<'s>) -> Result<T, Error>,
{
    let start = input.position()?;
    let found = input.read_array::<4>()?;
    if found != tag {
        return Err(Error::at_byte(
            start,
            ErrorKind::WrongTag {
                expected: format!("chunk {}", tag_text(tag)),
                found: tag_text(found),
            },
        ));
    }
    let muted = map::mute();
    let size = read_size(input).map_err(|e| e.within(Segment::Chunk(tag)))?;
    drop(muted);
    let _entered = map::enter(Segment::Chunk(tag));
    if map::recording() {
        note_header(
            start,
            &[
                ("chunk tag", 4, tag_text(tag)),
                ("chunk size", 4, size.to_string()),
            ],
        );
    }
    read_bounded(input, size, read_payload).map_err(|e| e.within(Segment::Chunk(tag)))
}

/// Notes a header's parts in the byte map, one after another from `start`:
/// what each is, its length and its value (asked for only when recording).
#[cold]
fn note_header(start: u64, parts: &[(&'static str, u64, String)]) {
    let mut at = start;
    for (what, len, value) in parts {
        map::note(at, at + len, what, map::SpanKind::Header, || value.clone());
        at += len;
    }
}

/// Reads a `FORM` of type `form_type`; `read_children` sees an input ending
/// at the form's end. Bytes it leaves are an error.
pub fn read_form<'s, I, T, F>(
    input: &'s mut I,
    form_type: [u8; 4],
    read_children: F,
) -> Result<T, Error>
where
    I: Input,
    F: FnOnce(&mut I::Narrowed<'s>) -> Result<T, Error>,
{
    let start = input.position()?;
    let muted = map::mute();
    let (found, size) = read_form_header(input)?;
    drop(muted);
    if found != form_type {
        return Err(Error::at_byte(
            start + CHUNK_HEADER_SIZE,
            ErrorKind::WrongTag {
                expected: format!("FORM {}", tag_text(form_type)),
                found: format!("FORM {}", tag_text(found)),
            },
        ));
    }
    let _entered = map::enter(Segment::Chunk(form_type));
    if map::recording() {
        note_header(
            start,
            &[
                ("FORM tag", 4, tag_text(FORM)),
                ("FORM size", 4, size.to_string()),
                ("form type", 4, tag_text(form_type)),
            ],
        );
    }
    read_bounded(input, size - 4, read_children).map_err(|e| e.within(Segment::Chunk(form_type)))
}

/// How the next child begins, or `None` at the end of the input; the
/// input is left where it was.
pub fn peek_start<I: Input>(input: &mut I) -> Result<Option<Start>, Error> {
    if input.remaining()? == 0 {
        return Ok(None);
    }
    let start = input.position()?;
    let tag = input.read_array::<4>()?;
    let next = if tag == FORM {
        input.read_array::<4>()?;
        Start::Form(input.read_array::<4>()?)
    } else {
        Start::Chunk(tag)
    };
    input.seek_to(start)?;
    Ok(Some(next))
}

/// Whether the next child begins as `begins_with` accepts; false at the
/// end of the input. Optional elements are present by it.
pub fn next_is<I: Input>(
    input: &mut I,
    begins_with: impl FnOnce(Start) -> bool,
) -> Result<bool, Error> {
    Ok(peek_start(input)?.is_some_and(begins_with))
}

/// The error for a child none of an enum's variants begins with (or for
/// the end of the input), listing those that would. `input` stands at
/// the child.
pub fn unknown_element<I: Input>(input: &mut I, found: Option<Start>, known: &[Start]) -> Error {
    let known_forms: Option<Vec<[u8; 4]>> = known
        .iter()
        .map(|start| match start {
            Start::Form(form_type) => Some(*form_type),
            Start::Chunk(_) => None,
        })
        .collect();
    let kind = match (found, known_forms) {
        // An enum of forms names the form types it knows.
        (Some(Start::Form(found)), Some(forms)) => {
            return unknown_form(input, found, &forms);
        }
        (Some(Start::Chunk(tag)), Some(_)) => ErrorKind::WrongTag {
            expected: tag_text(FORM),
            found: tag_text(tag),
        },
        (found, _) => {
            let known = known
                .iter()
                .map(Start::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            ErrorKind::WrongTag {
                expected: format!("one of {known}"),
                found: found.map_or_else(
                    || "the end of the input".to_owned(),
                    |found| found.to_string(),
                ),
            }
        }
    };
    match input.position() {
        Ok(start) => Error::at_byte(start, kind),
        Err(error) => error,
    }
}

/// The type of the `FORM` at the input's position, which is left unchanged:
/// enums of forms choose their variant by it.
pub fn peek_form_type<I: Input>(input: &mut I) -> Result<[u8; 4], Error> {
    let _muted = map::mute();
    let start = input.position()?;
    let (form_type, _) = read_form_header(input)?;
    input.seek_to(start)?;
    Ok(form_type)
}

/// The error for a form type none of an enum's variants has, listing those
/// it has. `input` stands at the start of the form.
pub fn unknown_form<I: Input>(input: &mut I, found: [u8; 4], known: &[[u8; 4]]) -> Error {
    let known = known
        .iter()
        .copied()
        .map(tag_text)
        .collect::<Vec<_>>()
        .join(", ");
    let kind = ErrorKind::UnknownForm {
        found: tag_text(found),
        known,
    };
    match input.position() {
        Ok(start) => Error::at_byte(start + CHUNK_HEADER_SIZE, kind),
        Err(error) => error,
    }
}

/// Reads `FORM`, the size (checked to hold the type and to fit the parent)
/// and the type; returns the type and the size.
fn read_form_header<I: Input>(input: &mut I) -> Result<([u8; 4], u64), Error> {
    let start = input.position()?;
    let found = input.read_array::<4>()?;
    if found != FORM {
        return Err(Error::at_byte(
            start,
            ErrorKind::WrongTag {
                expected: tag_text(FORM),
                found: tag_text(found),
            },
        ));
    }
    let size = read_size(input)?;
    if size < 4 {
        return Err(Error::at_byte(
            start + 4,
            ErrorKind::Invalid(format!("FORM size {size} cannot hold the 4-byte form type")),
        ));
    }
    let form_type = input.read_array::<4>()?;
    Ok((form_type, size))
}

/// Reads a big-endian size and checks it fits in what is left of the parent.
fn read_size<I: Input>(input: &mut I) -> Result<u64, Error> {
    let at = input.position()?;
    let size = u64::from(u32::decode_input(input, Endian::Big, &())?);
    let available = input.remaining()?;
    if size > available {
        return Err(Error::at_byte(
            at,
            ErrorKind::SizePastParent { size, available },
        ));
    }
    Ok(size)
}

/// Runs `read_contents` on the next `size` bytes and fails if it leaves
/// any of them.
fn read_bounded<'s, I, T, F>(input: &'s mut I, size: u64, read_contents: F) -> Result<T, Error>
where
    I: Input,
    F: FnOnce(&mut I::Narrowed<'s>) -> Result<T, Error>,
{
    input.narrowed(size, |contents| {
        let value = read_contents(contents)?;
        let left = contents.remaining()?;
        if left != 0 {
            return Err(Error::at_byte(
                contents.position()?,
                ErrorKind::BytesLeftInChunk(left),
            ));
        }
        Ok(value)
    })
}

/// Writes a `tag` chunk whose payload `write_payload` writes, then patches its size.
pub fn write_chunk<O, F>(output: &mut O, tag: [u8; 4], write_payload: F) -> Result<(), Error>
where
    O: Output,
    F: FnOnce(&mut O) -> Result<(), Error>,
{
    output.write_bytes(&tag)?;
    write_sized(output, |output| {
        let _block = enter_block(output.position()?);
        write_payload(output)
    })
    .map_err(|e| e.within(Segment::Chunk(tag)))
}

/// Writes a `FORM` of type `form_type` whose children `write_children`
/// writes, then patches its size (which counts the type).
pub fn write_form<O, F>(output: &mut O, form_type: [u8; 4], write_children: F) -> Result<(), Error>
where
    O: Output,
    F: FnOnce(&mut O) -> Result<(), Error>,
{
    output.write_bytes(&FORM)?;
    write_sized(output, |output| {
        output.write_bytes(&form_type)?;
        let _block = enter_block(output.position()?);
        write_children(output)
    })
    .map_err(|e| e.within(Segment::Chunk(form_type)))
}

/// Writes a size placeholder, the contents, then the real size over the placeholder.
fn write_sized<O, F>(output: &mut O, write_contents: F) -> Result<(), Error>
where
    O: Output,
    F: FnOnce(&mut O) -> Result<(), Error>,
{
    let size_at = output.position()?;
    output.write_bytes(&[0; 4])?;
    write_contents(output)?;
    let end = output.position()?;
    let size = end.saturating_sub(size_at + 4);
    let size = u32::try_from(size).map_err(|_| {
        Error::new(ErrorKind::Invalid(format!(
            "{size} bytes do not fit an IFF size (at most {})",
            u32::MAX
        )))
    })?;
    output.patch(size_at, &size.to_be_bytes())
}

/// A chunk or `FORM` kept as it is, for the children of a form that its
/// layout does not name (`#[schema(to_end)] unknown: Vec<RawChunk>` keeps
/// every child after the named ones, in order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawChunk {
    /// The chunk's tag; `FORM` for a form.
    #[serde(serialize_with = "tag_to_text", deserialize_with = "tag_from_text")]
    pub tag: [u8; 4],
    /// Everything after the size: the payload, or a form's type and children.
    pub data: Vec<u8>,
}

fn tag_to_text<S: Serializer>(tag: &[u8; 4], serializer: S) -> Result<S::Ok, S::Error> {
    RawString(tag.to_vec()).serialize(serializer)
}

fn tag_from_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<[u8; 4], D::Error> {
    let text = RawString::deserialize(deserializer)?;
    <[u8; 4]>::try_from(text.as_bytes())
        .map_err(|_| serde::de::Error::custom(format!("{text:?} is not a tag of four characters")))
}

impl HasContext for RawChunk {
    type Context = ();
    type TextContext = ();
}

impl Decode for RawChunk {
    const MIN_SIZE: u64 = CHUNK_HEADER_SIZE;
    const FIXED_SIZE: Option<u64> = None;

    decode_through_input!();

    fn decode_input<I: Input>(input: &mut I, _: Endian, _: &()) -> Result<Self, Error> {
        let start = input.position()?;
        let muted = map::mute();
        let tag = input.read_array::<4>()?;
        let size = read_size(input)?;
        drop(muted);
        if tag == FORM && size < 4 {
            return Err(Error::at_byte(
                start + 4,
                ErrorKind::Invalid(format!("FORM size {size} cannot hold the 4-byte form type")),
            ));
        }
        let data = input.read_bytes(size)?;
        map::note(
            start,
            start + CHUNK_HEADER_SIZE + size,
            "RawChunk",
            map::SpanKind::Opaque,
            || format!("{} ({size} bytes kept as found)", tag_text(tag)),
        );
        Ok(RawChunk { tag, data })
    }
}

impl Encode for RawChunk {
    encode_through_output!();

    fn encode_output<O: Output>(&self, output: &mut O, _: Endian, _: &()) -> Result<(), Error> {
        if self.tag == FORM && self.data.len() < 4 {
            return Err(Error::new(ErrorKind::Invalid(format!(
                "a FORM kept as bytes holds {} byte(s), too few for its type",
                self.data.len()
            ))));
        }
        output.write_bytes(&self.tag)?;
        write_sized(output, |output| output.write_bytes(&self.data))
    }
}

impl IffElement for RawChunk {
    const STARTS: &'static [Start] = &[];

    /// A raw chunk can be any child.
    fn begins_with(_: Start) -> bool {
        true
    }
}

/// A count whose collections are all absent must be 0, which is what the
/// writer would store: else the file would not come back byte for byte.
pub fn check_absent_count(
    count_chunk: &'static str,
    count: usize,
    collections: &[(&'static str, bool)],
) -> Result<(), Error> {
    if count == 0 || collections.iter().any(|&(_, present)| present) {
        return Ok(());
    }
    let absent = collections
        .iter()
        .map(|(name, _)| *name)
        .collect::<Vec<_>>()
        .join(", ");
    Err(Error::new(ErrorKind::Invalid(format!(
        "{count_chunk} counts {count} entries, but {absent} is absent"
    ))))
}

#[cfg(test)]
mod tests {
    use super::super::Position;
    use super::*;
    use std::io::{Cursor, Write};

    fn read_u16_chunk(bytes: &[u8]) -> Result<u16, Error> {
        read_chunk(&mut Cursor::new(bytes), *b"INFO", |r| {
            u16::decode(r, Endian::Little, &())
        })
    }

    #[test]
    fn a_chunk_reads_its_payload() {
        assert_eq!(read_u16_chunk(b"INFO\0\0\0\x02\x34\x12").unwrap(), 0x1234);
    }

    #[test]
    fn the_payload_cannot_read_past_the_chunk() {
        let error = read_u16_chunk(b"INFO\0\0\0\x01\x34\x12").unwrap_err();
        assert_eq!(error.position, Some(Position::Byte(8)));
        assert_eq!(error.path.to_string(), "INFO");
        assert!(matches!(
            error.kind,
            ErrorKind::UnexpectedEnd {
                needed: 2,
                available: 1
            }
        ));
    }

    #[test]
    fn bytes_left_in_a_chunk_are_an_error() {
        let error = read_u16_chunk(b"INFO\0\0\0\x03\x34\x12\x00").unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 10: INFO: 1 byte(s) are left over inside the chunk"
        );
    }

    #[test]
    fn a_size_past_the_input_is_an_error() {
        let error = read_u16_chunk(b"INFO\0\0\x01\x00\x34\x12").unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 4: INFO: size 256 runs past the end of the enclosing data (2 byte(s) left)"
        );
    }

    #[test]
    fn a_wrong_tag_names_both() {
        let error = read_u16_chunk(b"NAME\0\0\0\x02\x34\x12").unwrap_err();
        assert_eq!(error.to_string(), "byte 0: expected chunk INFO, found NAME");
    }

    #[test]
    fn counts_inside_a_chunk_are_checked_against_the_chunk() {
        // 8 bytes follow the header in the file, but the chunk holds only 4.
        let bytes = b"LIST\0\0\0\x04\x01\0\0\0\x02\0\0\0";
        let error = read_chunk(&mut Cursor::new(&bytes[..]), *b"LIST", |r| {
            super::super::collection::read_vec(r, 2, 4, |r| u32::decode(r, Endian::Little, &()))
        })
        .unwrap_err();
        assert!(matches!(
            error.kind,
            ErrorKind::CountTooLarge { remaining: 4, .. }
        ));
    }

    #[test]
    fn forms_nest_and_sizes_are_patched() {
        let mut out = Cursor::new(Vec::new());
        write_form(&mut out, *b"OUTR", |w| {
            write_chunk(w, *b"DATA", |w| Ok(w.write_all(&[7, 8, 9])?))?;
            write_form(w, *b"INNR", |_| Ok(()))
        })
        .unwrap();
        let expected = b"FORM\0\0\0\x1bOUTRDATA\0\0\0\x03\x07\x08\x09FORM\0\0\0\x04INNR";
        assert_eq!(out.get_ref().as_slice(), &expected[..]);

        let mut reader = Cursor::new(out.into_inner());
        assert_eq!(peek_form_type(&mut reader).unwrap(), *b"OUTR");
        let data = read_form(&mut reader, *b"OUTR", |r| {
            let data = read_chunk(r, *b"DATA", read_array::<3, _>)?;
            read_form(r, *b"INNR", |_| Ok(()))?;
            Ok(data)
        })
        .unwrap();
        assert_eq!(data, [7, 8, 9]);
    }

    #[test]
    fn a_wrong_form_type_is_an_error() {
        let bytes = b"FORM\0\0\0\x04ABCD";
        let error = read_form(&mut Cursor::new(&bytes[..]), *b"SKTM", |_| Ok(())).unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 8: expected FORM SKTM, found FORM ABCD"
        );
    }
}
