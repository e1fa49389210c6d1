//! Code generation. Every runtime path goes through [`paths::Runtime`].

mod choice;
mod context;
mod fallback;
mod forms;
mod keywords;
mod layout;
mod paths;
mod plain;
mod read;
#[cfg(test)]
mod snapshots_test;
mod tests;
mod text;
mod twin;
mod write;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Data, DeriveInput, Ident, LitInt};

use crate::ast::{ChoiceEnum, Container, FormEnum, Views};
use crate::attr::{ByteOrder, Constant, StringKind};
use crate::plan::{self, BinaryPlan, Codec, Element};
pub use fallback::fallback;
pub use paths::Root;
use paths::Runtime;

pub fn derive(input: &DeriveInput, root: Root) -> syn::Result<TokenStream> {
    if let Data::Enum(_) = &input.data {
        if ChoiceEnum::applies_to(input) {
            return choice::derive(&ChoiceEnum::from_input(input)?, root);
        }
        let form_enum = FormEnum::from_input(input)?;
        let rt = Runtime::new(form_enum.krate.as_ref(), root);
        let impls = forms::form_enum_impls(&rt, &form_enum);
        let context = context::context_items(&rt, form_enum.ident, &input.vis, &form_enum.params);
        let binary = binary_schema_impls(&rt, form_enum.ident);
        let tests = tests::form_enum_round_trip_module(&rt, &form_enum);
        return Ok(quote! {
            #impls
            #context
            #binary
            #tests
        });
    }
    let views = Container::views(input)?;
    // `crate = "path"` is said of the type, so either view has it.
    let first: &Container = match &views {
        Views::Binary(container) | Views::Text(container) => container,
        Views::Both { binary, .. } => binary,
    };
    let rt = Runtime::new(first.attrs.krate.as_ref().map(|krate| &krate.value), root);
    match &views {
        Views::Binary(container) => {
            let plans = plan::binary(container)?;
            let context = context::context_items(
                &rt,
                container.ident,
                container.vis,
                crate::check_context::params(container),
            );
            let binary = binary_items(&rt, container, &plans);
            let tests = tests::round_trip_module(&rt, container, &plans, tests::Check::Binary);
            Ok(quote! {
                #context
                #binary
                #tests
            })
        }
        Views::Text(container) => text::derive(&rt, container),
        Views::Both { binary, text } => twin::derive(&rt, binary, text),
    }
}

