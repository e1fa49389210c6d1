//! The one path generated code reaches the runtime by: `<crate>::__private`,
//! with `<crate>` the [`Root`] the derive was invoked through
//! (`::ossuary_schema` for `ossuary_schema::Schema`, `::formats` for
//! `formats::Schema`) unless the type
//! says `#[schema(crate = "...")]` (as serde's `crate`, for a crate that
//! renames or re-exports either). Every runtime item an expansion names is
//! `#runtime::Item`, and `__private` re-exports exactly those items.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::Path;

/// Which crate's `__private` the expansions name when the type does not
/// say: the crate whose re-export of the derive was used.
#[derive(Clone, Copy, Debug)]
pub enum Root {
    /// `::ossuary_schema`: the runtime crate itself, under the name its
    /// package gives it (`ossuary_schema::Schema`).
    Schema,
    /// `::formats`: the formats crate, which re-exports the runtime
    /// (`formats::Schema`), for a crate that depends on `formats` alone.
    Formats,
}

/// The path of the runtime's `__private` module.
pub struct Runtime(TokenStream);

impl Runtime {
    pub fn new(krate: Option<&Path>, root: Root) -> Self {
        match (krate, root) {
            (Some(krate), _) => Runtime(quote!(#krate::__private)),
            (None, Root::Schema) => Runtime(quote!(::ossuary_schema::__private)),
            (None, Root::Formats) => Runtime(quote!(::formats::__private)),
        }
    }
}

impl ToTokens for Runtime {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.0.to_tokens(tokens);
    }
}
