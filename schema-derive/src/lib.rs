//! `#[derive(Schema)]`: a file layout written once as an annotated struct
//! becomes a reader, a writer, layout metadata and round-trip tests.
//!
//! Shaped like serde_derive: `ast` and `attr` parse the input into a small
//! model (`condition` holds a `present_if` expression and what every
//! expression shares; a type with both encodings is two views of it, one
//! per encoding), `plan` validates and lowers it once into a plan of the
//! whole type typed by its encoding (`plan::TypePlan`), every name
//! resolved (`plan::expr` lowers each expression into the function it is
//! compiled as; `plan::choice` does the same for enums chosen by a tag, a
//! selector or keywords; `plan::reads` lists the names each field reads,
//! for the generated test; `messages` holds what both say; `suggest`
//! finds the key, field or parameter a misspelt name meant), with spanned
//! errors, collecting every mistake, and `expand` emits code against the
//! runtime's hidden module `::ossuary_schema::__private` (or
//! `::formats::__private`, through `formats`' re-export;
//! `expand::expressions` emits the expressions' functions); on an error,
//! `expand::fallback` emits the errors with stand-in impls, so users of
//! the broken type see no more.

mod ast;
mod attr;
mod check_context;
mod condition;
mod expand;
mod messages;
mod plan;
mod serde_contract;
mod suggest;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// The attribute vocabulary (tables with every key in the `ossuary-schema`
/// crate's docs and its `text` module docs):
///
/// - on a struct: `big`/`little` or `endian = param` (the byte order is
///   the value of a context parameter of type `Endian`), `form = "TYPE"`, `chunk = "TAG"`,
///   `text`, `one_line`,
///   `comments` (text: `//` comments anywhere from this record on, kept in
///   the style), `crate = "path"`, `check = path` (a function the whole
///   value must satisfy once every field is read), and `context(name:
///   Type, ...)`: values the type needs from its parent, held in a
///   generated `<Type>Context` struct (on a type with both encodings,
///   `binary(context(...))` declares those only its binary encoding takes,
///   such as a byte order; its text context, `HasContext::TextContext`,
///   leaves them out); a struct with a binary encoding alone may take type
///   and const parameters, each type parameter a value needing no context;
/// - on a field: `big`/`little`/`endian = param`, string encodings (`pascal`, `null_terminated`,
///   `fixed_width = N`), counts (`prefix = u32`, text `prefix`,
///   `count = name` naming an earlier `Count<_>` field or a context
///   parameter, `count = expr`, `to_end`, `until = |element| ...`), blocks
///   of a given length (`size = expr`, a `Block<T>` keeping what its value
///   leaves), values the writer computes (`calc = expr` on a `Calc<T>`,
///   `size_of(field)` in it, `keep`), `map = S` and `try_map = S`,
///   presence (`flag = u8`, `present_if = EXPR`: a
///   boolean expression over earlier fields and context parameters such as
///   `version >= 300`, a bare name meaning it is not 0; text
///   `none = "*"`; in IFF an `Option` without one is present when the next
///   child begins as it does), `magic`, `chunk = "TAG"` (fields in a row
///   naming one tag share the chunk), `form = "TYPE"` (the field is the
///   form's children), `with = path`, the text forms
///   (`line`, `comment`, `vector`, `angle_brackets`, `style`), text
///   `same_line` (the field continues the previous field's line), text
///   `flow` (a `prefix` list of tokens in any whitespace, line breaks kept),
///   `check = path(values...)` (binary and text: a function the value read
///   must satisfy, its refusal an error at the value's byte offset or line
///   and column) or `check = expr, "message"`, and
///   `context(param = name, ...)`, the values passed to the field type's
///   context (an earlier field or one of the struct's own parameters, or a
///   constant such as `Endian::Big`; a `Count<_>` field passes its count);
/// - on an enum: `tag = u8` (a leading tag chooses the variant),
///   `select = param` (a context parameter does), or, for `text` enums of
///   unit variants, nothing (a keyword line does); on its variants
///   `when = value`, `other` (every other tag, kept), `keyword = "phrase"`
///   and `context(...)`. An enum with none of these is an enum of IFF
///   elements, chosen by the next child's form type or chunk tag; its
///   variants hold form or chunk structs, or wrap a struct of fields in a
///   `form = "TYPE"` or `chunk = "TAG"` of their own.
///
/// Misuse is a compile error pointing at the attribute; every mistake in a
/// type is reported once (every bad key of every attribute, then, once
/// they parse, every mistake the plan finds), a misspelt key, field or
/// parameter with the name it likely meant, and code using the broken
/// type gives no further errors (the derive then emits stand-in impls).
///
/// A crate that derives needs a dependency on `ossuary-schema` (and
/// derives with `ossuary_schema::Schema`) or on `formats` (and derives
/// with `formats::Schema`), and nothing else. A crate that renames the
/// runtime (`schema = { package = "ossuary-schema" }`) says where it is
/// with `#[schema(crate = "schema")]`.
/// For each type the derive also emits a `#[cfg(test)]` module whose test
/// writes, reads and writes again generated values, and, when the type
/// implements serde's `Serialize` and `Deserialize`, also checks that
/// value -> JSON -> value -> write gives the same bytes. These tests come
/// with the `ossuary-schema` crate's `testing` feature (off by default; `formats`,
/// whose own `testing` feature is on by default, turns it on) and vanish
/// without it.
/// A `with = path` field's module provides `read`, `write` and, for the
/// test, `strategy()` (a proptest strategy, through
/// `ossuary_schema::testing::proptest`).
///
/// `#[schema(crate = "path")]` finds the runtime at `path` instead of
/// `::ossuary_schema` (or `::formats`), for a crate that reaches either through a
/// re-export.
#[proc_macro_derive(Schema, attributes(schema))]
pub fn derive_schema(input: TokenStream) -> TokenStream {
    derive(input, expand::Root::Schema)
}

/// The same derive, for a crate that depends on `formats` alone: `formats`
/// re-exports it as `formats::Schema`, and its expansions reach the runtime
/// through `::formats::__private` (which `formats` re-exports from
/// `schema`) instead of `::ossuary_schema::__private`. Everything else is
/// [`macro@Schema`].
#[doc(hidden)]
#[proc_macro_derive(SchemaInFormats, attributes(schema))]
pub fn derive_schema_in_formats(input: TokenStream) -> TokenStream {
    derive(input, expand::Root::Formats)
}

fn derive(input: TokenStream, root: expand::Root) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input, root)
        .unwrap_or_else(|error| expand::fallback(&input, error, root))
        .into()
}
