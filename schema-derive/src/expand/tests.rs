//! The generated round-trip test: values within the layout's constraints go
//! through write -> read -> write and must give the same bytes, and so must
//! value -> JSON -> value -> write when the type implements serde's traits.
//! The test module exists only when the runtime's `testing` feature is on.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use syn::Type;

use super::codec::endian;
use super::context::{self, Side};
use super::expressions::{self, call};
use super::heading::{Bound, Heading};
use super::names::{count_local, field_local};
use super::paths::Runtime;
use super::tokens::width_of;
use crate::ast::{is_named, unwrap_generic, FormEnum};
use crate::attr::{ContextParam, StringKind, TextForm};
use crate::check_context::{Held, Pass, PassValue, Resolved};
use crate::plan::expr::Expression;
use crate::plan::reads::{read_for_len_only, PassedTo, Read, ReadAs};
use crate::plan::{
    Binary, BinaryType, Codec, Element, Medium, Presence, Repeat, TextType, TypePlan, Value,
};

/// Which layout a test runs through: binary bytes, text, or both (a type
/// with both encodings, with the body of its `text_context`, which sees
/// `context`).
pub enum Check {
    /// None: the type's `Sample` alone, for its holder's test (a tail,
    /// which has no encoding of its own).
    Sample,
    Binary,
    Text,
    Both {
        text_context: TokenStream,
    },
}

/// The test module of a type: its `Sample` impl (the bodies of
/// `context_strategy` and `strategy_with`, which sees `context`) and the
/// test. A generic type has no test of its own: its instantiations are
/// drawn by the tests of the types holding them.
pub(super) fn test_module(
    rt: &Runtime,
    heading: Heading,
    context_strategy: TokenStream,
    strategy: TokenStream,
    check: Check,
) -> TokenStream {
    let ident = heading.ident();
    let module = format_ident!("round_trip_{}", snake_case(&ident.to_string()));
    let (checks, text_context) = match check {
        Check::Sample => (Vec::new(), None),
        Check::Binary => (vec![quote!(check_round_trip)], None),
        Check::Text => (
            vec![quote!(check_text_round_trip)],
            Some(quote!(::core::clone::Clone::clone(context))),
        ),
        Check::Both { text_context } => (
            vec![quote!(check_round_trip), quote!(check_text_round_trip)],
            Some(text_context),
        ),
    };
    let (impl_params, this) = heading.split(rt, Bound::Sample);
    let test = (!checks.is_empty() && !heading.is_generic()).then(|| {
        quote! {
            #[test]
            fn write_read_write() {
                #(
                    let json = (&#rt::testing::JsonProbe::<#ident>::NEW).json();
                    #rt::testing::#checks::<#ident>(json);
                )*
            }
        }
    });
    let text_sample = text_context.map(|text_context| {
        quote! {
            impl #impl_params #rt::testing::TextSample for #this {
                fn text_context(
                    context: &<Self as #rt::HasContext>::Context,
                ) -> <Self as #rt::HasContext>::TextContext {
                    #text_context
                }
            }
        }
    });
    quote! {
        #rt::testing_only! {
            #[cfg(test)]
            mod #module {
                use super::*;
                use #rt::proptest::strategy::Strategy as _;
                use #rt::testing::{
                    AnyValue as _, SmallNumber as _, WithDefault as _, WithJson as _,
                    WithoutDefault as _, WithoutJson as _,
                };

                impl #impl_params #rt::testing::Sample for #this {
                    fn context_strategy(
                    ) -> #rt::proptest::strategy::BoxedStrategy<<Self as #rt::HasContext>::Context> {
                        #context_strategy
                    }

                    fn strategy_with(
                        context: &<Self as #rt::HasContext>::Context,
                    ) -> #rt::proptest::strategy::BoxedStrategy<Self> {
                        #strategy
                    }
                }

                #text_sample

                #test
            }
        }
    }
}

/// One field as the generated test draws it.
pub(super) struct TestField<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    /// A `Count<_>` field: a shared length, drawn before the lists.
    pub is_count: bool,
    /// A bit field's bits, which its value (a count's length) fits.
    pub bits: Option<u32>,
    /// A `calc` field: the writer computes it, so it is never drawn first.
    pub is_calc: bool,
    /// How it is drawn: after the counts and the fields later ones read,
    /// which its strategy may refer to (as locals) with the context.
    pub strategy: TokenStream,
    /// The names its layouts read (both layouts' for a type with two).
    pub reads: Vec<Read<'a>>,
}

