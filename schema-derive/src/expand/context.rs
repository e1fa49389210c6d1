//! Context: the `<Type>Context` struct a type with `context(...)` declares,
//! its `HasContext` impl, and the values fields pass to nested types.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Ident, Type, Visibility};

use super::expressions;
use super::heading::{Bound, Heading};
use super::names::{count_local, field_local};
use super::paths::Runtime;
use super::tokens::{tag_tokens, width_of};
use crate::attr::StringKind;
use crate::attr::{ContextArg, ContextParam};
use crate::check_context::{CheckArg, FieldCheck, Held, Pass, PassValue, Resolved};
use crate::plan::{BinaryPlan, Codec, Element, Presence, Repeat};

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

/// The name of the struct holding the parameters a type's text encoding
/// takes, when its binary encoding alone takes others.
pub fn text_struct_ident(ident: &Ident) -> Ident {
    format_ident!("{}TextContext", ident)
}

/// `HasContext` for a type whose encodings take the same parameters, and
/// its context struct when it declares any.
pub fn context_items(
    rt: &Runtime,
    heading: Heading,
    vis: &Visibility,
    params: &[ContextParam],
) -> TokenStream {
    twin_context_items(rt, heading, vis, params, params)
}

/// `HasContext` for a type whose binary encoding takes `params` and whose
/// text encoding takes `text_params` (the same, or fewer: those declared
/// in `binary(context(...))` left out), and a struct for each that is not
/// `()`.
pub fn twin_context_items(
    rt: &Runtime,
    heading: Heading,
    vis: &Visibility,
    params: &[ContextParam],
    text_params: &[ContextParam],
) -> TokenStream {
    let ident = heading.ident();
    let doc =
        format!(" What [`{ident}`] needs from the type that holds it, to be read or written.");
    let (context, context_struct) = params_struct(&struct_ident(ident), vis, params, &doc);
    let same = params.len() == text_params.len()
        && params
            .iter()
            .zip(text_params)
            .all(|(param, text)| param.ident == text.ident);
    let (text_context, text_struct) = if same {
        (context.clone(), TokenStream::new())
    } else {
        let doc = format!(
            " What [`{ident}`] needs from the type that holds it, to be read or written as text."
        );
        params_struct(&text_struct_ident(ident), vis, text_params, &doc)
    };
    // Text passes values only to a text context that takes them.
    let takes_text_context = (!text_params.is_empty()).then(|| {
        quote! {
            impl #rt::TakesTextContext for #text_context {
                type Values = Self;
            }
        }
    });
    let (impl_params, this) = heading.split(rt, Bound::None);
    quote! {
        #context_struct
        #text_struct
        #takes_text_context

        impl #impl_params #rt::HasContext for #this {
            type Context = #context;
            type TextContext = #text_context;
        }
    }
}

/// The type holding `params`: `()` when there are none, else a struct
/// named `name` (returned second) with one public field per parameter.
fn params_struct(
    name: &Ident,
    vis: &Visibility,
    params: &[ContextParam],
    doc: &str,
) -> (TokenStream, TokenStream) {
    if params.is_empty() {
        return (quote!(()), TokenStream::new());
    }
    let names = params.iter().map(|param| &param.ident);
    let types = params.iter().map(|param| &param.ty);
    let item = quote! {
        #[doc = #doc]
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
        #vis struct #name {
            #(pub #names: #types,)*
        }
    };
    (quote!(#name), item)
}

/// Which encoding's context a nested value is given.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Binary,
    Text,
}

impl Encoding {
    /// The associated type of `HasContext` holding that context, at
    /// `span` (where an error about it is shown).
    fn context_type(self, span: proc_macro2::Span) -> Ident {
        let name = match self {
            Encoding::Binary => "Context",
            Encoding::Text => "TextContext",
        };
        Ident::new(name, span)
    }
}

