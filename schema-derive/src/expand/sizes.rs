//! Sizes in bytes: the fewest a field or element can take, and the size
//! of one that never varies.

use proc_macro2::TokenStream;
use quote::quote;

use super::paths::Runtime;
use super::tokens::width_of;
use crate::attr::{PadLength, StringKind};
use crate::plan::{Binary, BinaryPlan, Codec, Element, Presence, Repeat, Value};

/// Fewest bytes an element can take.
pub fn element_min_size(rt: &Runtime, element: &Element<Binary>, ty: &syn::Type) -> TokenStream {
    match element {
        Element::Text(never, _) => match *never {},
        Element::Plain => quote!(<#ty as #rt::Decode>::MIN_SIZE),
        Element::String(_, StringKind::Pascal | StringKind::NullTerminated) => quote!(1u64),
        Element::String(_, StringKind::FixedWidth(width)) => {
            let width = width_of(width);
            quote!(#width)
        }
        Element::String(_, StringKind::Prefixed(count_ty)) => {
            quote!(<#count_ty as #rt::Decode>::MIN_SIZE)
        }
    }
}

/// Fewest bytes a field can take, and its size when it never varies; the
/// chunk it opens or the form it is in adds its header, and an `Option`
/// present by the next tag may take none.
pub fn field_sizes(rt: &Runtime, plan: &BinaryPlan) -> (TokenStream, TokenStream) {
    if plan.by_next_tag() {
        return (quote!(0u64), quote!(::core::option::Option::None));
    }
    // A word's bytes are its first field's; a tail's, its holder's.
    if let Some(bits) = &plan.place.bits {
        return match bits.begins.as_ref().and_then(|word| word.ty.as_ref()) {
            Some(word) => (
                quote!(<#word as #rt::Decode>::MIN_SIZE),
                quote!(<#word as #rt::Decode>::FIXED_SIZE),
            ),
            None => (quote!(0u64), quote!(::core::option::Option::Some(0u64))),
        };
    }
    let (min, fixed) = encoding_sizes(rt, plan);
    let header = match (plan.place.chunk, plan.place.form) {
        (Some(_), _) if !plan.place.joins_chunk => quote!(#rt::CHUNK_HEADER_SIZE),
        (None, Some(_)) => quote!(#rt::FORM_HEADER_SIZE),
        _ => return (min, fixed),
    };
    (
        quote!(#rt::add_min(#header, #min)),
        quote!(#rt::add_fixed(::core::option::Option::Some(#header), #fixed)),
    )
}

/// The sizes of a field's own encoding, without any chunk header.
pub fn encoding_sizes(rt: &Runtime, plan: &BinaryPlan) -> (TokenStream, TokenStream) {
    let ty = plan.field.ty;
    match &plan.codec {
        Codec::Magic(constant) => {
            let size = constant.size();
            (quote!(#size), quote!(::core::option::Option::Some(#size)))
        }
        Codec::Count(_) => {
            let int = quote!(<<#ty as #rt::CountField>::Int as #rt::Decode>);
            (quote!(#int::MIN_SIZE), quote!(#int::FIXED_SIZE))
        }
        Codec::Style(never) => match *never {},
        Codec::With(..) => (quote!(0u64), quote!(::core::option::Option::None)),
        Codec::Padding(_, PadLength::Bytes(bytes)) => {
            (quote!(#bytes), quote!(::core::option::Option::Some(#bytes)))
        }
        Codec::Padding(_, PadLength::Align(_)) => {
            (quote!(0u64), quote!(::core::option::Option::None))
        }
        Codec::Calc(_, computed) => {
            let stored = computed.stored;
            let stored = quote!(<#stored as #rt::Decode>);
            (quote!(#stored::MIN_SIZE), quote!(#stored::FIXED_SIZE))
        }
        Codec::Value(data) if data.size.is_some() => {
            (quote!(0u64), quote!(::core::option::Option::None))
        }
        // The values pointed to lie elsewhere: the field is its offsets.
        Codec::Value(Value {
            offset: Some(offsets),
            repeat,
            ..
        }) => {
            let ty = &offsets.ty;
            match repeat {
                None => (
                    quote!(<#ty as #rt::Decode>::MIN_SIZE),
                    quote!(<#ty as #rt::Decode>::FIXED_SIZE),
                ),
                Some(Repeat::Prefix(_, prefix)) => (
                    quote!(<#prefix as #rt::Decode>::MIN_SIZE),
                    quote!(::core::option::Option::None),
                ),
                Some(_) => (quote!(0u64), quote!(::core::option::Option::None)),
            }
        }
        Codec::Value(data) => {
            let none = quote!(::core::option::Option::None);
            match (&data.presence, &data.repeat) {
                (Some(Presence::Flag(_, flag)), _) => {
                    (quote!(<#flag as #rt::Decode>::MIN_SIZE), none)
                }
                (Some(Presence::NoneWord(never, _)), _) => match *never {},
                (Some(Presence::If(..) | Presence::NextTag(())), _) => (quote!(0u64), none),
                (None, Some(Repeat::Prefix(_, prefix))) => {
                    (quote!(<#prefix as #rt::Decode>::MIN_SIZE), none)
                }
                (None, Some(Repeat::CountLine(never))) => match *never {},
                // Counted otherwise than by a prefix: maybe no element.
                (None, Some(_)) => (quote!(0u64), none),
                (None, None) => {
                    let min = element_min_size(rt, &data.element, data.stored_ty());
                    let fixed = match &data.element {
                        Element::Text(never, _) => match *never {},
                        Element::Plain => {
                            let ty = data.stored_ty();
                            quote!(<#ty as #rt::Decode>::FIXED_SIZE)
                        }
                        Element::String(_, StringKind::FixedWidth(width)) => {
                            let width = width_of(width);
                            quote!(::core::option::Option::Some(#width))
                        }
                        Element::String(_, _) => none,
                    };
                    (min, fixed)
                }
            }
        }
    }
}
