//! Offsets and the values they point to (`offset = u32`): the offsets
//! are read and written among the struct's fields; the values, once all
//! of them are, where the offsets point (the writer placing them and
//! filling in each offset).

use proc_macro2::TokenStream;
use quote::quote;

use super::codec::endian;
use super::context::Side;
use super::expressions::{call, element_context, start_local};
use super::names::{count_local, field_local};
use super::paths::Runtime;
use super::read::in_field;
use super::tokens::str_lit;
use crate::ast::is_named;
use crate::plan::{BinaryPlan, Codec, OffsetBase, Offsets, Repeat, Value};

/// A field's offsets, when it has any.
fn offsets<'p, 'a>(
    plan: &'p BinaryPlan<'a>,
) -> Option<(&'p Value<'a, crate::plan::Binary>, &'p Offsets<'a>)> {
    match &plan.codec {
        Codec::Value(value) => value.offset.as_ref().map(|offsets| (value, offsets)),
        _ => None,
    }
}

/// The fields holding values at offsets, each with its value and offsets.
fn pointed<'p, 'a>(
    plans: &'p [BinaryPlan<'a>],
) -> Vec<(
    &'p BinaryPlan<'a>,
    &'p Value<'a, crate::plan::Binary>,
    &'p Offsets<'a>,
)> {
    plans
        .iter()
        .filter_map(|plan| {
            let (value, offsets) = offsets(plan)?;
            Some((plan, value, offsets))
        })
        .collect()
}

/// The local holding the offsets a field read: one, or a list's.
fn offsets_local(plan: &BinaryPlan) -> syn::Ident {
    quote::format_ident!("__offsets_{}", plan.field.ident)
}

/// The local holding where a field's offsets (their placeholders, when
/// writing) begin.
fn placeholders_local(plan: &BinaryPlan) -> syn::Ident {
    quote::format_ident!("__offsets_at_{}", plan.field.ident)
}

