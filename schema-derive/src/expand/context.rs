//! Context: the `<Type>Context` struct a type with `context(...)` declares,
//! its `HasContext` impl, and the values fields pass to nested types.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Ident, Type, Visibility};

use super::paths::Runtime;
use super::{count_local, field_local};
use crate::ast::{is_named, Container};
use crate::attr::{Check, ContextArg, ContextParam, ContextValue};
use crate::check_context::is_param;

/// Where generated code runs, which decides how a name reads: a field is a
/// local while reading (and while drawing test values), `self.field` while
/// writing; a parameter is always `__context.param`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Read,
    Write,
}

/// The name of the struct holding a type's context parameters.
pub fn struct_ident(ident: &Ident) -> Ident {
    format_ident!("{}Context", ident)
}

/// `HasContext` for the type, and its context struct when it declares one.
pub fn context_items(
    rt: &Runtime,
    ident: &Ident,
    vis: &Visibility,
    params: &[ContextParam],
) -> TokenStream {
    if params.is_empty() {
        return quote! {
            impl #rt::HasContext for #ident {
                type Context = ();
            }
        };
    }
    let context = struct_ident(ident);
    let doc =
        format!(" What [`{ident}`] needs from the type that holds it, to be read or written.");
    let names = params.iter().map(|param| &param.ident);
    let types = params.iter().map(|param| &param.ty);
    quote! {
        #[doc = #doc]
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
        #vis struct #context {
            #(pub #names: #types,)*
        }

        impl #rt::HasContext for #ident {
            type Context = #context;
        }
    }
}

/// `path(&value, &args...)`: a field's `check` called on the value read
/// (its local) and the values it names, each by reference: an earlier
/// field, a context parameter, or a `Count<_>` field as the `usize` count
/// it holds.
pub fn check_call(container: &Container, check: &Check, local: &Ident) -> TokenStream {
    let path = &check.path;
    let args = check.args.iter().map(|arg| {
        let counted = container
            .fields
            .iter()
            .any(|field| field.ident == arg && is_named(field.ty, "Count"));
        if counted {
            let count = count_local(arg);
            quote!(&#count)
        } else {
            let place = place_of(arg, is_param(container, arg), Side::Read);
            quote!(&#place)
        }
    });
    // Spanned at the function, so a signature that does not fit is an
    // error there.
    quote_spanned!(path.span()=> #path(&#local #(, #args)*))
}

/// The value a name stands for, cloned.
pub fn value_of(name: &Ident, is_param: bool, side: Side) -> TokenStream {
    let place = place_of(name, is_param, side);
    quote!(::core::clone::Clone::clone(&#place))
}

/// The value a `with` field or nested type is passed, on `side`: a name's
/// value cloned, or the constant itself.
pub fn arg_value(container: &Container, value: &ContextValue, side: Side) -> TokenStream {
    match value {
        ContextValue::Name(name) => value_of(name, is_param(container, name), side),
        ContextValue::Constant(constant) => quote!(#constant),
    }
}

/// [`place_of`] for any name of `container`'s, on `side`.
pub fn places<'a>(container: &'a Container, side: Side) -> impl Fn(&Ident) -> TokenStream + 'a {
    move |name| place_of(name, is_param(container, name), side)
}

/// Where a name's value is, by reference-free place expression.
pub fn place_of(name: &Ident, is_param: bool, side: Side) -> TokenStream {
    match (is_param, side) {
        (true, _) => quote!(__context.#name),
        (false, Side::Read) => {
            let local = field_local(name);
            quote!(#local)
        }
        (false, Side::Write) => quote!(self.#name),
    }
}

/// The context an element of type `ty` gets: the passed values, or `()`
/// when none are passed (a type that needs context then fails to compile,
/// with the message of `NoContext`, at the field's type).
pub fn nested_context(
    rt: &Runtime,
    ty: &Type,
    pass: &[ContextArg],
    value: impl Fn(&Ident) -> TokenStream,
) -> TokenStream {
    if pass.is_empty() {
        return quote_spanned! {ty.span()=>
            <<#ty as #rt::HasContext>::Context as #rt::NoContext>::none()
        };
    }
    let params = pass.iter().map(|arg| &arg.param);
    let values = pass.iter().map(|arg| match &arg.value {
        ContextValue::Name(name) => value(name),
        ContextValue::Constant(constant) => quote!(#constant),
    });
    quote! {
        {
            type __Context = <#ty as #rt::HasContext>::Context;
            __Context { #(#params: #values),* }
        }
    }
}