impl TestField<'_> {
    fn reads(&self, name: &Ident) -> bool {
        self.reads.iter().any(|read| read.name == name)
    }
}

/// A struct's `strategy_with` body: shared lengths and the fields other
/// fields read are drawn first, on their own; every other field then, from
/// those and the context.
fn struct_strategy(rt: &Runtime, ident: &Ident, fields: &[TestField]) -> TokenStream {
    let sources: Vec<&TestField> = fields
        .iter()
        .enumerate()
        .filter(|(index, field)| {
            !field.is_count
                && !field.is_calc
                && fields
                    .iter()
                    .skip(index + 1)
                    .any(|later| later.reads(field.ident))
        })
        .map(|(_, field)| field)
        .collect();
    let mut first = Vec::new();
    let mut first_locals = Vec::new();
    for count in fields.iter().filter(|field| field.is_count) {
        first.push(match count.bits {
            Some(bits) => quote!(0..=#rt::testing::longest_in_bits(#bits)),
            None => quote!(0..=#rt::testing::MAX_LEN),
        });
        let local = count_local(count.ident);
        first_locals.push(quote!(#local));
    }
    for source in &sources {
        first.push(
            if read_for_len_only(fields.iter().flat_map(|field| &field.reads), source.ident) {
                source.strategy.clone()
            } else {
                first_use_strategy(rt, fields, source.ident, source.ty, false)
            },
        );
        let local = field_local(source.ident);
        first_locals.push(quote!(#local));
    }
    let is_source = |field: &TestField| sources.iter().any(|source| source.ident == field.ident);
    let rest: Vec<&TestField> = fields.iter().filter(|field| !is_source(field)).collect();
    let second: Vec<TokenStream> = rest.iter().map(|field| field.strategy.clone()).collect();
    let second_locals: Vec<TokenStream> = rest
        .iter()
        .map(|field| {
            let local = field_local(field.ident);
            quote!(#local)
        })
        .collect();
    let inits = fields.iter().map(|field| {
        let name = field.ident;
        let local = field_local(name);
        if is_source(field) {
            quote!(#name: ::core::clone::Clone::clone(&#local))
        } else {
            quote!(#name: #local)
        }
    });
    let first = nest_strategies(rt, &first);
    let first_pattern = nest_pattern(&first_locals);
    let second = nest_strategies(rt, &second);
    let second_pattern = nest_pattern(&second_locals);
    quote! {
        let __context = ::core::clone::Clone::clone(context);
        #first
            .prop_flat_map(move |#first_pattern| {
                let __context = ::core::clone::Clone::clone(&__context);
                #second.prop_map(move |#second_pattern| #ident { #(#inits),* })
            })
            .boxed()
    }
}

/// A struct's `context_strategy` body: each parameter drawn as its first
/// reader needs it.
fn struct_context_strategy(
    rt: &Runtime,
    ident: &Ident,
    params: &[ContextParam],
    fields: &[TestField],
) -> TokenStream {
    if params.is_empty() {
        return quote!(#rt::proptest::strategy::Just(()).boxed());
    }
    let strategies: Vec<TokenStream> = params
        .iter()
        .map(|param| first_use_strategy(rt, fields, &param.ident, &param.ty, true))
        .collect();
    context_of_strategies(rt, ident, params, &strategies)
}

/// A `context_strategy` body: the context struct of `ident` built from one
/// strategy per parameter.
pub(super) fn context_of_strategies(
    rt: &Runtime,
    ident: &Ident,
    params: &[ContextParam],
    strategies: &[TokenStream],
) -> TokenStream {
    let names: Vec<TokenStream> = params
        .iter()
        .map(|param| {
            let name = &param.ident;
            quote!(#name)
        })
        .collect();
    let context = context::struct_ident(ident);
    let strategy = nest_strategies(rt, strategies);
    let pattern = nest_pattern(&names);
    quote! {
        #strategy.prop_map(|#pattern| #context { #(#names),* }).boxed()
    }
}

/// How a value of type `ty` named `name` is drawn so that its first reader
/// finds it sensible: a count is a short length, a flag 0 or 1 (a field
/// read as a flag: any value), a value passed to a nested type whatever
/// that type draws for the parameter, anything else any value.
fn first_use_strategy(
    rt: &Runtime,
    fields: &[TestField],
    name: &Ident,
    ty: &Type,
    is_param: bool,
) -> TokenStream {
    let first = fields
        .iter()
        .flat_map(|field| &field.reads)
        .find(|read| read.name == name);
    match first.map(|read| read.how) {
        Some(ReadAs::Count) => quote!(#rt::testing::context_count::<#ty>()),
        Some(ReadAs::Small) => quote!((&#rt::testing::NumberProbe::<#ty>::NEW).small()),
        Some(ReadAs::Size(block)) => quote! {
            (&#rt::testing::NumberProbe::<#ty>::NEW).size(<#block as #rt::Decode>::MIN_SIZE)
        },
        // A parameter tested for non-zero is drawn 0 or 1, so both cases
        // come up; one in an expression takes any value.
        Some(ReadAs::Condition { flag: true }) if is_param => {
            quote!(#rt::testing::context_flag::<#ty>())
        }
        Some(ReadAs::Passed {
            param,
            to: PassedTo::Element(element),
            ..
        }) => quote! {
            <#element as #rt::testing::Sample>::context_strategy()
                .prop_map(|__nested| __nested.#param)
        },
        Some(ReadAs::Condition { .. } | ReadAs::Passed { .. } | ReadAs::Value) | None => {
            quote!(#rt::testing::strategy::<#ty>())
        }
    }
}

/// The round-trip test of a struct, binary or text (`check` says which).
pub fn round_trip_module<P: Medium>(rt: &Runtime, ty: &TypePlan<P>, check: Check) -> TokenStream {
    let among_comments = P::among_comments(&ty.shape);
    let fields: Vec<TestField> = ty
        .fields
        .iter()
        .map(|plan| {
            let endian = P::byte_order(&plan.place).map(|order| endian(rt, order));
            let bits = P::bit_width(&plan.place);
            let ty = plan.field.ty;
            let strategy = match (bits, &plan.codec) {
                (Some(bits), Codec::Value(_)) => quote!(#rt::testing::in_bits::<#ty>(#bits)),
                _ => field_strategy(rt, among_comments, ty, &plan.codec, None, endian.as_ref()),
            };
            TestField {
                ident: plan.field.ident,
                ty,
                is_count: matches!(plan.codec, Codec::Count(_)),
                bits,
                is_calc: matches!(plan.codec, Codec::Calc(..)),
                strategy,
                reads: plan.codec.reads(),
            }
        })
        .collect();
    let strategy = struct_strategy(rt, ty.ident, &fields);
    let context_strategy = struct_context_strategy(rt, ty.ident, ty.params, &fields);
    test_module(rt, Heading::of(ty), context_strategy, strategy, check)
}

/// The round-trip test of a type with both encodings: values its text
/// layout draws, each string one its binary encoding holds too, through
/// both.
pub fn twin_round_trip_module(rt: &Runtime, binary: &BinaryType, text: &TextType) -> TokenStream {
    let among_comments = text.shape.comments;
    let fields: Vec<TestField> = text
        .fields
        .iter()
        .map(|plan| {
            let binary = binary
                .fields
                .iter()
                .find(|binary| binary.field.ident == plan.field.ident);
            let binary_value = binary.and_then(|binary| match &binary.codec {
                Codec::Value(value) => Some(value),
                _ => None,
            });
            let mut reads = plan.codec.reads();
            reads.extend(
                binary
                    .map(|binary| binary.codec.reads())
                    .unwrap_or_default(),
            );
            TestField {
                ident: plan.field.ident,
                ty: plan.field.ty,
                is_count: matches!(plan.codec, Codec::Count(_)),
                bits: None,
                is_calc: false,
                strategy: field_strategy(
                    rt,
                    among_comments,
                    plan.field.ty,
                    &plan.codec,
                    binary_value,
                    None,
                ),
                reads,
            }
        })
        .collect();
    let strategy = struct_strategy(rt, text.ident, &fields);
    // The context drawn is the binary one, which holds the text's too.
    let context_strategy = struct_context_strategy(rt, binary.ident, binary.params, &fields);
    let text_context = text_context_of(rt, binary, text);
    test_module(
        rt,
        Heading::of(text),
        context_strategy,
        strategy,
        Check::Both { text_context },
    )
}

/// The body of a twin's `text_context`: the binary context itself when
/// both encodings take the same parameters, else the text's taken from it.
fn text_context_of(rt: &Runtime, binary: &BinaryType, text: &TextType) -> TokenStream {
    let text_params = text.params;
    if text_params.len() == binary.params.len() {
        return quote!(::core::clone::Clone::clone(context));
    }
    if text_params.is_empty() {
        return quote!(<<Self as #rt::HasContext>::TextContext as #rt::NoContext>::none());
    }
    let names: Vec<&Ident> = text_params.iter().map(|param| &param.ident).collect();
    let text_context = context::text_struct_ident(text.ident);
    quote! {
        #text_context { #(#names: ::core::clone::Clone::clone(&context.#names)),* }
    }
}

/// An enum of forms draws each variant alike.
pub fn form_enum_round_trip_module(rt: &Runtime, form_enum: &FormEnum) -> TokenStream {
    let ident = form_enum.ident;
    let arms = form_enum.variants.iter().map(|variant| {
        let ty = variant.ty;
        let name = variant.ident;
        let context = super::forms::variant_context(rt, variant);
        quote! {
            <#ty as #rt::testing::Sample>::strategy_with(&#context)
                .prop_map(#ident::#name)
                .boxed()
        }
    });
    let strategy = quote! {
        let __context = context;
        #rt::proptest::strategy::Union::new([#(#arms),*]).boxed()
    };
    if form_enum.params.is_empty() {
        let context_strategy = quote!(#rt::proptest::strategy::Just(()).boxed());
        return test_module(
            rt,
            Heading::plain(ident),
            context_strategy,
            strategy,
            Check::Binary,
        );
    }
    // Each parameter drawn as the first value it is passed to draws it.
    let strategies: Vec<TokenStream> = form_enum
        .params
        .iter()
        .map(|param| {
            let passed_to = form_enum.variants.iter().find_map(|variant| {
                let arg = variant
                    .pass
                    .iter()
                    .find(|arg| arg.value.name() == Some(&param.ident))?;
                Some((variant.ty, &arg.param))
            });
            match passed_to {
                Some((ty, nested)) => quote! {
                    <#ty as #rt::testing::Sample>::context_strategy()
                        .prop_map(|__nested| __nested.#nested)
                },
                None => {
                    let ty = &param.ty;
                    quote!(#rt::testing::strategy::<#ty>())
                }
            }
        })
        .collect();
    let context_strategy = context_of_strategies(rt, ident, &form_enum.params, &strategies);
    test_module(
        rt,
        Heading::plain(ident),
        context_strategy,
        strategy,
        Check::Binary,
    )
}

/// `(a, (b, (c, Just(()))))`: pairs nest without proptest's tuple-size limit.
pub(super) fn nest_strategies(rt: &Runtime, items: &[TokenStream]) -> TokenStream {
    nest(items, quote!(#rt::proptest::strategy::Just(())))
}

/// `(a, (b, (c, ())))`: the pattern matching what `nest_strategies` yields.
pub(super) fn nest_pattern(items: &[TokenStream]) -> TokenStream {
    nest(items, quote!(()))
}

fn nest(items: &[TokenStream], last: TokenStream) -> TokenStream {
    items
        .iter()
        .rev()
        .fold(last, |rest, item| quote!((#item, #rest)))
}

/// Values of a field, the same for binary and text layouts but for what
/// only one of them has (a style, a `with` module, a text word).
/// `binary`: for a type with both encodings, the field's binary value:
/// the encoding of its strings, which the values drawn must fit too, and
/// what it passes to its type (the binary context drawn holds it all).
/// `endian`: a binary field's byte order.
fn field_strategy<M: Medium>(
    rt: &Runtime,
    among_comments: bool,
    ty: &Type,
    codec: &Codec<M>,
    binary: Option<&Value<Binary>>,
    endian: Option<&TokenStream>,
) -> TokenStream {
    match codec {
        Codec::Style(_) if among_comments => {
            quote!(#rt::testing::text_style_with_comments())
        }
        Codec::Style(_) => quote!(#rt::testing::text_style()),
        // The writer computes what a `calc` field holds.
        Codec::Magic(_) | Codec::Count(_) | Codec::Calc(..) | Codec::Padding(..) => {
            quote!(#rt::proptest::strategy::Just(<#ty as ::core::default::Default>::default()))
        }
        Codec::With(_, path, pass) => {
            let values = pass.iter().map(|arg| match &arg.value {
                PassValue::Name(name) => test_value(rt, name),
                PassValue::Len(list) => {
                    let place = context::resolved_place(list, Side::Read);
                    quote!(#rt::list_len(&#place))
                }
                PassValue::Expr(constant) => quote!(#constant),
            });
            quote!(#path::strategy(#(#values),*))
        }
        Codec::Value(value) => value_strategy(rt, among_comments, ty, value, binary, endian),
    }
}

/// A name's value inside the generated test: a local drawn earlier, or the
/// context's.
pub(super) fn test_value(rt: &Runtime, name: &Resolved) -> TokenStream {
    match name.held {
        Held::Count => {
            let count = count_local(&name.ident);
            quote!(#rt::testing::count_as(#count))
        }
        Held::Field | Held::Param | Held::Calc => context::resolved_value(name, Side::Read),
    }
}

fn value_strategy<M: Medium>(
    rt: &Runtime,
    among_comments: bool,
    field_ty: &Type,
    value: &Value<M>,
    binary: Option<&Value<Binary>>,
    endian: Option<&TokenStream>,
) -> TokenStream {
    let binary_string = binary.and_then(|binary| match &binary.element {
        Element::String(_, kind) => Some(kind),
        _ => None,
    });
    // A type with both encodings draws with the binary context, so what a
    // field passes is what its binary encoding passes.
    let pass = binary.map_or(&value.pass, |binary| &binary.pass);
    let ty = value.element_ty;
    let element = match &value.element {
        Element::String(_, StringKind::Pascal) => quote!(#rt::testing::pascal_string()),
        Element::String(_, StringKind::NullTerminated) => {
            quote!(#rt::testing::null_terminated_string())
        }
        Element::String(_, StringKind::FixedWidth(width)) => {
            let width = width_of(width) as usize;
            quote!(#rt::testing::fixed_width_string(#width))
        }
        Element::String(_, StringKind::Prefixed(count_ty)) => {
            quote!(#rt::testing::prefixed_string::<#count_ty>())
        }
        Element::Text(_, TextForm::Line) if among_comments => {
            quote!(#rt::testing::line_among_comments())
        }
        Element::Text(_, TextForm::Line | TextForm::Comment) => quote!(#rt::testing::line_string()),
        Element::Text(_, TextForm::AngleBrackets) => {
            quote!(#rt::testing::angle_bracketed_string(#among_comments))
        }
        // A plain `RawString` is a text word: a binary one always has an encoding.
        Element::Plain if is_named(ty, "RawString") && among_comments => {
            quote!(#rt::testing::word_among_comments())
        }
        Element::Plain if is_named(ty, "RawString") => quote!(#rt::testing::token_string()),
        // A text field passing nothing draws its value with any context:
        // a type whose binary encoding alone takes parameters (a byte
        // order) is given none by text.
        Element::Plain | Element::Text(_, TextForm::Vector)
            if M::IS_TEXT && binary.is_none() && pass.is_empty() =>
        {
            quote!(#rt::testing::with_any_context::<#ty>())
        }
        Element::Plain | Element::Text(_, TextForm::Vector) => {
            let context = match binary {
                Some(binary) => element_context(rt, binary, pass),
                None => element_context(rt, value, pass),
            };
            let stored = value.stored_ty();
            let stored = quote!(<#stored as #rt::testing::Sample>::strategy_with(&#context));
            match &value.map {
                None => stored,
                Some(map) if map.fallible => {
                    let stored_ty = &map.stored;
                    quote! {
                        #stored
                            .prop_filter_map("a value the field's type holds", |__stored| {
                                <#ty as ::core::convert::TryFrom<#stored_ty>>::try_from(__stored).ok()
                            })
                            .boxed()
                    }
                }
                Some(map) => {
                    let stored_ty = &map.stored;
                    quote!(#stored.prop_map(<#ty as ::core::convert::From<#stored_ty>>::from).boxed())
                }
            }
        }
    };
    let element = match binary_string {
        Some(kind) => {
            let (longest, nul) = match kind {
                StringKind::Pascal => (quote!(255usize), true),
                StringKind::NullTerminated => (quote!(usize::MAX), false),
                StringKind::FixedWidth(width) => {
                    let width = width_of(width) as usize;
                    (quote!(#width), true)
                }
                StringKind::Prefixed(count_ty) => {
                    (quote!(#rt::testing::longest_prefixed::<#count_ty>()), true)
                }
            };
            quote!(#rt::testing::fitting(#element, #longest, #nul))
        }
        None => element,
    };
    let repeated = match &value.repeat {
        None => element,
        Some(Repeat::Prefix(_, _) | Repeat::CountLine(_) | Repeat::ToEnd) => {
            quote!(#rt::testing::list(#element))
        }
        Some(Repeat::CountField(count)) => {
            let len = count_local(count);
            quote!(#rt::testing::list_of_len(#element, #len))
        }
        Some(Repeat::CountParam(count)) => {
            quote!(#rt::testing::list_of_len(#element, #rt::testing::len_of(&__context.#count)))
        }
        // A count the writer computes leaves the list free.
        Some(Repeat::CountExpr(count)) if count.reads_calc() => {
            quote!(#rt::testing::list(#element))
        }
        Some(Repeat::CountExpr(count)) => {
            let len = call(count, Side::Read, &[]);
            quote!(#rt::testing::list_of_count(#element, #len))
        }
        Some(Repeat::Until(_, ends)) => {
            let ends = call(ends, Side::Read, &[quote!(__element)]);
            let ty = value.element_ty;
            quote! {
                #rt::testing::terminated_list(
                    #element,
                    |__element| #ends,
                    (&#rt::testing::DefaultProbe::<#ty>::NEW).value(),
                )
            }
        }
    };
    let sized = match (&value.size, endian) {
        // A block of a size the writer computes, or of one drawn (read
        // from another stored value): its value, then as many bytes as
        // make up that size.
        (Some(size), Some(endian)) if size.reads().any(|name| name.held != Held::Calc) => {
            let size = call(size, Side::Read, &[]);
            let context = element_context(rt, value, pass);
            let block = unwrap_generic(field_ty, "Block").unwrap_or(field_ty);
            quote! {
                #rt::testing::block_of_size::<#block>(#size, #endian, &#context)
            }
        }
        _ => repeated,
    };
    match &value.presence {
        Some(Presence::Flag(_, _) | Presence::NextTag(_) | Presence::NoneWord(_, _)) => {
            quote!(#rt::proptest::option::of(#sized).boxed())
        }
        Some(Presence::If(_, expression)) => conditional_strategy(rt, expression, sized),
        None => sized,
    }
}

/// The context of a field's elements, in the generated test: what its
/// context function gives for the values drawn, or none.
fn element_context<M: Medium>(rt: &Runtime, value: &Value<M>, pass: &[Pass]) -> TokenStream {
    match (
        expressions::context_call(rt, value, Side::Read),
        pass.is_empty(),
    ) {
        (Some(call), false) => quote!(#rt::testing::drawn(#call)),
        _ => {
            let ty = value.stored_ty();
            quote!(<<#ty as #rt::HasContext>::Context as #rt::NoContext>::none())
        }
    }
}

/// An optional value drawn by `repeated` when the condition holds for
/// the values drawn before it, else `None`.
fn conditional_strategy(
    rt: &Runtime,
    condition: &Expression,
    repeated: TokenStream,
) -> TokenStream {
    let holds = call(condition, Side::Read, &[]);
    quote! {
        if #holds {
            #repeated.prop_map(::core::option::Option::Some).boxed()
        } else {
            #rt::proptest::strategy::LazyJust::new(|| ::core::option::Option::None).boxed()
        }
    }
}

pub(super) fn snake_case(name: &str) -> String {
    let mut snake = String::with_capacity(name.len() + 4);
    for (index, c) in name.chars().enumerate() {
        if c.is_uppercase() && index > 0 {
            snake.push('_');
        }
        snake.extend(c.to_lowercase());
    }
    snake
}
