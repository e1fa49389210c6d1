//! The one path generated code reaches the runtime by: `<crate>::__private`,
//! with `<crate>` = `::formats` unless the type says `#[schema(crate = "...")]`
//! (as serde's `crate`, for a crate that renames or re-exports `formats`).
//! Every runtime item an expansion names is `#runtime::Item`, and
//! `__private` re-exports exactly those items.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::Path;

/// The path of the runtime's `__private` module.
pub struct Runtime(TokenStream);

impl Runtime {
    pub fn new(krate: Option<&Path>) -> Self {
        match krate {
            Some(krate) => Runtime(quote!(#krate::__private)),
            None => Runtime(quote!(::formats::__private)),
        }
    }
}

impl ToTokens for Runtime {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.0.to_tokens(tokens);
    }
}
