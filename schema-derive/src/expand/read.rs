//! `Decode`: fields in order, each error tagged with the field's name.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens as _};
use syn::spanned::Spanned as _;

use super::codec::{decode_fns, endian};
use super::context::{arg_value, check_call_on, placed_check, Side};
use super::expressions::{call, element_context, end_local, read_when, start_local, stored_local};
use super::heading::{Bound, Heading};
use super::names::{count_local, field_local, type_check_call, value_of_locals};
use super::offsets;
use super::paths::Runtime;
use super::plain::{field_groups, is_plain, is_plain_run, plain_size};
use super::sizes::{element_min_size, field_sizes};
use super::tokens::{constant_tokens, str_lit, tag_str, tag_tokens, width_of};
use super::words::{self, word_of};
use crate::attr::{PadLength, StringKind};
use crate::plan::{
    shared_chunk, Binary, BinaryPlan, BinaryType, Codec, Element, Framing, Presence, Repeat, Value,
};

pub fn decode_impl(rt: &Runtime, ty: &BinaryType) -> TokenStream {
    let (impl_params, this) = Heading::of(ty).split(rt, Bound::Binary);
    let (mut min_size, mut fixed_size) = type_sizes(rt, &ty.fields);
    let frame = match ty.shape.framing {
        Framing::Form(form) => Some((quote!(read_form), form, quote!(FORM_HEADER_SIZE))),
        Framing::Chunk(chunk) => Some((quote!(read_chunk), chunk, quote!(CHUNK_HEADER_SIZE))),
        Framing::None => None,
    };
    let decode = match &frame {
        Some((read, tag, header)) => {
            let body = decode_body(rt, ty);
            let tag = tag_tokens(*tag);
            min_size = quote!(#rt::add_min(#rt::#header, #min_size));
            fixed_size =
                quote!(#rt::add_fixed(::core::option::Option::Some(#rt::#header), #fixed_size));
            decode_fns(
                rt,
                quote!(_),
                quote!(#rt::#read(__reader, #tag, |__reader| { #body })),
            )
        }
        // Read through `decode_giving`, so that a value kept elsewhere (an
        // enum's variant in a list) is built there from the fields read.
        None => {
            let body = decode_body_giving(rt, ty, |value| quote!(__give(#value)));
            let giving = quote! {
                <Self as #rt::Decode>::decode_giving(
                    __reader, __endian, __context, ::core::result::Result::Ok,
                )
            };
            let decode = decode_fns(rt, quote!(__endian), giving);
            let leading = quote!(__reader: &mut __I, _: #rt::Endian,);
            let giving = giving_fn(rt, quote!(decode_giving), leading, body);
            quote!(#decode #giving)
        }
    };
    let plain = plain_impl(rt, ty);
    let iff_tag = frame.map(|(_, tag, _)| {
        let tag = tag_tokens(tag);
        quote!(const IFF_TAG: ::core::option::Option<[u8; 4]> = ::core::option::Option::Some(#tag);)
    });
    quote! {
        impl #impl_params #rt::Decode for #this {
            const MIN_SIZE: u64 = #min_size;
            const FIXED_SIZE: ::core::option::Option<u64> = #fixed_size;
            #iff_tag
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::Layout>::LAYOUT);
            #plain
            #decode
        }
    }
}

/// A reader that hands the value it reads to `__give` (see
/// `Decode::decode_giving`): `name`, its parameters before the context
/// (`leading`, each with its comma), and `body`.
pub fn giving_fn(
    rt: &Runtime,
    name: TokenStream,
    leading: TokenStream,
    body: TokenStream,
) -> TokenStream {
    quote! {
        #[inline]
        fn #name<__I: #rt::Input, __R>(
            #leading
            __context: &<Self as #rt::HasContext>::Context,
            __give: impl FnOnce(Self) -> ::core::result::Result<__R, #rt::Error>,
        ) -> ::core::result::Result<__R, #rt::Error> {
            #body
        }
    }
}

/// The statements reading a struct's fields from `__reader`, ending in
/// the value returned: what a form or chunk frames, and a tail's
/// `decode_tail` (whose word's bits are `__tail`).
pub fn decode_body(rt: &Runtime, ty: &BinaryType) -> TokenStream {
    decode_body_giving(rt, ty, |value| quote!(::core::result::Result::Ok(#value)))
}

/// [`decode_body`] ending in what `give` makes of the value (an
/// expression building it from the fields read).
pub fn decode_body_giving(
    rt: &Runtime,
    ty: &BinaryType,
    give: impl Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    let plans = &ty.fields;
    let reads = field_statements(
        ty,
        &quote!(#rt::Input::position(__reader)?),
        |plan| read_field_value(rt, plan),
        |group| read_group(rt, group),
    );
    let values = offsets::read_values(rt, plans);
    let absent_counts = absent_count_checks(rt, plans);
    let calcs = plans.iter().filter_map(|plan| calc_found(rt, plan));
    let value = value_of_locals(ty);
    match ty.check {
        // A refusal points into the value from its first byte.
        Some(path) => {
            let check = checked_from_start(rt, plans, path, quote!(&__value));
            let given = give(quote!(__value));
            quote! {
                let __start = #rt::Input::position(__reader)?;
                #(#reads)*
                #values
                #(#absent_counts)*
                #(#calcs)*
                let __value = #value;
                #check
                #given
            }
        }
        None => {
            let given = give(value);
            quote! {
                #(#reads)*
                #values
                #(#absent_counts)*
                #(#calcs)*
                #given
            }
        }
    }
}

/// The type's `check = path` run on `value`, read or written from
/// `__start`: a refusal points into it, from its first byte through the
/// fields' starts.
pub fn checked_from_start(
    rt: &Runtime,
    plans: &[BinaryPlan],
    path: &syn::Path,
    value: TokenStream,
) -> TokenStream {
    let call = type_check_call(path, value);
    let starts = field_starts(plans);
    quote! {
        if #rt::checking() {
            #rt::checked_fields_at_byte(
                __start,
                &[#starts],
                &<Self as #rt::Layout>::LAYOUT,
                #call,
            )?;
        }
    }
}

/// The statements of every group of fields: `group`'s for each, or, for a
/// type with a check of its own, each field's (`one`) after noting where it
/// begins (`position`), which places the check's refusals (a shared chunk
/// stays one group).
pub fn field_statements(
    ty: &BinaryType,
    position: &TokenStream,
    one: impl Fn(&BinaryPlan) -> TokenStream,
    group: impl Fn(&[BinaryPlan]) -> TokenStream,
) -> Vec<TokenStream> {
    let type_checked = ty.check.is_some();
    field_groups(&ty.fields)
        .map(|fields| match (type_checked, shared_chunk(fields)) {
            (true, None) if word_of(fields).is_none() => fields
                .iter()
                .map(|plan| {
                    let statements = one(plan);
                    if notes_start(plan) {
                        return statements;
                    }
                    let at = start_local(plan.field.ident);
                    quote! {
                        let #at = #position;
                        #statements
                    }
                })
                .collect(),
            _ => group(fields),
        })
        .collect()
}

/// Whether a field notes where it begins whatever the type: the reader and
/// the writer both do for a `calc` and for a field a `calc` measures, the
/// writer for a `size` block too (see [`notes_end`]).
pub fn notes_start(plan: &BinaryPlan) -> bool {
    notes_end(plan) || plan.based || matches!(plan.codec, Codec::Calc(..))
}

/// Whether a field notes where it ends: a field a `calc` measures, and a
/// `size` block (whose size the writer checks once everything is known).
pub fn notes_end(plan: &BinaryPlan) -> bool {
    let block = matches!(&plan.codec, Codec::Value(value) if value.size.is_some());
    plan.measured || block
}

/// `("name", __at_name), ...` for the fields whose start is known: those
/// not in a chunk (a shared chunk is read around all its fields).
fn field_starts(plans: &[BinaryPlan]) -> TokenStream {
    let starts = field_groups(plans)
        .filter(|group| shared_chunk(group).is_none())
        .flatten()
        .map(|plan| {
            let name = str_lit(&plan.field.ident.to_string());
            let at = start_local(plan.field.ident);
            quote!((#name, #at))
        });
    quote!(#(#starts),*)
}

/// The plain size of a run of fields, and a closure decoding them as a
/// tuple (or, given `build`, as one value) from bytes in hand.
fn plain_run(
    rt: &Runtime,
    run: &[BinaryPlan],
    build: Option<&TokenStream>,
) -> (TokenStream, TokenStream) {
    let size = plain_size(rt, run);
    let values = run.iter().map(|plan| {
        let ty = plan.field.ty;
        let endian = endian(rt, &plan.place.byte_order);
        quote!(#rt::decode_plain_next::<#ty>(&mut __bytes, #endian)?)
    });
    let value = match build {
        Some(build) => {
            let names = run.iter().map(|plan| plan.field.ident);
            quote!(#build { #(#names: #values),* })
        }
        None => quote!((#(#values,)*)),
    };
    let decode = quote! {
        |mut __bytes: &[u8]| ::core::option::Option::Some(#value)
    };
    (size, decode)
}

/// `PLAIN_SIZE` and `decode_plain` for a struct that can be plain.
fn plain_impl(rt: &Runtime, ty: &BinaryType) -> Option<TokenStream> {
    if !is_plain(ty) {
        return None;
    }
    let (size, decode) = plain_run(rt, &ty.fields, Some(&quote!(Self)));
    Some(quote! {
        const PLAIN_SIZE: ::core::option::Option<usize> = #size;

        #[inline]
        fn decode_plain(
            __bytes: &[u8],
            _: #rt::Endian,
        ) -> ::core::option::Option<Self> {
            (#decode)(__bytes)
        }
    })
}

/// The type's minimum and fixed sizes as constant expressions.
/// The types whose reading decides whether the fields read forward only
/// (a value's, each as its type does; a string, a constant, a count,
/// padding or a bit field reads forward); `None` when a field seeks: one
/// at an offset, in an IFF chunk or form, present by the next tag, or
/// read by a hand-written codec.
pub fn forward_types<'p>(plans: &'p [BinaryPlan]) -> Option<Vec<&'p syn::Type>> {
    let mut types = Vec::new();
    for plan in plans {
        if plan.by_next_tag() || plan.place.chunk.is_some() || plan.place.form.is_some() {
            return None;
        }
        match &plan.codec {
            Codec::With(..)
            | Codec::Value(Value {
                offset: Some(_), ..
            }) => return None,
            Codec::Value(
                data @ Value {
                    element: Element::Plain,
                    ..
                },
            ) if plan.place.bits.is_none() => types.push(data.stored_ty()),
            _ => {}
        }
    }
    Some(types)
}

pub fn type_sizes(rt: &Runtime, plans: &[BinaryPlan]) -> (TokenStream, TokenStream) {
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

/// Statements binding the locals of fields in a row that share a chunk
/// (they run inside the chunk and hand their locals out), of a run of
/// plain fields, or of one field. A field present by the next tag looks
/// for its chunk itself.
fn read_group(rt: &Runtime, group: &[BinaryPlan]) -> TokenStream {
    if word_of(group).is_some() {
        return words::read_word(rt, group);
    }
    let Some(tag) = shared_chunk(group) else {
        return read_run(rt, group);
    };
    let statements = group.iter().map(|plan| read_field_value(rt, plan));
    let tag = tag_tokens(tag);
    let locals: Vec<Ident> = group
        .iter()
        .flat_map(|plan| {
            let name = plan.field.ident;
            let count = matches!(plan.codec, Codec::Count(_)).then(|| count_local(name));
            std::iter::once(field_local(name)).chain(count)
        })
        .collect();
    quote! {
        let (#(#locals,)*) = #rt::read_chunk(__reader, #tag, |__reader| {
            #(#statements)*
            ::core::result::Result::Ok((#(#locals,)*))
        })?;
    }
}

/// Statements binding the locals of a run of fields: when the run holds
/// two or more plain values, decoded at once from bytes in hand where the
/// input allows, else (or where it does not) one by one.
fn read_run(rt: &Runtime, run: &[BinaryPlan]) -> TokenStream {
    let one_by_one = run.iter().map(|plan| read_field_value(rt, plan));
    if !is_plain_run(run) {
        return quote!(#(#one_by_one)*);
    }
    let locals: Vec<Ident> = run
        .iter()
        .map(|plan| field_local(plan.field.ident))
        .collect();
    let (size, decode) = plain_run(rt, run, None);
    quote! {
        let (#(#locals,)*) = match #rt::read_plain_run(__reader, #size, #decode) {
            ::core::option::Option::Some(__run) => __run,
            ::core::option::Option::None => {
                #(#one_by_one)*
                (#(#locals,)*)
            }
        };
    }
}

/// A count whose collections are all optional must be 0 when none is
/// there: the writer would store 0.
fn absent_count_checks(rt: &Runtime, plans: &[BinaryPlan]) -> Vec<TokenStream> {
    plans
        .iter()
        .filter_map(|plan| match &plan.codec {
            Codec::Count(users) if users.iter().all(|user| user.optional) => {
                let label = str_lit(
                    &plan
                        .place
                        .chunk
                        .map_or_else(|| plan.field.ident.to_string(), tag_str),
                );
                let count = count_local(plan.field.ident);
                let present = users.iter().map(|user| {
                    let local = field_local(&user.field);
                    let name = str_lit(&user.chunk.map_or_else(|| user.field.to_string(), tag_str));
                    quote!((#name, #local.is_some()))
                });
                Some(quote! {
                    #rt::check_absent_count(#label, #count, &[#(#present),*])?;
                })
            }
            _ => None,
        })
        .collect()
}

/// The statements reading one field, inside its segment of the byte map's
/// path (every field is named there, in IFF layouts too).
fn read_field_value(rt: &Runtime, plan: &BinaryPlan) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let entered = format_ident!("__entered_{}", name);
    let statements = read_field_statements(rt, plan);
    let position = quote!(#rt::Input::position(__reader)?);
    let (at, end) = (start_local(name), end_local(name));
    let start = notes_start(plan).then(|| quote!(let #at = #position;));
    let end = plan.measured.then(|| quote!(let #end = #position;));
    quote! {
        let #entered = #rt::map_enter_in::<__I>(#rt::Segment::Field(#label));
        #start
        #statements
        #end
        ::core::mem::drop(#entered);
    }
}

/// Once every field is read: a `calc` field's value, from what the file
/// held and what the layout computes.
fn calc_found(rt: &Runtime, plan: &BinaryPlan) -> Option<TokenStream> {
    let Codec::Calc(_, computed) = &plan.codec else {
        return None;
    };
    let name = plan.field.ident;
    let (local, stored, at) = (field_local(name), stored_local(name), start_local(name));
    let ty = plan.field.ty;
    let text = &computed.expression.text;
    let keep = computed.keep;
    let computed = call(&computed.expression, Side::Read, &[]);
    let in_field = in_field(plan);
    Some(quote! {
        let #local: #ty = #computed
            .and_then(|__computed| #rt::calc_found(#text, #at, #stored, __computed, #keep))
            #in_field;
    })
}

/// A padding field's length, for the runtime.
pub fn padding_length(rt: &Runtime, length: PadLength) -> TokenStream {
    match length {
        PadLength::Align(multiple) => quote!(#rt::PaddingLength::Align(#multiple)),
        PadLength::Bytes(bytes) => quote!(#rt::PaddingLength::Bytes(#bytes)),
    }
}

/// How the errors of a field's reading and writing name it: by its name,
/// unless its chunk or form does.
pub fn in_field(plan: &BinaryPlan) -> TokenStream {
    if plan.place.named_in_paths {
        let label = str_lit(&plan.field.ident.to_string());
        quote!(.map_err(|e| e.in_field(#label))?)
    } else {
        quote!(?)
    }
}

fn read_field_statements(rt: &Runtime, plan: &BinaryPlan) -> TokenStream {
    let name = plan.field.ident;
    let local = field_local(name);
    let ty = plan.field.ty;
    let endian = endian(rt, &plan.place.byte_order);
    let in_field = in_field(plan);
    match &plan.codec {
        // Only text layouts have a style; it is not stored.
        Codec::Style(never) => match *never {},
        Codec::Magic(constant) => {
            let constant = constant_tokens(constant);
            quote! {
                let #local: #ty = #rt::read_magic(__reader, #endian, &#constant) #in_field;
            }
        }
        Codec::Count(_) => {
            let count = count_local(name);
            let read = quote! {
                let #count = #rt::read_count::<<#ty as #rt::CountField>::Int, _>(
                    __reader, #endian,
                ) #in_field;
                let #local: #ty = ::core::default::Default::default();
            };
            let Some(check) = &plan.check else {
                return read;
            };
            // Refused at the count's own byte, before any element is read.
            let start = format_ident!("__start_{}", name);
            let call = check_call_on(name, check, &quote!(#count), Side::Read);
            quote! {
                let #start = #rt::Input::position(__reader) #in_field;
                #read
                if #rt::checking() {
                    #rt::checked_at_byte(#start, #call) #in_field;
                }
            }
        }
        Codec::With(_, path, pass) => {
            let values = pass.iter().map(|arg| arg_value(rt, &arg.value, Side::Read));
            let type_name = str_lit(&format!("{} (custom codec)", super::layout::type_text(ty)));
            quote! {
                let #local: #ty = #rt::read_custom(__reader, #type_name, |__reader| {
                    #rt::Input::as_stream(__reader, |__reader| {
                        #path::read(__reader, #endian #(, #values)*)
                    })
                }) #in_field;
            }
        }
        Codec::Padding(_, length) => {
            let length = padding_length(rt, *length);
            quote! {
                let #local: #ty = #rt::read_padding(__reader, #length) #in_field;
            }
        }
        Codec::Calc(_, computed) => {
            let stored = stored_local(name);
            let stored_ty = computed.stored;
            quote! {
                let #stored: #stored_ty =
                    <#stored_ty as #rt::Decode>::decode_input(__reader, #endian, &()) #in_field;
            }
        }
        Codec::Value(data) if data.offset.is_some() => {
            offsets::read_offsets(rt, plan).unwrap_or_default()
        }
        Codec::Value(data) => {
            let context = element_context(rt, data, false, Side::Read);
            let value = read_data(rt, data, &endian);
            let value = framed_read(rt, plan, data, value);
            let value = match &data.size {
                Some(size) => {
                    let size = call(size, Side::Read, &[]);
                    quote!(#rt::read_sized(__reader, #size, |__reader| #value))
                }
                None => value,
            };
            let read = quote! {
                let #local: #ty = {
                    let __element_context = #context;
                    #value
                } #in_field;
            };
            let Some(check) = &plan.check else {
                return read;
            };
            // A refusal points at the byte the value starts at, inside the
            // field's form as errors while reading it are.
            let start = format_ident!("__start_{}", name);
            let call = check_call_on(name, check, &quote!(#local), Side::Read);
            let checked = placed_check(rt, plan, &start, call);
            quote! {
                let #start = #rt::Input::position(__reader) #in_field;
                #read
                if #rt::checking() {
                    #checked #in_field;
                }
            }
        }
    }
}

/// The value read inside the field's form (a chunk shared by several
/// fields is read around them all), and, for an `Option` present by the
/// next tag, inside its chunk too, when the next child begins as it does.
fn framed_read(
    rt: &Runtime,
    plan: &BinaryPlan,
    data: &Value<Binary>,
    value: TokenStream,
) -> TokenStream {
    let value = match plan.place.form {
        Some(form_type) => {
            let form_type = tag_tokens(form_type);
            quote!(#rt::read_form(__reader, #form_type, |__reader| #value))
        }
        None => value,
    };
    if !plan.by_next_tag() {
        return value;
    }
    let (value, present) = match (plan.place.chunk, plan.place.form) {
        (Some(tag), _) => {
            let tag = tag_tokens(tag);
            (
                quote!(#rt::read_chunk(__reader, #tag, |__reader| #value)),
                quote!(#rt::next_is(__reader, |__next| __next == #rt::Start::Chunk(#tag))),
            )
        }
        (None, Some(form_type)) => {
            let form_type = tag_tokens(form_type);
            (
                value,
                quote!(#rt::next_is(__reader, |__next| __next == #rt::Start::Form(#form_type))),
            )
        }
        (None, None) => {
            let ty = data.element_ty;
            (
                value,
                quote_spanned!(ty.span()=> <#ty as #rt::IffElement>::next_is(__reader)),
            )
        }
    };
    read_when(quote!(#present?), value)
}

/// An expression reading a value of the data's shape from `__reader`; its
/// elements get `__element_context`. (An `Option` present by the next tag
/// reads its value alone here.)
fn read_data(rt: &Runtime, data: &Value<Binary>, endian: &TokenStream) -> TokenStream {
    let reader = &quote!(__reader);
    let repeated = read_repeated(rt, data, endian, &quote!(__r));
    match &data.presence {
        Some(Presence::NoneWord(never, _)) => match *never {},
        None | Some(Presence::NextTag(())) => read_repeated(rt, data, endian, reader),
        Some(Presence::Flag(_, flag)) => quote! {
            #rt::read_flagged::<#flag, _, _>(#reader, #endian, |__r| #repeated)
        },
        Some(Presence::If(_, expression)) => {
            let present = read_repeated(rt, data, endian, reader);
            read_when(call(expression, Side::Read, &[]), present)
        }
    }
}

fn read_repeated(
    rt: &Runtime,
    data: &Value<Binary>,
    endian: &TokenStream,
    reader: &TokenStream,
) -> TokenStream {
    let element = read_element(rt, data, endian, &quote!(__r));
    let min_size = element_min_size(rt, &data.element, data.stored_ty());
    let ty = data.element_ty;
    // Plain elements in bulk, where each is its type's own value.
    let bulk = matches!(data.element, Element::Plain) && data.map.is_none();
    let read_list = |len: TokenStream| match bulk {
        true => quote! {
            #rt::read_elements::<#ty, _>(#reader, #len, #endian, &__element_context)
        },
        false => quote!(#rt::read_vec(#reader, #len, #min_size, |__r| #element)),
    };
    match &data.repeat {
        None => read_element(rt, data, endian, reader),
        Some(Repeat::Prefix(_, prefix)) => {
            let list = read_list(quote!(__len));
            quote! {
                #rt::read_count::<#prefix, _>(#reader, #endian).and_then(|__len| #list)
            }
        }
        Some(Repeat::CountParam(count)) => {
            let label = str_lit(&count.to_string());
            let list = read_list(quote!(__len));
            quote! {
                #rt::context_len(#label, ::core::clone::Clone::clone(&__context.#count))
                    .and_then(|__len| #list)
            }
        }
        Some(Repeat::CountExpr(expression)) => {
            let len = call(expression, Side::Read, &[]);
            let list = read_list(quote!(__len));
            quote!(#rt::counted(#reader, #len).and_then(|__len| #list))
        }
        Some(Repeat::CountField(count)) => read_list(count_local(count).into_token_stream()),
        Some(Repeat::CountLine(never)) => match *never {},
        Some(Repeat::ToEnd) if bulk => {
            quote! {
                #rt::read_elements_to_end::<#ty, _>(#reader, #endian, &__element_context)
            }
        }
        Some(Repeat::ToEnd) => quote! {
            #rt::read_to_end(#reader, |__r| #element)
        },
        Some(Repeat::Until(_, expression)) => {
            let ends = call(expression, Side::Read, &[quote!(__element)]);
            match bulk {
                true => quote! {
                    #rt::read_elements_until::<#ty, _>(
                        #reader, #endian, &__element_context, |__element| #ends,
                    )
                },
                false => quote! {
                    #rt::read_until(#reader, |__element| #ends, |__r| #element)
                },
            }
        }
    }
}

/// An expression reading one element of the value's from `reader`: its
/// type's own, a string, or a stored value it converts (`map`).
fn read_element(
    rt: &Runtime,
    data: &Value<Binary>,
    endian: &TokenStream,
    reader: &TokenStream,
) -> TokenStream {
    let read = read_stored(rt, &data.element, data.stored_ty(), endian, reader);
    match &data.map {
        None => read,
        Some(map) => {
            let (stored, ty) = (&map.stored, data.element_ty);
            if map.fallible {
                quote!(#read.and_then(#rt::try_mapped::<#stored, #ty>))
            } else {
                quote!(#read.map(<#ty as ::core::convert::From<#stored>>::from))
            }
        }
    }
}

fn read_stored(
    rt: &Runtime,
    element: &Element<Binary>,
    ty: &syn::Type,
    endian: &TokenStream,
    reader: &TokenStream,
) -> TokenStream {
    match element {
        Element::Text(never, _) => match *never {},
        Element::Plain => {
            quote!(<#ty as #rt::Decode>::decode_input(#reader, #endian, &__element_context))
        }
        Element::String(_, StringKind::Pascal) => quote!(#rt::read_pascal(#reader)),
        Element::String(_, StringKind::NullTerminated) => {
            quote!(#rt::read_null_terminated(#reader))
        }
        Element::String(_, StringKind::FixedWidth(width)) => {
            let width = width_of(width);
            quote!(#rt::read_fixed_width(#reader, #width))
        }
        Element::String(_, StringKind::Prefixed(count_ty)) => {
            quote!(#rt::read_prefixed::<#count_ty, _>(#reader, #endian))
        }
    }
}
