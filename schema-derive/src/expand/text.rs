//! Text layouts: `TextRead`/`TextWrite` (and `TextTokens` for `one_line`
//! records), `TextSchema`, `Layout` and the round-trip test.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;

use super::context::{self, nested_context, place_of, places, value_of, Side};
use super::layout::{context_layout, passed, type_layout_impl, type_text, TypeLayout};
use super::paths::Runtime;
use super::tests::{self, Check};
use super::{count_local, field_local, str_lit};
use crate::ast::{is_named, Container};
use crate::attr::{Presence, Repeat, TextForm};
use crate::check_context::{self, is_param};
use crate::plan::{self, Codec, CountUser, Element, TextPlan, Value};

pub fn derive(rt: &Runtime, container: &Container) -> syn::Result<TokenStream> {
    let plans = plan::text(container)?;
    let one_line = container.attrs.one_line.is_some();
    let codec = if one_line {
        one_line_impls(rt, container, &plans)
    } else {
        record_impls(rt, container, &plans)
    };
    let context = context::context_items(
        rt,
        container.ident,
        container.vis,
        check_context::params(container),
    );
    let schema = schema_impl(rt, container, &plans);
    let layout = layout_impl(rt, container, &plans, one_line);
    let tests = tests::round_trip_module(rt, container, &plans, Check::Text);
    Ok(quote! {
        #context
        #codec
        #schema
        #layout
        #tests
    })
}

/// Where a record field of tokens stands: on a line of its own, or on a
/// line it shares with the fields around it (`same_line`).
#[derive(Clone, Copy)]
struct Line {
    /// The field starts the line (it does not continue the previous one's).
    opens: bool,
    /// The field ends the line (the next field does not continue it).
    closes: bool,
}

impl Line {
    fn of(plans: &[TextPlan], index: usize) -> Line {
        let continues = |index: usize| plans.get(index).is_some_and(|plan| plan.place.same_line);
        Line {
            opens: !continues(index),
            closes: !continues(index + 1),
        }
    }

    fn own(self) -> bool {
        self.opens && self.closes
    }
}

/// Fewest lines a field takes.
fn min_lines(rt: &Runtime, plan: &TextPlan) -> TokenStream {
    if plan.place.same_line {
        return quote!(0u64);
    }
    match &plan.codec {
        Codec::Style | Codec::With(..) => quote!(0u64),
        Codec::Value(Value {
            presence: Some(Presence::If(_)),
            ..
        })
        | Codec::Value(Value {
            repeat: Some(Repeat::Count(_) | Repeat::ToEnd),
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
fn element_min_lines(rt: &Runtime, value: &Value) -> TokenStream {
    let ty = value.element_ty;
    match value.element {
        Element::Plain | Element::String(_) => quote!(<#ty as #rt::TextRead>::MIN_LINES),
        Element::Text(_) => quote!(1u64),
    }
}

/// A record whose fields take their own lines.
fn record_impls(rt: &Runtime, container: &Container, plans: &[TextPlan]) -> TokenStream {
    let ident = container.ident;
    let min_lines = plans.iter().map(|plan| min_lines(rt, plan));
    // The style is known once everything else is read.
    let reads = plans
        .iter()
        .enumerate()
        .filter(|(_, plan)| !matches!(plan.codec, Codec::Style))
        .map(|(index, plan)| read_field(rt, container, plan, Line::of(plans, index)));
    let styles = plans
        .iter()
        .filter(|plan| matches!(plan.codec, Codec::Style))
        .map(|plan| {
            let local = field_local(plan.field.ident);
            // Comment lines after the last value belong to the style too.
            quote! {
                __reader.skip_comment_lines()?;
                let #local = __reader.style();
            }
        });
    let (start, finish) = built_value(rt, container, plans);
    let counts = plans.iter().filter_map(|plan| match &plan.codec {
        Codec::Count(users) => Some(shared_count(rt, plan, users)),
        _ => None,
    });
    let writes = plans.iter().enumerate().map(|(index, plan)| {
        let write = write_field(rt, container, plan, Line::of(plans, index));
        checked_write(rt, container, plan, write)
    });
    let (write_start, write_finish) = written_value_check(rt, container);
    let (allow_reader_comments, allow_writer_comments) = match container.attrs.comments {
        Some(_) => (
            quote!(__reader.allow_comments();),
            quote!(__writer.allow_comments();),
        ),
        None => (TokenStream::new(), TokenStream::new()),
    };
    quote! {
        impl #rt::TextRead for #ident {
            const MIN_LINES: u64 = 0u64 #(+ #min_lines)*;
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::Layout>::LAYOUT);

            fn read_text(
                __reader: &mut #rt::TextReader<'_>,
                __context: &<Self as #rt::HasContext>::Context,
            ) -> ::core::result::Result<Self, #rt::Error> {
                #allow_reader_comments
                #start
                #(#reads)*
                #(#styles)*
                #finish
            }
        }

        impl #rt::TextWrite for #ident {
            fn write_text(
                &self,
                __writer: &mut #rt::TextWriter,
                __context: &<Self as #rt::HasContext>::Context,
            ) -> ::core::result::Result<(), #rt::Error> {
                #allow_writer_comments
                #(#counts)*
                #write_start
                #(#writes)*
                #write_finish
                ::core::result::Result::Ok(())
            }
        }
    }
}

