//! The generated round-trip test: values within the layout's constraints go
//! through write -> read -> write and must give the same bytes.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{count_local, field_local, width_of};
use crate::ast::{Container, FormEnum};
use crate::attr::{Presence, Repeat, StringKind};
use crate::check::{Codec, Data, Element, Plan};

pub fn round_trip_module(container: &Container, plans: &[Plan]) -> TokenStream {
    let ident = container.ident;
    let module = format_ident!("round_trip_{}", snake_case(&ident.to_string()));
    let testing = quote!(::formats::schema::testing);

    // Lengths shared by several collections are drawn first; every field's
    // strategy may then use them.
    let counts: Vec<_> = plans
        .iter()
        .filter(|plan| matches!(plan.codec, Codec::Count(_)))
        .map(|plan| count_local(plan.field.ident))
        .collect();
    let strategies: Vec<TokenStream> = plans.iter().map(field_strategy).collect();
    let locals: Vec<_> = plans
        .iter()
        .map(|plan| field_local(plan.field.ident))
        .collect();
    let inits = plans.iter().map(field_init);

    let fields_strategy = nest_strategies(&strategies);
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
            &counts
                .iter()
                .map(|_| quote!(0..=#testing::MAX_LEN))
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

    quote! {
        #[cfg(test)]
        mod #module {
            use super::*;
            use ::proptest::strategy::Strategy as _;

            impl #testing::Sample for #ident {
                fn strategy() -> ::proptest::strategy::BoxedStrategy<Self> {
                    #strategy.boxed()
                }
            }

            #[test]
            fn write_read_write() {
                #testing::check_round_trip::<#ident>();
            }
        }
    }
}

/// An enum of forms draws each variant alike.
pub fn form_enum_round_trip_module(form_enum: &FormEnum) -> TokenStream {
    let ident = form_enum.ident;
    let module = format_ident!("round_trip_{}", snake_case(&ident.to_string()));
    let testing = quote!(::formats::schema::testing);
    let arms = form_enum.variants.iter().map(|variant| {
        let ty = variant.ty;
        let name = variant.ident;
        quote!(<#ty as #testing::Sample>::strategy().prop_map(#ident::#name).boxed())
    });
    quote! {
        #[cfg(test)]
        mod #module {
            use super::*;
            use ::proptest::strategy::Strategy as _;

            impl #testing::Sample for #ident {
                fn strategy() -> ::proptest::strategy::BoxedStrategy<Self> {
                    ::proptest::strategy::Union::new([#(#arms),*]).boxed()
                }
            }

            #[test]
            fn write_read_write() {
                #testing::check_round_trip::<#ident>();
            }
        }
    }
}

/// `(a, (b, (c, Just(()))))`: pairs nest without proptest's tuple-size limit.
pub(super) fn nest_strategies(items: &[TokenStream]) -> TokenStream {
    nest(items, quote!(::proptest::strategy::Just(())))
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

fn field_strategy(plan: &Plan) -> TokenStream {
    let ty = plan.field.ty;
    match &plan.codec {
        Codec::Magic(_) | Codec::Count(_) => {
            quote!(::proptest::strategy::Just(<#ty as ::core::default::Default>::default()))
        }
        Codec::With(path) => quote!(#path::strategy()),
        Codec::Data(data) => data_strategy(data),
    }
}

/// The value for a field; one present by an earlier flag is generated whole
/// and kept only when the flag says so, keeping the two consistent.
fn field_init(plan: &Plan) -> TokenStream {
    let name = plan.field.ident;
    let local = field_local(name);
    match &plan.codec {
        Codec::Data(Data {
            presence: Some(Presence::If(flag)),
            ..
        }) => {
            let flag = field_local(flag);
            quote! {
                #name: if ::formats::schema::FlagInt::is_set(#flag) {
                    ::core::option::Option::Some(#local)
                } else {
                    ::core::option::Option::None
                }
            }
        }
        _ => quote!(#name: #local),
    }
}

fn data_strategy(data: &Data) -> TokenStream {
    let testing = quote!(::formats::schema::testing);
    let element = match &data.element {
        Element::Plain => {
            let ty = data.element_ty;
            quote!(<#ty as #testing::Sample>::strategy())
        }
        Element::String(StringKind::Pascal) => quote!(#testing::pascal_string()),
        Element::String(StringKind::NullTerminated) => quote!(#testing::null_terminated_string()),
        Element::String(StringKind::FixedWidth(width)) => {
            let width = width_of(width) as usize;
            quote!(#testing::fixed_width_string(#width))
        }
    };
    let repeated = match &data.repeat {
        None => element,
        Some(Repeat::Prefix(_)) => quote!(#testing::list(#element)),
        Some(Repeat::Count(count)) => {
            let len = count_local(count);
            quote!(#testing::list_of_len(#element, #len))
        }
    };
    match &data.presence {
        Some(Presence::Flag(_)) => quote!(::proptest::option::of(#repeated)),
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
