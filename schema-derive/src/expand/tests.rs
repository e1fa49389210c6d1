//! The generated round-trip test: values within the layout's constraints go
//! through write -> read -> write and must give the same bytes, and so must
//! value -> JSON -> value -> write when the type implements serde's traits.
//! The test module exists only when the runtime's `testing` feature is on.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::paths::Runtime;
use super::{count_local, field_local, width_of};
use crate::ast::{Container, FormEnum};
use crate::attr::{Presence, Repeat, StringKind};
use crate::check::{Codec, Data, Element, Plan};

/// Which layout a test runs through: binary bytes or text.
#[derive(Clone, Copy)]
pub enum Check {
    Binary,
    Text,
}

/// The test module of `ident`, whose values `strategy` draws.
pub(super) fn test_module(
    rt: &Runtime,
    ident: &Ident,
    strategy: TokenStream,
    check: Check,
) -> TokenStream {
    let module = format_ident!("round_trip_{}", snake_case(&ident.to_string()));
    let check = match check {
        Check::Binary => quote!(check_round_trip),
        Check::Text => quote!(check_text_round_trip),
    };
    quote! {
        #rt::testing_only! {
            #[cfg(test)]
            mod #module {
                use super::*;
                use #rt::proptest::strategy::Strategy as _;
                use #rt::testing::{WithJson as _, WithoutJson as _};

                impl #rt::testing::Sample for #ident {
                    fn strategy() -> #rt::proptest::strategy::BoxedStrategy<Self> {
                        #strategy.boxed()
                    }
                }

                #[test]
                fn write_read_write() {
                    let json = (&#rt::testing::JsonProbe::<#ident>::NEW).json();
                    #rt::testing::#check::<#ident>(json);
                }
            }
        }
    }
}

pub fn round_trip_module(rt: &Runtime, container: &Container, plans: &[Plan]) -> TokenStream {
    let ident = container.ident;

    // Lengths shared by several collections are drawn first; every field's
    // strategy may then use them.
    let counts: Vec<_> = plans
        .iter()
        .filter(|plan| matches!(plan.codec, Codec::Count(_)))
        .map(|plan| count_local(plan.field.ident))
        .collect();
    let strategies: Vec<TokenStream> = plans.iter().map(|plan| field_strategy(rt, plan)).collect();
    let locals: Vec<_> = plans
        .iter()
        .map(|plan| field_local(plan.field.ident))
        .collect();
    let inits = plans.iter().map(|plan| field_init(rt, plan));

    let fields_strategy = nest_strategies(rt, &strategies);
    let fields_pattern = nest_pattern(
        &locals
            .iter()
            .map(|local| quote!(#local))
            .collect::<Vec<_>>(),
    );
    let build = quote! {
        #fields_strategy.prop_map(|#fields_pattern| #ident { #(#inits),* })
    };
    let strategy = if counts.is_empty() {
        build
    } else {
        let lengths = nest_strategies(
            rt,
            &counts
                .iter()
                .map(|_| quote!(0..=#rt::testing::MAX_LEN))
                .collect::<Vec<_>>(),
        );
        let pattern = nest_pattern(
            &counts
                .iter()
                .map(|count| quote!(#count))
                .collect::<Vec<_>>(),
        );
        quote!(#lengths.prop_flat_map(|#pattern| #build))
    };
    test_module(rt, ident, strategy, Check::Binary)
}

/// An enum of forms draws each variant alike.
pub fn form_enum_round_trip_module(rt: &Runtime, form_enum: &FormEnum) -> TokenStream {
    let ident = form_enum.ident;
    let arms = form_enum.variants.iter().map(|variant| {
        let ty = variant.ty;
        let name = variant.ident;
        quote!(<#ty as #rt::testing::Sample>::strategy().prop_map(#ident::#name).boxed())
    });
    let strategy = quote!(#rt::proptest::strategy::Union::new([#(#arms),*]));
    test_module(rt, ident, strategy, Check::Binary)
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

fn field_strategy(rt: &Runtime, plan: &Plan) -> TokenStream {
    let ty = plan.field.ty;
    match &plan.codec {
        Codec::Magic(_) | Codec::Count(_) => {
            quote!(#rt::proptest::strategy::Just(<#ty as ::core::default::Default>::default()))
        }
        Codec::With(path) => quote!(#path::strategy()),
        Codec::Data(data) => data_strategy(rt, data),
    }
}

/// The value for a field; one present by an earlier flag is generated whole
/// and kept only when the flag says so, keeping the two consistent.
fn field_init(rt: &Runtime, plan: &Plan) -> TokenStream {
    let name = plan.field.ident;
    let local = field_local(name);
    match &plan.codec {
        Codec::Data(Data {
            presence: Some(Presence::If(flag)),
            ..
        }) => {
            let flag = field_local(flag);
            quote! {
                #name: if #rt::FlagInt::is_set(#flag) {
                    ::core::option::Option::Some(#local)
                } else {
                    ::core::option::Option::None
                }
            }
        }
        _ => quote!(#name: #local),
    }
}

fn data_strategy(rt: &Runtime, data: &Data) -> TokenStream {
    let element = match &data.element {
        Element::Plain => {
            let ty = data.element_ty;
            quote!(<#ty as #rt::testing::Sample>::strategy())
        }
        Element::String(StringKind::Pascal) => quote!(#rt::testing::pascal_string()),
        Element::String(StringKind::NullTerminated) => {
            quote!(#rt::testing::null_terminated_string())
        }
        Element::String(StringKind::FixedWidth(width)) => {
            let width = width_of(width) as usize;
            quote!(#rt::testing::fixed_width_string(#width))
        }
    };
    let repeated = match &data.repeat {
        None => element,
        Some(Repeat::Prefix(_)) => quote!(#rt::testing::list(#element)),
        Some(Repeat::Count(count)) => {
            let len = count_local(count);
            quote!(#rt::testing::list_of_len(#element, #len))
        }
    };
    match &data.presence {
        Some(Presence::Flag(_)) => quote!(#rt::proptest::option::of(#repeated)),
        Some(Presence::If(_)) | None => repeated,
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
