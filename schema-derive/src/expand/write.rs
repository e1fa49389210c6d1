//! `Encode`: counts are derived from the collections first, then fields in order.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::codec::{encode_fns, endian};
use super::context::{arg_value, check_call_on, placed_check, Side};
use super::expressions::{
    call, element_context, end_local, presence_check, start_local, stored_local,
};
use super::heading::{Bound, Heading};
use super::names::count_local;
use super::offsets;
use super::paths::Runtime;
use super::plain::{field_groups, is_plain, is_plain_run, plain_size};
use super::read::{
    checked_from_start, field_statements, in_field, notes_end, notes_start, padding_length,
};
use super::tokens::{constant_tokens, str_lit, tag_str, tag_tokens, width_of};
use super::words;
use crate::attr::StringKind;
use crate::plan::{
    shared_chunk, Binary, BinaryPlan, BinaryType, Codec, Computed, CountUser, Element, Framing,
    Presence, Repeat, Value,
};

pub fn encode_impl(rt: &Runtime, ty: &BinaryType) -> TokenStream {
    let (impl_params, this) = Heading::of(ty).split(rt, Bound::Binary);
    let encode = encode_fns(rt, quote!(_), encode_body(rt, ty));
    let plain = is_plain(ty).then(|| {
        let encode = plain_run(rt, &ty.fields);
        quote! {
            #[inline]
            fn encode_plain(&self, __bytes: &mut [u8], _: #rt::Endian) -> bool {
                (#encode)(__bytes)
            }
        }
    });
    quote! {
        impl #impl_params #rt::Encode for #this {
            #encode
            #plain
        }
    }
}

