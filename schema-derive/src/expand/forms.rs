//! Enums of forms: the type of the next `FORM` chooses the variant, whose
//! type (a struct marked `#[schema(form = "TYPE")]`) then reads the whole
//! form itself. Version forms (`FORM 0002`, `FORM 0003`) are the usual case.

use proc_macro2::TokenStream;
use quote::quote;

use super::str_lit;
use crate::ast::FormEnum;

pub fn form_enum_impls(form_enum: &FormEnum) -> TokenStream {
    let ident = form_enum.ident;
    let types: Vec<_> = form_enum
        .variants
        .iter()
        .map(|variant| variant.ty)
        .collect();
    let names: Vec<_> = form_enum
        .variants
        .iter()
        .map(|variant| variant.ident)
        .collect();
    let min_size = types.iter().fold(quote!(u64::MAX), |min, ty| {
        quote!(::formats::schema::lesser_min(#min, <#ty as ::formats::schema::Decode>::MIN_SIZE))
    });
    let layout = layout_impl(form_enum);
    quote! {
        impl ::formats::schema::Decode for #ident {
            const MIN_SIZE: u64 = #min_size;
            const FIXED_SIZE: ::core::option::Option<u64> = ::core::option::Option::None;

            fn decode<__R: ::std::io::Read + ::std::io::Seek>(
                __reader: &mut __R,
                __endian: ::formats::schema::Endian,
            ) -> ::core::result::Result<Self, ::formats::schema::ReadError> {
                let __found = ::formats::schema::peek_form_type(__reader)?;
                #(
                    if __found == <#types as ::formats::schema::FormType>::FORM_TYPE {
                        return <#types as ::formats::schema::Decode>::decode(__reader, __endian).map(Self::#names);
                    }
                )*
                ::core::result::Result::Err(::formats::schema::unknown_form(
                    __reader,
                    __found,
                    &[#(<#types as ::formats::schema::FormType>::FORM_TYPE),*],
                ))
            }
        }

        impl ::formats::schema::Encode for #ident {
            fn encode<__W: ::std::io::Write + ::std::io::Seek>(
                &self,
                __writer: &mut __W,
                __endian: ::formats::schema::Endian,
            ) -> ::core::result::Result<(), ::formats::schema::WriteError> {
                match self {
                    #(Self::#names(__value) => ::formats::schema::Encode::encode(__value, __writer, __endian),)*
                }
            }
        }

        impl ::formats::schema::IffForm for #ident {}

        #layout
    }
}

/// One row per variant: its name, the form type it holds and its doc.
fn layout_impl(form_enum: &FormEnum) -> TokenStream {
    let ident = form_enum.ident;
    let name = str_lit(&ident.to_string());
    let doc = str_lit(&form_enum.doc);
    let rows = form_enum.variants.iter().map(|variant| {
        let ty = variant.ty;
        let name = str_lit(&variant.ident.to_string());
        let rust_type = str_lit(&quote!(#ty).to_string().replace(' ', ""));
        let doc = str_lit(&variant.doc);
        quote! {
            ::formats::schema::FieldLayout {
                name: #name,
                rust_type: #rust_type,
                encoding: "FORM chosen by its type",
                byte_order: "",
                count: ::core::option::Option::None,
                chunk: ::core::option::Option::None,
                offset: ::core::option::Option::Some(0u64),
                doc: #doc,
            }
        }
    });
    quote! {
        impl ::formats::schema::Layout for #ident {
            const LAYOUT: ::formats::schema::TypeLayout = ::formats::schema::TypeLayout {
                name: #name,
                doc: #doc,
                byte_order: "",
                form: ::core::option::Option::None,
                fields: &[#(#rows),*],
                min_size: <Self as ::formats::schema::Decode>::MIN_SIZE,
                fixed_size: <Self as ::formats::schema::Decode>::FIXED_SIZE,
            };
        }
    }
}
