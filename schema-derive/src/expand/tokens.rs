//! Literals in the generated code: strings, IFF tags, constants, widths.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::LitInt;

use crate::plan::{Binary, Magic};

/// An IFF tag as a `[u8; 4]` expression.
pub fn tag_tokens(tag: [u8; 4]) -> TokenStream {
    let bytes = syn::LitByteStr::new(&tag, Span::call_site());
    quote!(*#bytes)
}

/// An IFF tag as text, for labels and layout.
pub fn tag_str(tag: [u8; 4]) -> String {
    String::from_utf8_lossy(&tag).into_owned()
}

/// A binary constant as an expression.
pub fn constant_tokens(constant: &Magic<Binary>) -> TokenStream {
    match constant {
        Magic::Int((), int) => quote!(#int),
        Magic::Bytes((), bytes) => quote!(*#bytes),
        Magic::Words(never, _) => match *never {},
    }
}

pub fn width_of(width: &LitInt) -> u64 {
    width.base10_parse().unwrap_or(0)
}

pub fn str_lit(text: &str) -> syn::LitStr {
    syn::LitStr::new(text, Span::call_site())
}

/// `Some("text")` or `None`, for optional layout strings.
pub fn optional_str(text: Option<String>) -> TokenStream {
    match text {
        Some(text) => {
            let text = str_lit(&text);
            quote!(::core::option::Option::Some(#text))
        }
        None => quote!(::core::option::Option::None),
    }
}
