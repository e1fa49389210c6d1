//! `Layout` of a text type: the field table the format reference is
//! generated from.

use proc_macro2::TokenStream;
use quote::quote;

use super::lines::{is_nested, Line};
use crate::ast::is_named;
use crate::attr::TextForm;
use crate::expand::heading::Heading;
use crate::expand::layout::{
    context_layout, elementless_row, passed, text_layout_beside_binary_impl, type_layout_impl,
    type_text, SizesFrom, TypeLayout,
};
use crate::expand::paths::Runtime;
use crate::expand::tokens::str_lit;
use crate::plan::{Codec, Element, Presence, Repeat, Text, TextPlan, TextType, Value};

/// Whether a text layout is its type's only encoding, or one of two.
#[derive(Clone, Copy)]
pub enum Role {
    /// Its layout is the type's `Layout` (and `TextLayout`).
    Only,
    /// Beside a binary layout, which is the type's `Layout`: the text one
    /// is its `TextLayout` alone.
    BesideBinary,
}

pub(super) fn layout_impl(rt: &Runtime, ty: &TextType, role: Role) -> TokenStream {
    let plans = &ty.fields;
    let one_line = ty.shape.one_line;
    let fields = plans.iter().enumerate().map(|(index, plan)| {
        let field = plan.field;
        let line = Line::of(plans, index);
        let name = str_lit(&field.ident.to_string());
        let rust_type = str_lit(&type_text(field.ty));
        let encoding = field_encoding(rt, plan, line, one_line);
        let count = match &plan.codec {
            Codec::Value(Value {
                repeat: Some(repeat),
                ..
            }) => {
                let source = match repeat {
                    Repeat::Prefix(never, _) => match *never {},
                    Repeat::CountLine(()) => "count line".to_owned(),
                    Repeat::CountParam(count) => format!("context `{count}`"),
                    Repeat::CountField(count) => format!("field `{count}`"),
                    Repeat::CountExpr(count) => format!("`{}`", count.text),
                    Repeat::ToEnd => "the end of the text".to_owned(),
                    Repeat::Until(never, _) => match *never {},
                };
                let source = str_lit(&source);
                quote!(::core::option::Option::Some(#source))
            }
            _ => quote!(::core::option::Option::None),
        };
        let doc = str_lit(&field.doc);
        let nested = nested_layout(rt, &plan.codec, line, one_line);
        let head = quote! {
            name: #name, rust_type: #rust_type, encoding: #encoding,
            byte_order: #rt::ByteOrder::Text, count: #count,
        };
        let offset = quote!(::core::option::Option::None);
        elementless_row(rt, head, offset, quote!(doc: #doc, nested: #nested,))
    });
    let layout = TypeLayout {
        byte_order: quote!(#rt::ByteOrder::Text),
        form: None,
        chunk: None,
        context: context_layout(rt, ty.params),
        chosen_by: None,
        fields: fields.collect(),
        sizes: SizesFrom::Text,
    };
    match role {
        Role::Only => type_layout_impl(rt, Heading::of(ty), ty.doc, layout),
        Role::BesideBinary => text_layout_beside_binary_impl(rt, ty.ident, ty.doc, layout),
    }
}

/// The layout of the record a field holds, through the trait that reads it.
pub(super) fn nested_layout(
    rt: &Runtime,
    codec: &Codec<Text>,
    line: Line,
    one_line: bool,
) -> TokenStream {
    let Codec::Value(value) = codec else {
        return quote!(::core::option::Option::None);
    };
    let ty = value.element_ty;
    let in_line = one_line || !line.own() || !is_nested(value);
    match value.element {
        Element::Plain if !in_line || !value.is_tokens() => {
            quote!(<#ty as #rt::TextRead>::NESTED_LAYOUT)
        }
        Element::String(never, _) => match never {},
        Element::Plain | Element::Text((), TextForm::Vector) => {
            quote!(<#ty as #rt::TextTokens>::NESTED_LAYOUT)
        }
        Element::Text(_, TextForm::Line | TextForm::Comment)
        | Element::Text(_, TextForm::AngleBrackets) => quote!(::core::option::Option::None),
    }
}

/// How the field is stored, for the layout docs. A value on lines of its
/// own that its type reads may be a record of several lines (described by
/// its own table) or a line of tokens: which one is the type's to say.
pub(super) fn field_encoding(
    rt: &Runtime,
    plan: &TextPlan,
    line: Line,
    one_line: bool,
) -> TokenStream {
    let single = str_lit(&encoding(plan, line, one_line));
    match &plan.codec {
        Codec::Value(value)
            if is_nested(value)
                && value.repeat.is_none()
                && !one_line
                && line.own()
                && !is_number_or_word(value.element_ty) =>
        {
            let ty = value.element_ty;
            let lines = format!("the lines of `{}` (its own table)", type_text(ty));
            let lines = str_lit(&match passed(&value.pass) {
                Some(passed) => format!("{lines}, given {passed}"),
                None => lines,
            });
            quote!(if <#ty as #rt::TextRead>::MIN_LINES == 1 { #single } else { #lines })
        }
        _ => quote!(#single),
    }
}

/// Numbers, words and arrays of them: one line, whatever reads them.
pub(super) fn is_number_or_word(ty: &syn::Type) -> bool {
    const NAMES: [&str; 12] = [
        "u8",
        "u16",
        "u32",
        "u64",
        "i8",
        "i16",
        "i32",
        "i64",
        "f32",
        "f64",
        "bool",
        "RawString",
    ];
    match ty {
        syn::Type::Array(array) => is_number_or_word(&array.elem),
        _ => NAMES.iter().any(|name| is_named(ty, name)),
    }
}

pub(super) fn encoding(plan: &TextPlan, line: Line, one_line: bool) -> String {
    let value = match &plan.codec {
        Codec::With(never, ..) | Codec::Calc(never, _) | Codec::Padding(never, _) => {
            match *never {}
        }
        Codec::Style(()) => {
            return "not stored: the file's line ending and number style".to_owned()
        }
        Codec::Magic(constant) if one_line || !line.own() => {
            format!("constant `{}`", constant.shown())
        }
        Codec::Magic(constant) => return format!("constant line `{}`", constant.shown()),
        Codec::Count(users) => {
            let names: Vec<String> = users
                .iter()
                .map(|user| format!("`{}`", user.field))
                .collect();
            let count = format!("element count of {}", names.join(", "));
            if line.own() {
                return format!("count line: {count}");
            }
            count
        }
        Codec::Value(value) => value_encoding(value, line, one_line),
    };
    match (line.opens, line.closes, one_line) {
        (_, _, true) | (true, true, false) => value,
        (true, false, false) => format!("line: {value}, then the next field on the same line"),
        (false, _, false) => format!("{value}, on the same line"),
    }
}

pub(super) fn value_encoding(value: &Value<Text>, line: Line, one_line: bool) -> String {
    let ty = value.element_ty;
    let element = match value.element {
        Element::Plain if is_named(ty, "RawString") => "one word".to_owned(),
        Element::String(never, _) => match never {},
        Element::Plain => type_text(ty),
        Element::Text(_, TextForm::Line) => "whole line".to_owned(),
        Element::Text(_, TextForm::Comment) => "`//` comment line".to_owned(),
        Element::Text(_, TextForm::Vector) => format!("`| … |` of {}", type_text(ty)),
        Element::Text(_, TextForm::AngleBrackets) => "`<name>`, spaces allowed".to_owned(),
    };
    let element = match &value.presence {
        Some(Presence::NoneWord(_, word)) => format!("{element} or `{}` for none", word.value()),
        Some(Presence::Flag(never, _) | Presence::NextTag(never)) => match *never {},
        Some(Presence::If(..)) | None => element,
    };
    let element = match (&value.element, one_line) {
        (Element::Plain | Element::Text(_, TextForm::Vector | TextForm::AngleBrackets), false)
            if value.repeat.is_none() && line.own() =>
        {
            format!("line: {element}")
        }
        _ => element,
    };
    let repeated = match &value.repeat {
        None => element,
        Some(Repeat::Prefix(never, _)) => match *never {},
        Some(Repeat::CountLine(())) if value.flow => format!(
            "count line, then that many × {element}, their tokens in any whitespace (line \
             breaks kept as read)"
        ),
        Some(Repeat::CountLine(())) => {
            format!("count line, then that many × {element}")
        }
        Some(Repeat::CountField(count) | Repeat::CountParam(count)) => {
            format!("`{count}` × {element}")
        }
        Some(Repeat::CountExpr(count)) => format!("`{}` × {element}", count.text),
        Some(Repeat::ToEnd) => format!("{element}, repeated to the end of the text"),
        Some(Repeat::Until(never, _)) => match *never {},
    };
    let present = match &value.presence {
        Some(Presence::If(condition, _)) => {
            format!("{repeated}, present when {}", condition.doc())
        }
        Some(Presence::Flag(never, _) | Presence::NextTag(never)) => match *never {},
        Some(Presence::NoneWord(..)) | None => repeated,
    };
    match passed(&value.pass) {
        Some(passed) => format!("{present}, given {passed}"),
        None => present,
    }
}