/// `let __count_n = shared_len("n", &[("a", Some(self.a.len())), ...])?;`
fn shared_count(rt: &Runtime, plan: &TextPlan, users: &[CountUser]) -> TokenStream {
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

/// A record whose fields are the tokens of one line.
fn one_line_impls(rt: &Runtime, container: &Container, plans: &[TextPlan]) -> TokenStream {
    let ident = container.ident;
    let expected = str_lit(&format!("a `{ident}` line"));
    let reads = plans
        .iter()
        .map(|plan| read_one_line_field(rt, container, plan));
    let (start, finish) = built_value(rt, container, plans);
    let writes = plans.iter().map(|plan| {
        let write = write_one_line_field(rt, plan);
        checked_write(rt, container, plan, write)
    });
    let (write_start, write_finish) = written_value_check(rt, container);
    let line_impls = one_line_text_impls(
        rt,
        ident,
        quote!(#rt::read_token_line(__reader, #expected, <Self as #rt::TextTokens>::read_tokens)),
        quote!(#rt::write_token_line(__writer, |__w| #rt::TextTokens::write_tokens(self, __w))),
    );
    quote! {
        impl #rt::TextTokens for #ident {
            const EXPECTED: &'static str = #expected;
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::Layout>::LAYOUT);

            fn read_tokens(
                __reader: &mut #rt::TextReader<'_>,
            ) -> ::core::result::Result<Self, #rt::Error> {
                #start
                #(#reads)*
                #finish
            }

            fn write_tokens(
                &self,
                __writer: &mut #rt::TextWriter,
            ) -> ::core::result::Result<(), #rt::Error> {
                #write_start
                #(#writes)*
                #write_finish
                ::core::result::Result::Ok(())
            }
        }

        #line_impls
    }
}

/// `TextRead` and `TextWrite` for a type that is one line and takes no
/// context (a `one_line` record, a keyword enum): `read` reads it from
/// `__reader`, `write` writes `self` to `__writer`.
pub(super) fn one_line_text_impls(
    rt: &Runtime,
    ident: &syn::Ident,
    read: TokenStream,
    write: TokenStream,
) -> TokenStream {
    quote! {
        impl #rt::TextRead for #ident {
            const MIN_LINES: u64 = 1;
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::Layout>::LAYOUT);

            fn read_text(
                __reader: &mut #rt::TextReader<'_>,
                _: &(),
            ) -> ::core::result::Result<Self, #rt::Error> {
                #read
            }
        }

        impl #rt::TextWrite for #ident {
            fn write_text(
                &self,
                __writer: &mut #rt::TextWriter,
                _: &(),
            ) -> ::core::result::Result<(), #rt::Error> {
                #write
            }
        }
    }
}