/// Everything a binary layout implements but its context and its test:
/// `Decode`, `Encode`, `Layout`, the IFF traits, `BinarySchema` and its
/// checks' functions.
fn binary_items(rt: &Runtime, container: &Container, plans: &[BinaryPlan]) -> TokenStream {
    let ident = container.ident;
    let read = read::decode_impl(rt, container, plans);
    let write = write::encode_impl(rt, container, plans);
    let layout = layout::layout_impl(rt, container, plans);
    let start = match (&container.attrs.form, &container.attrs.chunk) {
        (Some(form), _) => {
            let tag = tag_tokens(form.value);
            Some(quote!(#rt::Start::Form(#tag)))
        }
        (None, Some(chunk)) => {
            let tag = tag_tokens(chunk.value);
            Some(quote!(#rt::Start::Chunk(#tag)))
        }
        (None, None) => None,
    };
    let element = match start {
        Some(start) => {
            let children = container
                .attrs
                .form
                .is_some()
                .then(|| nested_form_checks(rt, plans));
            quote! {
                impl #rt::IffStart for #ident {
                    const START: #rt::Start = #start;
                }
                impl #rt::IffElement for #ident {
                    const STARTS: &'static [#rt::Start] = &[#start];
                }
                #children
            }
        }
        None => quote!(impl #rt::IffBody for #ident {}),
    };
    let binary = binary_schema_impls(rt, ident);
    // A count's check is given the count, as a `usize`.
    let checked: Vec<_> = plans
        .iter()
        .filter_map(|plan| {
            let check = plan.check.as_ref()?;
            let ty = plan.field.ty;
            let ty = match plan.codec {
                Codec::Count(_) => quote!(usize),
                _ => quote!(#ty),
            };
            Some((plan.field.ident, ty, check))
        })
        .collect();
    let checks = context::check_fns(rt, container, &checked);
    quote! {
        #checks
        #read
        #write
        #layout
        #element
        #binary
    }
}

/// A form's fields that are not in chunks or forms of their own must be
/// IFF elements; the compiler checks it, with the error on the field's type.
fn nested_form_checks(rt: &Runtime, plans: &[BinaryPlan]) -> TokenStream {
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

/// `BinarySchema` and binrw's traits, on top of `Decode` and `Encode`; the
/// context is binrw's `Args`.
fn binary_schema_impls(rt: &Runtime, ident: &Ident) -> TokenStream {
    quote! {
        impl #rt::BinarySchema for #ident {}

        impl #rt::binrw::BinRead for #ident {
            type Args<'__args> = <Self as #rt::HasContext>::Context;

            fn read_options<__R: ::std::io::Read + ::std::io::Seek>(
                reader: &mut __R,
                endian: #rt::Endian,
                args: Self::Args<'_>,
            ) -> #rt::binrw::BinResult<Self> {
                <Self as #rt::Decode>::decode(reader, endian, &args)
                    .map_err(::core::convert::Into::into)
            }
        }

        impl #rt::binrw::BinWrite for #ident {
            type Args<'__args> = <Self as #rt::HasContext>::Context;

            fn write_options<__W: ::std::io::Write + ::std::io::Seek>(
                &self,
                writer: &mut __W,
                endian: #rt::Endian,
                args: Self::Args<'_>,
            ) -> #rt::binrw::BinResult<()> {
                <Self as #rt::Encode>::encode(self, writer, endian, &args)
                    .map_err(::core::convert::Into::into)
            }
        }
    }
}

/// `Decode::decode`, which reads through `decode_input`, and
/// `decode_input` running `body`, which sees the requested byte order as
/// `endian` (a name, or `_` when it has its own).
fn decode_fns(rt: &Runtime, endian: TokenStream, body: TokenStream) -> TokenStream {
    quote! {
        fn decode<__R: ::std::io::Read + ::std::io::Seek>(
            __reader: &mut __R,
            __endian: #rt::Endian,
            __context: &<Self as #rt::HasContext>::Context,
        ) -> ::core::result::Result<Self, #rt::Error> {
            <Self as #rt::Decode>::decode_input(__reader, __endian, __context)
        }

        fn decode_input<__I: #rt::Input>(
            __reader: &mut __I,
            #endian: #rt::Endian,
            __context: &<Self as #rt::HasContext>::Context,
        ) -> ::core::result::Result<Self, #rt::Error> {
            #body
        }
    }
}

/// `Encode::encode`, which writes through `encode_output`, and
/// `encode_output` running `body`, which writes to `__writer` (of type
/// `__W`) and sees the requested byte order as `endian` (a name, or `_`).
fn encode_fns(rt: &Runtime, endian: TokenStream, body: TokenStream) -> TokenStream {
    quote! {
        fn encode<__S: ::std::io::Write + ::std::io::Seek>(
            &self,
            __writer: &mut __S,
            __endian: #rt::Endian,
            __context: &<Self as #rt::HasContext>::Context,
        ) -> ::core::result::Result<(), #rt::Error> {
            <Self as #rt::Encode>::encode_output(self, __writer, __endian, __context)
        }

        fn encode_output<__W: #rt::Output>(
            &self,
            __writer: &mut __W,
            #endian: #rt::Endian,
            __context: &<Self as #rt::HasContext>::Context,
        ) -> ::core::result::Result<(), #rt::Error> {
            #body
        }
    }
}

/// `Decode` and `Encode` of an enum (of no fixed size, its layout its
/// own), given the functions `decode_fns` and `encode_fns` made.
fn enum_codec_impls(
    rt: &Runtime,
    ident: &Ident,
    min_size: TokenStream,
    decode: TokenStream,
    encode: TokenStream,
) -> TokenStream {
    quote! {
        impl #rt::Decode for #ident {
            const MIN_SIZE: u64 = #min_size;
            const FIXED_SIZE: ::core::option::Option<u64> = ::core::option::Option::None;
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::Layout>::LAYOUT);

            #decode
        }

        impl #rt::Encode for #ident {
            #encode
        }
    }
}