/// A field's check, called through the type's one function for it
/// ([`check_fns`]) on `side`: while reading on the value read (its local),
/// while writing on `self.field`; a count is the `usize` either direction
/// holds in its local.
pub fn check_call_on(
    field: &Ident,
    check: &FieldCheck,
    value: &TokenStream,
    side: Side,
) -> TokenStream {
    match check {
        FieldCheck::Function { args, .. } => {
            let function = check_fn_ident(field);
            let args = check_args(args, side);
            quote!(Self::#function(&#value #(, #args)*))
        }
        FieldCheck::Inline { expression, .. } => {
            expressions::call(expression, side, &[quote!(&#value)])
        }
    }
}

/// A binary field's check verdict `call` as an error where the reader
/// (or the writer, before writing it) met the value from byte `start`:
/// a refusal of a list's element at that element's first byte when the
/// elements have one size, and inside the field's form or chunk, as
/// errors while reading it are.
pub fn placed_check(
    rt: &Runtime,
    plan: &BinaryPlan,
    start: &Ident,
    call: TokenStream,
) -> TokenStream {
    let list = match &plan.codec {
        Codec::Value(value)
            if value.repeat.is_some() && !matches!(value.presence, Some(Presence::Flag(_, _))) =>
        {
            Some(value)
        }
        _ => None,
    };
    // A fixed array's elements lie one after another from its start.
    let array = match &plan.codec {
        Codec::Value(value)
            if list.is_none()
                && value.presence.is_none()
                && matches!(value.element, Element::Plain) =>
        {
            Some(value.element_ty)
        }
        _ => None,
    };
    let checked = match (list, array) {
        (None, Some(ty)) => quote! {
            #rt::checked_elements_at_byte(
                #start,
                #rt::Elements {
                    start: #start,
                    size: <#ty as #rt::Decode>::ELEMENT_SIZE,
                    layout: <#ty as #rt::Decode>::NESTED_LAYOUT,
                    tag: ::core::option::Option::None,
                },
                #call,
            )
        },
        (Some(value), _) => {
            let ty = value.element_ty;
            let none = quote!(::core::option::Option::None);
            let (size, layout, tag) = match &value.element {
                Element::Plain => (
                    quote!(<#ty as #rt::Decode>::FIXED_SIZE),
                    quote!(<#ty as #rt::Decode>::NESTED_LAYOUT),
                    quote!(<#ty as #rt::Decode>::IFF_TAG),
                ),
                Element::String(_, StringKind::FixedWidth(width)) => {
                    let width = width_of(width);
                    (
                        quote!(::core::option::Option::Some(#width)),
                        none.clone(),
                        none,
                    )
                }
                Element::Text(never, _) => match *never {},
                Element::String(..) => (none.clone(), none.clone(), none),
            };
            let mut before = Vec::new();
            if plan.place.form.is_some() {
                before.push(quote!(#rt::FORM_HEADER_SIZE));
            }
            if plan.by_next_tag() && plan.place.chunk.is_some() {
                before.push(quote!(#rt::CHUNK_HEADER_SIZE));
            }
            if let Some(Repeat::Prefix(_, prefix)) = &value.repeat {
                before.push(quote!(<#prefix as #rt::Decode>::MIN_SIZE));
            }
            quote! {
                #rt::checked_elements_at_byte(
                    #start,
                    #rt::Elements {
                        start: #start #(+ #before)*,
                        size: #size,
                        layout: #layout,
                        tag: #tag,
                    },
                    #call,
                )
            }
        }
        (None, None) => quote!(#rt::checked_at_byte(#start, #call)),
    };
    let chunk = plan.place.chunk.filter(|_| plan.by_next_tag()).map(|tag| {
        let tag = tag_tokens(tag);
        quote!(.map_err(|e| e.within(#rt::Segment::Chunk(#tag))))
    });
    // A whole form or chunk refused is named by its type or tag, as an
    // error while reading it would be.
    let own_tag = match &plan.codec {
        Codec::Value(value)
            if list.is_none()
                && matches!(value.element, Element::Plain)
                && plan.place.chunk.is_none()
                && plan.place.form.is_none() =>
        {
            let ty = value.element_ty;
            Some(quote!(.map_err(|e| match <#ty as #rt::Decode>::IFF_TAG {
                ::core::option::Option::Some(__tag) => e.within(#rt::Segment::Chunk(__tag)),
                ::core::option::Option::None => e,
            })))
        }
        _ => None,
    };
    let form = plan.place.form.map(|form_type| {
        let form_type = tag_tokens(form_type);
        quote!(.map_err(|e| e.within(#rt::Segment::Chunk(#form_type))))
    });
    quote!(#checked #own_tag #chunk #form)
}

/// The function through which a binary type's reader and writer both call
/// a field's check.
pub fn check_fn_ident(field: &Ident) -> Ident {
    format_ident!("__schema_check_{}", field)
}

/// The function of a checked field, on the type: the check called on the
/// value (of type `ty`) and the values it names, each by reference, or
/// an inline condition over them. Reader and writer both call it, so a
/// check that does not fit is one error, at the check.
pub fn check_fn(rt: &Runtime, field: &Ident, ty: &TokenStream, check: &FieldCheck) -> TokenStream {
    match check {
        FieldCheck::Function { path, args } => {
            let function = check_fn_ident(field);
            let names: Vec<Ident> = args
                .iter()
                .map(|arg| format_ident!("__arg_{}", arg.ident()))
                .collect();
            let types = args.iter().map(arg_type);
            // Spanned at the function, so a signature that does not fit is
            // an error there.
            let call = quote_spanned!(path.span()=> #path(__value #(, #names)*));
            quote! {
                #[doc(hidden)]
                #[allow(clippy::ptr_arg)]
                fn #function(
                    __value: &#ty,
                    #(#names: &#types,)*
                ) -> ::core::result::Result<(), #rt::Refusal> {
                    #call
                }
            }
        }
        FieldCheck::Inline {
            expression,
            message,
        } => {
            let own = expression
                .own
                .then(|| quote!(let #field = ::core::clone::Clone::clone(__value);));
            let condition = &expression.expr;
            expressions::function(
                expression,
                quote!(__value: &#ty,),
                quote!(::core::result::Result<(), #rt::Refusal>),
                quote! {
                    #own
                    if #condition {
                        ::core::result::Result::Ok(())
                    } else {
                        ::core::result::Result::Err(#rt::Refusal::new(#message))
                    }
                },
            )
        }
    }
}

/// The type of a value a check is given: a count's `usize`, a
/// parameter's or a field's declared type.
fn arg_type(arg: &CheckArg) -> TokenStream {
    match arg {
        CheckArg::Count(_) => quote!(usize),
        CheckArg::Field(_, ty) | CheckArg::Param(_, ty) => quote!(#ty),
    }
}

/// The values a check names, each by reference, on `side`.
fn check_args(args: &[CheckArg], side: Side) -> impl Iterator<Item = TokenStream> + '_ {
    args.iter().map(move |arg| match arg {
        CheckArg::Count(count) => {
            let count = count_local(count);
            quote!(&#count)
        }
        CheckArg::Field(name, _) => {
            let place = place_of(name, false, side);
            quote!(&#place)
        }
        CheckArg::Param(name, _) => {
            let place = place_of(name, true, side);
            quote!(&#place)
        }
    })
}

/// The value a name stands for, cloned.
pub fn value_of(name: &Ident, is_param: bool, side: Side) -> TokenStream {
    let place = place_of(name, is_param, side);
    quote!(::core::clone::Clone::clone(&#place))
}

/// The value a `with` field or nested type is passed, on `side`: a name's
/// value cloned, or the constant itself.
pub fn arg_value(rt: &Runtime, value: &PassValue, side: Side) -> TokenStream {
    match value {
        PassValue::Name(name) => passed_value(rt, name, side),
        PassValue::Len(list) => {
            let place = resolved_place(list, side);
            quote!(#rt::list_len(&#place))
        }
        PassValue::Expr(constant) => quote!(#constant),
    }
}

/// The value a name passes on, on `side`: a field's or parameter's value
/// cloned, or for a `Count<_>` field the count either direction holds
/// (read, or derived from the lists it counts), as the receiving
/// parameter's integer type.
pub fn passed_value(rt: &Runtime, name: &Resolved, side: Side) -> TokenStream {
    match name.held {
        Held::Count => {
            let count = count_local(&name.ident);
            let label = name.ident.to_string();
            quote!(#rt::count_as(#label, #count)?)
        }
        Held::Field | Held::Param | Held::Calc => resolved_value(name, side),
    }
}

/// A resolved name's value, cloned.
pub fn resolved_value(name: &Resolved, side: Side) -> TokenStream {
    value_of(&name.ident, name.held == Held::Param, side)
}

/// Where a resolved name's value is.
pub fn resolved_place(name: &Resolved, side: Side) -> TokenStream {
    place_of(&name.ident, name.held == Held::Param, side)
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

/// The context an enum's variant gives its value of type `ty`: the
/// constants and the enum's own parameters it passes (`args`).
pub fn variant_context(
    rt: &Runtime,
    encoding: Encoding,
    ty: &Type,
    args: &[ContextArg],
) -> TokenStream {
    nested_context(
        rt,
        encoding,
        ty,
        &Pass::of_enum(args),
        |name| {
            let name = &name.ident;
            quote!(::core::clone::Clone::clone(&__context.#name))
        },
        |name| {
            let name = &name.ident;
            quote!(__context.#name)
        },
    )
}

/// The context an element of type `ty` gets: the passed values (a name's
/// by `value`, a list's length from its place by `place`), or `()` when
/// none are passed (a type that needs context then fails to compile, with
/// the message of `NoContext`, at the field's type).
pub fn nested_context(
    rt: &Runtime,
    encoding: Encoding,
    ty: &Type,
    pass: &[Pass],
    value: impl Fn(&Resolved) -> TokenStream,
    place: impl Fn(&Resolved) -> TokenStream,
) -> TokenStream {
    let context_type = encoding.context_type(ty.span());
    if pass.is_empty() {
        return quote_spanned! {ty.span()=>
            <<#ty as #rt::HasContext>::#context_type as #rt::NoContext>::none()
        };
    }
    let params = pass.iter().map(|arg| &arg.param);
    let values = pass.iter().map(|arg| match &arg.value {
        PassValue::Name(name) => value(name),
        PassValue::Len(list) => {
            let place = place(list);
            quote!(#rt::list_len(&#place))
        }
        PassValue::Expr(constant) => quote!(#constant),
    });
    let context = quote_spanned!(ty.span()=> <#ty as #rt::HasContext>::#context_type);
    match encoding {
        Encoding::Binary => quote! {
            {
                type __Context = #context;
                __Context { #(#params: #values),* }
            }
        },
        // Gathered through `TakesTextContext`, so that values passed to a
        // type whose text takes none are refused once, by name.
        Encoding::Text => quote! {
            {
                type __Values = <#context as #rt::TakesTextContext>::Values;
                <#context as ::core::convert::From<__Values>>::from(
                    __Values { #(#params: #values),* }
                )
            }
        },
    }
}
