//! The messages said of more than one kind of type (structs, enums chosen
//! by a tag, a selector or keywords, enums of IFF elements), written once
//! so that one mistake reads the same wherever it is made.

use syn::Ident;

/// A binary type without `big`, `little` or `endian = param`.
pub fn no_byte_order(ident: &Ident) -> String {
    format!("binary schema `{ident}` states no byte order: add #[schema(big)] or #[schema(little)]")
}

/// `big`/`little` on a text type.
pub const TEXT_HAS_NO_BYTE_ORDER: &str = "a text layout has no byte order: remove `big`/`little`";

/// A type's `check` on an enum.
pub const TYPE_CHECK_ON_AN_ENUM: &str =
    "a type's `check` applies to structs: check the variants' values instead";

/// A declared context parameter nothing reads; `uses` says where this kind
/// of type uses its parameters.
pub fn unused_param(param: &Ident, uses: &str) -> String {
    format!("context parameter `{param}` is never used: {uses}")
}

/// A parameter declared in `binary(context(...))`, named where the text
/// encoding reads it.
pub fn binary_only_param(param: &Ident) -> String {
    format!(
        "`{param}` is given to the binary encoding alone (declared in `binary(context(...))`), \
         never to the text: name it only inside `binary(...)`"
    )
}
