//! `TextWrite`: the reader's mirror; a checked field's `check` runs on
//! what was written, so the writer refuses what the reader would.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;

use super::lines::{has_elements, is_nested, mark_local, marks_local, Line};
use crate::attr::TextForm;
use crate::expand::context::{check_call_on, Side};
use crate::expand::expressions::{call, element_context, presence_check};
use crate::expand::names::count_local;
use crate::expand::paths::Runtime;
use crate::expand::tokens::str_lit;
use crate::plan::{Codec, CountUser, Element, Presence, Repeat, Text, TextPlan, TextType, Value};

/// `let __count_n = shared_len("n", &[("a", Some(self.a.len())), ...])?;`
pub(super) fn shared_count(rt: &Runtime, plan: &TextPlan, users: &[CountUser]) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = count_local(name);
    let lengths = users.iter().map(|user| {
        let user = &user.field;
        let user_label = str_lit(&user.to_string());
        quote!((#user_label, ::core::option::Option::Some(self.#user.len())))
    });
    quote! {
        let #local = #rt::shared_len(#label, &[#(#lengths),*])?;
    }
}

/// A field's write statements, then, when it has a `check`, the check the
/// reader runs, on the value written: the writer refuses what the reader
/// would, at the same line and column (the text written is dropped with
/// the error).
pub(super) fn checked_write(rt: &Runtime, plan: &TextPlan, write: TokenStream) -> TokenStream {
    let Some(check) = &plan.check else {
        return write;
    };
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let mark = mark_local(name);
    let (marks_init, marks) = if has_elements(plan) {
        let marks = marks_local(name);
        (
            quote!(let mut #marks: ::std::vec::Vec<usize> = ::std::vec::Vec::new();),
            quote!(&#marks),
        )
    } else {
        (TokenStream::new(), quote!(&[]))
    };
    let call = check_call_on(name, check, &quote!(self.#name), Side::Write);
    quote! {
        let #mark = __writer.mark();
        #marks_init
        #write
        if #rt::checking() {
            #rt::checked_written(__writer, #mark, #marks, #call)
                .map_err(|e| e.in_field(#label))?;
        }
    }
}

/// The type's own check on write: where the record starts, and the check
/// once it is written.
pub(super) fn written_value_check(rt: &Runtime, ty: &TextType) -> (TokenStream, TokenStream) {
    let Some(path) = ty.check else {
        return (TokenStream::new(), TokenStream::new());
    };
    let call = quote_spanned!(path.span()=> #path(self));
    (
        quote!(let __start_mark = __writer.mark();),
        quote! {
            if #rt::checking() {
                #rt::checked_written(__writer, __start_mark, &[], #call)?;
            }
        },
    )
}

/// An expression writing one element of the value's tokens to `writer`
/// (a line already open); `element` is a reference to it.
pub(super) fn write_value_tokens(
    rt: &Runtime,
    value: &Value<Text>,
    writer: &TokenStream,
    element: &TokenStream,
) -> TokenStream {
    match value.element {
        Element::Text(_, TextForm::Vector) => quote! {
            #rt::write_vector(#writer, |__t| #rt::TextTokens::write_tokens(#element, __t))
        },
        Element::Text(_, TextForm::AngleBrackets) => {
            quote!(#rt::write_angle_bracketed(#writer, #element))
        }
        Element::String(never, _) => match never {},
        Element::Plain | Element::Text((), TextForm::Line | TextForm::Comment) => {
            match &value.presence {
                Some(Presence::NoneWord(_, word)) => quote! {
                    #rt::write_or_none(#writer, #word, (#element).as_ref(), |__t, __v| {
                        #rt::TextTokens::write_tokens(__v, __t)
                    })
                },
                _ => {
                    let ty = value.element_ty;
                    quote_spanned!(ty.span()=> <#ty as #rt::TextTokens>::write_tokens(#element, #writer))
                }
            }
        }
    }
}

/// The statements writing a field of tokens within a record, on its own
/// line or on one it shares; errors name the field.
pub(super) fn write_token_field(rt: &Runtime, plan: &TextPlan, line: Line) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let ty = plan.field.ty;
    let tokens = |writer: &TokenStream| match &plan.codec {
        Codec::Magic(constant) => {
            let words = constant.words();
            quote!(#rt::write_keywords(#writer, #words))
        }
        Codec::Count(_) => {
            let count = count_local(name);
            quote!(#writer.count_token::<<#ty as #rt::CountField>::Int>(#count))
        }
        Codec::Value(value) => write_value_tokens(rt, value, writer, &quote!(&self.#name)),
        Codec::With(never, ..) | Codec::Calc(never, _) | Codec::Padding(never, _) => {
            match *never {}
        }
        Codec::Style(()) => TokenStream::new(),
    };
    if line.own() {
        let tokens = tokens(&quote!(__w));
        return quote! {
            #rt::write_token_line(__writer, |__w| #tokens).map_err(|e| e.in_field(#label))?;
        };
    }
    let tokens = tokens(&quote!(__writer));
    let open = line
        .opens
        .then(|| quote!(__writer.begin_line().map_err(|e| e.in_field(#label))?;));
    let close = line
        .closes
        .then(|| quote!(__writer.end_line().map_err(|e| e.in_field(#label))?;));
    quote! {
        #open
        #tokens.map_err(|e| e.in_field(#label))?;
        #close
    }
}

pub(super) fn write_field(rt: &Runtime, plan: &TextPlan, line: Line) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let ty = plan.field.ty;
    match &plan.codec {
        // Used by `TextSchema::to_text` before anything is written.
        Codec::With(never, ..) | Codec::Calc(never, _) | Codec::Padding(never, _) => {
            match *never {}
        }
        Codec::Style(()) => TokenStream::new(),
        Codec::Count(_) if line.own() => {
            let count = count_local(name);
            quote! {
                __writer
                    .count_line::<<#ty as #rt::CountField>::Int>(#count)
                    .map_err(|e| e.in_field(#label))?;
            }
        }
        Codec::Value(value) if !value.is_tokens() || (line.own() && is_nested(value)) => {
            let nested = element_context(rt, value, true, Side::Write);
            let marks = (plan.check.is_some() && has_elements(plan)).then(|| marks_local(name));
            let write = write_value(rt, value, &quote!(&self.#name), marks.as_ref());
            quote! {
                {
                    let __element_context = #nested;
                    #write
                }
                .map_err(|e| e.in_field(#label))?;
            }
        }
        Codec::Magic(_) | Codec::Count(_) | Codec::Value(_) => write_token_field(rt, plan, line),
    }
}

/// The writing half of [`read_value`]; `value_ref` is a reference to the
/// field's value.
pub(super) fn write_value(
    rt: &Runtime,
    value: &Value<Text>,
    value_ref: &TokenStream,
    marks: Option<&syn::Ident>,
) -> TokenStream {
    let write = |value_ref: &TokenStream| {
        let element = write_element(rt, value, &quote!(__w), &quote!(__e));
        let element = match marks {
            Some(marks) => quote!({
                #marks.push(__w.mark());
                #element
            }),
            None => element,
        };
        match &value.repeat {
            None => write_element(rt, value, &quote!(__writer), value_ref),
            Some(Repeat::Prefix(never, _)) => match *never {},
            Some(Repeat::CountLine(())) if value.flow => quote! {
                #rt::write_flowing_list(__writer, #value_ref, |__w, __e| {
                    #rt::TextTokens::write_tokens(__e, __w)
                })
            },
            Some(Repeat::CountLine(())) => {
                quote!(#rt::write_list(__writer, #value_ref, |__w, __e| #element))
            }
            Some(Repeat::CountParam(count)) => {
                let count_label = str_lit(&count.to_string());
                quote! {
                    #rt::context_len(#count_label, ::core::clone::Clone::clone(&__context.#count))
                        .and_then(|__len| #rt::check_len((#value_ref).len(), #count_label, __len))
                        .and_then(|()| #rt::write_elements(__writer, #value_ref, |__w, __e| #element))
                }
            }
            Some(Repeat::CountExpr(expression)) => {
                let len = call(expression, Side::Write, &[]);
                let label = &expression.text;
                quote! {
                    #len
                        .and_then(|__len| #rt::check_len((#value_ref).len(), #label, __len))
                        .and_then(|()| #rt::write_elements(__writer, #value_ref, |__w, __e| #element))
                }
            }
            Some(Repeat::CountField(_) | Repeat::ToEnd) => {
                quote!(#rt::write_elements(__writer, #value_ref, |__w, __e| #element))
            }
            Some(Repeat::Until(never, _)) => match *never {},
        }
    };
    match &value.presence {
        Some(Presence::If(condition, expression)) => {
            let check = presence_check(rt, condition, expression, quote!((#value_ref).is_some()));
            let present = write(&quote!(__v));
            quote! {
                #check
                .and_then(|()| match (#value_ref).as_ref() {
                    ::core::option::Option::Some(__v) => #present,
                    ::core::option::Option::None => ::core::result::Result::Ok(()),
                })
            }
        }
        Some(Presence::Flag(never, _) | Presence::NextTag(never)) => match *never {},
        Some(Presence::NoneWord(..)) | None => write(value_ref),
    }
}

/// One element of a value in a record, on lines of its own.
pub(super) fn write_element(
    rt: &Runtime,
    value: &Value<Text>,
    writer: &TokenStream,
    element: &TokenStream,
) -> TokenStream {
    match value.element {
        Element::String(never, _) => match never {},
        Element::Plain => {
            quote!(#rt::TextWrite::write_text(#element, #writer, &__element_context))
        }
        Element::Text(_, TextForm::Vector | TextForm::AngleBrackets) => {
            let tokens = write_value_tokens(rt, value, &quote!(__v), element);
            quote!(#rt::write_token_line(#writer, |__v| #tokens))
        }
        Element::Text(_, TextForm::Line) => quote!(#rt::write_line_string(#writer, #element)),
        Element::Text(_, TextForm::Comment) => quote!(#rt::write_comment(#writer, #element)),
    }
}

/// A field of a `one_line` record: its tokens.
pub(super) fn write_one_line_field(rt: &Runtime, plan: &TextPlan) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let write = match &plan.codec {
        Codec::Magic(constant) => {
            let words = constant.words();
            quote!(#rt::write_keywords(__writer, #words))
        }
        Codec::Value(value) => match &value.presence {
            Some(Presence::If(condition, expression)) => {
                let check = presence_check(rt, condition, expression, quote!(self.#name.is_some()));
                let tokens = write_value_tokens(rt, value, &quote!(__writer), &quote!(__v));
                quote! {
                    #check
                    .and_then(|()| match self.#name.as_ref() {
                        ::core::option::Option::Some(__v) => #tokens,
                        ::core::option::Option::None => ::core::result::Result::Ok(()),
                    })
                }
            }
            Some(Presence::Flag(never, _) | Presence::NextTag(never)) => match *never {},
            Some(Presence::NoneWord(..)) | None => {
                write_value_tokens(rt, value, &quote!(__writer), &quote!(&self.#name))
            }
        },
        Codec::With(never, ..) | Codec::Calc(never, _) | Codec::Padding(never, _) => {
            match *never {}
        }
        Codec::Style(()) | Codec::Count(_) => return TokenStream::new(),
    };
    quote! {
        #write.map_err(|e| e.in_field(#label))?;
    }
}
