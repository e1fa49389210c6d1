//! Text layouts: `TextRead`/`TextWrite` (and `TextTokens` for `one_line`
//! records), `TextSchema`, `Layout`/`TextLayout` and the round-trip test; reading and
//! writing each in a module of its own, as binary layouts are.

mod lines;
mod read;
mod table;
mod write;

use proc_macro2::TokenStream;
use quote::quote;

use crate::expand::heading::Heading;
use crate::expand::names::field_local;
use crate::expand::paths::Runtime;
use crate::expand::tests::{self, Check};
use crate::expand::tokens::str_lit;
use crate::expand::{context, expressions};
use crate::plan::{Codec, TextType};

use lines::{min_lines, Line};
use read::{built_value, read_field, read_one_line_field};
use table::layout_impl;
pub use table::Role;
use write::{checked_write, shared_count, write_field, write_one_line_field, written_value_check};

pub fn derive(rt: &Runtime, ty: &TextType) -> TokenStream {
    let heading = Heading::of(ty);
    let context = context::context_items(rt, heading, ty.vis, ty.params);
    let functions = expressions::functions_impl(rt, heading, expressions::functions_of(rt, ty));
    let items = items(rt, ty, Role::Only);
    let tests = tests::round_trip_module(rt, ty, Check::Text);
    quote! {
        #context
        #functions
        #items
        #tests
    }
}

/// Everything a text layout implements but its context and its test.
pub fn items(rt: &Runtime, ty: &TextType, role: Role) -> TokenStream {
    let codec = if ty.shape.one_line {
        one_line_impls(rt, ty)
    } else {
        record_impls(rt, ty)
    };
    let schema = schema_impl(rt, ty);
    let layout = layout_impl(rt, ty, role);
    quote! {
        #codec
        #schema
        #layout
    }
}

/// A record whose fields take their own lines.
fn record_impls(rt: &Runtime, ty: &TextType) -> TokenStream {
    let ident = ty.ident;
    let plans = &ty.fields;
    let min_lines = plans.iter().map(|plan| min_lines(rt, plan));
    // The style is known once everything else is read.
    let reads = plans
        .iter()
        .enumerate()
        .filter(|(_, plan)| !matches!(plan.codec, Codec::Style(_)))
        .map(|(index, plan)| read_field(rt, plan, Line::of(plans, index)));
    let styles = plans
        .iter()
        .filter(|plan| matches!(plan.codec, Codec::Style(_)))
        .map(|plan| {
            let local = field_local(plan.field.ident);
            // Comment lines after the last value belong to the style too.
            quote! {
                __reader.skip_comment_lines()?;
                let #local = __reader.style();
            }
        });
    let (start, finish) = built_value(rt, ty);
    let counts = plans.iter().filter_map(|plan| match &plan.codec {
        Codec::Count(users) => Some(shared_count(rt, plan, users)),
        _ => None,
    });
    let writes = plans.iter().enumerate().map(|(index, plan)| {
        let write = write_field(rt, plan, Line::of(plans, index));
        checked_write(rt, plan, write)
    });
    let (write_start, write_finish) = written_value_check(rt, ty);
    let (allow_reader_comments, allow_writer_comments) = if ty.shape.comments {
        (
            quote!(__reader.allow_comments();),
            quote!(__writer.allow_comments();),
        )
    } else {
        (TokenStream::new(), TokenStream::new())
    };
    quote! {
        impl #rt::TextRead for #ident {
            const MIN_LINES: u64 = 0u64 #(+ #min_lines)*;
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::TextLayout>::TEXT_LAYOUT);

            fn read_text(
                __reader: &mut #rt::TextReader<'_>,
                __context: &<Self as #rt::HasContext>::TextContext,
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
                __context: &<Self as #rt::HasContext>::TextContext,
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

/// A record whose fields are the tokens of one line.
fn one_line_impls(rt: &Runtime, ty: &TextType) -> TokenStream {
    let ident = ty.ident;
    let expected = str_lit(&format!("a `{ident}` line"));
    let reads = ty.fields.iter().map(|plan| read_one_line_field(rt, plan));
    let (start, finish) = built_value(rt, ty);
    let writes = ty.fields.iter().map(|plan| {
        let write = write_one_line_field(rt, plan);
        checked_write(rt, plan, write)
    });
    let (write_start, write_finish) = written_value_check(rt, ty);
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
                ::core::option::Option::Some(|| <Self as #rt::TextLayout>::TEXT_LAYOUT);

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
                ::core::option::Option::Some(|| <Self as #rt::TextLayout>::TEXT_LAYOUT);

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

fn schema_impl(rt: &Runtime, ty: &TextType) -> TokenStream {
    let ident = ty.ident;
    let style = ty
        .fields
        .iter()
        .find(|plan| matches!(plan.codec, Codec::Style(_)))
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
