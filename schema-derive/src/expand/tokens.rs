//! Literals in the generated code: strings, IFF tags, constants, widths.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::LitInt;

use crate::attr::Constant;

/// An IFF tag as a `[u8; 4]` expression.
pub fn tag_tokens(tag: [u8; 4]) -> TokenStream {
    let bytes = syn::LitByteStr::new(&tag, Span::call_site());
    quote!(*#bytes)
}

/// An IFF tag as text, for labels and layout.
pub fn tag_str(tag: [u8; 4]) -> String {
    String::from_utf8_lossy(&tag).into_owned()
}

pub fn constant_tokens(constant: &Constant) -> TokenStream {
    match constant {
        Constant::Int(int) => quote!(#int),
        Constant::Bytes(bytes) => quote!(*#bytes),
        Constant::Text(_) => unreachable!("`plan::binary` refuses a text constant"),
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