/// An IFF tag as a `[u8; 4]` expression.
fn tag_tokens(tag: [u8; 4]) -> TokenStream {
    let bytes = syn::LitByteStr::new(&tag, Span::call_site());
    quote!(*#bytes)
}

/// An IFF tag as text, for labels and layout.
fn tag_str(tag: [u8; 4]) -> String {
    String::from_utf8_lossy(&tag).into_owned()
}

/// The byte order a value is read and written in: a constant, or the
/// context parameter `endian = param` names (`__context` is in scope
/// wherever a value is read or written).
fn endian(rt: &Runtime, order: &ByteOrder) -> TokenStream {
    match order {
        ByteOrder::Big => quote!(#rt::Endian::Big),
        ByteOrder::Little => quote!(#rt::Endian::Little),
        ByteOrder::Param(param) => {
            quote_spanned!(param.span()=> #rt::ByteOrderParam::endian(&__context.#param))
        }
    }
}

/// The local a field's value is read into (prefixed, so field names never
/// clash with the generated code's own names).
fn field_local(field: &Ident) -> Ident {
    format_ident!("__field_{}", field)
}

/// The local holding the length a count field stores.
fn count_local(field: &Ident) -> Ident {
    format_ident!("__count_{}", field)
}

fn constant_tokens(constant: &Constant) -> TokenStream {
    match constant {
        Constant::Int(int) => quote!(#int),
        Constant::Bytes(bytes) => quote!(*#bytes),
        Constant::Text(_) => unreachable!("`plan::binary` refuses a text constant"),
    }
}

fn width_of(width: &LitInt) -> u64 {
    width.base10_parse().unwrap_or(0)
}

/// Fewest bytes an element can take.
fn element_min_size(rt: &Runtime, element: &Element, ty: &syn::Type) -> TokenStream {
    match element {
        Element::Plain | Element::Text(_) => quote!(<#ty as #rt::Decode>::MIN_SIZE),
        Element::String(StringKind::Pascal | StringKind::NullTerminated) => quote!(1u64),
        Element::String(StringKind::FixedWidth(width)) => {
            let width = width_of(width);
            quote!(#width)
        }
        Element::String(StringKind::Prefixed(count_ty)) => {
            quote!(<#count_ty as #rt::Decode>::MIN_SIZE)
        }
    }
}

/// Fewest bytes a field can take, and its size when it never varies; the
/// chunk it opens or the form it is in adds its header, and an `Option`
/// present by the next tag may take none.
fn field_sizes(rt: &Runtime, plan: &BinaryPlan) -> (TokenStream, TokenStream) {
    if plan.by_next_tag() {
        return (quote!(0u64), quote!(::core::option::Option::None));
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
fn encoding_sizes(rt: &Runtime, plan: &BinaryPlan) -> (TokenStream, TokenStream) {
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
        Codec::Style => (quote!(0u64), quote!(::core::option::Option::Some(0u64))),
        Codec::With(..) => (quote!(0u64), quote!(::core::option::Option::None)),
        Codec::Value(data) => {
            let none = quote!(::core::option::Option::None);
            match (&data.presence, &data.repeat) {
                (Some(crate::attr::Presence::Flag(flag)), _) => {
                    (quote!(<#flag as #rt::Decode>::MIN_SIZE), none)
                }
                (
                    Some(
                        crate::attr::Presence::If(_)
                        | crate::attr::Presence::NextTag
                        | crate::attr::Presence::NoneWord(_),
                    ),
                    _,
                ) => (quote!(0u64), none),
                (None, Some(crate::attr::Repeat::Prefix(prefix))) => {
                    (quote!(<#prefix as #rt::Decode>::MIN_SIZE), none)
                }
                (
                    None,
                    Some(
                        crate::attr::Repeat::Count(_)
                        | crate::attr::Repeat::ToEnd
                        | crate::attr::Repeat::CountLine,
                    ),
                ) => (quote!(0u64), none),
                (None, None) => {
                    let min = element_min_size(rt, &data.element, data.element_ty);
                    let fixed = match &data.element {
                        Element::Plain | Element::Text(_) => {
                            let ty = data.element_ty;
                            quote!(<#ty as #rt::Decode>::FIXED_SIZE)
                        }
                        Element::String(StringKind::FixedWidth(width)) => {
                            let width = width_of(width);
                            quote!(::core::option::Option::Some(#width))
                        }
                        Element::String(_) => none,
                    };
                    (min, fixed)
                }
            }
        }
    }
}

fn str_lit(text: &str) -> syn::LitStr {
    syn::LitStr::new(text, Span::call_site())
}

/// `Some("text")` or `None`, for optional layout strings.
fn optional_str(text: Option<String>) -> TokenStream {
    match text {
        Some(text) => {
            let text = str_lit(&text);
            quote!(::core::option::Option::Some(#text))
        }
        None => quote!(::core::option::Option::None),
    }
}
