//! Where a text record's fields stand: the lines they take and share,
//! what a reader expects there, and the marks a `check` points at.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;

use crate::attr::TextForm;
use crate::expand::paths::Runtime;
use crate::expand::tokens::str_lit;
use crate::plan::{Codec, Element, Presence, Repeat, Text, TextPlan, Value};

/// Where a record field of tokens stands: on a line of its own, or on a
/// line it shares with the fields around it (`same_line`).
#[derive(Clone, Copy)]
pub(super) struct Line {
    /// The field starts the line (it does not continue the previous one's).
    pub(super) opens: bool,
    /// The field ends the line (the next field does not continue it).
    pub(super) closes: bool,
}

impl Line {
    pub(super) fn of(plans: &[TextPlan], index: usize) -> Line {
        let continues = |index: usize| plans.get(index).is_some_and(|plan| plan.place.same_line);
        Line {
            opens: !continues(index),
            closes: !continues(index + 1),
        }
    }

    pub(super) fn own(self) -> bool {
        self.opens && self.closes
    }
}

/// Fewest lines a field takes.
pub(super) fn min_lines(rt: &Runtime, plan: &TextPlan) -> TokenStream {
    if plan.place.same_line {
        return quote!(0u64);
    }
    match &plan.codec {
        Codec::With(never, ..) | Codec::Calc(never, _) | Codec::Padding(never, _) => {
            match *never {}
        }
        Codec::Style(()) => quote!(0u64),
        Codec::Value(Value {
            presence: Some(Presence::If(..)),
            ..
        })
        | Codec::Value(Value {
            repeat:
                Some(
                    Repeat::CountField(_)
                    | Repeat::CountParam(_)
                    | Repeat::CountExpr(_)
                    | Repeat::ToEnd,
                ),
            ..
        }) => quote!(0u64),
        Codec::Value(Value {
            repeat: None,
            presence: None,
            element: Element::Plain,
            element_ty,
            ..
        }) => quote!(<#element_ty as #rt::TextRead>::MIN_LINES),
        Codec::Magic(_) | Codec::Count(_) | Codec::Value(_) => quote!(1u64),
    }
}

/// Fewest lines one element of a list takes.
pub(super) fn element_min_lines(rt: &Runtime, value: &Value<Text>) -> TokenStream {
    let ty = value.element_ty;
    match value.element {
        Element::String(never, _) => match never {},
        Element::Plain => quote!(<#ty as #rt::TextRead>::MIN_LINES),
        Element::Text(_, _) => quote!(1u64),
    }
}

/// What a reader expects of a line of the field's tokens, for errors.
pub(super) fn expected_line(rt: &Runtime, plan: &TextPlan) -> TokenStream {
    match &plan.codec {
        Codec::Magic(constant) => {
            let expected = str_lit(&format!("`{}`", constant.shown()));
            quote!(#expected)
        }
        Codec::Count(_) => quote!("a count"),
        Codec::Value(value) => match value.element {
            Element::String(never, _) => match never {},
            Element::Text((), TextForm::Vector) => quote!("a `| ... |` line"),
            Element::Text((), TextForm::AngleBrackets) => quote!("a `<name>` line"),
            Element::Plain | Element::Text((), TextForm::Line | TextForm::Comment) => {
                let ty = value.element_ty;
                quote_spanned!(ty.span()=> <#ty as #rt::TextTokens>::EXPECTED)
            }
        },
        Codec::With(never, ..) | Codec::Calc(never, _) | Codec::Padding(never, _) => {
            match *never {}
        }
        Codec::Style(()) => quote!("nothing"),
    }
}

/// A value read by its type's own `TextRead`, which may be a record of
/// several lines.
pub(super) fn is_nested(value: &Value<Text>) -> bool {
    matches!(value.element, Element::Plain) && value.presence.is_none()
}

pub(super) fn mark_local(name: &syn::Ident) -> syn::Ident {
    format_ident!("__mark_{}", name)
}

pub(super) fn marks_local(name: &syn::Ident) -> syn::Ident {
    format_ident!("__marks_{}", name)
}

/// Whether the field is a list whose elements a check may point at.
pub(super) fn has_elements(plan: &TextPlan) -> bool {
    matches!(
        &plan.codec,
        Codec::Value(Value {
            repeat: Some(_),
            flow: false,
            ..
        })
    )
}
