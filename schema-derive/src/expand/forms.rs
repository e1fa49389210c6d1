//! Enums of forms: the type of the next `FORM` chooses the variant, whose
//! type (a struct marked `#[schema(form = "TYPE")]`) then reads the whole
//! form itself. Version forms (`FORM 0002`, `FORM 0003`) are the usual case.

use proc_macro2::TokenStream;
use quote::quote;

use super::paths::Runtime;
use super::str_lit;
use crate::ast::FormEnum;

pub fn form_enum_impls(rt: &Runtime, form_enum: &FormEnum) -> TokenStream {
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
    let min_size = types.iter().fold(
        quote!(u64::MAX),
        |min, ty| quote!(#rt::lesser_min(#min, <#ty as #rt::Decode>::MIN_SIZE)),
    );
    let layout = layout_impl(rt, form_enum);
    quote! {
        impl #rt::Decode for #ident {
            const MIN_SIZE: u64 = #min_size;
            const FIXED_SIZE: ::core::option::Option<u64> = ::core::option::Option::None;
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::Layout>::LAYOUT);

            fn decode<__R: ::std::io::Read + ::std::io::Seek>(
                __reader: &mut __R,
                __endian: #rt::Endian,
                _: &(),
            ) -> ::core::result::Result<Self, #rt::Error> {
                let __found = #rt::peek_form_type(__reader)?;
                #(
                    if __found == <#types as #rt::FormType>::FORM_TYPE {
                        return <#types as #rt::Decode>::decode(__reader, __endian, &())
                            .map(Self::#names);
                    }
                )*
                ::core::result::Result::Err(#rt::unknown_form(
                    __reader,
                    __found,
                    &[#(<#types as #rt::FormType>::FORM_TYPE),*],
                ))
            }
        }

        impl #rt::Encode for #ident {
            fn encode<__W: ::std::io::Write + ::std::io::Seek>(
                &self,
                __writer: &mut __W,
                __endian: #rt::Endian,
                _: &(),
            ) -> ::core::result::Result<(), #rt::Error> {
                match self {
                    #(Self::#names(__value) => #rt::Encode::encode(__value, __writer, __endian, &()),)*
                }
            }
        }

        impl #rt::IffForm for #ident {}

        #layout
    }
}

/// One row per variant: its name, the form type it holds and its doc.
fn layout_impl(rt: &Runtime, form_enum: &FormEnum) -> TokenStream {
    let ident = form_enum.ident;
    let name = str_lit(&ident.to_string());
    let doc = str_lit(&form_enum.doc);
    let rows = form_enum.variants.iter().map(|variant| {
        let ty = variant.ty;
        let name = str_lit(&variant.ident.to_string());
        let rust_type = str_lit(&quote!(#ty).to_string().replace(' ', ""));
        let doc = str_lit(&variant.doc);
        quote! {
            #rt::FieldLayout {
                name: #name,
                rust_type: #rust_type,
                encoding: "FORM chosen by its type",
                byte_order: #rt::ByteOrder::PerForm,
                count: ::core::option::Option::None,
                chunk: ::core::option::Option::None,
                offset: ::core::option::Option::Some(0u64),
                doc: #doc,
                nested: <#ty as #rt::Decode>::NESTED_LAYOUT,
            }
        }
    });
    quote! {
        impl #rt::Layout for #ident {
            const LAYOUT: #rt::TypeLayout = #rt::TypeLayout {
                name: #name,
                doc: #doc,
                byte_order: #rt::ByteOrder::PerForm,
                form: ::core::option::Option::None,
                context: &[],
                chosen_by: ::core::option::Option::None,
                fields: &[#(#rows),*],
                min_size: <Self as #rt::Decode>::MIN_SIZE,
                fixed_size: <Self as #rt::Decode>::FIXED_SIZE,
            };
        }
    }
}
