//! A binary layout's items but its context and test: the codec, layout,
//! IFF and binrw impls, and its checks' functions.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;

use super::codec::binary_schema_impls;
use super::heading::{Bound, Heading};
use super::paths::Runtime;
use super::tokens::tag_tokens;
use super::{layout, plain, read, words, write};
use crate::plan::{BinaryPlan, BinaryType, Codec, Framing};

/// Everything a binary layout implements but its context and its test:
/// `Decode`, `Encode`, `Layout`, the IFF traits, `BinarySchema` and, for
/// a layout reading forward only, `ReadsForward`.
pub fn binary_items(rt: &Runtime, ty: &BinaryType) -> TokenStream {
    if let Some(bits) = ty.shape.tail {
        return tail_items(rt, ty, bits);
    }
    let heading = Heading::of(ty);
    let (impl_params, this) = heading.split(rt, Bound::Binary);
    let plans = &ty.fields;
    let read = read::decode_impl(rt, ty);
    let write = write::encode_impl(rt, ty);
    let layout = layout::layout_impl(rt, ty);
    let start = match ty.shape.framing {
        Framing::Form(form) => {
            let tag = tag_tokens(form);
            Some(quote!(#rt::Start::Form(#tag)))
        }
        Framing::Chunk(chunk) => {
            let tag = tag_tokens(chunk);
            Some(quote!(#rt::Start::Chunk(#tag)))
        }
        Framing::None => None,
    };
    let element = match start {
        Some(start) => {
            let children =
                matches!(ty.shape.framing, Framing::Form(_)).then(|| nested_form_checks(rt, plans));
            quote! {
                impl #impl_params #rt::IffStart for #this {
                    const START: #rt::Start = #start;
                }
                impl #impl_params #rt::IffElement for #this {
                    const STARTS: &'static [#rt::Start] = &[#start];
                }
                #children
            }
        }
        None => quote!(impl #impl_params #rt::IffBody for #this {}),
    };
    let binary = binary_schema_impls(rt, heading);
    // A chunk or form looks at what it holds before reading it.
    let reads_forward = read::forward_types(plans)
        .filter(|_| !ty.shape.framing.is_framed())
        .map(|types| heading.reads_forward(rt, types));
    quote! {
        #read
        #write
        #layout
        #element
        #binary
        #reads_forward
    }
}

/// What a struct whose first fields continue its holder's word implements:
/// `WordTail` (read and written by its holder, with the word) and
/// `Layout`.
fn tail_items(rt: &Runtime, ty: &BinaryType, bits: u32) -> TokenStream {
    let (impl_params, this) = Heading::of(ty).split(rt, Bound::Binary);
    let parts = plain::field_groups(&ty.fields)
        .next()
        .map(|group| words::parts(rt, group))
        .unwrap_or_default();
    let (min_size, _) = read::type_sizes(rt, &ty.fields);
    let reads_forward =
        read::forward_types(&ty.fields).map(|types| Heading::of(ty).reads_forward(rt, types));
    let decode = read::decode_body_giving(rt, ty, |value| quote!(__give(#value)));
    let leading = quote!(__tail: u64, __reader: &mut __I, _: #rt::Endian,);
    let decode_giving = read::giving_fn(rt, quote!(decode_tail_giving), leading, decode);
    let encode = write::encode_body(rt, ty);
    let layout = layout::layout_impl(rt, ty);
    quote! {
        impl #impl_params #rt::WordTail for #this {
            const BITS: u32 = #bits;
            const PARTS: &'static [#rt::BitPart] = &[#parts];
            const MIN_SIZE: u64 = #min_size;

            #[inline]
            fn decode_tail<__I: #rt::Input>(
                __tail: u64,
                __reader: &mut __I,
                __endian: #rt::Endian,
                __context: &<Self as #rt::HasContext>::Context,
            ) -> ::core::result::Result<Self, #rt::Error> {
                <Self as #rt::WordTail>::decode_tail_giving(
                    __tail, __reader, __endian, __context, ::core::result::Result::Ok,
                )
            }

            #decode_giving

            #[inline]
            fn encode_tail<__W: #rt::Output>(
                &self,
                __writer: &mut __W,
                _: #rt::Endian,
                __context: &<Self as #rt::HasContext>::Context,
            ) -> ::core::result::Result<u64, #rt::Error> {
                #encode
            }
        }
        #layout
        #reads_forward
    }
}

/// A form's fields that are not in chunks or forms of their own must be
/// IFF elements; the compiler checks it, with the error on the field's type.
pub fn nested_form_checks(rt: &Runtime, plans: &[BinaryPlan]) -> TokenStream {
    let checks = plans
        .iter()
        // An `Option` present by the next tag needs an element to look for
        // already, where it is read.
        .filter(|plan| {
            plan.place.chunk.is_none() && plan.place.form.is_none() && !plan.by_next_tag()
        })
        .filter_map(|plan| match &plan.codec {
            Codec::Value(data) => {
                let ty = data.element_ty;
                Some(quote_spanned! {ty.span()=>
                    const _: fn() = {
                        fn nested_element<T: #rt::IffElement>() {}
                        nested_element::<#ty>
                    };
                })
            }
            _ => None,
        });
    quote!(#(#checks)*)
}
