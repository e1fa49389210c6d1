//! A type with both encodings (`#[schema(binary(little), text)]`): one
//! context, the binary layout's impls (its `Layout` the type's), the text
//! layout's (its `TextLayout`), and one round-trip test through both.

use proc_macro2::TokenStream;
use quote::quote;

use super::binary::binary_items;
use super::heading::Heading;
use super::paths::Runtime;
use super::text::Role;
use super::{context, expressions, tests, text};
use crate::ast::Container;
use crate::plan::{self, BinaryType, TextType};

/// Both encodings' plans, or the errors of both.
pub fn plan<'a>(
    binary: &'a Container<'a>,
    text: &'a Container<'a>,
) -> syn::Result<(BinaryType<'a>, TextType<'a>)> {
    match (plan::binary(binary), plan::text(text)) {
        (Ok(binary), Ok(text)) => Ok((binary, text)),
        (Err(error), Ok(_)) | (Ok(_), Err(error)) => Err(error),
        (Err(binary_error), Err(text_error)) => Err(distinct(binary_error, text_error)),
    }
}

pub fn derive(rt: &Runtime, binary: &BinaryType, text: &TextType) -> TokenStream {
    let heading = Heading::of(binary);
    let context = context::twin_context_items(rt, heading, binary.vis, binary.params, text.params);
    let mut functions = expressions::functions_of(rt, binary);
    functions.extend(expressions::functions_of(rt, text));
    let functions = expressions::functions_impl(rt, heading, functions);
    let binary_items = binary_items(rt, binary);
    let text_items = text::items(rt, text, Role::BesideBinary);
    let tests = tests::twin_round_trip_module(rt, binary, text);
    quote! {
        #context
        #functions
        #binary_items
        #text_items
        #tests
    }
}

/// The errors of both lowerings, each once: a mistake in what both
/// encodings share (a condition, a context value) is found by both.
fn distinct(mut binary: syn::Error, text: syn::Error) -> syn::Error {
    let key = |error: &syn::Error| (format!("{:?}", error.span()), error.to_string());
    let mut seen: Vec<(String, String)> = binary.clone().into_iter().map(|e| key(&e)).collect();
    for error in text {
        let error_key = key(&error);
        if !seen.contains(&error_key) {
            seen.push(error_key);
            binary.combine(error);
        }
    }
    binary
}
