//! Enums of IFF elements: the next child (a `FORM`'s type, a chunk's tag)
//! chooses the variant. A variant holds a struct marked `#[schema(form =
//! "TYPE")]` or `#[schema(chunk = "TAG")]`, which reads the whole element
//! itself, or names a form or chunk of its own that wraps its value (so
//! versions sharing one layout share one struct). Version forms (`FORM
//! 0002`, `FORM 0003`) are the usual case.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;

use super::codec::{decode_fns, encode_fns, enum_codec_impls};
use super::context;
use super::heading::Heading;
use super::layout::{context_layout, elementless_row, type_layout_impl, SizesFrom, TypeLayout};
use super::paths::Runtime;
use super::tokens::{str_lit, tag_str, tag_tokens};
use crate::ast::{FormEnum, Frame, Variant};

/// How the variant begins, as a constant expression.
fn start(rt: &Runtime, variant: &Variant) -> TokenStream {
    let ty = variant.ty;
    match variant.frame {
        None => quote!(<#ty as #rt::IffStart>::START),
        Some(Frame::Form(form_type)) => {
            let form_type = tag_tokens(form_type);
            quote!(#rt::Start::Form(#form_type))
        }
        Some(Frame::Chunk(tag)) => {
            let tag = tag_tokens(tag);
            quote!(#rt::Start::Chunk(#tag))
        }
    }
}

/// The context a variant gives its value: the constants and parameters it
/// passes, or `()` (a value needing context then fails to compile there).
pub fn variant_context(rt: &Runtime, variant: &Variant) -> TokenStream {
    context::variant_context(rt, context::Encoding::Binary, variant.ty, &variant.pass)
}

pub fn form_enum_impls(rt: &Runtime, form_enum: &FormEnum) -> TokenStream {
    let ident = form_enum.ident;
    let starts: Vec<TokenStream> = form_enum
        .variants
        .iter()
        .map(|variant| start(rt, variant))
        .collect();
    let reads = form_enum.variants.iter().map(|variant| {
        let (ty, name) = (variant.ty, variant.ident);
        let context = variant_context(rt, variant);
        let value = quote!(<#ty as #rt::Decode>::decode_input(__reader, __endian, &#context));
        let read = match variant.frame {
            None => value,
            Some(Frame::Form(form_type)) => {
                let form_type = tag_tokens(form_type);
                quote!(#rt::read_form(__reader, #form_type, |__reader| #value))
            }
            Some(Frame::Chunk(tag)) => {
                let tag = tag_tokens(tag);
                quote!(#rt::read_chunk(__reader, #tag, |__reader| #value))
            }
        };
        quote!(#read.map(Self::#name))
    });
    let writes = form_enum.variants.iter().map(|variant| {
        let name = variant.ident;
        let context = variant_context(rt, variant);
        let value = quote!(#rt::Encode::encode_output(__value, __writer, __endian, &#context));
        let write = match variant.frame {
            None => value,
            Some(Frame::Form(form_type)) => {
                let form_type = tag_tokens(form_type);
                quote!(#rt::write_form(__writer, #form_type, |__writer| #value))
            }
            Some(Frame::Chunk(tag)) => {
                let tag = tag_tokens(tag);
                quote!(#rt::write_chunk(__writer, #tag, |__writer| #value))
            }
        };
        quote!(Self::#name(__value) => #write,)
    });
    let min_size = form_enum
        .variants
        .iter()
        .fold(quote!(u64::MAX), |min, variant| {
            let ty = variant.ty;
            let size = quote!(<#ty as #rt::Decode>::MIN_SIZE);
            let size = match variant.frame {
                None => size,
                Some(Frame::Form(_)) => quote!(#rt::add_min(#rt::FORM_HEADER_SIZE, #size)),
                Some(Frame::Chunk(_)) => quote!(#rt::add_min(#rt::CHUNK_HEADER_SIZE, #size)),
            };
            quote!(#rt::lesser_min(#min, #size))
        });
    // A wrapped value is a run of fields: a whole form or chunk would be
    // wrapped twice.
    let bodies = form_enum
        .variants
        .iter()
        .filter(|variant| variant.frame.is_some())
        .map(|variant| {
            let ty = variant.ty;
            quote_spanned! {ty.span()=>
                const _: fn() = {
                    fn wrapped_value<T: #rt::IffBody>() {}
                    wrapped_value::<#ty>
                };
            }
        });
    let layout = layout_impl(rt, form_enum);
    let encode = encode_fns(
        rt,
        quote!(__endian),
        quote! {
            match self {
                #(#writes)*
            }
        },
    );
    let decode = decode_fns(
        rt,
        quote!(__endian),
        quote! {
            let __next = #rt::peek_start(__reader)?;
            #(
                if __next == ::core::option::Option::Some(#starts) {
                    return #reads;
                }
            )*
            ::core::result::Result::Err(#rt::unknown_element(
                __reader,
                __next,
                <Self as #rt::IffElement>::STARTS,
            ))
        },
    );
    let codec = enum_codec_impls(rt, ident, min_size, decode, encode);
    quote! {
        #codec

        impl #rt::IffElement for #ident {
            const STARTS: &'static [#rt::Start] = &[#(#starts),*];
        }

        #(#bodies)*

        #layout
    }
}

/// One row per variant: its name, the element it is and its doc.
fn layout_impl(rt: &Runtime, form_enum: &FormEnum) -> TokenStream {
    let rows = form_enum.variants.iter().map(|variant| {
        let ty = variant.ty;
        let name = str_lit(&variant.ident.to_string());
        let rust_type = str_lit(&quote!(#ty).to_string().replace(' ', ""));
        let doc = str_lit(&variant.doc);
        let passed = variant
            .pass
            .iter()
            .map(|arg| format!("`{}` = `{}`", arg.param, arg.value))
            .collect::<Vec<_>>();
        let passed = match passed.as_slice() {
            [] => String::new(),
            passed => format!(", given {}", passed.join(", ")),
        };
        let framed = match variant.frame {
            None => "FORM or chunk chosen by its type or tag".to_owned(),
            Some(Frame::Form(form_type)) => format!(
                "FORM `{}` holding {}",
                tag_str(form_type),
                quote!(#ty).to_string().replace(' ', "")
            ),
            Some(Frame::Chunk(tag)) => format!(
                "chunk `{}` holding {}",
                tag_str(tag),
                quote!(#ty).to_string().replace(' ', "")
            ),
        };
        let encoding = str_lit(&(framed + &passed));
        let head = quote! {
            name: #name, rust_type: #rust_type, encoding: #encoding,
            byte_order: #rt::ByteOrder::PerForm, count: ::core::option::Option::None,
        };
        let tail = quote!(doc: #doc, nested: <#ty as #rt::Decode>::NESTED_LAYOUT,);
        elementless_row(rt, head, quote!(::core::option::Option::Some(0u64)), tail)
    });
    let layout = TypeLayout {
        byte_order: quote!(#rt::ByteOrder::PerForm),
        form: None,
        chunk: None,
        context: context_layout(rt, &form_enum.params),
        chosen_by: None,
        fields: rows.collect(),
        sizes: SizesFrom::Decode,
    };
    type_layout_impl(rt, Heading::plain(form_enum.ident), &form_enum.doc, layout)
}
