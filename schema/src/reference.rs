//! The `#[derive(Schema)]` attribute reference: every attribute, the Rust
//! types it applies to, and the bytes or text it reads and writes, each
//! shown by an example that runs (`cargo test --doc -p ossuary-schema`).
//!
//! A binary type is read with [`BinarySchema::from_bytes`] and written with
//! [`BinarySchema::to_bytes`]; a text type with
//! [`TextSchema::from_text`] and [`TextSchema::to_text`]. A file read and
//! written back comes out byte for byte.
//!
//! [`BinarySchema::from_bytes`]: crate::BinarySchema::from_bytes
//! [`BinarySchema::to_bytes`]: crate::BinarySchema::to_bytes
//! [`TextSchema::from_text`]: crate::text::TextSchema::from_text
//! [`TextSchema::to_text`]: crate::text::TextSchema::to_text
//!
//! # Byte order
//!
//! ## `big`, `little` on a type
//!
//! Every binary type states its byte order; numbers read and write in it.
//!
//! ```
//! use ossuary_schema::BinarySchema;
//! use ossuary_schema::Schema;
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(big)]
//! struct Header {
//!     version: u32,
//!     count: u16,
//! }
//!
//! let header = Header::from_bytes(&[0, 0, 0, 1, 0, 7]).unwrap();
//! assert_eq!(header, Header { version: 1, count: 7 });
//! assert_eq!(header.to_bytes().unwrap(), [0, 0, 0, 1, 0, 7]);
//! ```
//!
//! ## `big`, `little` on a field
//!
//! A field may differ from its type's order (The Sims Online's skeletons
//! have big-endian integers and little-endian floats).
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(big)]
//! struct Bone {
//!     id: u16,
//!     #[schema(little)]
//!     length: f32,
//! }
//!
//! let bytes = [0, 2, 0, 0, 0x80, 0x3f];
//! let bone = Bone::from_bytes(&bytes).unwrap();
//! assert_eq!(bone, Bone { id: 2, length: 1.0 });
//! assert_eq!(bone.to_bytes().unwrap(), bytes);
//! ```
//!
//! ## `endian = param`: the byte order as context
//!
//! One set of types for a body one format stores little-endian and another
//! big-endian (The Sims Online's `.mesh` holds a `.bmf`'s body with
//! big-endian integers): the type declares a context parameter of type
//! [`Endian`](crate::Endian) and names it with `endian = param`, on the
//! type (every field without an order of its own) or on a field. Counts
//! and nested values follow the field's order; `big`/`little` on a field
//! still fix its own. The type holding it passes the order as any context
//! value: an earlier field, one of its own parameters, or a constant
//! (`context(order = Endian::Big)`).
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Endian};
//! # use ossuary_schema::Schema;
//! /// The body both files share.
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(context(order: Endian), endian = order)]
//! struct Body {
//!     #[schema(prefix = u16)]
//!     faces: Vec<[i16; 3]>,
//!     /// Little-endian in both files.
//!     #[schema(little)]
//!     scale: f32,
//! }
//!
//! /// The body, little-endian.
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Skin {
//!     #[schema(context(order = Endian::Little))]
//!     body: Body,
//! }
//!
//! /// A version, then the body, big-endian.
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(big)]
//! struct Mesh {
//!     version: u32,
//!     #[schema(context(order = Endian::Big))]
//!     body: Body,
//! }
//!
//! let body = Body { faces: vec![[1, 2, 3]], scale: 1.0 };
//! let little = [1, 0, 1, 0, 2, 0, 3, 0, 0, 0, 0x80, 0x3f];
//! let skin = Skin::from_bytes(&little).unwrap();
//! assert_eq!(skin.body, body);
//! assert_eq!(skin.to_bytes().unwrap(), little);
//!
//! let big = [0, 0, 0, 2, 0, 1, 0, 1, 0, 2, 0, 3, 0, 0, 0x80, 0x3f];
//! let mesh = Mesh::from_bytes(&big).unwrap();
//! assert_eq!(mesh, Mesh { version: 2, body });
//! assert_eq!(mesh.to_bytes().unwrap(), big);
//! ```
//!
//! # Strings
//!
//! A [`RawString`](crate::RawString) keeps the bytes as stored
//! (these files are Windows-1252, not UTF-8); a binary one needs an
//! encoding.
//!
//! ## `pascal`
//!
//! A u8 length, then the bytes.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, RawString};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Named {
//!     #[schema(pascal)]
//!     name: RawString,
//! }
//!
//! let named = Named::from_bytes(b"\x04ROOT").unwrap();
//! assert_eq!(named.name, RawString::from("ROOT"));
//! assert_eq!(named.to_bytes().unwrap(), b"\x04ROOT");
//! ```
//!
//! ## `null_terminated`
//!
//! The bytes, then a 0.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, RawString};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Named {
//!     #[schema(null_terminated)]
//!     name: RawString,
//! }
//!
//! let named = Named::from_bytes(b"neck\0").unwrap();
//! assert_eq!(named.name, RawString::from("neck"));
//! assert_eq!(named.to_bytes().unwrap(), b"neck\0");
//! ```
//!
//! ## `fixed_width = N`
//!
//! Exactly N bytes, all of them kept in the value (the 0s padding a
//! shorter name too, so that a file's own padding comes back as it was).
//!
//! ```
//! # use ossuary_schema::{BinarySchema, RawString};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Named {
//!     #[schema(fixed_width = 6)]
//!     name: RawString,
//! }
//!
//! let named = Named::from_bytes(b"arm\0\0\0").unwrap();
//! assert_eq!(named.name, RawString::from("arm\0\0\0"));
//! assert_eq!(named.to_bytes().unwrap(), b"arm\0\0\0");
//! ```
//!
//! ## `prefix = T` on a string
//!
//! A length of integer type `T` in the field's byte order, then the bytes
//! (the Sims 1998 prototype's `.msh` stores its texture's name after an
//! i32). A length the rest of the input cannot hold is an error at the
//! length before anything is allocated; one too large for `T` is a write
//! error naming the field.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, RawString};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Texture {
//!     #[schema(prefix = i32)]
//!     name: RawString,
//! }
//!
//! let bytes = b"\x04\0\0\0skin";
//! let texture = Texture::from_bytes(bytes).unwrap();
//! assert_eq!(texture.name, RawString::from("skin"));
//! assert_eq!(texture.to_bytes().unwrap(), bytes);
//! assert_eq!(
//!     Texture::from_bytes(b"\xff\xff\xff\xff").unwrap_err().to_string(),
//!     "byte 0: name: the i32 count is negative"
//! );
//! assert!(Texture::from_bytes(b"\xff\xff\xff\x7fskin").is_err());
//! ```
//!
//! # Counts
//!
//! ## `prefix = T`
//!
//! A count of integer type `T` right before a `Vec`'s elements. The value
//! holds no count: the writer derives it from the list.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Path {
//!     #[schema(prefix = u16)]
//!     points: Vec<[i8; 2]>,
//! }
//!
//! let path = Path::from_bytes(&[2, 0, 1, 2, 3, 4]).unwrap();
//! assert_eq!(path.points, [[1, 2], [3, 4]]);
//! assert_eq!(path.to_bytes().unwrap(), [2, 0, 1, 2, 3, 4]);
//! ```
//!
//! ## `count = field`
//!
//! A count stored earlier, in a [`Count`](crate::Count) field,
//! which several lists may share; lists sharing one that differ in length
//! are a write error naming the field.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Count};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Mesh {
//!     vertex_count: Count<u8>,
//!     #[schema(count = vertex_count)]
//!     heights: Vec<u8>,
//!     #[schema(count = vertex_count)]
//!     colours: Vec<u8>,
//! }
//!
//! let mesh = Mesh::from_bytes(&[2, 10, 20, 7, 8]).unwrap();
//! assert_eq!((mesh.heights.as_slice(), mesh.colours.as_slice()), (&[10, 20][..], &[7, 8][..]));
//! assert_eq!(mesh.to_bytes().unwrap(), [2, 10, 20, 7, 8]);
//!
//! let uneven = Mesh { colours: vec![7], ..mesh };
//! assert!(uneven.to_bytes().unwrap_err().to_string().contains("vertex_count"));
//! ```
//!
//! ## `to_end`
//!
//! Elements until the input (the file, or the enclosing IFF chunk) ends.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Samples {
//!     #[schema(to_end)]
//!     values: Vec<u16>,
//! }
//!
//! let samples = Samples::from_bytes(&[1, 0, 2, 0]).unwrap();
//! assert_eq!(samples.values, [1, 2]);
//! assert_eq!(samples.to_bytes().unwrap(), [1, 0, 2, 0]);
//! ```
//!
//! # Options and conditions
//!
//! ## `flag = T`
//!
//! An integer of type `T`, 0 or 1, then the value when it is 1.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Joint {
//!     #[schema(flag = u8)]
//!     offset: Option<u16>,
//! }
//!
//! assert_eq!(Joint::from_bytes(&[0]).unwrap().offset, None);
//! let joint = Joint::from_bytes(&[1, 5, 0]).unwrap();
//! assert_eq!(joint.offset, Some(5));
//! assert_eq!(joint.to_bytes().unwrap(), [1, 5, 0]);
//! ```
//!
//! ## `present_if = name`
//!
//! An `Option` there when an earlier field (or a context parameter) is not
//! 0.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Bone {
//!     has_scale: u8,
//!     #[schema(present_if = has_scale)]
//!     scale: Option<u8>,
//! }
//!
//! assert_eq!(Bone::from_bytes(&[0]).unwrap().scale, None);
//! assert_eq!(Bone::from_bytes(&[3, 9]).unwrap().scale, Some(9));
//! ```
//!
//! ## `present_if = EXPR`: versions
//!
//! Any boolean expression over earlier fields and context parameters: one
//! set of types describes every version of a format. Writing a value whose
//! presence disagrees with its condition is an error naming the field.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Header {
//!     version: u16,
//!     #[schema(present_if = version >= 2)]
//!     flags: Option<u32>,
//! }
//!
//! assert_eq!(Header::from_bytes(&[1, 0]).unwrap().flags, None);
//! let new = Header::from_bytes(&[2, 0, 9, 0, 0, 0]).unwrap();
//! assert_eq!(new.flags, Some(9));
//! assert_eq!(new.to_bytes().unwrap(), [2, 0, 9, 0, 0, 0]);
//!
//! let wrong = Header { version: 1, flags: Some(9) };
//! assert_eq!(
//!     wrong.to_bytes().unwrap_err().to_string(),
//!     "flags: the condition `version >= 2` does not hold but the value is present"
//! );
//! ```
//!
//! ## `present_if = EXPR`: bits and enum values
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, Clone, Copy, PartialEq, Schema)]
//! #[schema(little, tag = u8)]
//! enum Mode {
//!     #[schema(when = 0)]
//!     Bones,
//!     #[schema(when = 1)]
//!     Mesh,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Frame {
//!     mode: Mode,
//!     flags: u8,
//!     #[schema(present_if = mode == Mode::Mesh)]
//!     vertices: Option<u16>,
//!     #[schema(present_if = flags & 4 != 0)]
//!     note: Option<u8>,
//! }
//!
//! let frame = Frame::from_bytes(&[1, 4, 3, 0, 7]).unwrap();
//! assert_eq!((frame.vertices, frame.note), (Some(3), Some(7)));
//! assert_eq!(Frame::from_bytes(&[0, 0]).unwrap().vertices, None);
//! ```
//!
//! # Expressions
//!
//! `present_if`, `count`, `size`, `calc`, `until`, an inline `check` and
//! the values passed as context are Rust expressions. Each is compiled
//! once, as a function of the values in its scope: the fields before the
//! one it is written on (a `Count<_>` field as the `usize` count it holds,
//! a `calc` field as the value it stores) and the type's context
//! parameters, each by its name. The compiler resolves the names, so a
//! misspelt one is one error, at the name, with the name it meant:
//!
//! ```compile_fail
//! # use ossuary_schema::Schema;
//! #[derive(Schema)]
//! #[schema(little)]
//! struct Header {
//!     version: u16,
//!     // error[E0425]: cannot find value `verison` in this scope
//!     //   help: a local variable with a similar name exists: `version`
//!     #[schema(present_if = verison >= 2)]
//!     flags: Option<u32>,
//! }
//! ```
//!
//! An expression over a file's values is plain Rust: widen a number before
//! arithmetic its type cannot hold (`i64::from(size) - 8`,
//! `usize::from(width) * usize::from(height)`), so that a file's odd value
//! gives a number that is no count or size (an error where it is read),
//! not an overflow.
//!
//! ## `count = expr`
//!
//! A list of as many elements as the expression gives. A bare name of a
//! `Count<_>` field is that count (the writer fills it in); any other
//! value is data, which the writer checks the list's length against.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Grid {
//!     width: u8,
//!     height: u8,
//!     #[schema(count = usize::from(width) * usize::from(height))]
//!     cells: Vec<u8>,
//! }
//!
//! let grid = Grid::from_bytes(&[2, 2, 1, 2, 3, 4]).unwrap();
//! assert_eq!(grid.cells, [1, 2, 3, 4]);
//! assert_eq!(grid.to_bytes().unwrap(), [2, 2, 1, 2, 3, 4]);
//! let short = Grid { cells: vec![1], ..grid };
//! assert_eq!(
//!     short.to_bytes().unwrap_err().to_string(),
//!     "cells: 1 entries, but `usize::from(width) * usize::from(height)` gives 4"
//! );
//! ```
//!
//! ## `until = expr`
//!
//! A list of elements until one for which the function gives true, that
//! one included (kept in the list, so that it is written back). An
//! element that takes no bytes, or input that ends first, is an error;
//! the writer refuses a list whose last element, and only that one, does
//! not end it. (The generated test takes the element type's `Default` as
//! the element ending the list when it does.)
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Name {
//!     #[schema(until = |byte: &u8| *byte == 0)]
//!     bytes: Vec<u8>,
//!     length: u16,
//! }
//!
//! let name = Name::from_bytes(b"hip\0\x03\0").unwrap();
//! assert_eq!(name.bytes, b"hip\0");
//! assert_eq!(name.to_bytes().unwrap(), b"hip\0\x03\0");
//! let unended = Name { bytes: b"hip".to_vec(), length: 3 };
//! assert_eq!(
//!     unended.to_bytes().unwrap_err().to_string(),
//!     "bytes: the last element does not end the list"
//! );
//! ```
//!
//! ## `size = expr` and [`Block`](crate::Block)
//!
//! The field is read from a block of exactly that many bytes: its reader
//! sees the input end where the block does (a `to_end` list fills it),
//! and bytes it leaves are an error, unless the field is a `Block<T>`,
//! which keeps them, and writes them back after its value. A block whose
//! size another stored value gives is a `Block<T>` (a real file may hold
//! more than the value); the writer refuses one whose bytes disagree with
//! its size. A size past the end of the input, or an expression that
//! gives no size, is an error at the block's first byte.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Block};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Body {
//!     value: u16,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Record {
//!     length: u8,
//!     #[schema(size = length)]
//!     body: Block<Body>,
//! }
//!
//! // The body takes 4 bytes: its value, then 2 it leaves.
//! let bytes = [4, 0x02, 0x01, 0xEE, 0xFF];
//! let record = Record::from_bytes(&bytes).unwrap();
//! assert_eq!(record.body.value, Body { value: 0x0102 });
//! assert_eq!(record.body.rest, [0xEE, 0xFF]);
//! assert_eq!(record.to_bytes().unwrap(), bytes);
//! ```
//!
//! ## `calc = expr`: values the writer computes
//!
//! A stored value computed from the rest of the value: a size, a count,
//! a checksum. The field is a [`Calc<T>`](crate::Calc), `T` the type
//! stored, which holds nothing for the computed value: the writer
//! computes it, so a value built by hand needs none. The expression sees
//! every other field (the reader checks it once all are read), and
//! `size_of(field)`, the number of bytes a field takes: the writer writes
//! a placeholder, then, once the fields it measures are written, the
//! value over it. Reading, a value that disagrees is an error at the
//! field, naming both; with `keep` it is kept in the `Calc` and written
//! back as found. A `count` may read a `calc` the writer knows before
//! writing (one that measures no size), and a `size` any.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Calc};
//! # use ossuary_schema::Schema;
//! /// A chunk: its kind, its size in bytes (its 8-byte header included),
//! /// then its payload.
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(big)]
//! struct Chunk {
//!     kind: [u8; 4],
//!     #[schema(calc = size_of(payload) + 8)]
//!     size: Calc<u32>,
//!     #[schema(size = i64::from(size) - 8, to_end)]
//!     payload: Vec<u8>,
//! }
//!
//! let bytes = b"NOTE\0\0\0\x0ahi";
//! let chunk = Chunk::from_bytes(bytes).unwrap();
//! assert_eq!(chunk.payload, b"hi");
//! assert_eq!(chunk.to_bytes().unwrap(), bytes);
//! let built = Chunk { kind: *b"NOTE", size: Calc::computed(), payload: b"hi".to_vec() };
//! assert_eq!(built.to_bytes().unwrap(), bytes);
//! ```
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Calc};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Sum {
//!     #[schema(prefix = u8)]
//!     values: Vec<u8>,
//!     /// The sum of the values, modulo 256; a file that disagrees is kept.
//!     #[schema(calc = values.iter().fold(0u8, |sum, v| sum.wrapping_add(*v)), keep)]
//!     sum: Calc<u8>,
//! }
//!
//! assert_eq!(Sum::from_bytes(&[2, 3, 4, 7]).unwrap().sum, Calc::computed());
//! let odd = Sum::from_bytes(&[2, 3, 4, 9]).unwrap();
//! assert_eq!(odd.sum, Calc::found(9));
//! assert_eq!(odd.to_bytes().unwrap(), [2, 3, 4, 9]);
//! ```
//!
//! ## `map = S`, `try_map = S`
//!
//! The field's value (each element, for a list) is stored as an `S`,
//! converted with `From` both ways, or with `TryFrom` both ways, a
//! refusal being an error with the conversion's message.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, Clone, Copy, PartialEq)]
//! struct Percent(u8);
//!
//! impl TryFrom<u8> for Percent {
//!     type Error = String;
//!     fn try_from(stored: u8) -> Result<Self, String> {
//!         if stored <= 100 { Ok(Percent(stored)) } else { Err(format!("{stored} is over 100%")) }
//!     }
//! }
//!
//! impl From<Percent> for u8 {
//!     fn from(percent: Percent) -> u8 {
//!         percent.0
//!     }
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Levels {
//!     #[schema(prefix = u8, try_map = u8)]
//!     levels: Vec<Percent>,
//! }
//!
//! let levels = Levels::from_bytes(&[2, 50, 100]).unwrap();
//! assert_eq!(levels.levels, [Percent(50), Percent(100)]);
//! assert_eq!(levels.to_bytes().unwrap(), [2, 50, 100]);
//! assert_eq!(
//!     Levels::from_bytes(&[1, 101]).unwrap_err().to_string(),
//!     "levels[0]: 101 is over 100%"
//! );
//! ```
//!
//! # Bit fields
//!
//! ## `word = T`, `bits = N`, `lsb_first`
//!
//! A word of type `T` (`u8`, `u16`, `u32` or `u64`, in the field's byte
//! order) packs fields of a few bits: the field with `word = T, bits = N`
//! begins it and takes N bits, each next field with `bits = N` takes N
//! more, and together they fill it. The first field takes the word's most
//! significant bits, unless `lsb_first` beside `word` says its least. A
//! bit field holds an integer (a signed one in two's complement within
//! its bits), a `bool` (1 bit), a `Count<_>` or a `Calc<_>`; the writer
//! refuses a value its bits cannot hold. The byte map notes the word as
//! one span, with each field's bits ([`map::Span::bits`](crate::map::Span::bits)).
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Header {
//!     /// The word's top 4 bits.
//!     #[schema(word = u16, bits = 4)]
//!     version: u8,
//!     #[schema(bits = 1)]
//!     compressed: bool,
//!     /// Its low 11 bits.
//!     #[schema(bits = 11)]
//!     width: u16,
//! }
//!
//! // 0x3805: version 0b0011, compressed 1, width 0b000_0000_0101
//! let header = Header::from_bytes(&[0x05, 0x38]).unwrap();
//! assert_eq!(header, Header { version: 3, compressed: true, width: 5 });
//! assert_eq!(header.to_bytes().unwrap(), [0x05, 0x38]);
//! let wide = Header { width: 4096, ..header };
//! assert_eq!(wide.to_bytes().unwrap_err().to_string(), "width: 4096 does not fit 11 bits");
//! ```
//!
//! ## `tag = T, bits = N` on an enum: chosen by a word's first bits
//!
//! An enum whose variant the top N bits of a word of type `T` choose,
//! each variant holding nothing (the word's other bits then are 0) or a
//! struct whose first fields are bit fields without a word of their own:
//! they take the word's other bits, and the struct's later fields follow
//! the word ([`WordTail`](crate::WordTail)). A command word of 3 bits of
//! command and 13 of count, say, where the 13 bits count what follows, or
//! measure it (`calc = size_of(...)`).
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Count};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, tag = u16, bits = 3)]
//! enum Command {
//!     #[schema(when = 1)]
//!     Pixels(Pixels),
//!     #[schema(when = 5)]
//!     End,
//! }
//!
//! /// The word's low 13 bits count the colours that follow it.
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Pixels {
//!     #[schema(bits = 13)]
//!     count: Count<u16>,
//!     #[schema(count = count)]
//!     colours: Vec<u8>,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Row {
//!     #[schema(until = |command: &Command| *command == Command::End)]
//!     commands: Vec<Command>,
//! }
//!
//! // (1 << 13) | 2, two colours; then 5 << 13, the end.
//! let bytes = [0x02, 0x20, 7, 8, 0x00, 0xA0];
//! let row = Row::from_bytes(&bytes).unwrap();
//! assert_eq!(row.commands[0], Command::Pixels(Pixels { count: Count::new(), colours: vec![7, 8] }));
//! assert_eq!(row.to_bytes().unwrap(), bytes);
//! ```
//!
//! # Positions
//!
//! ## `offset = T`: values stored elsewhere, and `from`
//!
//! A field of type [`At<V>`](crate::At) (a list of them, with a count,
//! for a list of offsets) stores an offset of type `T`; its value lies
//! there. The offsets are read among the struct's fields; the values, once
//! every field is read, each where its offset points, counted from the
//! start of the enclosing block (an IFF chunk's payload, a form's
//! children, a `size` block, else the file), or from the file's start
//! (`from = file`), or from where an earlier field begins (`from =
//! field`). The writer places them and fills in every offset: a value
//! read from a file where it lay, after the bytes that lay before it
//! (`At::gap`), in the file's order, so that values out of order, gaps
//! between them and a target several offsets share come back byte for
//! byte; a value built by hand (`At::new`, its offset unset) after the
//! struct's fields and the values before it. A value no longer fitting
//! where it lay is placed so too. An offset pointing outside its block is
//! an error at the offset.
//!
//! ```
//! # use ossuary_schema::{At, BinarySchema};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Table {
//!     #[schema(prefix = u8, offset = u8)]
//!     items: Vec<At<u16>>,
//! }
//!
//! // Two offsets; the second value lies first, then a gap, then the first.
//! let bytes = [2, 6, 3, 0x22, 0x22, 0xEE, 0x11, 0x11];
//! let table = Table::from_bytes(&bytes).unwrap();
//! assert_eq!((table.items[0].value, table.items[0].offset), (0x1111, Some(6)));
//! assert_eq!(table.items[0].gap, [0xEE]);
//! assert_eq!(table.to_bytes().unwrap(), bytes);
//!
//! // Built by hand: placed after the offsets, one after another.
//! let built = Table { items: vec![At::new(0x1111), At::new(0x2222)] };
//! assert_eq!(built.to_bytes().unwrap(), [2, 3, 5, 0x11, 0x11, 0x22, 0x22]);
//! ```
//!
//! ## [`Lazy<V>`](crate::Lazy): values decoded when asked for
//!
//! A `Lazy<V>` keeps a value's bytes, decoded when asked for
//! ([`Lazy::decode_with`](crate::Lazy::decode_with)) and written back as
//! they are: at an offset, the bytes up to the next value the struct's
//! offsets point to (else the input's end); elsewhere, every byte left in
//! its input (a `size` block's).
//!
//! ```
//! # use ossuary_schema::{At, BinarySchema, Endian, Lazy};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Frames {
//!     #[schema(prefix = u8, offset = u8)]
//!     frames: Vec<At<Lazy<u16>>>,
//! }
//!
//! let bytes = [2, 3, 6, 0x34, 0x12, 0xFF, 0x78, 0x56];
//! let frames = Frames::from_bytes(&bytes).unwrap();
//! assert_eq!(frames.frames[0].value.bytes, [0x34, 0x12, 0xFF]);
//! assert_eq!(frames.frames[0].value.decode_with(Endian::Little, &()).unwrap(), 0x1234);
//! assert_eq!(frames.to_bytes().unwrap(), bytes);
//! ```
//!
//! ## Reading from a `Read` that cannot seek
//!
//! A layout that reads forward only (no value at an offset, no IFF chunk
//! or form, no `Lazy`, no hand-written codec, in it or in the types it
//! holds) implements [`ReadsForward`](crate::ReadsForward), and
//! [`read_from_stream`](crate::BinarySchema::read_from_stream) reads it
//! from any `Read` (a pipe, a socket, a decompressor), no further than its
//! last byte, with the same values and errors as from bytes. Any other
//! layout does not compile with it.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Record {
//!     #[schema(prefix = u8)]
//!     values: Vec<u16>,
//! }
//!
//! let mut stream: &[u8] = &[2, 1, 0, 2, 0, 1, 9, 0];
//! let first = Record::read_from_stream(&mut stream).unwrap();
//! assert_eq!(first.values, [1, 2]);
//! let second = Record::read_from_stream(&mut stream).unwrap();
//! assert_eq!(second.values, [9]);
//! assert!(stream.is_empty());
//! ```
//!
//! ```compile_fail
//! # use ossuary_schema::{At, BinarySchema};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Pointed {
//!     #[schema(offset = u8)]
//!     value: At<u16>,
//! }
//!
//! // A value at an offset is read by seeking.
//! let _ = Pointed::read_from_stream(&[1, 7, 0][..]);
//! ```
//!
//! # Transforms
//!
//! ## [`Transformed<X, T>`](crate::Transformed): gzip, zlib, or one's own
//!
//! A field of type `Transformed<X, T>` is every byte left in its input
//! (a chunk's payload, a `size` block, the file's rest), decoded by the
//! transform `X` ([`Gzip`](crate::Gzip), [`Zlib`](crate::Zlib), through
//! `flate2`, or a [`Transform`](crate::Transform) of one's own), the
//! value `T` read from the decoded bytes (a file of its own: positions
//! and blocks count from their start). A value read from a file keeps
//! the file's encoded bytes and writes them back while it encodes to
//! what they decode to; a changed value, or one built by hand
//! (`Transformed::new`), is encoded anew. The byte map notes the encoded
//! bytes as one span holding the decoded bytes
//! ([`decoded_bytes`](crate::map::Span::decoded_bytes)) and the value's
//! spans in them ([`decoded`](crate::map::Span::decoded)), for a byte map
//! to show under the encoded ones. A stream that decodes to
//! more than 1100 bytes per byte of it is refused.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Error, Transform, Transformed};
//! # use ossuary_schema::Schema;
//! /// Each byte stored with its bits flipped.
//! struct Flipped;
//!
//! impl Transform for Flipped {
//!     const NAME: &'static str = "flipped bytes";
//!     fn decode(encoded: &[u8]) -> Result<Vec<u8>, Error> {
//!         Ok(encoded.iter().map(|byte| !byte).collect())
//!     }
//!     fn encode(decoded: &[u8]) -> Result<Vec<u8>, Error> {
//!         Ok(decoded.iter().map(|byte| !byte).collect())
//!     }
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Secret {
//!     version: u8,
//!     message: Transformed<Flipped, u16>,
//! }
//!
//! let secret = Secret::from_bytes(&[1, 0xCB, 0xED]).unwrap();
//! assert_eq!(secret.message.value, 0x1234);
//! assert_eq!(secret.to_bytes().unwrap(), [1, 0xCB, 0xED]);
//! let built = Secret { version: 1, message: Transformed::new(0x1234) };
//! assert_eq!(built.to_bytes().unwrap(), [1, 0xCB, 0xED]);
//! ```
//!
//! # Padding
//!
//! ## `align = N`, `pad = N` on a [`Padding`](crate::Padding) field
//!
//! Padding is a field of its own, before or after the fields it pads: a
//! `Padding`, with `align = N` (to the next multiple of N bytes, counted
//! from the start of the enclosing block: an IFF chunk's payload, a
//! form's children, a `size` block, else the file) or `pad = N` (exactly
//! N bytes). A writer writes zeros; padding a file holds that is not
//! zero is kept in the value and written back where it still fits.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Padding, RawString};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Name {
//!     #[schema(pascal)]
//!     text: RawString,
//!     /// To an even length.
//!     #[schema(align = 2)]
//!     padding: Padding,
//!     #[schema(pad = 2)]
//!     reserved: Padding,
//! }
//!
//! let name = Name::from_bytes(b"\x02hi\xEE\0\0").unwrap();
//! assert_eq!(name.padding, Padding(vec![0xEE]));
//! assert_eq!(name.reserved, Padding::default());
//! assert_eq!(name.to_bytes().unwrap(), b"\x02hi\xEE\0\0");
//! let built = Name { text: RawString::from("a"), padding: Padding::default(), reserved: Padding::default() };
//! assert_eq!(built.to_bytes().unwrap(), b"\x01a\0\0");
//! ```
//!
//! # Constants and checks
//!
//! ## `magic = ...`
//!
//! A [`Magic`](crate::Magic) field: a constant checked on reading
//! (an error with its offset otherwise) and written on writing. A suffixed
//! integer or a byte string.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Magic};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Signed {
//!     #[schema(magic = b"PAL1")]
//!     signature: Magic,
//!     #[schema(magic = 12u16)]
//!     stride: Magic,
//! }
//!
//! let bytes = b"PAL1\x0c\x00";
//! assert!(Signed::from_bytes(bytes).is_ok());
//! assert_eq!(Signed { signature: Magic, stride: Magic }.to_bytes().unwrap(), bytes);
//! assert!(Signed::from_bytes(b"PAL2\x0c\x00").unwrap_err().to_string().starts_with("byte 0: signature"));
//! ```
//!
//! ## `check = function(values...)`
//!
//! A rule the value read must satisfy: `function(&value, &earlier...)`
//! returns `Result<(), Refusal>`. A refusal is an error at the value's
//! first byte (or where [`Refusal::bytes_in`](crate::Refusal::bytes_in)
//! points), with the field path. The writer runs the same checks before it
//! writes the value, so it refuses what the reader would, with the same
//! error at the same byte (a binary layout's field and type checks; write
//! inside [`without_checks`](crate::without_checks) to make a bad file on
//! purpose).
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Refusal};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Skin {
//!     bone_count: u8,
//!     #[schema(check = below(bone_count))]
//!     bone: u8,
//! }
//!
//! fn below(bone: &u8, count: &u8) -> Result<(), Refusal> {
//!     if bone < count {
//!         Ok(())
//!     } else {
//!         Err(Refusal::new(format!("bone {bone} is not one of the {count}")))
//!     }
//! }
//!
//! assert!(Skin::from_bytes(&[3, 2]).is_ok());
//! assert_eq!(
//!     Skin::from_bytes(&[3, 5]).unwrap_err().to_string(),
//!     "byte 1: bone: bone 5 is not one of the 3"
//! );
//! let bad = Skin { bone_count: 3, bone: 5 };
//! assert_eq!(
//!     bad.to_bytes().unwrap_err().to_string(),
//!     "byte 1: bone: bone 5 is not one of the 3"
//! );
//! assert_eq!(ossuary_schema::without_checks(|| bad.to_bytes()).unwrap(), [3, 5]);
//! ```
//!
//! ## `check = expr, "message"`
//!
//! A condition over the value (by its field's name) and the values in
//! scope, and what a refusal says: a rule that needs no function of its
//! own. The reader and the writer refuse as they do for a function.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Header {
//!     version: u8,
//!     #[schema(check = count <= 10 * version, "more than ten per version")]
//!     count: u8,
//! }
//!
//! assert!(Header::from_bytes(&[2, 20]).is_ok());
//! assert_eq!(
//!     Header::from_bytes(&[2, 21]).unwrap_err().to_string(),
//!     "byte 1: count: more than ten per version"
//! );
//! ```
//!
//! ## `check` on a count
//!
//! A `Count<_>` field's check is given the count read, as a `usize`, and
//! runs before any element it counts is read: a count the layout cannot
//! hold is refused at the count's own byte.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Count, Refusal};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Skin {
//!     bone_count: u8,
//!     /// One weight per bone at most.
//!     #[schema(check = at_most(bone_count))]
//!     weight_count: Count<u16>,
//!     #[schema(count = weight_count)]
//!     weights: Vec<f32>,
//! }
//!
//! fn at_most(count: &usize, bones: &u8) -> Result<(), Refusal> {
//!     if *count <= usize::from(*bones) {
//!         Ok(())
//!     } else {
//!         Err(Refusal::new(format!("{count} weights for {bones} bones")))
//!     }
//! }
//!
//! assert!(Skin::from_bytes(&[1, 1, 0, 0, 0, 0x80, 0x3f]).is_ok());
//! // Refused at the count, before the 500 weights it announces are read.
//! assert_eq!(
//!     Skin::from_bytes(&[1, 0xf4, 0x01]).unwrap_err().to_string(),
//!     "byte 1: weight_count: 500 weights for 1 bones"
//! );
//! let bad = Skin { bone_count: 0, weight_count: Count::default(), weights: vec![1.0] };
//! assert_eq!(
//!     bad.to_bytes().unwrap_err().to_string(),
//!     "byte 1: weight_count: 1 weights for 0 bones"
//! );
//! ```
//!
//! ## `check` on a list
//!
//! A refusal may name the element at fault
//! ([`Refusal::at_element`](crate::Refusal::at_element)), and a field
//! inside it ([`Refusal::inside`](crate::Refusal::inside)): the error is
//! at that element's byte, or that field's, when the elements have one
//! size; the runtime counts it from the layout.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Refusal};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Keys {
//!     #[schema(prefix = u8, check = ascending)]
//!     times: Vec<u8>,
//! }
//!
//! fn ascending(times: &[u8]) -> Result<(), Refusal> {
//!     match times.windows(2).position(|pair| pair[0] >= pair[1]) {
//!         Some(at) => Err(Refusal::at_element(at + 1, "times must ascend")),
//!         None => Ok(()),
//!     }
//! }
//!
//! let error = Keys::from_bytes(&[3, 1, 5, 4]).unwrap_err();
//! assert_eq!(error.to_string(), "byte 3: times[2]: times must ascend");
//! ```
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Refusal, Segment};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Binding {
//!     weight: u16,
//!     bone: u8,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Skin {
//!     bone_count: u8,
//!     #[schema(prefix = u8, check = name_bones(bone_count))]
//!     bindings: Vec<Binding>,
//! }
//!
//! fn name_bones(bindings: &[Binding], bones: &u8) -> Result<(), Refusal> {
//!     match bindings.iter().position(|binding| binding.bone >= *bones) {
//!         Some(at) => Err(Refusal::at_element(at, "no such bone").inside([Segment::Field("bone")])),
//!         None => Ok(()),
//!     }
//! }
//!
//! // Two bones; the second binding's bone (at byte 2 + 3 + 2) is bone 4.
//! let bytes = [2, 2, 0, 0, 1, 0, 0, 4];
//! assert_eq!(
//!     Skin::from_bytes(&bytes).unwrap_err().to_string(),
//!     "byte 7: bindings[1].bone: no such bone"
//! );
//! ```
//!
//! ## `check = function` on a type
//!
//! A rule across fields, such as indices into a list that is read after
//! them: on the struct, `check = path` runs `path(&value)` once every field
//! is read (and the writer once every field is written). A refusal names
//! the place inside the value with
//! [`Refusal::inside`](crate::Refusal::inside), a field first: the
//! error is at that place's bytes, which the runtime finds from where the
//! field began and the fixed sizes within it (else at the value's first
//! byte, or as many bytes on as [`bytes_in`](crate::Refusal::bytes_in)
//! says; in text, at the record's first token).
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Refusal, Segment};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, check = edges_join_points)]
//! struct Wire {
//!     #[schema(prefix = u8)]
//!     edges: Vec<[u8; 2]>,
//!     #[schema(prefix = u8)]
//!     points: Vec<i8>,
//! }
//!
//! fn edges_join_points(wire: &Wire) -> Result<(), Refusal> {
//!     for (edge, ends) in wire.edges.iter().enumerate() {
//!         for (end, &point) in ends.iter().enumerate() {
//!             if usize::from(point) >= wire.points.len() {
//!                 let place = [Segment::Field("edges"), Segment::Index(edge), Segment::Index(end)];
//!                 return Err(Refusal::new(format!("point {point} is past the points")).inside(place));
//!             }
//!         }
//!     }
//!     Ok(())
//! }
//!
//! // One edge, 0 to 2, then two points: point 2 does not exist.
//! let error = Wire::from_bytes(&[1, 0, 2, 2, 7, 9]).unwrap_err();
//! assert_eq!(error.to_string(), "byte 2: edges[0][1]: point 2 is past the points");
//! assert!(Wire::from_bytes(&[1, 0, 1, 2, 7, 9]).is_ok());
//! // The writer refuses it too, at the same byte.
//! let wire = Wire { edges: vec![[0, 2]], points: vec![7, 9] };
//! assert_eq!(wire.to_bytes().unwrap_err().to_string(), error.to_string());
//! ```
//!
//! ## `with = module`
//!
//! One field's hand-written codec: `module::read(reader, endian)` and
//! `module::write(value, writer, endian)` (and, for the generated tests,
//! `module::strategy()`).
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! /// A u16 stored as its bitwise complement.
//! mod inverted {
//!     use std::io::{Read, Seek, Write};
//!     use ossuary_schema::{Decode, Encode, Endian, Error};
//!
//!     pub fn read<R: Read + Seek>(reader: &mut R, endian: Endian) -> Result<u16, Error> {
//!         u16::decode(reader, endian, &()).map(|value| !value)
//!     }
//!
//!     pub fn write<W: Write + Seek>(value: &u16, writer: &mut W, endian: Endian) -> Result<(), Error> {
//!         (!value).encode(writer, endian, &())
//!     }
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Hidden {
//!     #[schema(with = inverted)]
//!     value: u16,
//! }
//!
//! let hidden = Hidden::from_bytes(&[0xFE, 0xFF]).unwrap();
//! assert_eq!(hidden.value, 1);
//! assert_eq!(hidden.to_bytes().unwrap(), [0xFE, 0xFF]);
//! ```
//!
//! # Context
//!
//! ## `context(name: Type, ...)` and `context(param = field)`
//!
//! A type may need values from the type holding it (a frame's content
//! depends on its header's counts); the holder passes them.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Count};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, context(joints: u8))]
//! struct Frame {
//!     #[schema(count = joints)]
//!     angles: Vec<i8>,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Animation {
//!     joints: u8,
//!     #[schema(prefix = u8, context(joints))]
//!     frames: Vec<Frame>,
//! }
//!
//! // Two joints; two frames of two angles each.
//! let bytes = [2, 2, 1, 2, 3, 4];
//! let animation = Animation::from_bytes(&bytes).unwrap();
//! assert_eq!(animation.frames[1].angles, [3, 4]);
//! assert_eq!(animation.to_bytes().unwrap(), bytes);
//! ```
//!
//! ## A count passed as context
//!
//! A `Count<_>` field passes the count it holds (read from the file, or
//! derived by the writer from the lists it counts), as the receiving
//! parameter's integer type (a count that does not fit it is an error
//! naming the count): a nested type can count by it, or check indices
//! against it, with the refusal at the index's own byte.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Count, Refusal};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, context(vertices: usize))]
//! struct Face {
//!     #[schema(check = among(vertices))]
//!     corners: [u8; 3],
//! }
//!
//! fn among(corners: &[u8; 3], vertices: &usize) -> Result<(), Refusal> {
//!     match corners.iter().position(|&c| usize::from(c) >= *vertices) {
//!         Some(at) => Err(Refusal::at_element(at, format!("not one of the {vertices} vertices"))
//!             .bytes_in(at as u64)),
//!         None => Ok(()),
//!     }
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Mesh {
//!     vertex_count: Count<u16>,
//!     #[schema(count = vertex_count)]
//!     vertices: Vec<[f32; 2]>,
//!     #[schema(prefix = u8, context(vertices = vertex_count))]
//!     faces: Vec<Face>,
//! }
//!
//! let mut bytes = vec![1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0];
//! let mesh = Mesh::from_bytes(&bytes).unwrap();
//! assert_eq!(mesh.to_bytes().unwrap(), bytes);
//! bytes[12] = 1;
//! assert_eq!(
//!     Mesh::from_bytes(&bytes).unwrap_err().to_string(),
//!     "byte 12: faces[0].corners[1]: not one of the 1 vertices"
//! );
//! ```
//!
//! ## `len(list)`: a list's length as context
//!
//! `context(param = len(list))` passes how many elements an earlier list
//! holds (0 for an absent `Option`), as a `usize`: a nested type can check
//! its indices into that list. A type of one's own can say what its length
//! is by implementing [`ListLen`](crate::ListLen).
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Refusal};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, context(points: usize))]
//! struct Edge {
//!     #[schema(check = among(points))]
//!     ends: [u8; 2],
//! }
//!
//! fn among(ends: &[u8; 2], points: &usize) -> Result<(), Refusal> {
//!     match ends.iter().position(|&end| usize::from(end) >= *points) {
//!         Some(at) => Err(Refusal::at_element(at, format!("not one of the {points} points"))),
//!         None => Ok(()),
//!     }
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Wire {
//!     #[schema(prefix = u8)]
//!     points: Vec<i8>,
//!     #[schema(prefix = u8, context(points = len(points)))]
//!     edges: Vec<Edge>,
//! }
//!
//! assert!(Wire::from_bytes(&[2, 7, 9, 1, 0, 1]).is_ok());
//! assert_eq!(
//!     Wire::from_bytes(&[2, 7, 9, 1, 0, 2]).unwrap_err().to_string(),
//!     "byte 5: edges[0].ends[1]: not one of the 2 points"
//! );
//! ```
//!
//! ## Context values as expressions
//!
//! What a field passes may be any expression over the values in its
//! scope, computed where the field is read or written.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, context(cells: usize))]
//! struct Row {
//!     #[schema(count = cells)]
//!     shades: Vec<u8>,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Image {
//!     /// Pixels per row; a row stores two bytes per pixel.
//!     width: u8,
//!     #[schema(prefix = u8, context(cells = 2 * usize::from(width)))]
//!     rows: Vec<Row>,
//! }
//!
//! let image = Image::from_bytes(&[1, 2, 7, 8, 9, 10]).unwrap();
//! assert_eq!(image.rows[1].shades, [9, 10]);
//! ```
//!
//! ## `crate = "path"`
//!
//! For a crate that reaches the runtime under another path (a re-export,
//! or a dependency renamed, `schema = { package = "ossuary-schema" }`):
//! every generated path is rooted there.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! mod renamed {
//!     pub use ::ossuary_schema::*;
//! }
//!
//! #[derive(Debug, PartialEq, renamed::Schema)]
//! #[schema(big, crate = "renamed")]
//! struct Marker {
//!     id: u16,
//! }
//!
//! assert_eq!(Marker::from_bytes(&[1, 2]).unwrap(), Marker { id: 0x0102 });
//! ```
//!
//! # Generic types
//!
//! A struct with a binary encoding alone takes type and const parameters.
//! Each type parameter is read and written as any field is, and needs no
//! context: the derived impls ask `T: Decode<Context = ()> + Encode<Context
//! = ()>` of it (and the generated test's `Sample` impl, `T: Sample`). A
//! const parameter is in scope in expressions. A generic type has no
//! round-trip test of its own: the test of each type holding an
//! instantiation draws it, and `ossuary_schema::testing::check_round_trip::<Pair<u16>>`
//! tests one directly. Enums, text types and forms take no parameters.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Grid<T, const COLUMNS: usize> {
//!     rows: u8,
//!     #[schema(count = usize::from(rows) * COLUMNS)]
//!     cells: Vec<T>,
//! }
//!
//! let grid = Grid::<u16, 2>::from_bytes(&[1, 7, 0, 8, 0]).unwrap();
//! assert_eq!(grid.cells, [7, 8]);
//! let bytes = Grid::<u8, 2>::from_bytes(&[2, 1, 2, 3, 4]).unwrap();
//! assert_eq!(bytes.cells, [1, 2, 3, 4]);
//! ```
//!
//! # Enums
//!
//! ## `tag = T`, `when = value`, `other`
//!
//! A leading value of type `T` chooses the variant; `other` takes every
//! other tag and keeps it.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, tag = u8)]
//! enum Token {
//!     #[schema(when = 0xFF)]
//!     Full(f32),
//!     #[schema(when = 0xFE)]
//!     Repeat(u16),
//!     #[schema(other)]
//!     Delta(u8),
//! }
//!
//! assert_eq!(Token::from_bytes(&[0xFE, 3, 0]).unwrap(), Token::Repeat(3));
//! assert_eq!(Token::from_bytes(&[7]).unwrap(), Token::Delta(7));
//! assert_eq!(Token::Full(1.0).to_bytes().unwrap(), [0xFF, 0, 0, 0x80, 0x3f]);
//! ```
//!
//! ## `select = param`
//!
//! A context parameter chooses the variant, which is not stored; a
//! variant may pass context on (`context(...)` on the variant).
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, context(mode: u8), select = mode)]
//! enum Transform {
//!     #[schema(when = 0)]
//!     Angles([i8; 3]),
//!     #[schema(when = 1)]
//!     Scale(u8),
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Key {
//!     mode: u8,
//!     #[schema(context(mode))]
//!     transform: Transform,
//! }
//!
//! assert_eq!(Key::from_bytes(&[1, 9]).unwrap().transform, Transform::Scale(9));
//! assert_eq!(Key::from_bytes(&[0, 1, 2, 3]).unwrap().transform, Transform::Angles([1, 2, 3]));
//! ```
//!
//! # IFF
//!
//! ## `form = "TYPE"` and `chunk = "TAG"` on a field
//!
//! `FORM`, a u32 big-endian size, a 4-byte type, then children; a chunk is
//! a 4-byte tag, a u32 big-endian size, then its payload. Sizes are computed on writing; fields in a row
//! naming one tag share the chunk.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, form = "DEMO")]
//! struct Demo {
//!     #[schema(chunk = "INFO")]
//!     width: u8,
//!     #[schema(chunk = "INFO")]
//!     height: u8,
//! }
//!
//! let bytes = b"FORM\0\0\0\x0eDEMOINFO\0\0\0\x02\x03\x04";
//! let demo = Demo::from_bytes(bytes).unwrap();
//! assert_eq!((demo.width, demo.height), (3, 4));
//! assert_eq!(demo.to_bytes().unwrap(), bytes);
//! ```
//!
//! ## `chunk = "TAG"` on a type, and an enum of chunks
//!
//! A type that is a chunk; an `Option` of it in a form is present when the
//! next child is that chunk, and an enum of chunk types is chosen by the
//! next child's tag.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, chunk = "NAME")]
//! struct Name {
//!     #[schema(to_end)]
//!     bytes: Vec<u8>,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, form = "ITEM")]
//! struct Item {
//!     name: Option<Name>,
//! }
//!
//! let named = b"FORM\0\0\0\x0eITEMNAME\0\0\0\x02hi";
//! assert_eq!(Item::from_bytes(named).unwrap().name.unwrap().bytes, b"hi");
//! assert_eq!(Item::from_bytes(b"FORM\0\0\0\x04ITEM").unwrap().name, None);
//! ```
//!
//! ## An enum of forms (`form = "TYPE"` on variants)
//!
//! Versions of a format: the next form's type chooses the variant.
//!
//! ```
//! # use ossuary_schema::BinarySchema;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Body {
//!     #[schema(chunk = "INFO")]
//!     size: u8,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! enum Version {
//!     #[schema(form = "0001")]
//!     V1(Body),
//!     #[schema(form = "0002")]
//!     V2(Body),
//! }
//!
//! let v2 = b"FORM\0\0\0\x0d0002INFO\0\0\0\x01\x05";
//! assert_eq!(Version::from_bytes(v2).unwrap(), Version::V2(Body { size: 5 }));
//! assert_eq!(Version::V2(Body { size: 5 }).to_bytes().unwrap(), v2);
//! ```
//!
//! ## `context(...)` on a variant of forms: a version gates its chunks
//!
//! A variant passes its value constants (and the enum's own context
//! parameters, declared with `context(name: Type)` on the enum): versions
//! sharing one body tell it which they are, and a check refuses a part an
//! older version cannot hold, reading and writing alike.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, Refusal};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, context(version: u16))]
//! struct Body {
//!     #[schema(chunk = "INFO")]
//!     size: u8,
//!     /// `NOTE`, new in version 2.
//!     #[schema(chunk = "NOTE", check = since_version_2(version))]
//!     note: Option<u8>,
//! }
//!
//! fn since_version_2(note: &Option<u8>, version: &u16) -> Result<(), Refusal> {
//!     match note {
//!         Some(_) if *version < 2 => Err(Refusal::new(format!("version {version} has no notes"))),
//!         _ => Ok(()),
//!     }
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! enum Version {
//!     #[schema(form = "0001", context(version = 1u16))]
//!     V1(Body),
//!     #[schema(form = "0002", context(version = 2u16))]
//!     V2(Body),
//! }
//!
//! let v2 = b"FORM\0\0\0\x160002INFO\0\0\0\x01\x05NOTE\0\0\0\x01\x09";
//! let body = Body { size: 5, note: Some(9) };
//! assert_eq!(Version::from_bytes(v2).unwrap(), Version::V2(body));
//! let mut v1 = v2.to_vec();
//! v1[11] = b'1';
//! let refused = "byte 21: 0001/NOTE: version 1 has no notes";
//! assert_eq!(Version::from_bytes(&v1).unwrap_err().to_string(), refused);
//! let body = Body { size: 5, note: Some(9) };
//! assert_eq!(Version::V1(body).to_bytes().unwrap_err().to_string(), refused);
//! ```
//!
//! # The byte map
//!
//! [`map::record_spans`](crate::map::record_spans) runs a read recording
//! where every value came from: its field path, its type, its bytes (in
//! text, its lines) and its value. Every byte of a binary file lands in
//! exactly one span: numbers, strings, constants and counts are values,
//! IFF tags, sizes and form types are headers, a chunk kept as found is
//! one opaque span. Outside `record_spans`, `from_bytes` reads from an
//! input that is never recorded
//! ([`SliceInput::unrecorded`](crate::SliceInput::unrecorded)), whose
//! readers compile with no check for the map at all; other inputs skip it
//! at the cost of one atomic load per value.
//!
//! ```
//! # use ossuary_schema::{BinarySchema, RawString};
//! # use ossuary_schema::Schema;
//! use ossuary_schema::map::{record_spans, SpanKind};
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little, form = "BONE")]
//! struct Bone {
//!     #[schema(chunk = "NAME", null_terminated)]
//!     name: RawString,
//!     #[schema(chunk = "INFO")]
//!     parent: i16,
//! }
//!
//! let bytes = b"FORM\0\0\0\x1aBONENAME\0\0\0\x04hip\0INFO\0\0\0\x02\xff\xff";
//! let (bone, spans) = record_spans(|| Bone::from_bytes(bytes));
//! assert_eq!(bone.unwrap().parent, -1);
//! let described: Vec<(String, &str, u64, u64)> = spans
//!     .iter()
//!     .filter(|span| span.kind == SpanKind::Field)
//!     .map(|span| (span.path.to_string(), span.type_name, span.start, span.end))
//!     .collect();
//! assert_eq!(
//!     described,
//!     [
//!         ("BONE/NAME/name".to_owned(), "RawString (null-terminated)", 20, 24),
//!         ("BONE/INFO/parent".to_owned(), "i16", 32, 34),
//!     ]
//! );
//! // The headers hold the rest: every byte is in one span.
//! let held: u64 = spans.iter().map(|span| span.end - span.start).sum();
//! assert_eq!(held, bytes.len() as u64);
//! ```
//!
//! # Text
//!
//! ## `text`, `style`
//!
//! A text layout: each field on its own line. The reader records the
//! line ending and the number style in a
//! [`TextStyle`](crate::text::TextStyle) field; the writer
//! reproduces them.
//!
//! ```
//! use ossuary_schema::text::{TextSchema, TextStyle};
//! use ossuary_schema::Schema;
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text)]
//! struct Header {
//!     #[schema(style)]
//!     style: TextStyle,
//!     count: u32,
//!     scale: f32,
//! }
//!
//! let text = b"12\r\n-5.88894e-005\r\n";
//! let header = Header::from_text(text).unwrap();
//! assert_eq!((header.count, header.scale), (12, -5.88894e-5));
//! assert_eq!(header.to_text().unwrap(), text);
//! ```
//!
//! ## `magic = "..."` (text), `line`, `comment`
//!
//! A line that must read exactly so; a whole line as a string; a `//` line.
//!
//! ```
//! # use ossuary_schema::text::{TextSchema, TextStyle};
//! # use ossuary_schema::{Magic, RawString};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text)]
//! struct File {
//!     #[schema(style)]
//!     style: TextStyle,
//!     #[schema(comment)]
//!     comment: RawString,
//!     #[schema(magic = "version 300")]
//!     version: Magic,
//!     #[schema(line)]
//!     title: RawString,
//! }
//!
//! let text = b"// made by hand\r\nversion 300\r\nA name with spaces\r\n";
//! let file = File::from_text(text).unwrap();
//! assert_eq!(file.title, RawString::from("A name with spaces"));
//! assert_eq!(file.to_text().unwrap(), text);
//! ```
//!
//! ## `prefix` (text), `vector`
//!
//! A count line, then the elements; `| x y z |` vectors.
//!
//! ```
//! # use ossuary_schema::text::{TextSchema, TextStyle};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text)]
//! struct Path {
//!     #[schema(style)]
//!     style: TextStyle,
//!     #[schema(prefix, vector)]
//!     points: Vec<[f32; 3]>,
//! }
//!
//! let text = b"2\r\n| 0 1 0 |\r\n| 1.5 0 -2 |\r\n";
//! let path = Path::from_text(text).unwrap();
//! assert_eq!(path.points[1], [1.5, 0.0, -2.0]);
//! assert_eq!(path.to_text().unwrap(), text);
//! ```
//!
//! ## `one_line`
//!
//! A record whose fields are the tokens of one line.
//!
//! ```
//! # use ossuary_schema::text::{TextSchema, TextStyle};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text, one_line)]
//! struct Face {
//!     corners: [u32; 3],
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text)]
//! struct Mesh {
//!     #[schema(style)]
//!     style: TextStyle,
//!     #[schema(prefix)]
//!     faces: Vec<Face>,
//! }
//!
//! let text = b"1\r\n0 1 2\r\n";
//! assert_eq!(Mesh::from_text(text).unwrap().faces[0].corners, [0, 1, 2]);
//! ```
//!
//! ## `same_line`
//!
//! A field continuing the previous field's line.
//!
//! ```
//! # use ossuary_schema::text::{TextSchema, TextStyle};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text)]
//! struct Size {
//!     #[schema(style)]
//!     style: TextStyle,
//!     width: u32,
//!     #[schema(same_line)]
//!     height: u32,
//! }
//!
//! let size = Size::from_text(b"640 480\n").unwrap();
//! assert_eq!((size.width, size.height), (640, 480));
//! assert_eq!(size.to_text().unwrap(), b"640 480\n");
//! ```
//!
//! ## `flow`
//!
//! A `prefix` list of token values with any whitespace between them, line
//! breaks included; the writer breaks lines where the file did.
//!
//! ```
//! # use ossuary_schema::text::{TextSchema, TextStyle};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text, one_line)]
//! struct Influence {
//!     bone: u32,
//!     weight: f32,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text)]
//! struct Vertex {
//!     #[schema(style)]
//!     style: TextStyle,
//!     #[schema(prefix, flow)]
//!     influences: Vec<Influence>,
//! }
//!
//! for text in ["3\n0 0.5 1 0.25 2 0.25\n", "3\n0 0.5\n1 0.25\n2 0.25\n", "3\n0\n0.5 1 0.25\n2 0.25\n"] {
//!     let vertex = Vertex::from_text(text.as_bytes()).unwrap();
//!     assert_eq!(vertex.influences[2], Influence { bone: 2, weight: 0.25 });
//!     assert_eq!(vertex.to_text().unwrap(), text.as_bytes());
//! }
//! ```
//!
//! ## `comments`, `angle_brackets`, `none = "*"`
//!
//! `//` comments anywhere from the record on (kept byte for byte); names
//! with spaces between `<` and `>`; a word standing for an absent value.
//!
//! ```
//! # use ossuary_schema::text::{TextSchema, TextStyle};
//! # use ossuary_schema::RawString;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text, comments)]
//! struct Bone {
//!     #[schema(style)]
//!     style: TextStyle,
//!     #[schema(angle_brackets)]
//!     name: RawString,
//!     #[schema(none = "*")]
//!     parent: Option<u32>,
//! }
//!
//! let text = b"<Bip01 L Thigh>   // the left thigh\n*\n";
//! let bone = Bone::from_text(text).unwrap();
//! assert_eq!((bone.name.to_text().as_str(), bone.parent), ("Bip01 L Thigh", None));
//! assert_eq!(bone.to_text().unwrap(), text);
//! ```
//!
//! ## `present_if` in text
//!
//! ```
//! # use ossuary_schema::text::{TextSchema, TextStyle};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text)]
//! struct Record {
//!     #[schema(style)]
//!     style: TextStyle,
//!     version: u32,
//!     #[schema(present_if = version >= 300)]
//!     extra: Option<i32>,
//!     value: i32,
//! }
//!
//! let old = Record::from_text(b"200\r\n7\r\n").unwrap();
//! assert_eq!((old.extra, old.value), (None, 7));
//! let new = Record::from_text(b"300\r\n-1\r\n7\r\n").unwrap();
//! assert_eq!(new.extra, Some(-1));
//! assert_eq!(new.to_text().unwrap(), b"300\r\n-1\r\n7\r\n");
//! ```
//!
//! ## `check` in text
//!
//! A refusal is an error at the value's line and column; the writer runs
//! the same checks on what it writes.
//!
//! ```
//! # use ossuary_schema::text::{TextSchema, TextStyle};
//! # use ossuary_schema::Refusal;
//! # use ossuary_schema::Schema;
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text)]
//! struct Weight {
//!     #[schema(style)]
//!     style: TextStyle,
//!     #[schema(check = finite)]
//!     value: f32,
//! }
//!
//! fn finite(value: &f32) -> Result<(), Refusal> {
//!     if value.is_finite() { Ok(()) } else { Err(Refusal::new("not a finite number")) }
//! }
//!
//! assert!(Weight::from_text(b"0.5\n").is_ok());
//! assert_eq!(
//!     Weight::from_text(b"1.#INF\n").unwrap_err().to_string(),
//!     "line 1:1: value: not a finite number"
//! );
//! // The writer refuses what the reader would, at the same line and column.
//! let weight = Weight { style: TextStyle::default(), value: f32::INFINITY };
//! assert_eq!(
//!     weight.to_text().unwrap_err().to_string(),
//!     "line 1:1: value: not a finite number"
//! );
//! ```
//!
//! ## Keyword enums (`keyword = "..."`) and text enums chosen by context
//!
//! A line holding a phrase chooses a unit variant; a context value chooses
//! a variant of values.
//!
//! ```
//! # use ossuary_schema::text::{TextSchema, TextStyle};
//! # use ossuary_schema::Schema;
//! #[derive(Debug, Clone, Copy, PartialEq, Schema)]
//! #[schema(text)]
//! enum Units {
//!     #[schema(keyword = "Degrees")]
//!     Degrees,
//!     #[schema(keyword = "Radians")]
//!     Radians,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text, context(units: Units), select = units)]
//! enum Angle {
//!     #[schema(when = Units::Degrees)]
//!     Degrees(i32),
//!     #[schema(when = Units::Radians)]
//!     Radians(f32),
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text)]
//! struct Turn {
//!     #[schema(style)]
//!     style: TextStyle,
//!     units: Units,
//!     #[schema(context(units))]
//!     angle: Angle,
//! }
//!
//! let turn = Turn::from_text(b"\"Degrees\"\n90\n").unwrap();
//! assert_eq!((turn.units, &turn.angle), (Units::Degrees, &Angle::Degrees(90)));
//! assert_eq!(turn.to_text().unwrap(), b"\"Degrees\"\n90\n");
//! ```
//!
//! # Both encodings on one type
//!
//! A file stored as text by one tool and as binary by another (The Sims'
//! `.cmx` and `.bcf`) is one set of types with two encodings:
//! `#[schema(binary(little), text)]`. What both encodings share is written
//! once: `present_if`, `context`, `check`, `count`, `to_end`, and
//! `prefix = u32` (a `u32` count in binary, a count line in text). What
//! only one has goes in its group: `binary(pascal)`, `binary(big)` on a
//! field; `text(line)`, `text(vector)`, `text(same_line)`; on the type,
//! `binary(...)` holds the byte order (and `form`/`chunk`), `text(...)`
//! holds `one_line` or `comments`. The type's [`Layout`](crate::Layout) is
//! its binary layout, its [`TextLayout`](crate::TextLayout) the text one.
//!
//! ```
//! use ossuary_schema::text::TextSchema;
//! use ossuary_schema::{BinarySchema, RawString, Schema};
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(binary(little), text, context(version: u32))]
//! struct Bone {
//!     #[schema(text(line), binary(pascal))]
//!     name: RawString,
//!     #[schema(text(vector))]
//!     translation: [f32; 3],
//!     #[schema(prefix = u32)]
//!     children: Vec<i32>,
//!     #[schema(present_if = version >= 300)]
//!     wiggle: Option<f32>,
//! }
//!
//! let bone = Bone {
//!     name: RawString::from("ROOT"),
//!     translation: [0.0, 1.5, 0.0],
//!     children: vec![1],
//!     wiggle: Some(0.5),
//! };
//! let context = BoneContext { version: 300 };
//! let text = b"ROOT\r\n| 0 1.5 0 |\r\n1\r\n1\r\n0.5\r\n";
//! assert_eq!(bone.to_text_with(&context).unwrap(), text);
//! assert_eq!(Bone::from_text_with(text, &context).unwrap(), bone);
//! #[rustfmt::skip]
//! let bytes = [
//!     4, b'R', b'O', b'O', b'T',          // Pascal string
//!     0, 0, 0, 0, 0, 0, 0xC0, 0x3F, 0, 0, 0, 0, // translation
//!     1, 0, 0, 0, 1, 0, 0, 0,             // u32 count, then the child
//!     0, 0, 0, 0x3F,                      // wiggle, from version 300
//! ];
//! assert_eq!(bone.to_bytes_with(&context).unwrap(), bytes);
//! assert_eq!(Bone::from_bytes_with(&bytes, &context).unwrap(), bone);
//! ```
//!
//! A top-level type of one encoding holds them: a binary file that always
//! holds version 300's fields passes the version as a constant
//! (`#[schema(prefix = u32, context(version = 300))]`), and the text one
//! passes the version it reads.
//!
//! A key of one encoding written outside its group, inside the other's
//! group, or a shared key inside a group, is a compile error at the key;
//! a mistake in what both encodings share is reported once.
//!
//! A parameter only the binary encoding takes is declared in its group:
//! `binary(context(order: Endian), endian = order)` is a type whose byte
//! order its holder gives (little-endian in one file, big-endian in
//! another), while its text, which has no byte order, is never given one.
//! The type's [`HasContext::Context`](crate::HasContext::Context) holds
//! every parameter, its [`HasContext::TextContext`](crate::HasContext::TextContext)
//! those declared outside `binary(...)` (`()` when there are none, else a
//! struct `<Type>TextContext`). A binary holder passes the order as any
//! value (`context(order = Endian::Big)`); a text holder passes nothing; a
//! type with both encodings passes it in `binary(context(order))`. Naming
//! such a parameter where the text reads it (`count`, `present_if`, a
//! `check`, a shared `context(...)`), or passing values from a text field
//! to a type whose text takes none, is a compile error.
//!
//! ```
//! use ossuary_schema::text::TextSchema;
//! use ossuary_schema::{BinarySchema, Endian, Schema};
//!
//! #[derive(Debug, Clone, PartialEq, Schema)]
//! #[schema(binary(context(order: Endian), endian = order), text(one_line))]
//! struct Span {
//!     first: i32,
//!     count: u16,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(big)]
//! struct BigSpans {
//!     #[schema(prefix = u8, context(order = Endian::Big))]
//!     spans: Vec<Span>,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct LittleSpans {
//!     #[schema(prefix = u8, context(order = Endian::Little))]
//!     spans: Vec<Span>,
//! }
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(text)]
//! struct TextSpans {
//!     #[schema(prefix)]
//!     spans: Vec<Span>,
//! }
//!
//! let spans = vec![Span { first: 1, count: 2 }];
//! let big = [1, 0, 0, 0, 1, 0, 2];
//! let little = [1, 1, 0, 0, 0, 2, 0];
//! assert_eq!(BigSpans::from_bytes(&big).unwrap().spans, spans);
//! assert_eq!(LittleSpans::from_bytes(&little).unwrap().spans, spans);
//! assert_eq!(LittleSpans { spans: spans.clone() }.to_bytes().unwrap(), little);
//! let text = TextSpans { spans };
//! assert_eq!(text.to_text().unwrap(), b"1\r\n1 2\r\n");
//! assert_eq!(TextSpans::from_text(b"1\r\n1 2\r\n").unwrap(), text);
//! ```