/// A record's first statement and its last ones: the value of its fields,
/// checked by the type's own `check` (at the record's first token) when it
/// has one.
fn built_value(
    rt: &Runtime,
    container: &Container,
    plans: &[TextPlan],
) -> (TokenStream, TokenStream) {
    let inits = plans.iter().map(|plan| {
        let name = plan.field.ident;
        let local = field_local(name);
        quote!(#name: #local)
    });
    let value = quote!(Self { #(#inits),* });
    match &container.attrs.check {
        Some(check) => {
            let path = &check.value.path;
            let call = quote_spanned!(path.span()=> #path(&__value));
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

fn schema_impl(rt: &Runtime, container: &Container, plans: &[TextPlan]) -> TokenStream {
    let ident = container.ident;
    let style = plans
        .iter()
        .find(|plan| matches!(plan.codec, Codec::Style))
        .map(|plan| {
            let name = plan.field.ident;
            quote! {
                fn text_style(&self) -> ::core::option::Option<&#rt::TextStyle> {
                    ::core::option::Option::Some(&self.#name)
                }
            }
        });
    quote! {
        impl #rt::TextSchema for #ident {
            #style
        }
    }
}

/// What a reader expects of a line of the field's tokens, for errors.
fn expected_line(rt: &Runtime, plan: &TextPlan) -> TokenStream {
    match &plan.codec {
        Codec::Magic(constant) => {
            let expected = str_lit(&format!("`{}`", constant.shown()));
            quote!(#expected)
        }
        Codec::Count(_) => quote!("a count"),
        Codec::Value(value) => match value.element {
            Element::Text(TextForm::Vector) => quote!("a `| ... |` line"),
            Element::Text(TextForm::AngleBrackets) => quote!("a `<name>` line"),
            Element::Plain
            | Element::String(_)
            | Element::Text(TextForm::Line | TextForm::Comment) => {
                let ty = value.element_ty;
                quote_spanned!(ty.span()=> <#ty as #rt::TextTokens>::EXPECTED)
            }
        },
        Codec::Style | Codec::With(..) => quote!("nothing"),
    }
}

/// An expression reading one element of the value's tokens from `reader`
/// (a line already open).
fn read_value_tokens(rt: &Runtime, value: &Value, reader: &TokenStream) -> TokenStream {
    let ty = value.element_ty;
    let tokens = quote_spanned!(ty.span()=> <#ty as #rt::TextTokens>::read_tokens);
    match value.element {
        Element::Text(TextForm::Vector) => quote!(#rt::read_vector(#reader, #tokens)),
        Element::Text(TextForm::AngleBrackets) => quote!(#rt::read_angle_bracketed(#reader)),
        Element::Plain | Element::String(_) | Element::Text(TextForm::Line | TextForm::Comment) => {
            match &value.presence {
                Some(Presence::NoneWord(word)) => {
                    quote!(#rt::read_or_none(#reader, #word, #tokens))
                }
                _ => quote!(#tokens(#reader)),
            }
        }
    }
}

/// The statements reading a field of tokens within a record, on its own
/// line or on one it shares; errors name the field.
fn read_token_field(rt: &Runtime, plan: &TextPlan, line: Line) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = field_local(name);
    let ty = plan.field.ty;
    let tokens = |reader: &TokenStream| match &plan.codec {
        Codec::Magic(constant) => quote!(#rt::read_keywords(#reader, #constant)),
        Codec::Count(_) => quote!(#reader.count_token::<<#ty as #rt::CountField>::Int>()),
        Codec::Value(value) => read_value_tokens(rt, value, reader),
        Codec::Style | Codec::With(..) => TokenStream::new(),
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
fn read_field(rt: &Runtime, container: &Container, plan: &TextPlan, line: Line) -> TokenStream {
    let label = str_lit(&plan.field.ident.to_string());
    let entered = format_ident!("__entered_{}", plan.field.ident);
    let statements = read_field_statements(rt, container, plan, line);
    quote! {
        let #entered = #rt::map_enter(#rt::Segment::Field(#label));
        #statements
        ::core::mem::drop(#entered);
    }
}

fn read_field_statements(
    rt: &Runtime,
    container: &Container,
    plan: &TextPlan,
    line: Line,
) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = field_local(name);
    let ty = plan.field.ty;
    let read = match &plan.codec {
        // Filled in after the other fields (see `record_impls`).
        Codec::Style | Codec::With(..) => return TokenStream::new(),
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
            let nested = nested_context(
                rt,
                value.element_ty,
                &value.pass,
                |name| value_of(name, is_param(container, name), Side::Read),
                places(container, Side::Read),
            );
            let read = read_value(rt, container, plan, value);
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
    let check = check_call(rt, container, plan);
    quote! {
        #mark
        #marks
        #read
        #check
    }
}

/// A value read by its type's own `TextRead`, which may be a record of
/// several lines.
fn is_nested(value: &Value) -> bool {
    matches!(value.element, Element::Plain) && value.presence.is_none()
}

/// The mark a checked field is read after, and its elements' for a list.
fn check_marks(plan: &TextPlan) -> (TokenStream, TokenStream) {
    if plan.check.is_none() {
        return (TokenStream::new(), TokenStream::new());
    }
    let name = plan.field.ident;
    let mark = mark_local(name);
    let marks = marks_local(name);
    let elements = has_elements(plan).then(|| quote!(let mut #marks = ::std::vec::Vec::new();));
    (quote!(let #mark = __reader.mark();), quote!(#elements))
}

fn mark_local(name: &syn::Ident) -> syn::Ident {
    format_ident!("__mark_{}", name)
}

fn marks_local(name: &syn::Ident) -> syn::Ident {
    format_ident!("__marks_{}", name)
}

/// Whether the field is a list whose elements a check may point at.
fn has_elements(plan: &TextPlan) -> bool {
    matches!(
        &plan.codec,
        Codec::Value(Value {
            repeat: Some(_),
            flow: false,
            ..
        })
    )
}

/// A field's write statements, then, when it has a `check`, the check the
/// reader runs, on the value written: the writer refuses what the reader
/// would, at the same line and column (the text written is dropped with
/// the error).
fn checked_write(
    rt: &Runtime,
    container: &Container,
    plan: &TextPlan,
    write: TokenStream,
) -> TokenStream {
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
    let call = context::check_call_with(container, check, &quote!(self.#name), Side::Write);
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
fn written_value_check(rt: &Runtime, container: &Container) -> (TokenStream, TokenStream) {
    let Some(check) = &container.attrs.check else {
        return (TokenStream::new(), TokenStream::new());
    };
    let path = &check.value.path;
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

/// `if checking { checked(..., path(&value, &args...)) }`: a checked
/// field's value, once read, must satisfy its function.
fn check_call(rt: &Runtime, container: &Container, plan: &TextPlan) -> TokenStream {
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
    let call = context::check_call(container, check, &local);
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
fn read_value(rt: &Runtime, container: &Container, plan: &TextPlan, value: &Value) -> TokenStream {
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
        Some(Repeat::CountLine | Repeat::Prefix(_)) if value.flow => quote! {
            #rt::read_flowing_list(__reader, <#ty as #rt::TextTokens>::read_tokens)
        },
        Some(Repeat::CountLine | Repeat::Prefix(_)) => {
            quote!(#rt::read_list(__reader, #min_lines, |__r| #element))
        }
        Some(Repeat::Count(count)) if is_param(container, count) => {
            let count_label = str_lit(&count.to_string());
            quote! {
                #rt::context_len(#count_label, ::core::clone::Clone::clone(&__context.#count))
                    .and_then(|__len| #rt::read_counted(__reader, __len, #min_lines, |__r| #element))
            }
        }
        Some(Repeat::Count(count)) => {
            let count = count_local(count);
            quote!(#rt::read_counted(__reader, #count, #min_lines, |__r| #element))
        }
        Some(Repeat::ToEnd) => quote!(#rt::read_lines_to_end(__reader, |__r| #element)),
    };
    match &value.presence {
        Some(Presence::If(condition)) => condition.read(rt, places(container, Side::Read), read),
        Some(Presence::NoneWord(_) | Presence::Flag(_) | Presence::NextTag) | None => read,
    }
}

/// One element of a value in a record, on lines of its own.
fn read_element(rt: &Runtime, value: &Value, reader: &TokenStream) -> TokenStream {
    let ty = value.element_ty;
    match value.element {
        Element::Plain | Element::String(_) => {
            quote!(<#ty as #rt::TextRead>::read_text(#reader, &__element_context))
        }
        Element::Text(TextForm::Vector | TextForm::AngleBrackets) => {
            let tokens = read_value_tokens(rt, value, &quote!(__v));
            let expected = match value.element {
                Element::Text(TextForm::Vector) => quote!("a `| ... |` line"),
                _ => quote!("a `<name>` line"),
            };
            quote!(#rt::read_token_line(#reader, #expected, |__v| #tokens))
        }
        Element::Text(TextForm::Line) => quote!(#rt::read_line_string(#reader)),
        Element::Text(TextForm::Comment) => quote!(#rt::read_comment(#reader)),
    }
}

/// A field of a `one_line` record: its tokens.
fn read_one_line_field(rt: &Runtime, container: &Container, plan: &TextPlan) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = field_local(name);
    let ty = plan.field.ty;
    let read = match &plan.codec {
        Codec::Magic(constant) => quote!(#rt::read_keywords(__reader, #constant)),
        Codec::Value(value) => {
            let tokens = read_value_tokens(rt, value, &quote!(__reader));
            match &value.presence {
                Some(Presence::If(condition)) => {
                    condition.read(rt, places(container, Side::Read), tokens)
                }
                Some(Presence::NoneWord(_) | Presence::Flag(_) | Presence::NextTag) | None => {
                    tokens
                }
            }
        }
        // `plan::text` admits none of these in a `one_line` record.
        Codec::Style | Codec::Count(_) | Codec::With(..) => return TokenStream::new(),
    };
    let (mark, _) = check_marks(plan);
    let check = check_call(rt, container, plan);
    quote! {
        #mark
        let #local: #ty = #read.map_err(|e| e.in_field(#label))?;
        #check
    }
}

/// An expression writing one element of the value's tokens to `writer`
/// (a line already open); `element` is a reference to it.
fn write_value_tokens(
    rt: &Runtime,
    value: &Value,
    writer: &TokenStream,
    element: &TokenStream,
) -> TokenStream {
    match value.element {
        Element::Text(TextForm::Vector) => quote! {
            #rt::write_vector(#writer, |__t| #rt::TextTokens::write_tokens(#element, __t))
        },
        Element::Text(TextForm::AngleBrackets) => {
            quote!(#rt::write_angle_bracketed(#writer, #element))
        }
        Element::Plain | Element::String(_) | Element::Text(TextForm::Line | TextForm::Comment) => {
            match &value.presence {
                Some(Presence::NoneWord(word)) => quote! {
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
fn write_token_field(rt: &Runtime, plan: &TextPlan, line: Line) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let ty = plan.field.ty;
    let tokens = |writer: &TokenStream| match &plan.codec {
        Codec::Magic(constant) => quote!(#rt::write_keywords(#writer, #constant)),
        Codec::Count(_) => {
            let count = count_local(name);
            quote!(#writer.count_token::<<#ty as #rt::CountField>::Int>(#count))
        }
        Codec::Value(value) => write_value_tokens(rt, value, writer, &quote!(&self.#name)),
        Codec::Style | Codec::With(..) => TokenStream::new(),
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

fn write_field(rt: &Runtime, container: &Container, plan: &TextPlan, line: Line) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let ty = plan.field.ty;
    match &plan.codec {
        // Used by `TextSchema::to_text` before anything is written.
        Codec::Style | Codec::With(..) => TokenStream::new(),
        Codec::Count(_) if line.own() => {
            let count = count_local(name);
            quote! {
                __writer
                    .count_line::<<#ty as #rt::CountField>::Int>(#count)
                    .map_err(|e| e.in_field(#label))?;
            }
        }
        Codec::Value(value) if !value.is_tokens() || (line.own() && is_nested(value)) => {
            let nested = nested_context(
                rt,
                value.element_ty,
                &value.pass,
                |name| value_of(name, is_param(container, name), Side::Write),
                places(container, Side::Write),
            );
            let marks = (plan.check.is_some() && has_elements(plan)).then(|| marks_local(name));
            let write = write_value(rt, container, value, &quote!(&self.#name), marks.as_ref());
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
fn write_value(
    rt: &Runtime,
    container: &Container,
    value: &Value,
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
            Some(Repeat::CountLine | Repeat::Prefix(_)) if value.flow => quote! {
                #rt::write_flowing_list(__writer, #value_ref, |__w, __e| {
                    #rt::TextTokens::write_tokens(__e, __w)
                })
            },
            Some(Repeat::CountLine | Repeat::Prefix(_)) => {
                quote!(#rt::write_list(__writer, #value_ref, |__w, __e| #element))
            }
            Some(Repeat::Count(count)) if is_param(container, count) => {
                let count_label = str_lit(&count.to_string());
                quote! {
                    #rt::context_len(#count_label, ::core::clone::Clone::clone(&__context.#count))
                        .and_then(|__len| #rt::check_len((#value_ref).len(), #count_label, __len))
                        .and_then(|()| #rt::write_elements(__writer, #value_ref, |__w, __e| #element))
                }
            }
            Some(Repeat::Count(_) | Repeat::ToEnd) => {
                quote!(#rt::write_elements(__writer, #value_ref, |__w, __e| #element))
            }
        }
    };
    match &value.presence {
        Some(Presence::If(condition)) => {
            let check = condition.check_tokens(
                rt,
                places(container, Side::Write),
                quote!((#value_ref).is_some()),
            );
            let present = write(&quote!(__v));
            quote! {
                #check
                .and_then(|()| match (#value_ref).as_ref() {
                    ::core::option::Option::Some(__v) => #present,
                    ::core::option::Option::None => ::core::result::Result::Ok(()),
                })
            }
        }
        Some(Presence::NoneWord(_) | Presence::Flag(_) | Presence::NextTag) | None => {
            write(value_ref)
        }
    }
}

/// One element of a value in a record, on lines of its own.
fn write_element(
    rt: &Runtime,
    value: &Value,
    writer: &TokenStream,
    element: &TokenStream,
) -> TokenStream {
    match value.element {
        Element::Plain | Element::String(_) => {
            quote!(#rt::TextWrite::write_text(#element, #writer, &__element_context))
        }
        Element::Text(TextForm::Vector | TextForm::AngleBrackets) => {
            let tokens = write_value_tokens(rt, value, &quote!(__v), element);
            quote!(#rt::write_token_line(#writer, |__v| #tokens))
        }
        Element::Text(TextForm::Line) => quote!(#rt::write_line_string(#writer, #element)),
        Element::Text(TextForm::Comment) => quote!(#rt::write_comment(#writer, #element)),
    }
}

/// A field of a `one_line` record: its tokens.
fn write_one_line_field(rt: &Runtime, plan: &TextPlan) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let write = match &plan.codec {
        Codec::Magic(constant) => quote!(#rt::write_keywords(__writer, #constant)),
        Codec::Value(value) => match &value.presence {
            Some(Presence::If(condition)) => {
                let check = condition.check_tokens(
                    rt,
                    |name| place_of(name, false, Side::Write),
                    quote!(self.#name.is_some()),
                );
                let tokens = write_value_tokens(rt, value, &quote!(__writer), &quote!(__v));
                quote! {
                    #check
                    .and_then(|()| match self.#name.as_ref() {
                        ::core::option::Option::Some(__v) => #tokens,
                        ::core::option::Option::None => ::core::result::Result::Ok(()),
                    })
                }
            }
            Some(Presence::NoneWord(_) | Presence::Flag(_) | Presence::NextTag) | None => {
                write_value_tokens(rt, value, &quote!(__writer), &quote!(&self.#name))
            }
        },
        Codec::Style | Codec::Count(_) | Codec::With(..) => return TokenStream::new(),
    };
    quote! {
        #write.map_err(|e| e.in_field(#label))?;
    }
}

fn layout_impl(
    rt: &Runtime,
    container: &Container,
    plans: &[TextPlan],
    one_line: bool,
) -> TokenStream {
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
                    Repeat::CountLine | Repeat::Prefix(_) => "count line".to_owned(),
                    Repeat::Count(count) if is_param(container, count) => {
                        format!("context `{count}`")
                    }
                    Repeat::Count(count) => format!("field `{count}`"),
                    Repeat::ToEnd => "the end of the text".to_owned(),
                };
                let source = str_lit(&source);
                quote!(::core::option::Option::Some(#source))
            }
            _ => quote!(::core::option::Option::None),
        };
        let doc = str_lit(&field.doc);
        let nested = nested_layout(rt, &plan.codec, line, one_line);
        quote! {
            #rt::FieldLayout {
                name: #name,
                rust_type: #rust_type,
                encoding: #encoding,
                byte_order: #rt::ByteOrder::Text,
                count: #count,
                chunk: ::core::option::Option::None,
                offset: ::core::option::Option::None,
                element_size: ::core::option::Option::None,
                elements_offset: ::core::option::Option::None,
                inner_element_size: ::core::option::Option::None,
                doc: #doc,
                nested: #nested,
            }
        }
    });
    let layout = TypeLayout {
        byte_order: quote!(#rt::ByteOrder::Text),
        form: None,
        chunk: None,
        context: context_layout(rt, check_context::params(container)),
        chosen_by: None,
        fields: fields.collect(),
        text: true,
    };
    type_layout_impl(rt, container.ident, &container.doc, layout)
}

/// The layout of the record a field holds, through the trait that reads it.
fn nested_layout(rt: &Runtime, codec: &Codec, line: Line, one_line: bool) -> TokenStream {
    let Codec::Value(value) = codec else {
        return quote!(::core::option::Option::None);
    };
    let ty = value.element_ty;
    let in_line = one_line || !line.own() || !is_nested(value);
    match value.element {
        Element::Plain if !in_line || !value.is_tokens() => {
            quote!(<#ty as #rt::TextRead>::NESTED_LAYOUT)
        }
        Element::Plain | Element::String(_) | Element::Text(TextForm::Vector) => {
            quote!(<#ty as #rt::TextTokens>::NESTED_LAYOUT)
        }
        Element::Text(TextForm::Line | TextForm::Comment)
        | Element::Text(TextForm::AngleBrackets) => quote!(::core::option::Option::None),
    }
}

/// How the field is stored, for the layout docs. A value on lines of its
/// own that its type reads may be a record of several lines (described by
/// its own table) or a line of tokens: which one is the type's to say.
fn field_encoding(rt: &Runtime, plan: &TextPlan, line: Line, one_line: bool) -> TokenStream {
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
fn is_number_or_word(ty: &syn::Type) -> bool {
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

fn encoding(plan: &TextPlan, line: Line, one_line: bool) -> String {
    let value = match &plan.codec {
        Codec::Style | Codec::With(..) => {
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

fn value_encoding(value: &Value, line: Line, one_line: bool) -> String {
    let ty = value.element_ty;
    let element = match value.element {
        Element::Plain if is_named(ty, "RawString") => "one word".to_owned(),
        Element::Plain | Element::String(_) => type_text(ty),
        Element::Text(TextForm::Line) => "whole line".to_owned(),
        Element::Text(TextForm::Comment) => "`//` comment line".to_owned(),
        Element::Text(TextForm::Vector) => format!("`| … |` of {}", type_text(ty)),
        Element::Text(TextForm::AngleBrackets) => "`<name>`, spaces allowed".to_owned(),
    };
    let element = match &value.presence {
        Some(Presence::NoneWord(word)) => format!("{element} or `{}` for none", word.value()),
        Some(Presence::If(_) | Presence::Flag(_) | Presence::NextTag) | None => element,
    };
    let element = match (&value.element, one_line) {
        (Element::Plain | Element::Text(TextForm::Vector | TextForm::AngleBrackets), false)
            if value.repeat.is_none() && line.own() =>
        {
            format!("line: {element}")
        }
        _ => element,
    };
    let repeated = match &value.repeat {
        None => element,
        Some(Repeat::CountLine | Repeat::Prefix(_)) if value.flow => format!(
            "count line, then that many × {element}, their tokens in any whitespace (line \
             breaks kept as read)"
        ),
        Some(Repeat::CountLine | Repeat::Prefix(_)) => {
            format!("count line, then that many × {element}")
        }
        Some(Repeat::Count(count)) => format!("`{count}` × {element}"),
        Some(Repeat::ToEnd) => format!("{element}, repeated to the end of the text"),
    };
    let present = match &value.presence {
        Some(Presence::If(condition)) => {
            format!("{repeated}, present when {}", condition.doc())
        }
        Some(Presence::NoneWord(_) | Presence::Flag(_) | Presence::NextTag) | None => repeated,
    };
    match passed(&value.pass) {
        Some(passed) => format!("{present}, given {passed}"),
        None => present,
    }
}
