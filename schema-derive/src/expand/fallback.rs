//! On a derive error: the error, and stand-in impls of every runtime trait
//! the derive implements, so code using the broken type (a struct nesting
//! it, a form holding it as a chunk, a call to `from_bytes`, a
//! registration reading `T::LAYOUT`) compiles on and the user sees the one
//! real error (thiserror-impl's `fallback`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use super::codec::binary_schema_impls;
use super::context::twin_context_items;
use super::heading::{Bound, Heading};
use super::paths::{Root, Runtime};
use super::tokens::tag_tokens;
use crate::ast::Errors;
use crate::attr::{self, ContextParam};

/// The errors, and every trait a derived type implements, binary and text
/// alike (its layout could not be read, so either may be in use), with
/// bodies that never run: the crate does not compile.
pub fn fallback(input: &DeriveInput, error: syn::Error, root: Root) -> TokenStream {
    let ident = &input.ident;
    // The keys that parse (the others are among the errors).
    let attrs = attr::Container::parse(&input.attrs, &mut Errors::default());
    let krate = attrs.krate.as_ref().map(|krate| &krate.value);
    let rt = Runtime::new(krate, root);
    // Each encoding's parameters, as its view declares them.
    let declared = |kind: attr::Kind| {
        let declared = attrs
            .view(kind)
            .context
            .map_or_else(Vec::new, |context| context.value);
        // A parameter declared twice is the error itself: declare it once here.
        let mut params: Vec<ContextParam> = Vec::new();
        for param in declared {
            if !params.iter().any(|earlier| earlier.ident == param.ident) {
                params.push(param);
            }
        }
        params
    };
    let heading = Heading::new(ident, &input.generics);
    let (impl_params, this) = heading.split(&rt, Bound::None);
    let (sample_params, sample_this) = heading.split(&rt, Bound::Sample);
    let context = twin_context_items(
        &rt,
        heading,
        &input.vis,
        &declared(attr::Kind::Binary),
        &declared(attr::Kind::Text),
    );
    let binary = binary_schema_impls(&rt, heading);
    let error = error.into_compile_error();
    let unreachable = quote!(::core::unreachable!("the derive failed to compile"));
    let name = ident.to_string();
    // The start the type names, if any: any start would do (the crate
    // does not compile), this one reads true.
    let start = match (&attrs.form, &attrs.chunk) {
        (Some(form), _) => {
            let tag = tag_tokens(form.value);
            quote!(#rt::Start::Form(#tag))
        }
        (None, Some(chunk)) => {
            let tag = tag_tokens(chunk.value);
            quote!(#rt::Start::Chunk(#tag))
        }
        (None, None) => quote!(#rt::Start::Chunk(*b"    ")),
    };
    quote! {
        #error
        #context

        impl #impl_params #rt::Decode for #this {
            const MIN_SIZE: u64 = 0;
            const FIXED_SIZE: ::core::option::Option<u64> = ::core::option::Option::None;

            fn decode<__R: ::std::io::Read + ::std::io::Seek>(
                _: &mut __R,
                _: #rt::Endian,
                _: &<Self as #rt::HasContext>::Context,
            ) -> ::core::result::Result<Self, #rt::Error> {
                #unreachable
            }
        }

        impl #impl_params #rt::Encode for #this {
            fn encode<__S: ::std::io::Write + ::std::io::Seek>(
                &self,
                _: &mut __S,
                _: #rt::Endian,
                _: &<Self as #rt::HasContext>::Context,
            ) -> ::core::result::Result<(), #rt::Error> {
                #unreachable
            }
        }

        // An element, a start and a body at once: the broken type may be
        // a form or chunk struct, or a run of fields a variant wraps.
        impl #impl_params #rt::IffBody for #this {}

        impl #impl_params #rt::IffStart for #this {
            const START: #rt::Start = #start;
        }

        impl #impl_params #rt::IffElement for #this {
            const STARTS: &'static [#rt::Start] = &[#start];
        }

        // What a format registration reads (`layout: T::LAYOUT`).
        impl #impl_params #rt::Layout for #this {
            const LAYOUT: #rt::TypeLayout = #rt::TypeLayout {
                name: #name,
                doc: "",
                byte_order: #rt::ByteOrder::Little,
                form: ::core::option::Option::None,
                chunk: ::core::option::Option::None,
                context: &[],
                chosen_by: ::core::option::Option::None,
                fields: &[],
                min_size: 0,
                fixed_size: ::core::option::Option::None,
            };
        }
        // What a text format registration reads (`T::TEXT_LAYOUT`).
        impl #impl_params #rt::TextLayout for #this {
            const TEXT_LAYOUT: #rt::TypeLayout = <Self as #rt::Layout>::LAYOUT;
        }
        #binary

        impl #impl_params #rt::TextRead for #this {
            const MIN_LINES: u64 = 0;

            fn read_text(
                _: &mut #rt::TextReader<'_>,
                _: &<Self as #rt::HasContext>::TextContext,
            ) -> ::core::result::Result<Self, #rt::Error> {
                #unreachable
            }
        }

        impl #impl_params #rt::TextWrite for #this {
            fn write_text(
                &self,
                _: &mut #rt::TextWriter,
                _: &<Self as #rt::HasContext>::TextContext,
            ) -> ::core::result::Result<(), #rt::Error> {
                #unreachable
            }
        }

        impl #impl_params #rt::TextSchema for #this {}

        // A one-line record's tokens, or a keyword enum's phrase.
        impl #impl_params #rt::TextTokens for #this {
            const EXPECTED: &'static str = "";

            fn read_tokens(
                _: &mut #rt::TextReader<'_>,
            ) -> ::core::result::Result<Self, #rt::Error> {
                #unreachable
            }

            fn write_tokens(
                &self,
                _: &mut #rt::TextWriter,
            ) -> ::core::result::Result<(), #rt::Error> {
                #unreachable
            }
        }

        impl #impl_params #rt::Keyword for #this {
            fn keyword(&self) -> &'static str {
                #unreachable
            }
        }

        #rt::testing_only! {
            #[cfg(test)]
            impl #sample_params #rt::testing::Sample for #sample_this {
                fn context_strategy(
                ) -> #rt::proptest::strategy::BoxedStrategy<<Self as #rt::HasContext>::Context> {
                    #unreachable
                }

                fn strategy_with(
                    _: &<Self as #rt::HasContext>::Context,
                ) -> #rt::proptest::strategy::BoxedStrategy<Self> {
                    #unreachable
                }
            }
        }
    }
}
