//! Zero-sized field types for layout elements that hold no data in memory:
//! constants and counts the writer derives from the collections. They hold
//! no data, so the JSON model of a struct leaves them out: a struct that
//! uses serde marks such fields `#[serde(skip)]`, which `#[derive(Schema)]`
//! asks for with one error at the field. They serialize as a unit (JSON's
//! `null`) themselves, so serde's derive adds no errors of its own to it.

use std::fmt::Debug;
use std::marker::PhantomData;

use super::collection::CountInt;
use super::{Decode, Encode, Endian, Error, ErrorKind, Input, Output};

/// A constant checked on read and written on write
/// (`#[schema(magic = 1u32)] version: Magic`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Magic;

impl serde::Serialize for Magic {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

impl<'de> serde::Deserialize<'de> for Magic {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <()>::deserialize(deserializer).map(|()| Magic)
    }
}

impl<C> serde::Serialize for Count<C> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

impl<'de, C> serde::Deserialize<'de> for Count<C> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <()>::deserialize(deserializer).map(|()| Count::new())
    }
}

/// A count stored in the file but not in memory; collections name it with
/// `#[schema(count = field)]` and the writer stores their shared length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Count<C>(PhantomData<C>);

impl<C> Count<C> {
    pub const fn new() -> Self {
        Count(PhantomData)
    }
}

/// The context of a type that needs none. A field whose type needs context
/// and is given none fails to compile with this trait's message.
#[diagnostic::on_unimplemented(
    message = "the field's type needs context `{Self}`",
    label = "pass it with `#[schema(context(name = value, ...))]`"
)]
pub trait NoContext {
    fn none() -> Self;
}

impl NoContext for () {
    fn none() -> Self {}
}

/// A text context that a text field can pass values to: the struct
/// `#[derive(Schema)]` makes for a type whose text takes parameters, and
/// `()`, which takes none. Passing values to a type whose text takes none
/// (a type whose binary encoding alone takes parameters, such as a byte
/// order) is one error: `TheTypeTakesNoContextAsText` has no such field.
#[diagnostic::on_unimplemented(
    message = "the field's type has a text context `{Self}` the derive did not make",
    label = "a text context a field passes values to is a struct `#[derive(Schema)]` makes"
)]
pub trait TakesTextContext: From<Self::Values> {
    /// What the values passed are gathered in: the context itself, or for
    /// `()` a struct with no fields, so that passing values to a type whose
    /// text takes none is one error that names it, at the value passed.
    type Values;
}

/// What a text field's values are gathered in for a type whose text takes
/// no context: it has no fields, so any value passed is refused.
pub struct TheTypeTakesNoContextAsText {}

impl TakesTextContext for () {
    type Values = TheTypeTakesNoContextAsText;
}

impl From<TheTypeTakesNoContextAsText> for () {
    fn from(_: TheTypeTakesNoContextAsText) {}
}

/// The context parameter `endian = param` names: a byte order. A parameter
/// of another type fails to compile with this trait's message.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a byte order",
    label = "`endian = param` names a context parameter of type `Endian`"
)]
pub trait ByteOrderParam {
    fn endian(&self) -> Endian;
}

impl ByteOrderParam for Endian {
    fn endian(&self) -> Endian {
        *self
    }
}

/// Names the integer type a count field is stored as.
pub trait CountField {
    type Int: CountInt;
}

impl<C: CountInt> CountField for Count<C> {
    type Int = C;
}

impl<C> Default for Count<C> {
    fn default() -> Self {
        Self::new()
    }
}

/// Reads a constant and fails, naming what was found, if it differs.
/// How a constant reads in messages and the byte map: an integer as its
/// digits, bytes as the byte string the layout writes (`b"TAGL"`).
pub trait ConstantText {
    fn constant_text(&self) -> String;
}

impl<const N: usize> ConstantText for [u8; N] {
    fn constant_text(&self) -> String {
        crate::error::byte_string(self)
    }
}

macro_rules! integer_constant_text {
    ($($ty:ty),*) => {$(
        impl ConstantText for $ty {
            fn constant_text(&self) -> String {
                self.to_string()
            }
        }
    )*};
}

integer_constant_text!(u8, i8, u16, i16, u32, i32, u64, i64, u128, i128);

pub fn read_magic<T, I>(input: &mut I, endian: Endian, expected: &T) -> Result<Magic, Error>
where
    T: Decode<Context = ()> + PartialEq + ConstantText,
    I: Input,
{
    let at = input.position()?;
    let muted = crate::map::mute_in::<I>();
    let found = T::decode_input(input, endian, &())?;
    drop(muted);
    if crate::map::recording_in::<I>() {
        let end = input.position()?;
        crate::map::note(at, end, "constant", crate::map::SpanKind::Field, || {
            found.constant_text()
        });
    }
    if &found != expected {
        return Err(Error::at_byte(
            at,
            ErrorKind::BadConstant {
                expected: expected.constant_text(),
                found: found.constant_text(),
            },
        ));
    }
    Ok(Magic)
}

pub fn write_magic<T: Encode<Context = ()>, O: Output>(
    output: &mut O,
    endian: Endian,
    value: &T,
) -> Result<(), Error> {
    value.encode_output(output, endian, &())
}
