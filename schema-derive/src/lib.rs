//! `#[derive(Schema)]`: a file layout written once as an annotated struct
//! becomes a reader, a writer, layout metadata and round-trip tests.
//!
//! Shaped like serde_derive: [`ast`] and [`attr`] parse the input into a small
//! model, [`check`] validates it with spanned errors, [`expand`] emits code
//! against the runtime's hidden module `::formats::__private`.

mod ast;
mod attr;
mod check;
mod check_context;
mod check_enum;
mod check_text;
mod expand;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// See the `formats::schema` module for the attribute vocabulary.
///
/// A crate that derives needs a dependency on `formats` and nothing else.
/// For each type the derive also emits a `#[cfg(test)]` module whose test
/// writes, reads and writes again generated values, and, when the type
/// implements serde's `Serialize` and `Deserialize`, also checks that
/// value -> JSON -> value -> write gives the same bytes. These tests come
/// with `formats`' `testing` feature (on by default) and vanish without it.
/// A `with = path` field's module provides `read`, `write` and, for the
/// test, `strategy()` (a proptest strategy, through
/// `formats::schema::testing::proptest`).
///
/// `#[schema(crate = "path")]` finds the runtime at `path` instead of
/// `::formats`, for a crate that reaches `formats` through a re-export.
#[proc_macro_derive(Schema, attributes(schema))]
pub fn derive_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
