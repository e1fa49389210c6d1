//! `Decode`: fields in order, each error tagged with the field's name.

use proc_macro2::TokenStream;
use quote::quote;

use super::context::{nested_context, place_of, value_of, Side};
use super::paths::Runtime;
use super::{
    constant_tokens, count_local, element_min_size, endian, field_local, field_sizes, str_lit,
    tag_tokens, width_of,
};
use crate::ast::Container;
use crate::attr::{Presence, Repeat, StringKind};
use crate::check::{Codec, Data, Element, Plan};
use crate::check_context::is_param;

pub fn decode_impl(rt: &Runtime, container: &Container, plans: &[Plan]) -> TokenStream {
    let ident = container.ident;
    let (mut min_size, mut fixed_size) = type_sizes(rt, plans);
    let reads = plans.iter().map(|plan| read_field(rt, container, plan));
    let inits = plans.iter().map(|plan| {
        let name = plan.field.ident;
        let local = field_local(name);
        quote!(#name: #local)
    });
    let mut body = quote! {
        #(#reads)*
        ::core::result::Result::Ok(Self { #(#inits),* })
    };
    if let Some(form) = &container.attrs.form {
        let form_type = tag_tokens(form.value);
        body = quote! {
            #rt::read_form(__reader, #form_type, |__reader| { #body })
        };
        let header = quote!(#rt::FORM_HEADER_SIZE);
        min_size = quote!(#rt::add_min(#header, #min_size));
        fixed_size = quote!(#rt::add_fixed(::core::option::Option::Some(#header), #fixed_size));
    }
    quote! {
        impl #rt::Decode for #ident {
            const MIN_SIZE: u64 = #min_size;
            const FIXED_SIZE: ::core::option::Option<u64> = #fixed_size;
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::Layout>::LAYOUT);

            fn decode<__R: ::std::io::Read + ::std::io::Seek>(
                __reader: &mut __R,
                _: #rt::Endian,
                __context: &<Self as #rt::HasContext>::Context,
            ) -> ::core::result::Result<Self, #rt::Error> {
                #body
            }
        }
    }
}

/// The type's minimum and fixed sizes as constant expressions.
pub fn type_sizes(rt: &Runtime, plans: &[Plan]) -> (TokenStream, TokenStream) {
    plans.iter().map(|plan| field_sizes(rt, plan)).fold(
        (quote!(0u64), quote!(::core::option::Option::Some(0u64))),
        |(min, fixed), (field_min, field_fixed)| {
            (
                quote!(#rt::add_min(#min, #field_min)),
                quote!(#rt::add_fixed(#fixed, #field_fixed)),
            )
        },
    )
}

/// Statements binding the field's local (and a count field's length); a
/// chunk field's statements run inside the chunk and hand those out.
fn read_field(rt: &Runtime, container: &Container, plan: &Plan) -> TokenStream {
    let statements = read_field_value(rt, container, plan);
    let Some(tag) = plan.chunk else {
        return statements;
    };
    let tag = tag_tokens(tag);
    let name = plan.field.ident;
    let mut locals = vec![field_local(name)];
    if let Codec::Count(_) = plan.codec {
        locals.push(count_local(name));
    }
    quote! {
        let (#(#locals,)*) = #rt::read_chunk(__reader, #tag, |__reader| {
            #statements
            ::core::result::Result::Ok((#(#locals,)*))
        })?;
    }
}

fn read_field_value(rt: &Runtime, container: &Container, plan: &Plan) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = field_local(name);
    let ty = plan.field.ty;
    let endian = endian(rt, plan.byte_order);
    let in_field = if plan.named_in_paths {
        quote!(.map_err(|e| e.in_field(#label))?)
    } else {
        quote!(?)
    };
    match &plan.codec {
        Codec::Magic(constant) => {
            let constant = constant_tokens(constant);
            quote! {
                let #local: #ty = #rt::read_magic(__reader, #endian, &#constant) #in_field;
            }
        }
        Codec::Count(_) => {
            let count = count_local(name);
            quote! {
                let #count = #rt::read_count::<<#ty as #rt::CountField>::Int, _>(
                    __reader, #endian,
                ) #in_field;
                let #local: #ty = ::core::default::Default::default();
            }
        }
        Codec::With(path, pass) => {
            let values = pass
                .iter()
                .map(|arg| value_of(&arg.value, is_param(container, &arg.value), Side::Read));
            quote! {
                let #local: #ty = #path::read(__reader, #endian #(, #values)*) #in_field;
            }
        }
        Codec::Data(data) => {
            let context = nested_context(rt, data.element_ty, &data.pass, |name| {
                value_of(name, is_param(container, name), Side::Read)
            });
            let value = read_data(rt, container, data, &endian, &quote!(__reader));
            quote! {
                let #local: #ty = {
                    let __element_context = #context;
                    #value
                } #in_field;
            }
        }
    }
}

/// An expression reading a value of the data's shape from `reader`; its
/// elements get `__element_context`.
fn read_data(
    rt: &Runtime,
    container: &Container,
    data: &Data,
    endian: &TokenStream,
    reader: &TokenStream,
) -> TokenStream {
    let repeated = read_repeated(rt, container, data, endian, &quote!(__r));
    match &data.presence {
        None => read_repeated(rt, container, data, endian, reader),
        Some(Presence::Flag(flag)) => quote! {
            #rt::read_flagged::<#flag, _, _>(#reader, #endian, |__r| #repeated)
        },
        Some(Presence::If(flag)) => {
            let flag = place_of(flag, is_param(container, flag), Side::Read);
            let present = read_repeated(rt, container, data, endian, reader);
            quote! {
                if #rt::FlagInt::is_set(#flag) {
                    #present.map(::core::option::Option::Some)
                } else {
                    ::core::result::Result::Ok(::core::option::Option::None)
                }
            }
        }
    }
}

fn read_repeated(
    rt: &Runtime,
    container: &Container,
    data: &Data,
    endian: &TokenStream,
    reader: &TokenStream,
) -> TokenStream {
    let element = read_element(rt, &data.element, data.element_ty, endian, &quote!(__r));
    let min_size = element_min_size(rt, &data.element, data.element_ty);
    match &data.repeat {
        None => read_element(rt, &data.element, data.element_ty, endian, reader),
        Some(Repeat::Prefix(prefix)) => quote! {
            #rt::read_count::<#prefix, _>(#reader, #endian)
                .and_then(|__len| #rt::read_vec(#reader, __len, #min_size, |__r| #element))
        },
        Some(Repeat::Count(count)) if is_param(container, count) => {
            let label = str_lit(&count.to_string());
            quote! {
                #rt::context_len(#label, ::core::clone::Clone::clone(&__context.#count))
                    .and_then(|__len| #rt::read_vec(#reader, __len, #min_size, |__r| #element))
            }
        }
        Some(Repeat::Count(count)) => {
            let count = count_local(count);
            quote! {
                #rt::read_vec(#reader, #count, #min_size, |__r| #element)
            }
        }
        Some(Repeat::ToEnd) => quote! {
            #rt::read_to_end(#reader, |__r| #element)
        },
    }
}

fn read_element(
    rt: &Runtime,
    element: &Element,
    ty: &syn::Type,
    endian: &TokenStream,
    reader: &TokenStream,
) -> TokenStream {
    match element {
        Element::Plain => {
            quote!(<#ty as #rt::Decode>::decode(#reader, #endian, &__element_context))
        }
        Element::String(StringKind::Pascal) => quote!(#rt::read_pascal(#reader)),
        Element::String(StringKind::NullTerminated) => {
            quote!(#rt::read_null_terminated(#reader))
        }
        Element::String(StringKind::FixedWidth(width)) => {
            let width = width_of(width);
            quote!(#rt::read_fixed_width(#reader, #width))
        }
    }
}
