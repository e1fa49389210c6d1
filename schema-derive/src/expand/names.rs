//! The names of the generated code's own locals.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Ident, Path};

use crate::plan::{Medium, TypePlan};

/// The local a field's value is read into (prefixed, so field names never
/// clash with the generated code's own names).
pub fn field_local(field: &Ident) -> Ident {
    format_ident!("__field_{}", field)
}

/// The local holding the length a count field stores.
pub fn count_local(field: &Ident) -> Ident {
    format_ident!("__count_{}", field)
}

/// The value a reader builds: `Self` of each field's local.
pub fn value_of_locals<M: Medium>(ty: &TypePlan<M>) -> TokenStream {
    let inits = ty.fields.iter().map(|plan| {
        let name = plan.field.ident;
        let local = field_local(name);
        quote!(#name: #local)
    });
    quote!(Self { #(#inits),* })
}

/// The type's `check = path` called on `value` (a reference), spanned at
/// the function, so a signature that does not fit is an error there.
pub fn type_check_call(path: &Path, value: TokenStream) -> TokenStream {
    quote_spanned!(path.span()=> #path(#value))
}
