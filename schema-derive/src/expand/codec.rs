//! The shells of `Decode` and `Encode` (and binrw's traits on them) that
//! structs and enums fill with their bodies, and the byte order a value
//! is read and written in.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;

use super::heading::{Bound, Heading};
use super::paths::Runtime;
use crate::attr::ByteOrder;

/// `BinarySchema` and, with the runtime's `binrw` feature, binrw's traits,
/// on top of `Decode` and `Encode`; the context is binrw's `Args`.
pub fn binary_schema_impls(rt: &Runtime, heading: Heading) -> TokenStream {
    let (impl_params, this) = heading.split(rt, Bound::Binary);
    quote! {
        impl #impl_params #rt::BinarySchema for #this {}

        // Only with the runtime's `binrw` feature (the macro decides).
        #rt::binrw_only! {
            impl #impl_params #rt::binrw::BinRead for #this {
                type Args<'__args> = <Self as #rt::HasContext>::Context;

                fn read_options<__R: ::std::io::Read + ::std::io::Seek>(
                    reader: &mut __R,
                    endian: #rt::binrw::Endian,
                    args: Self::Args<'_>,
                ) -> #rt::binrw::BinResult<Self> {
                    <Self as #rt::Decode>::decode(reader, endian.into(), &args)
                        .map_err(::core::convert::Into::into)
                }
            }

            impl #impl_params #rt::binrw::BinWrite for #this {
                type Args<'__args> = <Self as #rt::HasContext>::Context;

                fn write_options<__W: ::std::io::Write + ::std::io::Seek>(
                    &self,
                    writer: &mut __W,
                    endian: #rt::binrw::Endian,
                    args: Self::Args<'_>,
                ) -> #rt::binrw::BinResult<()> {
                    <Self as #rt::Encode>::encode(self, writer, endian.into(), &args)
                        .map_err(::core::convert::Into::into)
                }
            }
        }
    }
}

/// `Decode::decode`, which reads through `decode_input`, and
/// `decode_input` running `body`, which sees the requested byte order as
/// `endian` (a name, or `_` when it has its own).
pub fn decode_fns(rt: &Runtime, endian: TokenStream, body: TokenStream) -> TokenStream {
    quote! {
        fn decode<__R: ::std::io::Read + ::std::io::Seek>(
            __reader: &mut __R,
            __endian: #rt::Endian,
            __context: &<Self as #rt::HasContext>::Context,
        ) -> ::core::result::Result<Self, #rt::Error> {
            <Self as #rt::Decode>::decode_input(__reader, __endian, __context)
        }

        #[inline]
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
pub fn encode_fns(rt: &Runtime, endian: TokenStream, body: TokenStream) -> TokenStream {
    quote! {
        fn encode<__S: ::std::io::Write + ::std::io::Seek>(
            &self,
            __writer: &mut __S,
            __endian: #rt::Endian,
            __context: &<Self as #rt::HasContext>::Context,
        ) -> ::core::result::Result<(), #rt::Error> {
            <Self as #rt::Encode>::encode_output(self, __writer, __endian, __context)
        }

        #[inline]
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
pub fn enum_codec_impls(
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

/// The byte order a value is read and written in: a constant, or the
/// context parameter `endian = param` names (`__context` is in scope
/// wherever a value is read or written).
pub fn endian(rt: &Runtime, order: &ByteOrder) -> TokenStream {
    match order {
        ByteOrder::Big => quote!(#rt::Endian::Big),
        ByteOrder::Little => quote!(#rt::Endian::Little),
        ByteOrder::Param(param) => {
            quote_spanned!(param.span()=> #rt::ByteOrderParam::endian(&__context.#param))
        }
    }
}
