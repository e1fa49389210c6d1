//! `TextRead`: a record's fields in order, each error tagged with the
//! field's name, each checked field's `check` run where it was read.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;

use super::lines::{
    element_min_lines, expected_line, has_elements, is_nested, mark_local, marks_local, Line,
};
use crate::attr::TextForm;
use crate::expand::context::{check_call_on, Side};
use crate::expand::expressions::{call, element_context, read_when};
use crate::expand::names::{count_local, field_local, type_check_call, value_of_locals};
use crate::expand::paths::Runtime;
use crate::expand::tokens::str_lit;
use crate::plan::{Codec, Element, Presence, Repeat, Text, TextPlan, TextType, Value};

/// A record's first statement and its last ones: the value of its fields,
/// checked by the type's own `check` (at the record's first token) when it
/// has one.
pub(super) fn built_value(rt: &Runtime, ty: &TextType) -> (TokenStream, TokenStream) {
    let value = value_of_locals(ty);
    match ty.check {
        Some(path) => {
            let call = type_check_call(path, quote!(&__value));
            let finish = quote! {
                let __value = #value;
                if #rt::checking() {
                    #rt::checked(__reader, __start_mark, &[], #call)?;
                }
                ::core::result::Result::Ok(__value)
            };
            (quote!(let __start_mark = __reader.mark();), finish)
        }
        None => (
            TokenStream::new(),
            quote!(::core::result::Result::Ok(#value)),
        ),
    }
}

/// An expression reading one element of the value's tokens from `reader`
/// (a line already open).
pub(super) fn read_value_tokens(
    rt: &Runtime,
    value: &Value<Text>,
    reader: &TokenStream,
) -> TokenStream {
    let ty = value.element_ty;
    let tokens = quote_spanned!(ty.span()=> <#ty as #rt::TextTokens>::read_tokens);
    match value.element {
        Element::Text(_, TextForm::Vector) => quote!(#rt::read_vector(#reader, #tokens)),
        Element::Text(_, TextForm::AngleBrackets) => quote!(#rt::read_angle_bracketed(#reader)),
        Element::String(never, _) => match never {},
        Element::Plain | Element::Text((), TextForm::Line | TextForm::Comment) => {
            match &value.presence {
                Some(Presence::NoneWord(_, word)) => {
                    quote!(#rt::read_or_none(#reader, #word, #tokens))
                }
                _ => quote!(#tokens(#reader)),
            }
        }
    }
}

/// The statements reading a field of tokens within a record, on its own
/// line or on one it shares; errors name the field.
pub(super) fn read_token_field(rt: &Runtime, plan: &TextPlan, line: Line) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = field_local(name);
    let ty = plan.field.ty;
    let tokens = |reader: &TokenStream| match &plan.codec {
        Codec::Magic(constant) => {
            let words = constant.words();
            quote!(#rt::read_keywords(#reader, #words))
        }
        Codec::Count(_) => quote!(#reader.count_token::<<#ty as #rt::CountField>::Int>()),
        Codec::Value(value) => read_value_tokens(rt, value, reader),
        Codec::With(never, ..) | Codec::Calc(never, _) | Codec::Padding(never, _) => {
            match *never {}
        }
        Codec::Style(()) => TokenStream::new(),
    };
    let assign = match &plan.codec {
        Codec::Count(_) => {
            let count = count_local(name);
            quote! {
                let #local: #ty = ::core::default::Default::default();
                let #count
            }
        }
        _ => quote!(let #local: #ty),
    };
    let expected = expected_line(rt, plan);
    if line.own() {
        let tokens = tokens(&quote!(__r));
        return quote! {
            #assign = #rt::read_token_line(__reader, #expected, |__r| #tokens)
                .map_err(|e| e.in_field(#label))?;
        };
    }
    let tokens = tokens(&quote!(__reader));
    let open = line
        .opens
        .then(|| quote!(__reader.begin_line(#expected).map_err(|e| e.in_field(#label))?;));
    let close = line
        .closes
        .then(|| quote!(__reader.end_line().map_err(|e| e.in_field(#label))?;));
    quote! {
        #open
        #assign = #tokens.map_err(|e| e.in_field(#label))?;
        #close
    }
}

/// The statements reading one field, inside its segment of the byte
/// map's path.
pub(super) fn read_field(rt: &Runtime, plan: &TextPlan, line: Line) -> TokenStream {
    let label = str_lit(&plan.field.ident.to_string());
    let entered = format_ident!("__entered_{}", plan.field.ident);
    let statements = read_field_statements(rt, plan, line);
    quote! {
        let #entered = #rt::map_enter(#rt::Segment::Field(#label));
        #statements
        ::core::mem::drop(#entered);
    }
}

pub(super) fn read_field_statements(rt: &Runtime, plan: &TextPlan, line: Line) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = field_local(name);
    let ty = plan.field.ty;
    let read = match &plan.codec {
        // Filled in after the other fields (see `record_impls`).
        Codec::With(never, ..) | Codec::Calc(never, _) | Codec::Padding(never, _) => {
            match *never {}
        }
        Codec::Style(()) => return TokenStream::new(),
        Codec::Count(_) if line.own() => {
            let count = count_local(name);
            quote! {
                let #count = __reader
                    .count_line::<<#ty as #rt::CountField>::Int>()
                    .map_err(|e| e.in_field(#label))?;
                let #local: #ty = ::core::default::Default::default();
            }
        }
        Codec::Value(value) if !value.is_tokens() || (line.own() && is_nested(value)) => {
            let nested = element_context(rt, value, true, Side::Read);
            let read = read_value(rt, plan, value);
            quote! {
                let #local: #ty = {
                    let __element_context = #nested;
                    #read
                }
                .map_err(|e| e.in_field(#label))?;
            }
        }
        Codec::Magic(_) | Codec::Count(_) | Codec::Value(_) => read_token_field(rt, plan, line),
    };
    let (mark, marks) = check_marks(plan);
    let check = check_call(rt, plan);
    quote! {
        #mark
        #marks
        #read
        #check
    }
}

/// The mark a checked field is read after, and its elements' for a list.
pub(super) fn check_marks(plan: &TextPlan) -> (TokenStream, TokenStream) {
    if plan.check.is_none() {
        return (TokenStream::new(), TokenStream::new());
    }
    let name = plan.field.ident;
    let mark = mark_local(name);
    let marks = marks_local(name);
    let elements = has_elements(plan).then(|| quote!(let mut #marks = ::std::vec::Vec::new();));
    (quote!(let #mark = __reader.mark();), quote!(#elements))
}

/// `if checking { checked(..., path(&value, &args...)) }`: a checked
/// field's value, once read, must satisfy its function.
pub(super) fn check_call(rt: &Runtime, plan: &TextPlan) -> TokenStream {
    let Some(check) = &plan.check else {
        return TokenStream::new();
    };
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = field_local(name);
    let mark = mark_local(name);
    let marks = if has_elements(plan) {
        let marks = marks_local(name);
        quote!(&#marks)
    } else {
        quote!(&[])
    };
    let call = check_call_on(name, check, &quote!(#local), Side::Read);
    quote! {
        if #rt::checking() {
            #rt::checked(__reader, #mark, #marks, #call)
                .map_err(|e| e.in_field(#label))?;
        }
    }
}

/// An expression reading a value that is not tokens within a line: a
/// nested record, a whole line, a list, or a value present by a flag; its
/// elements get `__element_context`.
pub(super) fn read_value(rt: &Runtime, plan: &TextPlan, value: &Value<Text>) -> TokenStream {
    let element = read_element(rt, value, &quote!(__r));
    let element = if plan.check.is_some() {
        let marks = marks_local(plan.field.ident);
        quote!({
            #marks.push(__r.mark());
            #element
        })
    } else {
        element
    };
    let min_lines = element_min_lines(rt, value);
    let ty = value.element_ty;
    let read = match &value.repeat {
        None => read_element(rt, value, &quote!(__reader)),
        Some(Repeat::Prefix(never, _)) => match *never {},
        Some(Repeat::CountLine(())) if value.flow => quote! {
            #rt::read_flowing_list(__reader, <#ty as #rt::TextTokens>::read_tokens)
        },
        Some(Repeat::CountLine(())) => {
            quote!(#rt::read_list(__reader, #min_lines, |__r| #element))
        }
        Some(Repeat::CountParam(count)) => {
            let count_label = str_lit(&count.to_string());
            quote! {
                #rt::context_len(#count_label, ::core::clone::Clone::clone(&__context.#count))
                    .and_then(|__len| #rt::read_counted(__reader, __len, #min_lines, |__r| #element))
            }
        }
        Some(Repeat::CountField(count)) => {
            let count = count_local(count);
            quote!(#rt::read_counted(__reader, #count, #min_lines, |__r| #element))
        }
        Some(Repeat::CountExpr(expression)) => {
            let len = call(expression, Side::Read, &[]);
            quote! {
                #len.and_then(|__len| #rt::read_counted(__reader, __len, #min_lines, |__r| #element))
            }
        }
        Some(Repeat::ToEnd) => quote!(#rt::read_lines_to_end(__reader, |__r| #element)),
        Some(Repeat::Until(never, _)) => match *never {},
    };
    match &value.presence {
        Some(Presence::If(_, expression)) => read_when(call(expression, Side::Read, &[]), read),
        Some(Presence::Flag(never, _) | Presence::NextTag(never)) => match *never {},
        Some(Presence::NoneWord(..)) | None => read,
    }
}

/// One element of a value in a record, on lines of its own.
pub(super) fn read_element(rt: &Runtime, value: &Value<Text>, reader: &TokenStream) -> TokenStream {
    let ty = value.element_ty;
    match value.element {
        Element::String(never, _) => match never {},
        Element::Plain => {
            quote!(<#ty as #rt::TextRead>::read_text(#reader, &__element_context))
        }
        Element::Text(_, TextForm::Vector | TextForm::AngleBrackets) => {
            let tokens = read_value_tokens(rt, value, &quote!(__v));
            let expected = match value.element {
                Element::Text(_, TextForm::Vector) => quote!("a `| ... |` line"),
                _ => quote!("a `<name>` line"),
            };
            quote!(#rt::read_token_line(#reader, #expected, |__v| #tokens))
        }
        Element::Text(_, TextForm::Line) => quote!(#rt::read_line_string(#reader)),
        Element::Text(_, TextForm::Comment) => quote!(#rt::read_comment(#reader)),
    }
}

/// A field of a `one_line` record: its tokens.
pub(super) fn read_one_line_field(rt: &Runtime, plan: &TextPlan) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = field_local(name);
    let ty = plan.field.ty;
    let read = match &plan.codec {
        Codec::Magic(constant) => {
            let words = constant.words();
            quote!(#rt::read_keywords(__reader, #words))
        }
        Codec::Value(value) => {
            let tokens = read_value_tokens(rt, value, &quote!(__reader));
            match &value.presence {
                Some(Presence::If(_, expression)) => {
                    read_when(call(expression, Side::Read, &[]), tokens)
                }
                Some(Presence::Flag(never, _) | Presence::NextTag(never)) => match *never {},
                Some(Presence::NoneWord(..)) | None => tokens,
            }
        }
        // `plan::text` admits none of these in a `one_line` record.
        Codec::With(never, ..) | Codec::Calc(never, _) | Codec::Padding(never, _) => {
            match *never {}
        }
        Codec::Style(()) | Codec::Count(_) => return TokenStream::new(),
    };
    let (mark, _) = check_marks(plan);
    let check = check_call(rt, plan);
    quote! {
        #mark
        let #local: #ty = #read.map_err(|e| e.in_field(#label))?;
        #check
    }
}
