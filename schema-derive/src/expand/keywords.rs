//! Text keyword enums: a line spelling one of a fixed set of words or
//! phrases (`Bones`, `Mesh (absolute)`), with or without double quotes. The
//! reader keeps a line not spelled exactly as its phrase in the file's
//! style, so the file is written back as found.

use proc_macro2::TokenStream;
use quote::quote;

use super::context::context_items;
use super::heading::Heading;
use super::layout::{elementless_row, type_layout_impl, SizesFrom, TypeLayout};
use super::paths::Runtime;
use super::tests::{test_module, Check};
use super::text::one_line_text_impls;
use super::tokens::str_lit;
use crate::plan::choice::{ChoicePlan, Pick};

pub fn derive(rt: &Runtime, choice: &ChoicePlan) -> TokenStream {
    let ident = choice.ident;
    let keywords: Vec<(&syn::Ident, &syn::LitStr)> = choice
        .variants
        .iter()
        .filter_map(|(variant, pick)| match pick {
            Pick::Keyword(keyword) => Some((variant.ident, *keyword)),
            Pick::When(_) | Pick::Other => None,
        })
        .collect();
    let count = keywords.len();
    let choices = keywords
        .iter()
        .map(|(name, keyword)| quote!((#keyword, || Self::#name)));
    let spellings = keywords
        .iter()
        .map(|(name, keyword)| quote!(Self::#name => #keyword));
    let context = context_items(rt, Heading::plain(ident), choice.vis, &[]);
    let rows = choice.variants.iter().filter_map(|(variant, pick)| {
        let Pick::Keyword(keyword) = pick else {
            return None;
        };
        let name = str_lit(&variant.ident.to_string());
        let encoding = str_lit(&format!("line `{}` (quoted or not)", keyword.value()));
        let doc = str_lit(variant.doc);
        let none = quote!(::core::option::Option::None);
        let head = quote! {
            name: #name, rust_type: "()", encoding: #encoding,
            byte_order: #rt::ByteOrder::Text, count: #none,
        };
        let tail = quote!(doc: #doc, nested: #none,);
        Some(elementless_row(rt, head, none, tail))
    });
    let layout = TypeLayout {
        byte_order: quote!(#rt::ByteOrder::Text),
        form: None,
        chunk: None,
        context: quote!(&[]),
        chosen_by: Some("the keyword on its line".to_owned()),
        fields: rows.collect(),
        sizes: SizesFrom::Text,
    };
    let layout = type_layout_impl(rt, Heading::plain(ident), choice.doc, layout);
    let arms = keywords
        .iter()
        .map(|(name, _)| quote!(#rt::proptest::strategy::LazyJust::new(|| #ident::#name).boxed()));
    let tests = test_module(
        rt,
        Heading::plain(ident),
        quote!(#rt::proptest::strategy::Just(()).boxed()),
        quote!(#rt::proptest::strategy::Union::new([#(#arms),*]).boxed()),
        Check::Text,
    );
    let line_impls = one_line_text_impls(
        rt,
        ident,
        quote! {
            let __choices: [(&'static str, fn() -> Self); #count] = [#(#choices),*];
            __reader.keyword_line(&__choices).map(|__make| __make())
        },
        quote!(__writer.keyword_line(#rt::Keyword::keyword(self))),
    );
    quote! {
        #context

        #line_impls

        impl #rt::Keyword for #ident {
            fn keyword(&self) -> &'static str {
                match self {
                    #(#spellings,)*
                }
            }
        }

        impl #rt::TextSchema for #ident {}

        #layout

        #tests
    }
}