/// The statements writing a struct's fields to `__writer` (of type `__W`):
/// what `encode_output` runs, and a tail's `encode_tail`, which ends in
/// the word's bits its fields hold.
pub fn encode_body(rt: &Runtime, ty: &BinaryType) -> TokenStream {
    let plans = &ty.fields;
    let frame = match ty.shape.framing {
        Framing::Form(form) => Some((quote!(write_form), form)),
        Framing::Chunk(chunk) => Some((quote!(write_chunk), chunk)),
        Framing::None => None,
    };
    // Counts are checked before anything is written, so a count error is
    // placed inside the form (or chunk) by hand.
    let in_frame = frame.as_ref().map(|(_, tag)| {
        let tag = tag_tokens(*tag);
        quote!(.map_err(|e| e.within(#rt::Segment::Chunk(#tag))))
    });
    let counts = plans.iter().filter_map(|plan| match &plan.codec {
        Codec::Count(users) => Some(shared_count(rt, plan, users, in_frame.as_ref())),
        _ => None,
    });
    // The values the writer computes that it knows before writing.
    let calcs = plans.iter().filter_map(|plan| match &plan.codec {
        Codec::Calc(_, computed) if !computed.deferred() => {
            Some(calc_to_write(rt, plan, computed, in_frame.as_ref()))
        }
        _ => None,
    });
    let known_at_end = written_value_checks(rt, plans, ty.shape.tail.is_some());
    let done = match ty.shape.tail {
        Some(_) => tail_bits(rt, plans),
        None => quote!(::core::result::Result::Ok(())),
    };
    let mut writes = field_statements(
        ty,
        &quote!(#rt::Output::position(__writer)?),
        |plan| write_field_value(rt, plan),
        |group| write_group(rt, group),
    );
    writes.push(offsets::write_values(rt, plans));
    // The type's own check, as the reader runs it once every field is
    // read: here once every field is written (what is written is dropped
    // with the error), so a refusal names the byte the reader would.
    let mut body = match ty.check {
        Some(path) => {
            let check = checked_from_start(rt, plans, path, quote!(self));
            quote! {
                let __start = #rt::Output::position(__writer)?;
                #(#writes)*
                #known_at_end
                #check
                #done
            }
        }
        None => quote! {
            #(#writes)*
            #known_at_end
            #done
        },
    };
    if let Some((write, tag)) = frame {
        let tag = tag_tokens(tag);
        body = quote! {
            #rt::#write(__writer, #tag, |__writer| { #body })
        };
    }
    quote! {
        #(#counts)*
        #(#calcs)*
        #body
    }
}

/// The end of a tail's `encode_tail`: the bits of the word its holder
/// writes (its values computed from what was written are known by now).
fn tail_bits(rt: &Runtime, plans: &[BinaryPlan]) -> TokenStream {
    let bits = field_groups(plans)
        .next()
        .map_or_else(|| quote!(0u64), |group| words::word_bits(rt, group));
    quote!(::core::result::Result::Ok(#bits))
}

/// `let __stored_x = ...;` for each `calc` of `fields` the writer knows
/// once what follows it is written.
fn deferred_calcs<'p>(
    rt: &'p Runtime,
    fields: &'p [BinaryPlan],
) -> impl Iterator<Item = TokenStream> + 'p {
    fields.iter().filter_map(move |plan| match &plan.codec {
        Codec::Calc(_, computed) if computed.deferred() => {
            Some(calc_to_write(rt, plan, computed, None))
        }
        _ => None,
    })
}

/// `let __stored_x = ...;`: the value a `calc` field is written with, the
/// one it kept or the one computed.
fn calc_to_write(
    rt: &Runtime,
    plan: &BinaryPlan,
    computed: &Computed,
    in_frame: Option<&TokenStream>,
) -> TokenStream {
    let name = plan.field.ident;
    let stored = stored_local(name);
    let stored_ty = computed.stored;
    let value = call(&computed.expression, Side::Write, &[]);
    let in_field = in_field(plan);
    quote! {
        let #stored: #stored_ty = #rt::calc_to_write(&self.#name, || #value) #in_frame #in_field;
    }
}

/// What the writer knows once every field is written: the values it
/// computes from the sizes of what it wrote, written over their
/// placeholders, then the check that each `size` block took the bytes its
/// expression gives. An estimate of the output's size does neither: its
/// sizes are guesses.
fn written_value_checks(rt: &Runtime, plans: &[BinaryPlan], tail: bool) -> TokenStream {
    // A word holding such a value is written over its placeholder whole;
    // a tail's word is its holder's to write.
    let deferred = field_groups(plans).filter_map(|group| {
        let first = group.first()?;
        let endian = endian(rt, &first.place.byte_order);
        match words::word_of(group) {
            Some(word) if words::is_deferred(group) => {
                let compute = deferred_calcs(rt, group);
                let at = start_local(first.field.ident);
                let bits = words::word_bits(rt, group);
                let patch = word
                    .ty
                    .as_ref()
                    .map(|ty| quote!(#rt::patch_word::<#ty, _>(__writer, #at, #endian, #bits)?;));
                Some(quote! {
                    #(#compute)*
                    #patch
                })
            }
            Some(_) => None,
            None => {
                let patches: Vec<TokenStream> = group
                    .iter()
                    .filter_map(|plan| match &plan.codec {
                        Codec::Calc(_, computed) if computed.deferred() => {
                            let name = plan.field.ident;
                            let (stored, at) = (stored_local(name), start_local(name));
                            let compute = calc_to_write(rt, plan, computed, None);
                            let in_field = in_field(plan);
                            Some(quote! {
                                #compute
                                #rt::patch_value(__writer, #at, &#stored, #endian) #in_field;
                            })
                        }
                        _ => None,
                    })
                    .collect();
                (!patches.is_empty()).then(|| quote!(#(#patches)*))
            }
        }
    });
    let blocks = plans.iter().filter_map(|plan| {
        let Codec::Value(Value {
            size: Some(size), ..
        }) = &plan.codec
        else {
            return None;
        };
        let name = plan.field.ident;
        let (at, end) = (start_local(name), end_local(name));
        let expected = call(size, Side::Write, &[]);
        let text = &size.text;
        let in_field = in_field(plan);
        Some(quote! {
            #expected
                .and_then(|__size| #rt::check_block_size(#text, #end - #at, __size))
                #in_field;
        })
    });
    let statements: Vec<TokenStream> = deferred.chain(blocks).collect();
    if statements.is_empty() {
        return TokenStream::new();
    }
    let estimated = if tail { quote!(0u64) } else { quote!(()) };
    quote! {
        if <__W as #rt::Output>::ESTIMATES {
            return ::core::result::Result::Ok(#estimated);
        }
        #(#statements)*
    }
}

/// A closure encoding a run of plain fields into bytes in place (exactly
/// the sum of their `PLAIN_SIZE`s), false where one is not plain.
fn plain_run(rt: &Runtime, run: &[BinaryPlan]) -> TokenStream {
    let values = run.iter().map(|plan| {
        let name = plan.field.ident;
        let ty = plan.field.ty;
        let endian = endian(rt, &plan.place.byte_order);
        quote!(#rt::encode_plain_next::<#ty>(&mut __bytes, &self.#name, #endian))
    });
    quote! {
        |mut __bytes: &mut [u8]| #(#values)&&*
    }
}

/// `let __count_n = shared_len("n", &[("a", Some(self.a.len())), ...])?;`
/// Fields stored in chunks are named by their tags, as in read errors.
fn shared_count(
    rt: &Runtime,
    plan: &BinaryPlan,
    users: &[CountUser],
    in_form: Option<&TokenStream>,
) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&plan.place.chunk.map_or_else(|| name.to_string(), tag_str));
    let local = count_local(name);
    let lengths = users.iter().map(|user| {
        let field = &user.field;
        let label = str_lit(&user.chunk.map_or_else(|| field.to_string(), tag_str));
        if user.optional {
            quote!((#label, self.#field.as_ref().map(::std::vec::Vec::len)))
        } else {
            quote!((#label, ::core::option::Option::Some(self.#field.len())))
        }
    });
    quote! {
        let #local = #rt::shared_len(#label, &[#(#lengths),*]) #in_form ?;
    }
}

/// The write statements of fields in a row that share a chunk (inside the
/// chunk), of a run of plain fields, or of one field. A field present by
/// the next tag writes its chunk itself, when it has a value.
fn write_group(rt: &Runtime, group: &[BinaryPlan]) -> TokenStream {
    if words::word_of(group).is_some() {
        return words::write_word(rt, group);
    }
    let statements: Vec<TokenStream> = group
        .iter()
        .map(|plan| write_field_value(rt, plan))
        .collect();
    let Some(tag) = shared_chunk(group) else {
        return write_run(rt, group, &statements);
    };
    let tag = tag_tokens(tag);
    quote! {
        #rt::write_chunk(__writer, #tag, |__writer| {
            #(#statements)*
            ::core::result::Result::Ok(())
        })?;
    }
}

/// The statements of a run of fields: when it holds two or more plain
/// values, encoded at once into bytes in place where the output allows,
/// else (or where it does not) one by one.
fn write_run(rt: &Runtime, run: &[BinaryPlan], one_by_one: &[TokenStream]) -> TokenStream {
    if !is_plain_run(run) {
        return quote!(#(#one_by_one)*);
    }
    let size = plain_size(rt, run);
    let encode = plain_run(rt, run);
    quote! {
        if !#rt::write_plain_run(__writer, #size, #encode) {
            #(#one_by_one)*
        }
    }
}

/// `write` wrapped in the field's form, and, for an `Option` present by
/// the next tag, in its chunk too.
fn framed_write(rt: &Runtime, plan: &BinaryPlan, write: TokenStream) -> TokenStream {
    let write = match plan.place.form {
        Some(form_type) => {
            let form_type = tag_tokens(form_type);
            quote!(#rt::write_form(__writer, #form_type, |__writer| #write))
        }
        None => write,
    };
    match plan.place.chunk {
        Some(tag) if plan.by_next_tag() => {
            let tag = tag_tokens(tag);
            quote!(#rt::write_chunk(__writer, #tag, |__writer| #write))
        }
        _ => write,
    }
}

/// A field's write statements, noting where it begins and ends where
/// what the writer does once every field is written needs it.
fn write_field_value(rt: &Runtime, plan: &BinaryPlan) -> TokenStream {
    let name = plan.field.ident;
    let statements = write_field_statements(rt, plan);
    let position = quote!(#rt::Output::position(__writer)?);
    let (at, end) = (start_local(name), end_local(name));
    let start = notes_start(plan).then(|| quote!(let #at = #position;));
    let end = notes_end(plan).then(|| quote!(let #end = #position;));
    // A `size` block is a block of its own, which padding inside aligns to.
    let block = matches!(&plan.codec, Codec::Value(value) if value.size.is_some());
    let statements = match block {
        true => quote! {
            let __block = #rt::enter_block(#at);
            #statements
            ::core::mem::drop(__block);
        },
        false => statements,
    };
    quote! {
        #start
        #statements
        #end
    }
}

fn write_field_statements(rt: &Runtime, plan: &BinaryPlan) -> TokenStream {
    let name = plan.field.ident;
    let ty = plan.field.ty;
    let endian = endian(rt, &plan.place.byte_order);
    let in_field = in_field(plan);
    let in_field = quote!(#in_field;);
    match &plan.codec {
        // Only text layouts have a style; it is not stored.
        Codec::Style(never) => match *never {},
        Codec::Magic(constant) => {
            let constant = constant_tokens(constant);
            quote!(#rt::write_magic(__writer, #endian, &#constant) #in_field)
        }
        Codec::Count(_) => {
            let count = count_local(name);
            let write = quote! {
                #rt::write_count::<<#ty as #rt::CountField>::Int, __W>(
                    __writer, #endian, #count,
                ) #in_field
            };
            let Some(check) = &plan.check else {
                return write;
            };
            // As the reader refuses it: at the count's own byte.
            let start = format_ident!("__start_{}", name);
            let call = check_call_on(name, check, &quote!(#count), Side::Write);
            quote! {
                if #rt::checking() {
                    let #start = #rt::Output::position(__writer) #in_field
                    #rt::checked_at_byte(#start, #call) #in_field
                }
                #write
            }
        }
        Codec::With(_, path, pass) => {
            let values = pass
                .iter()
                .map(|arg| arg_value(rt, &arg.value, Side::Write));
            quote! {
                #rt::Output::as_stream(__writer, |__writer| {
                    #path::write(&self.#name, __writer, #endian #(, #values)*)
                }) #in_field
            }
        }
        Codec::Padding(_, length) => {
            let length = padding_length(rt, *length);
            quote!(#rt::write_padding(__writer, #length, &self.#name) #in_field)
        }
        Codec::Calc(_, computed) if computed.deferred() => {
            let stored_ty = computed.stored;
            quote! {
                #rt::write_placeholder(
                    __writer,
                    <#stored_ty as #rt::Decode>::FIXED_SIZE,
                ) #in_field
            }
        }
        Codec::Calc(..) => {
            let stored = stored_local(name);
            quote!(#rt::Encode::encode_output(&#stored, __writer, #endian, &()) #in_field)
        }
        Codec::Value(data) if data.offset.is_some() => {
            offsets::write_offsets(rt, plan).unwrap_or_default()
        }
        Codec::Value(data) => {
            let context = element_context(rt, data, false, Side::Write);
            let write = if plan.by_next_tag() {
                let present = write_repeated(rt, data, &endian, &quote!(__writer), &quote!(__v));
                let present = framed_write(rt, plan, present);
                quote! {
                    match (&self.#name).as_ref() {
                        ::core::option::Option::Some(__v) => #present,
                        ::core::option::Option::None => ::core::result::Result::Ok(()),
                    }
                }
            } else {
                let write = write_data(rt, data, &endian, &quote!(&self.#name));
                framed_write(rt, plan, write)
            };
            let write = quote! {
                {
                    let __element_context = #context;
                    #write
                } #in_field
            };
            let Some(check) = &plan.check else {
                return write;
            };
            // The reader's check, before the value is written: the writer
            // refuses what the reader would, at the byte the value starts
            // at and with the same path.
            let start = format_ident!("__start_{}", name);
            let call = check_call_on(name, check, &quote!(self.#name), Side::Write);
            let checked = placed_check(rt, plan, &start, call);
            quote! {
                if #rt::checking() {
                    let #start = #rt::Output::position(__writer) #in_field
                    #checked #in_field
                }
                #write
            }
        }
    }
}

/// An expression writing `value` (a reference) in the data's shape to
/// `__writer`; its elements get `__element_context`.
fn write_data(
    rt: &Runtime,
    data: &Value<Binary>,
    endian: &TokenStream,
    value: &TokenStream,
) -> TokenStream {
    match &data.presence {
        Some(Presence::NoneWord(never, _)) => match *never {},
        None | Some(Presence::NextTag(())) => {
            write_repeated(rt, data, endian, &quote!(__writer), value)
        }
        Some(Presence::Flag(_, flag)) => {
            let present = write_repeated(rt, data, endian, &quote!(__w), &quote!(__v));
            quote! {
                #rt::write_flagged::<#flag, __W, _>(
                    __writer, #endian, (#value).as_ref(), |__w, __v| #present,
                )
            }
        }
        Some(Presence::If(condition, expression)) => {
            let present = write_repeated(rt, data, endian, &quote!(__writer), &quote!(__v));
            let check = presence_check(rt, condition, expression, quote!((#value).is_some()));
            quote! {
                #check
                .and_then(|()| match (#value).as_ref() {
                    ::core::option::Option::Some(__v) => #present,
                    ::core::option::Option::None => ::core::result::Result::Ok(()),
                })
            }
        }
    }
}

/// An expression writing `value` (a reference) in the data's shape: its
/// count and its elements, each converted first when it is `map`ped.
fn write_repeated(
    rt: &Runtime,
    data: &Value<Binary>,
    endian: &TokenStream,
    writer: &TokenStream,
    value: &TokenStream,
) -> TokenStream {
    // A mapped value is converted to what it is stored as, then written.
    let stored = match &data.map {
        Some(_) => quote!(&__stored),
        None => value.clone(),
    };
    let element = write_element(rt, &data.element, endian, &quote!(__w), &quote!(__e));
    let list = match &data.element {
        Element::Text(never, _) => match *never {},
        Element::Plain => {
            quote!(#rt::encode_each(#writer, #stored, #endian, &__element_context))
        }
        Element::String(_, _) => quote!(#rt::write_each(#writer, #stored, |__w, __e| #element)),
    };
    let write = match &data.repeat {
        None => write_element(rt, &data.element, endian, writer, &stored),
        Some(Repeat::Prefix(_, prefix)) => quote! {
            #rt::write_count::<#prefix, __W>(#writer, #endian, (#stored).len())
                .and_then(|()| #list)
        },
        Some(Repeat::CountParam(count)) => {
            let label = str_lit(&count.to_string());
            quote! {
                #rt::context_len(#label, ::core::clone::Clone::clone(&__context.#count))
                    .and_then(|__len| #rt::check_len((#stored).len(), #label, __len))
                    .and_then(|()| #list)
            }
        }
        Some(Repeat::CountExpr(expression)) => {
            let len = call(expression, Side::Write, &[]);
            let label = &expression.text;
            quote! {
                #len
                    .and_then(|__len| #rt::check_len((#stored).len(), #label, __len))
                    .and_then(|()| #list)
            }
        }
        Some(Repeat::Until(_, expression)) => {
            let ends = call(expression, Side::Write, &[quote!(__element)]);
            quote! {
                #rt::check_terminated(#stored, |__element| #ends).and_then(|()| #list)
            }
        }
        Some(Repeat::CountField(_) | Repeat::ToEnd) => list,
        Some(Repeat::CountLine(never)) => match *never {},
    };
    let Some(map) = &data.map else {
        return write;
    };
    let (stored_ty, ty) = (&map.stored, data.element_ty);
    let back = if map.fallible {
        quote!(#rt::try_mapped_back::<#ty, #stored_ty>)
    } else {
        quote!(|__v| ::core::result::Result::Ok(#rt::mapped_back::<#ty, #stored_ty>(__v)))
    };
    let converted = match &data.repeat {
        None => quote!((#back)(#value)),
        Some(_) => quote! {
            (#value)
                .iter()
                .map(#back)
                .collect::<::core::result::Result<::std::vec::Vec<#stored_ty>, #rt::Error>>()
        },
    };
    quote!(#converted.and_then(|__stored| #write))
}

fn write_element(
    rt: &Runtime,
    element: &Element<Binary>,
    endian: &TokenStream,
    writer: &TokenStream,
    value: &TokenStream,
) -> TokenStream {
    match element {
        Element::Text(never, _) => match *never {},
        Element::Plain => {
            quote!(#rt::Encode::encode_output(#value, #writer, #endian, &__element_context))
        }
        Element::String(_, StringKind::Pascal) => {
            quote!(#rt::write_pascal(#writer, #value))
        }
        Element::String(_, StringKind::NullTerminated) => {
            quote!(#rt::write_null_terminated(#writer, #value))
        }
        Element::String(_, StringKind::FixedWidth(width)) => {
            let width = width_of(width);
            quote!(#rt::write_fixed_width(#writer, #value, #width))
        }
        Element::String(_, StringKind::Prefixed(count_ty)) => {
            quote!(#rt::write_prefixed::<#count_ty, _>(#writer, #endian, #value))
        }
    }
}
