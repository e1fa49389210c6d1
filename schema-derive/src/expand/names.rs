//! The names of the generated code's own locals.

use quote::format_ident;
use syn::Ident;

/// The local a field's value is read into (prefixed, so field names never
/// clash with the generated code's own names).
pub fn field_local(field: &Ident) -> Ident {
    format_ident!("__field_{}", field)
}

/// The local holding the length a count field stores.
pub fn count_local(field: &Ident) -> Ident {
    format_ident!("__count_{}", field)
}
