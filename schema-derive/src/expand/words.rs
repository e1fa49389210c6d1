//! Words of bit fields: the fields of one word read from it and written
//! into it at once (see `plan::BitPlace`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::codec::endian;
use super::context::{check_call_on, Side};
use super::expressions::{start_local, stored_local};
use super::names::{count_local, field_local};
use super::paths::Runtime;
use super::read::in_field;
use super::tokens::str_lit;
use crate::plan::{BinaryPlan, Codec, WordStart};

/// The word a group of fields begins, when it is a word of bit fields.
pub fn word_of<'p>(group: &'p [BinaryPlan]) -> Option<&'p WordStart> {
    group
        .first()
        .and_then(|plan| plan.place.bits.as_ref())
        .and_then(|bits| bits.begins.as_ref())
}

/// The local holding a word's bits, named after its first field.
pub fn word_local(group: &[BinaryPlan]) -> Ident {
    let first = group.first().map(|plan| plan.field.ident);
    format_ident!(
        "__word_{}",
        first.map_or_else(String::new, ToString::to_string)
    )
}

/// Statements reading a word and its fields' values from it; a tail's
/// word is one its holder read, whose bits `decode_tail` is given
/// (`__tail`).
pub fn read_word(rt: &Runtime, group: &[BinaryPlan]) -> TokenStream {
    let (Some(first), Some(word)) = (group.first(), word_of(group)) else {
        return TokenStream::new();
    };
    let local = word_local(group);
    let at = start_local(first.field.ident);
    let endian = endian(rt, &first.place.byte_order);
    let read = match &word.ty {
        None => quote!(let #local: u64 = __tail;),
        Some(ty) => {
            let parts = parts(rt, group);
            let in_field = in_field(first);
            quote! {
                let #local: u64 = #rt::read_word::<#ty, _>(__reader, #endian, &[#parts]) #in_field;
            }
        }
    };
    let fields = group.iter().map(|plan| {
        let Some(bits) = &plan.place.bits else {
            return TokenStream::new();
        };
        let name = plan.field.ident;
        let (shift, width) = (bits.shift, bits.width);
        let value = quote!(#rt::part(#local, #shift, #width));
        let ty = plan.field.ty;
        let field_at = start_local(name);
        let local_value = field_local(name);
        let assign = match &plan.codec {
            Codec::Count(_) => {
                let count = count_local(name);
                quote! {
                    let #count: usize = usize::try_from(#value).unwrap_or(usize::MAX);
                    let #local_value: #ty = ::core::default::Default::default();
                }
            }
            Codec::Calc(_, computed) => {
                let stored = stored_local(name);
                let stored_ty = computed.stored;
                quote! {
                    let #stored: #stored_ty = <#stored_ty as #rt::BitField>::from_bits(#value, #width);
                }
            }
            _ => quote! {
                let #local_value: #ty = <#ty as #rt::BitField>::from_bits(#value, #width);
            },
        };
        let check = plan.check.as_ref().map(|check| {
            let checked = match plan.codec {
                Codec::Count(_) => {
                    let count = count_local(name);
                    quote!(#count)
                }
                _ => quote!(#local_value),
            };
            let call = check_call_on(name, check, &checked, Side::Read);
            let in_field = in_field(plan);
            quote! {
                if #rt::checking() {
                    #rt::checked_at_byte(#field_at, #call) #in_field;
                }
            }
        });
        quote! {
            let #field_at = #at;
            #assign
            #check
        }
    });
    quote! {
        let #at = #rt::Input::position(__reader)?;
        #read
        #(#fields)*
    }
}

/// Statements writing a word (a placeholder, when a field of it is
/// computed from what follows it), after its fields' checks; a tail's
/// word is its holder's to write.
pub fn write_word(rt: &Runtime, group: &[BinaryPlan]) -> TokenStream {
    let (Some(first), Some(word)) = (group.first(), word_of(group)) else {
        return TokenStream::new();
    };
    let at = start_local(first.field.ident);
    let endian = endian(rt, &first.place.byte_order);
    let starts = group.iter().skip(1).map(|plan| {
        let field_at = start_local(plan.field.ident);
        quote!(let #field_at = #at;)
    });
    let checks = group.iter().filter_map(|plan| {
        let check = plan.check.as_ref()?;
        let name = plan.field.ident;
        let checked = match plan.codec {
            Codec::Count(_) => {
                let count = count_local(name);
                quote!(#count)
            }
            _ => quote!(self.#name),
        };
        let call = check_call_on(name, check, &checked, Side::Write);
        let in_field = in_field(plan);
        Some(quote! {
            if #rt::checking() {
                #rt::checked_at_byte(#at, #call) #in_field;
            }
        })
    });
    let write = match (&word.ty, is_deferred(group)) {
        (None, _) => TokenStream::new(),
        (Some(ty), true) => quote!(#rt::write_word::<#ty, _>(__writer, #endian, 0)?;),
        (Some(ty), false) => {
            let bits = word_bits(rt, group);
            quote!(#rt::write_word::<#ty, _>(__writer, #endian, #bits)?;)
        }
    };
    quote! {
        let #at = #rt::Output::position(__writer)?;
        #(#starts)*
        #(#checks)*
        #write
    }
}

/// Whether a field of the word is a `calc` computed from the sizes of
/// what follows it: the word is then written last, over a placeholder.
pub fn is_deferred(group: &[BinaryPlan]) -> bool {
    group
        .iter()
        .any(|plan| matches!(&plan.codec, Codec::Calc(_, computed) if computed.deferred()))
}

/// The word's bits, from its fields as the writer holds them: the value,
/// a count's length, a `calc`'s value; an error names a field whose value
/// does not fit its bits.
pub fn word_bits(rt: &Runtime, group: &[BinaryPlan]) -> TokenStream {
    let fields = group.iter().filter_map(|plan| {
        let bits = plan.place.bits.as_ref()?;
        let name = plan.field.ident;
        let label = str_lit(&name.to_string());
        let (shift, width) = (bits.shift, bits.width);
        let value = match &plan.codec {
            Codec::Count(_) => {
                let count = count_local(name);
                quote!(#rt::count_bits(#label, #count, #width)?)
            }
            Codec::Calc(..) => {
                let stored = stored_local(name);
                quote!(#rt::bits_of(#label, &#stored, #width)?)
            }
            _ => quote!(#rt::bits_of(#label, &self.#name, #width)?),
        };
        Some(quote!((#value << #shift)))
    });
    quote!((0u64 #(| #fields)*))
}

/// The byte map's parts of a word: each field's name and bits.
pub fn parts(rt: &Runtime, group: &[BinaryPlan]) -> TokenStream {
    let parts = group.iter().filter_map(|plan| {
        let bits = plan.place.bits.as_ref()?;
        let name = str_lit(&plan.field.ident.to_string());
        let (shift, width) = (bits.shift, bits.width);
        Some(quote!(#rt::BitPart { name: #name, shift: #shift, width: #width }))
    });
    quote!(#(#parts),*)
}
