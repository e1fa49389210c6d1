//! Validation of enums of IFF elements (chosen by the next child's form
//! type or chunk tag), beside the structs' and the chosen enums'.

use crate::ast::{Errors, FormEnum};
use crate::messages;

/// What an enum of IFF elements takes: no framing or byte order of its
/// own, no type `check`, and variants passing constants or the enum's own
/// parameters, each parameter passed on.
pub fn check(form_enum: &FormEnum) -> syn::Result<()> {
    let mut errors = Errors::default();
    let attrs = &form_enum.attrs;
    let stray = attrs
        .form
        .as_ref()
        .or(attrs.chunk.as_ref())
        .map(|frame| frame.span)
        .or(attrs.byte_order.as_ref().map(|order| order.span));
    if let Some(span) = stray {
        errors.push(syn::Error::new(
            span,
            "an enum of IFF elements takes no `form`, `chunk` or byte order: each variant is a \
             form or chunk with its own",
        ));
    }
    if let Some(check) = &attrs.check {
        errors.push(syn::Error::new(check.span, messages::TYPE_CHECK_ON_AN_ENUM));
    }
    let params = &form_enum.params;
    let variants = &form_enum.variants;
    for name in variants
        .iter()
        .flat_map(|variant| &variant.pass)
        .filter_map(|arg| arg.value.name())
    {
        if !params.iter().any(|param| &param.ident == name) {
            errors.push(syn::Error::new(
                name.span(),
                format!(
                    "a variant of an enum of IFF elements passes constants or the enum's own \
                     context parameters; `{name}` is none of its parameters"
                ),
            ));
        }
    }
    for param in params {
        let passed = variants
            .iter()
            .flat_map(|variant| &variant.pass)
            .any(|arg| arg.value.name() == Some(&param.ident));
        if !passed {
            errors.push(syn::Error::new(
                param.ident.span(),
                messages::unused_param(
                    &param.ident,
                    &format!(
                        "an enum of IFF elements passes its parameters to its variants' values \
                         (`context({})` on a variant)",
                        param.ident
                    ),
                ),
            ));
        }
    }
    errors.finish()
}