fn base(rt: &Runtime, offsets: &Offsets) -> TokenStream {
    match &offsets.base {
        OffsetBase::Block => quote!(#rt::Base::Block),
        OffsetBase::File => quote!(#rt::Base::File),
        OffsetBase::Field(field) => {
            let at = start_local(field);
            quote!(#rt::Base::Field(#at))
        }
    }
}

/// The statements reading a field's offsets, among the struct's fields.
pub fn read_offsets(rt: &Runtime, plan: &BinaryPlan) -> Option<TokenStream> {
    let (value, offsets) = offsets(plan)?;
    let ty = &offsets.ty;
    let endian = endian(rt, &plan.place.byte_order);
    let local = offsets_local(plan);
    let at = placeholders_local(plan);
    let in_field = in_field(plan);
    let one = quote!(#rt::read_offset::<#ty, _>(__reader, #endian));
    let Some(repeat) = &value.repeat else {
        return Some(quote! {
            let #at = #rt::Input::position(__reader)?;
            let #local: u64 = #one #in_field;
        });
    };
    let len = list_len(rt, repeat, &endian, Side::Read)?;
    // A list's offsets are kept as read (four bytes each for `u32`, not
    // eight), and widened where they are used.
    Some(quote! {
        let __len: usize = #len #in_field;
        let #at = #rt::Input::position(__reader)?;
        let #local: ::std::vec::Vec<#ty> =
            #rt::read_vec(__reader, __len, <#ty as #rt::Decode>::MIN_SIZE, |__reader| {
                <#ty as #rt::Decode>::decode_input(__reader, #endian, &())
            })
                #in_field;
    })
}

/// A list of offsets' length, as the reader reads it (a `Result`), or
/// on writing, checked against the list (a `Result<usize>` of it).
fn list_len(
    rt: &Runtime,
    repeat: &Repeat<crate::plan::Binary>,
    endian: &TokenStream,
    side: Side,
) -> Option<TokenStream> {
    Some(match repeat {
        Repeat::Prefix(_, prefix) => quote!(#rt::read_count::<#prefix, _>(__reader, #endian)),
        Repeat::CountField(count) => {
            let count = count_local(count);
            quote!(::core::result::Result::<usize, #rt::Error>::Ok(#count))
        }
        Repeat::CountParam(count) => {
            let label = str_lit(&count.to_string());
            quote!(#rt::context_len(#label, ::core::clone::Clone::clone(&__context.#count)))
        }
        Repeat::CountExpr(expression) => {
            let len = call(expression, side, &[]);
            match side {
                Side::Read => quote!(#rt::counted(__reader, #len)),
                Side::Write => len,
            }
        }
        Repeat::ToEnd | Repeat::Until(..) | Repeat::CountLine(_) => return None,
    })
}

/// The statements writing a field's offsets as placeholders (a list's
/// count first), among the struct's fields.
pub fn write_offsets(rt: &Runtime, plan: &BinaryPlan) -> Option<TokenStream> {
    let (value, offsets) = offsets(plan)?;
    let ty = &offsets.ty;
    let name = plan.field.ident;
    let endian = endian(rt, &plan.place.byte_order);
    let local = placeholders_local(plan);
    let in_field = in_field(plan);
    let one = quote!(#rt::write_offset_placeholder::<#ty, _>(__writer, #endian));
    let Some(repeat) = &value.repeat else {
        return Some(quote!(let #local: u64 = #one #in_field;));
    };
    let count = match repeat {
        Repeat::Prefix(_, prefix) => {
            quote!(#rt::write_count::<#prefix, __W>(__writer, #endian, self.#name.len()))
        }
        Repeat::CountField(_) => quote!(::core::result::Result::<(), #rt::Error>::Ok(())),
        other => {
            let (label, len) = match other {
                Repeat::CountParam(count) => (
                    count.to_string(),
                    list_len(rt, other, &endian, Side::Write)?,
                ),
                Repeat::CountExpr(expression) => (
                    expression.text.clone(),
                    list_len(rt, other, &endian, Side::Write)?,
                ),
                _ => return None,
            };
            quote! {
                #len.and_then(|__len| #rt::check_len(self.#name.len(), #label, __len))
            }
        }
    };
    Some(quote! {
        #count #in_field;
        let #local: u64 = #rt::Output::position(__writer)?;
        for _ in 0..self.#name.len() {
            #one #in_field;
        }
    })
}

/// Once every field is read: the values the offsets point to, each where
/// its offset points, then the gaps between them; the input is left
/// where the last of them ends.
pub fn read_values(rt: &Runtime, plans: &[BinaryPlan]) -> TokenStream {
    let pointed = pointed(plans);
    if pointed.is_empty() {
        return TokenStream::new();
    }
    let reads = pointed.iter().map(|&(plan, value, offsets)| {
        let name = plan.field.ident;
        let label = str_lit(&name.to_string());
        let local = field_local(name);
        let found = offsets_local(plan);
        let field_ty = plan.field.ty;
        let ty = offsets.value;
        let offset_ty = &offsets.ty;
        let at = placeholders_local(plan);
        let endian = endian(rt, &plan.place.byte_order);
        let context = element_context(rt, value, false, Side::Read);
        let base = base(rt, offsets);
        let in_field = in_field(plan);
        // A value kept as bytes is read up to the next value.
        let lazy = is_named(ty, "Lazy");
        let read_one = |offset: TokenStream| match lazy {
            true => quote!(__placement.read_lazy(__reader, #base, #offset, &__targets)),
            false => quote! {
                __placement.read(__reader, #base, #offset, |__reader| {
                    <#ty as #rt::Decode>::decode_input(__reader, #endian, &__element_context)
                })
            },
        };
        let read = match &value.repeat {
            None => read_one(quote!((#found, #at))),
            Some(_) => {
                let offset = quote! {
                    (__offset, #at + (__index as u64) * <#offset_ty as #rt::Decode>::MIN_SIZE)
                };
                // Each value built where it is kept (`read_onto`), but a
                // lazy one.
                let onto = match lazy {
                    true => {
                        let one = read_one(offset);
                        quote!(#one.map(|__value| __values.push(__value)))
                    }
                    false => quote! {
                        __placement.read_onto(__reader, #base, #offset, &mut __values, |__reader| {
                            <#ty as #rt::Decode>::decode_input(__reader, #endian, &__element_context)
                        })
                    },
                };
                quote! {
                    (|| {
                        let mut __values = ::std::vec::Vec::with_capacity(#found.len());
                        for (__index, &__offset) in #found.iter().enumerate() {
                            let __offset = #rt::OffsetInt::to_offset(__offset);
                            let __element = #rt::map_enter_in::<__I>(#rt::Segment::Index(__index));
                            #onto.map_err(|e| e.within(#rt::Segment::Index(__index)))?;
                        }
                        ::core::result::Result::Ok::<_, #rt::Error>(__values)
                    })()
                }
            }
        };
        quote! {
            let mut #local: #field_ty = {
                let __entered = #rt::map_enter_in::<__I>(#rt::Segment::Field(#label));
                let __element_context = #context;
                #read
            } #in_field;
        }
    });
    let values = pointed.iter().map(|&(plan, value, _)| {
        let found = offsets_local(plan);
        match value.repeat {
            Some(_) => quote!(#found.len()),
            None => quote!(1usize),
        }
    });
    let gaps = pointed.iter().map(|(plan, value, _)| {
        let local = field_local(plan.field.ident);
        match value.repeat {
            Some(_) => quote! {
                for __value in #local.iter_mut() {
                    __value.gap = __gaps.next().unwrap_or_default();
                }
            },
            None => quote!(#local.gap = __gaps.next().unwrap_or_default();),
        }
    });
    let targets = pointed
        .iter()
        .any(|(_, _, offsets)| is_named(offsets.value, "Lazy"))
        .then(|| {
            let each = pointed.iter().map(|&(plan, value, offsets)| {
                let found = offsets_local(plan);
                let base = base(rt, offsets);
                let absolute =
                    quote!(.map(|__offset: u64| #base.position().saturating_add(__offset)));
                match value.repeat {
                    None => quote!(.chain(::core::iter::once(#found)#absolute)),
                    Some(_) => quote! {
                        .chain(#found.iter().copied().map(#rt::OffsetInt::to_offset)#absolute)
                    },
                }
            });
            quote! {
                let __targets: ::std::vec::Vec<u64> = ::core::iter::empty()#(#each)*.collect();
            }
        });
    let offsets = pointed.iter().map(|&(plan, value, offsets)| {
        let found = offsets_local(plan);
        let base = base(rt, offsets);
        match value.repeat {
            None => quote!(.chain(::core::iter::once((#base, #found)))),
            Some(_) => quote! {
                .chain(#found.iter().map(|&__offset| (#base, #rt::OffsetInt::to_offset(__offset))))
            },
        }
    });
    // Gaps given as the values were read are not read again.
    quote! {
        let mut __placement = #rt::Placement::for_values(
            __reader,
            0usize #(.saturating_add(#values))*,
            ::core::iter::empty()#(#offsets)*,
        )?;
        #targets
        #(#reads)*
        let __gaps = __placement.finish(__reader)?;
        if !__gaps.is_empty() {
            let mut __gaps = __gaps.into_iter();
            #(#gaps)*
        }
    }
}

/// Once every field is written: the values the offsets point to, where
/// they lay in the file they were read from, in its order, else after
/// what is written, each offset written over its placeholder.
pub fn write_values(rt: &Runtime, plans: &[BinaryPlan]) -> TokenStream {
    let pointed = pointed(plans);
    if pointed.is_empty() {
        return TokenStream::new();
    }
    let lay = pointed.iter().map(|&(plan, value, offsets)| {
        let name = plan.field.ident;
        let base = base(rt, offsets);
        match value.repeat {
            None => quote!(.chain(::core::iter::once(#rt::Placing::lay(&self.#name, #base)))),
            Some(_) => quote! {
                .chain(self.#name.iter().map(|__at| #rt::Placing::lay(__at, #base)))
            },
        }
    });
    let arms = pointed.iter().map(|&(plan, value, offsets)| {
        let name = plan.field.ident;
        let ty = &offsets.ty;
        let endian = endian(rt, &plan.place.byte_order);
        let context = element_context(rt, value, false, Side::Write);
        let base = base(rt, offsets);
        let placeholders = placeholders_local(plan);
        let in_field = in_field(plan);
        let write = |at: TokenStream, offset_at: TokenStream| {
            quote! {
                __placing.write::<_, #ty, _>(__writer, #at, #base, #offset_at, #endian, |__w, __v| {
                    #rt::Encode::encode_output(__v, __w, #endian, &__element_context)
                })
            }
        };
        match value.repeat {
            None => {
                let write = write(quote!(&self.#name), quote!(#placeholders));
                quote! {
                    if __rest == 0 {
                        let __element_context = #context;
                        #write #in_field;
                        continue;
                    }
                    __rest -= 1;
                }
            }
            Some(_) => {
                let offset_at = quote! {
                    #placeholders + (__rest as u64) * <#ty as #rt::Decode>::MIN_SIZE
                };
                let write = write(quote!(__at), offset_at);
                quote! {
                    if let ::core::option::Option::Some(__at) = self.#name.get(__rest) {
                        let __element_context = #context;
                        #write.map_err(|e| e.within(#rt::Segment::Index(__rest))) #in_field;
                        continue;
                    }
                    __rest -= self.#name.len();
                }
            }
        }
    });
    let estimates = pointed.iter().map(|&(plan, value, _)| {
        let name = plan.field.ident;
        let endian = endian(rt, &plan.place.byte_order);
        let context = element_context(rt, value, false, Side::Write);
        let in_field = in_field(plan);
        let estimate = |at: TokenStream| {
            quote! {
                #rt::Placing::estimate(__writer, #at, |__w, __v| {
                    #rt::Encode::encode_output(__v, __w, #endian, &__element_context)
                })
            }
        };
        let estimate = match value.repeat {
            None => {
                let estimate = estimate(quote!(&self.#name));
                quote!(#estimate #in_field;)
            }
            Some(_) => {
                let estimate = estimate(quote!(__at));
                quote! {
                    for (__index, __at) in self.#name.iter().enumerate() {
                        #estimate.map_err(|e| e.within(#rt::Segment::Index(__index))) #in_field;
                    }
                }
            }
        };
        quote! {
            let __element_context = #context;
            #estimate
        }
    });
    // An estimate sizes the output only: no order, no places, no patches.
    quote! {
        if <__W as #rt::Output>::ESTIMATES {
            #(#estimates)*
        } else {
            let __lay: ::std::vec::Vec<::core::option::Option<u64>> = ::core::iter::empty()
                #(#lay)*
                .collect();
            let mut __placing = #rt::Placing::for_values(__lay.len());
            for __index in #rt::Placing::order(&__lay) {
                let mut __rest = __index;
                #(#arms)*
            }
        }
    }
}
