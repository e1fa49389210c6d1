//! `#[derive(Schema)]`: a file layout written once as an annotated struct
//! becomes a reader, a writer, layout metadata and round-trip tests.
//!
//! Shaped like serde_derive: [`ast`] and [`attr`] parse the input into a small
//! model, [`check`] validates it with spanned errors, [`expand`] emits code
//! against the runtime in `::formats::schema`.

mod ast;
mod attr;
mod check;
mod check_text;
mod expand;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// See the `formats::schema` module for the attribute vocabulary.
#[proc_macro_derive(Schema, attributes(schema))]
pub fn derive_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
