//! Enums chosen by a leading tag (binary), by a context value (binary or
//! text), or by a keyword line (text, in [`super::keywords`]).

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Ident, Type};

use super::codec::{binary_schema_impls, decode_fns, encode_fns, endian, enum_codec_impls};
use super::context::{context_items, variant_context, Encoding};
use super::heading::Heading;
use super::layout::{
    byte_order, context_layout, elementless_row, passed, type_layout_impl, type_text, SizesFrom,
    TypeLayout,
};
use super::paths::{Root, Runtime};
use super::tests::{context_of_strategies, test_module, Check};
use super::tokens::str_lit;
use crate::ast::ChoiceEnum;
use crate::attr::ByteOrder;
use crate::check_context::Pass;
use crate::plan::choice::{self, Choice, ChoicePlan, Chooser, Pick, TagBits, VariantPlan};

pub fn derive(input: &ChoiceEnum, root: Root) -> syn::Result<TokenStream> {
    let choice = choice::plan(input)?;
    let rt = Runtime::new(choice.krate, root);
    let kind = match &choice.choice {
        Choice::Keywords => return Ok(super::keywords::derive(&rt, &choice)),
        Choice::By(chooser) => chooser,
    };
    let choice = &choice;
    let variants = &choice.variants;
    let params = choice.params;
    let context = context_items(&rt, Heading::plain(choice.ident), choice.vis, params);
    let text = choice.text;
    let codec = match kind {
        Chooser::Tag {
            ty,
            order,
            bits: None,
        } => {
            let (bodies, onto) = tag_codec(&rt, ty, order, variants);
            binary_impls(&rt, choice, bodies, onto)
        }
        Chooser::Tag {
            ty,
            order,
            bits: Some(bits),
        } => {
            let (bodies, onto) = bit_tag_codec(&rt, ty, order, *bits, variants);
            binary_impls(&rt, choice, bodies, onto)
        }
        Chooser::Select { param, order } => {
            let bodies = select_codec(&rt, param, order, variants);
            binary_impls(&rt, choice, bodies, TokenStream::new())
        }
        Chooser::TextSelect { param } => text_impls(&rt, choice, param, variants),
    };
    let layout = layout_impl(&rt, choice, kind);
    let schema = if text {
        let ident = choice.ident;
        quote!(impl #rt::TextSchema for #ident {})
    } else {
        binary_schema_impls(&rt, Heading::plain(choice.ident))
    };
    let check = if text { Check::Text } else { Check::Binary };
    let tests = test_module(
        &rt,
        Heading::plain(choice.ident),
        context_strategy(&rt, choice, kind),
        strategy(&rt, choice, kind, variants),
        check,
    );
    Ok(quote! {
        #context
        #codec
        #layout
        #schema
        #tests
    })
}

/// The context a variant's payload gets: the enum's own values it passes.
fn payload_context(
    rt: &Runtime,
    encoding: Encoding,
    variant: &VariantPlan,
    payload: &Type,
) -> TokenStream {
    variant_context(rt, encoding, payload, variant.pass)
}

/// `0xFF (`Full`), 0xFE (`Repeat`)`: the values that choose, for errors.
fn known(variants: &Variants) -> syn::LitStr {
    let known: Vec<String> = variants
        .iter()
        .filter_map(|(variant, pick)| match pick {
            Pick::When(when) => Some(format!("{} (`{}`)", type_text_of_expr(when), variant.ident)),
            Pick::Other | Pick::Keyword(_) => None,
        })
        .collect();
    str_lit(&known.join(", "))
}

fn type_text_of_expr(expr: &syn::Expr) -> String {
    quote!(#expr).to_string().replace(" :: ", "::")
}

fn variant_label(variant: &VariantPlan) -> syn::LitStr {
    str_lit(&variant.ident.to_string())
}

/// The minimum size of a variant's value (0 for one holding nothing).
fn payload_min_size(rt: &Runtime, variants: &Variants) -> TokenStream {
    variants.iter().fold(quote!(u64::MAX), |min, (variant, _)| {
        let size = match variant.payload {
            Some(payload) => quote!(<#payload as #rt::Decode>::MIN_SIZE),
            None => quote!(0u64),
        };
        quote!(#rt::lesser_min(#min, #size))
    })
}

/// How a decoding body gives the variant it read: returned, or pushed
/// onto `__elements` (the body of a `decode_onto`), built there from the
/// value's fields (see `Decode::decode_giving`).
#[derive(Clone, Copy)]
enum Given {
    Returned,
    Pushed,
}

impl Given {
    /// The variant `made` (an expression building it) given as this says.
    fn made(self, rt: &Runtime, made: TokenStream) -> TokenStream {
        match self {
            Given::Returned => quote!(::core::result::Result::Ok(#made)),
            Given::Pushed => quote!(#rt::push_made(__elements, || #made)),
        }
    }

    /// The variant `name` holding `value`, which is at hand.
    fn holding(self, rt: &Runtime, name: &Ident, value: TokenStream) -> TokenStream {
        self.made(rt, quote!(Self::#name(#value)))
    }

    /// The variant `name` with the value `read` reads (`None`: it holds
    /// none).
    fn variant(self, rt: &Runtime, name: &Ident, read: Option<PayloadRead>) -> TokenStream {
        let Some(PayloadRead {
            reader,
            args,
            in_field,
        }) = read
        else {
            return self.made(rt, quote!(Self::#name));
        };
        match (self, reader) {
            (Given::Returned, Reader::Decode(payload)) => quote! {
                <#payload as #rt::Decode>::decode_input(#args) #in_field.map(Self::#name)
            },
            (Given::Returned, Reader::WordTail(payload)) => quote! {
                <#payload as #rt::WordTail>::decode_tail(#args) #in_field.map(Self::#name)
            },
            (Given::Pushed, reader) => {
                let push = self.holding(rt, name, quote!(__value));
                let read = match reader {
                    Reader::Decode(payload) => quote!(<#payload as #rt::Decode>::decode_giving),
                    Reader::WordTail(payload) => {
                        quote!(<#payload as #rt::WordTail>::decode_tail_giving)
                    }
                };
                quote!(#read(#args, |__value| { #push }) #in_field)
            }
        }
    }
}

/// How a variant's value is read in binary: by its `reader`, which takes
/// `args` first; `in_field` names the variant in its errors.
struct PayloadRead<'a> {
    reader: Reader<'a>,
    args: TokenStream,
    in_field: TokenStream,
}

/// The trait a variant's value is read through: its own `Decode`, or,
/// after an enum's word, its `WordTail`.
enum Reader<'a> {
    Decode(&'a Type),
    WordTail(&'a Type),
}

/// An expression reading the variant's value (which sees `__context`)
/// in `encoding`; binary, in the byte order `endian`; given as `given`
/// says (pushed only in binary).
fn read_payload(
    rt: &Runtime,
    variant: &VariantPlan,
    (encoding, endian): (Encoding, &TokenStream),
    given: Given,
) -> TokenStream {
    let name = variant.ident;
    let label = variant_label(variant);
    let Some(payload) = variant.payload else {
        return given.variant(rt, name, None);
    };
    let context = payload_context(rt, encoding, variant, payload);
    let in_field = quote!(.map_err(|e| e.in_field(#label)));
    if let Encoding::Text = encoding {
        return quote!(<#payload as #rt::TextRead>::read_text(__reader, &#context) #in_field.map(Self::#name));
    }
    let read = PayloadRead {
        reader: Reader::Decode(payload),
        args: quote!(__reader, #endian, &#context),
        in_field,
    };
    let read = given.variant(rt, name, Some(read));
    // The byte map sees the value as the variant's.
    quote! {
        {
            let __entered = #rt::map_enter_in::<__I>(#rt::Segment::Field(#label));
            #read
        }
    }
}

/// An enum's variants, each with what picks it.
type Variants<'a> = [(VariantPlan<'a>, Pick<'a>)];

/// What a binary enum's codec is made of: its minimum size, the body of
/// its `decode_input` and the body of its `encode_output`.
type Bodies = (TokenStream, TokenStream, TokenStream);

/// For each variant a value picks, the statement returning it read (in
/// `encoding`, binary in the byte order `endian`) when `chosen` (the tag
/// or the selector) is that value.
fn chosen_arms(
    rt: &Runtime,
    variants: &Variants,
    chosen: TokenStream,
    coding: (Encoding, &TokenStream),
    given: Given,
) -> Vec<TokenStream> {
    variants
        .iter()
        .filter_map(|(variant, pick)| match pick {
            Pick::When(when) => {
                let value = read_payload(rt, variant, coding, given);
                Some(quote! {
                    if #chosen == (#when) {
                        return #value;
                    }
                })
            }
            Pick::Other | Pick::Keyword(_) => None,
        })
        .collect()
}

/// [`chosen_arms`] returning the variant the context value `__selector`
/// chooses.
fn selected_arms(
    rt: &Runtime,
    variants: &Variants,
    coding: (Encoding, &TokenStream),
) -> Vec<TokenStream> {
    chosen_arms(rt, variants, quote!(*__selector), coding, Given::Returned)
}

/// Minimum size, `decode` body and `encode` body of an enum chosen by a
/// leading tag, and its `decode_onto`.
fn tag_codec(
    rt: &Runtime,
    ty: &Type,
    order: &ByteOrder,
    variants: &Variants,
) -> (Bodies, TokenStream) {
    let endian = endian(rt, order);
    let known = known(variants);
    let other = variants
        .iter()
        .find(|(_, pick)| matches!(pick, Pick::Other))
        .map(|(variant, _)| variant.ident);
    let body = |given: Given| {
        let coding = (Encoding::Binary, &endian);
        let arms = chosen_arms(rt, variants, quote!(__tag), coding, given);
        let fallback = match other {
            Some(name) => given.holding(rt, name, quote!(__tag)),
            None => quote!(::core::result::Result::Err(#rt::unknown_tag(__at, &__tag, #known))),
        };
        quote! {
            let __at = #rt::Input::position(__reader)?;
            let __tag: #ty = <#ty as #rt::Decode>::decode_input(__reader, #endian, &())?;
            #(#arms)*
            #fallback
        }
    };
    let encode = tag_encode(rt, ty, &endian, variants);
    let min_size = payload_min_size(rt, variants);
    let min_size = quote!(#rt::add_min(<#ty as #rt::Decode>::MIN_SIZE, #min_size));
    let onto = decode_onto(rt, body(Given::Pushed));
    ((min_size, body(Given::Returned), encode), onto)
}

/// An enum's `decode_onto`, whose body pushes the variant it reads.
fn decode_onto(rt: &Runtime, body: TokenStream) -> TokenStream {
    quote! {
        #[inline]
        fn decode_onto<__I: #rt::Input>(
            __reader: &mut __I,
            _: #rt::Endian,
            __context: &<Self as #rt::HasContext>::Context,
            __elements: &mut ::std::vec::Vec<Self>,
        ) -> ::core::result::Result<(), #rt::Error> {
            #body
        }
    }
}

/// Minimum size, `decode` body and `encode` body of an enum chosen by the
/// first bits of a word, and its `decode_onto`: each variant's value
/// holds the others ([`WordTail`](schema::WordTail)), and is written
/// first, the word then over a placeholder (its bits may count what the
/// value wrote).
fn bit_tag_codec(
    rt: &Runtime,
    ty: &Type,
    order: &ByteOrder,
    bits: TagBits,
    variants: &Variants,
) -> (Bodies, TokenStream) {
    let endian = endian(rt, order);
    let known = known(variants);
    let (tag_bits, rest) = (bits.tag, bits.rest);
    let tag_part = quote!(#rt::BitPart { name: "tag", shift: #rest, width: #tag_bits });
    // The body reading the word and its variant, given as `given` says.
    let body = |given: Given| {
        let arms = variants.iter().filter_map(|(variant, pick)| {
            let Pick::When(when) = pick else {
                return None;
            };
            let name = variant.ident;
            let label = variant_label(variant);
            let value = match variant.payload {
                Some(payload) => {
                    let context = payload_context(rt, Encoding::Binary, variant, payload);
                    let read = PayloadRead {
                        reader: Reader::WordTail(payload),
                        args: quote!(__rest, __reader, #endian, &#context),
                        in_field: quote!(.map_err(|e| e.in_field(#label))),
                    };
                    let made = given.variant(rt, name, Some(read));
                    quote! {
                        #rt::note_tagged_bits::<#ty, __I>(
                            (__at, __end),
                            __word,
                            #tag_part,
                            <#payload as #rt::WordTail>::PARTS,
                        );
                        let __entered = #rt::map_enter_in::<__I>(#rt::Segment::Field(#label));
                        #made
                    }
                }
                None => {
                    let made = given.variant(rt, name, None);
                    quote! {
                        #rt::note_bits::<#ty>(__at, __end, __word, &[#tag_part]);
                        #rt::unit_rest(__at, __rest, #label)?;
                        #made
                    }
                }
            };
            Some(quote! {
                if __tag == (#when) {
                    return { #value };
                }
            })
        });
        quote! {
            let __at = #rt::Input::position(__reader)?;
            let __word = #rt::read_word_quietly::<#ty, _>(__reader, #endian)?;
            let __end = #rt::Input::position(__reader)?;
            let __tag: #ty = <#ty as #rt::Word>::from_u64(#rt::part(__word, #rest, #tag_bits));
            let __rest = #rt::part(__word, 0, #rest);
            #(#arms)*
            ::core::result::Result::Err(#rt::unknown_tag(__at, &__tag, #known))
        }
    };
    let decode = body(Given::Returned);
    // Each variant pushed where it is built from its fields (see
    // `Decode::decode_onto`, `WordTail::decode_tail_giving`).
    let onto = decode_onto(rt, body(Given::Pushed));
    let encode_arms = variants.iter().filter_map(|(variant, pick)| {
        let Pick::When(when) = pick else {
            return None;
        };
        let name = variant.ident;
        let label = variant_label(variant);
        let tag = quote! {
            let __tag: #ty = #when;
            let __tag = #rt::Word::to_u64(__tag) << #rest;
        };
        Some(match variant.payload {
            Some(payload) => {
                let context = payload_context(rt, Encoding::Binary, variant, payload);
                quote! {
                    Self::#name(__value) => {
                        #tag
                        let __at = #rt::Output::position(__writer)?;
                        #rt::write_word::<#ty, _>(__writer, #endian, 0)?;
                        let __rest = <#payload as #rt::WordTail>::encode_tail(
                            __value, __writer, #endian, &#context,
                        )
                        .map_err(|e| e.in_field(#label))?;
                        #rt::patch_word::<#ty, _>(__writer, __at, #endian, __tag | __rest)
                    }
                }
            }
            None => quote! {
                Self::#name => {
                    #tag
                    #rt::write_word::<#ty, _>(__writer, #endian, __tag)
                }
            },
        })
    });
    let encode = quote! {
        match self {
            #(#encode_arms)*
        }
    };
    let payloads = variants.iter().filter_map(|(variant, _)| variant.payload);
    let fits = payloads.map(|payload| {
        quote! {
            const _: () = ::core::assert!(
                <#payload as #rt::WordTail>::BITS == #rest,
                "a variant's bit fields take the bits its enum's tag leaves of the word",
            );
        }
    });
    let min_size = variants.iter().fold(quote!(u64::MAX), |min, (variant, _)| {
        let size = match variant.payload {
            Some(payload) => quote!(<#payload as #rt::WordTail>::MIN_SIZE),
            None => quote!(0u64),
        };
        quote!(#rt::lesser_min(#min, #size))
    });
    let min_size = quote! {
        {
            #(#fits)*
            #rt::add_min(<#ty as #rt::Decode>::MIN_SIZE, #min_size)
        }
    };
    ((min_size, decode, encode), onto)
}

/// Minimum size, `decode` body and `encode` body of a binary enum chosen by
/// a context parameter.
fn select_codec(rt: &Runtime, param: &Ident, order: &ByteOrder, variants: &Variants) -> Bodies {
    let endian = endian(rt, order);
    let label = str_lit(&param.to_string());
    let known = known(variants);
    let arms = selected_arms(rt, variants, (Encoding::Binary, &endian));
    let decode = quote! {
        let __selector = &__context.#param;
        #(#arms)*
        ::core::result::Result::Err(#rt::unknown_selector(__reader, #label, __selector, #known))
    };
    let encode = select_encode(rt, param, variants, |payload, variant| {
        let context = payload_context(rt, Encoding::Binary, variant, payload);
        quote!(#rt::Encode::encode_output(__value, __writer, #endian, &#context))
    });
    (payload_min_size(rt, variants), decode, encode)
}

/// The enum's `Decode` and `Encode`, and `ReadsForward` when each
/// variant's value reads forward.
fn binary_impls(
    rt: &Runtime,
    choice: &ChoicePlan,
    (min_size, decode_body, encode_body): Bodies,
    onto: TokenStream,
) -> TokenStream {
    let ident = choice.ident;
    let decode = decode_fns(rt, quote!(_), decode_body);
    let decode = quote!(#decode #onto);
    let encode = encode_fns(rt, quote!(_), encode_body);
    let codec = enum_codec_impls(rt, ident, min_size, decode, encode);
    let payloads = choice
        .variants
        .iter()
        .filter_map(|(variant, _)| variant.payload);
    let reads_forward = Heading::plain(ident).reads_forward(rt, payloads);
    quote! {
        #codec
        #reads_forward
    }
}

/// Each variant writes its tag, then its value; the `other` variant writes
/// the tag it holds, unless another variant owns it.
fn tag_encode(rt: &Runtime, ty: &Type, endian: &TokenStream, variants: &Variants) -> TokenStream {
    let arms = variants.iter().map(|(variant, pick)| {
        let name = variant.ident;
        let label = variant_label(variant);
        match (pick, variant.payload) {
            (Pick::Other, _) => {
                let owners = variants.iter().filter_map(|(owner, pick)| match pick {
                    Pick::When(when) => {
                        let owner = variant_label(owner);
                        Some(quote! {
                            if *__value == (#when) {
                                return ::core::result::Result::Err(
                                    #rt::tag_taken(__value, #owner),
                                );
                            }
                        })
                    }
                    Pick::Other | Pick::Keyword(_) => None,
                });
                quote! {
                    Self::#name(__value) => {
                        #(#owners)*
                        #rt::Encode::encode_output(__value, __writer, #endian, &())
                    }
                }
            }
            (Pick::When(when), Some(payload)) => {
                let context = payload_context(rt, Encoding::Binary, variant, payload);
                quote! {
                    Self::#name(__value) => {
                        let __tag: #ty = #when;
                        #rt::Encode::encode_output(&__tag, __writer, #endian, &())?;
                        #rt::Encode::encode_output(__value, __writer, #endian, &#context)
                            .map_err(|e| e.in_field(#label))
                    }
                }
            }
            (Pick::When(when), None) => quote! {
                Self::#name => {
                    let __tag: #ty = #when;
                    #rt::Encode::encode_output(&__tag, __writer, #endian, &())
                }
            },
            (Pick::Keyword(_), _) => TokenStream::new(),
        }
    });
    quote! {
        match self {
            #(#arms)*
        }
    }
}

/// Each variant checks that the selector chooses it, then writes its value
/// with `write_payload(payload type, variant)` (which sees `__value`).
fn select_encode(
    rt: &Runtime,
    param: &Ident,
    variants: &Variants,
    write_payload: impl Fn(&Type, &VariantPlan) -> TokenStream,
) -> TokenStream {
    let label = str_lit(&param.to_string());
    let chosen = variants.iter().rev().fold(
        quote!(::core::option::Option::None),
        |otherwise, (variant, pick)| match pick {
            Pick::When(when) => {
                let name = variant_label(variant);
                quote! {
                    if *__selector == (#when) {
                        ::core::option::Option::Some(#name)
                    } else {
                        #otherwise
                    }
                }
            }
            Pick::Other | Pick::Keyword(_) => otherwise,
        },
    );
    let arms = variants.iter().map(|(variant, _)| {
        let name = variant.ident;
        let variant_name = variant_label(variant);
        let check = quote! {
            if __chosen != ::core::option::Option::Some(#variant_name) {
                return ::core::result::Result::Err(
                    #rt::variant_disagrees(#variant_name, #label, __selector, __chosen),
                );
            }
        };
        match variant.payload {
            Some(payload) => {
                let write = write_payload(payload, variant);
                quote! {
                    Self::#name(__value) => {
                        #check
                        #write.map_err(|e| e.in_field(#variant_name))
                    }
                }
            }
            None => quote! {
                Self::#name => {
                    #check
                    ::core::result::Result::Ok(())
                }
            },
        }
    });
    quote! {
        let __selector = &__context.#param;
        let __chosen: ::core::option::Option<&'static str> = #chosen;
        match self {
            #(#arms)*
        }
    }
}

fn text_impls(
    rt: &Runtime,
    choice: &ChoicePlan,
    param: &Ident,
    variants: &Variants,
) -> TokenStream {
    let ident = choice.ident;
    let label = str_lit(&param.to_string());
    let known = known(variants);
    let min_lines = variants.iter().fold(quote!(u64::MAX), |min, (variant, _)| {
        let lines = match variant.payload {
            Some(payload) => quote!(<#payload as #rt::TextRead>::MIN_LINES),
            None => quote!(0u64),
        };
        quote!(#rt::lesser_min(#min, #lines))
    });
    let no_order = TokenStream::new();
    let arms = selected_arms(rt, variants, (Encoding::Text, &no_order));
    let encode = select_encode(rt, param, variants, |payload, variant| {
        let context = payload_context(rt, Encoding::Text, variant, payload);
        quote!(<#payload as #rt::TextWrite>::write_text(__value, __writer, &#context))
    });
    quote! {
        impl #rt::TextRead for #ident {
            const MIN_LINES: u64 = #min_lines;
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::Layout>::LAYOUT);

            fn read_text(
                __reader: &mut #rt::TextReader<'_>,
                __context: &<Self as #rt::HasContext>::TextContext,
            ) -> ::core::result::Result<Self, #rt::Error> {
                let __selector = &__context.#param;
                #(#arms)*
                ::core::result::Result::Err(#rt::unknown_text_selector(__reader, #label, __selector, #known))
            }
        }

        impl #rt::TextWrite for #ident {
            fn write_text(
                &self,
                __writer: &mut #rt::TextWriter,
                __context: &<Self as #rt::HasContext>::TextContext,
            ) -> ::core::result::Result<(), #rt::Error> {
                #encode
            }
        }
    }
}

/// One row per variant: what chooses it and what it holds.
fn layout_impl(rt: &Runtime, choice: &ChoicePlan, kind: &Chooser) -> TokenStream {
    let (text, variants, params) = (choice.text, &choice.variants, choice.params);
    let (order, chosen_by) = match kind {
        Chooser::Tag {
            ty,
            order,
            bits: None,
        } => (
            byte_order(rt, order),
            format!("a leading `{}` tag", type_text(ty)),
        ),
        Chooser::Tag {
            ty,
            order,
            bits: Some(bits),
        } => (
            byte_order(rt, order),
            format!(
                "the top {} bits of a leading `{}` word, whose other {} bits begin the variant's \
                 value",
                bits.tag,
                type_text(ty),
                bits.rest
            ),
        ),
        Chooser::Select { param, order } => (
            byte_order(rt, order),
            format!("the context value `{param}`"),
        ),
        Chooser::TextSelect { param } => (
            quote!(#rt::ByteOrder::Text),
            format!("the context value `{param}`"),
        ),
    };
    let rows = variants.iter().map(|(variant, pick)| {
        let name = variant_label(variant);
        let rust_type = str_lit(&variant.payload.map_or_else(|| "()".to_owned(), type_text));
        let held = match variant.payload {
            Some(payload) => type_text(payload),
            None => "nothing".to_owned(),
        };
        let held = match passed(&Pass::of_enum(variant.pass)) {
            Some(passed) => format!("{held}, given {passed}"),
            None => held,
        };
        let encoding = match (kind, pick) {
            (Chooser::Tag { .. }, Pick::When(when)) => {
                format!("tag `{}`, then {held}", type_text_of_expr(when))
            }
            (Chooser::Tag { .. }, _) => "any other tag, kept as the value".to_owned(),
            (_, Pick::When(when)) => format!("when `{}`, {held}", type_text_of_expr(when)),
            (_, _) => held,
        };
        let encoding = str_lit(&encoding);
        let doc = str_lit(variant.doc);
        let tail = matches!(kind, Chooser::Tag { bits: Some(_), .. });
        let nested = match (variant.payload, text) {
            (Some(payload), false) if tail => quote! {
                ::core::option::Option::Some(|| <#payload as #rt::Layout>::LAYOUT)
            },
            (Some(payload), false) => quote!(<#payload as #rt::Decode>::NESTED_LAYOUT),
            (Some(payload), true) => quote!(<#payload as #rt::TextRead>::NESTED_LAYOUT),
            (None, _) => quote!(::core::option::Option::None),
        };
        let row_order = if text {
            quote!(#rt::ByteOrder::Text)
        } else {
            order.clone()
        };
        let none = quote!(::core::option::Option::None);
        let head = quote! {
            name: #name, rust_type: #rust_type, encoding: #encoding,
            byte_order: #row_order, count: #none,
        };
        elementless_row(rt, head, none, quote!(doc: #doc, nested: #nested,))
    });
    let fields = rows.collect();
    let layout = TypeLayout {
        byte_order: order,
        form: None,
        chunk: None,
        context: context_layout(rt, params),
        chosen_by: Some(chosen_by),
        fields,
        sizes: if text {
            SizesFrom::Text
        } else {
            SizesFrom::Decode
        },
    };
    type_layout_impl(rt, Heading::plain(choice.ident), choice.doc, layout)
}

/// Contexts the tests read with: the selector one of the variants' values,
/// each other parameter whatever the payload it is passed to draws for it.
fn context_strategy(rt: &Runtime, choice: &ChoicePlan, kind: &Chooser) -> TokenStream {
    let (variants, params) = (&choice.variants, choice.params);
    if params.is_empty() {
        return quote!(#rt::proptest::strategy::Just(()).boxed());
    }
    let strategies: Vec<TokenStream> = params
        .iter()
        .map(|param| {
            let ty = &param.ty;
            match kind {
                Chooser::Select {
                    param: selector, ..
                }
                | Chooser::TextSelect { param: selector }
                    if *selector == &param.ident =>
                {
                    let values = variants.iter().filter_map(|(_, pick)| match pick {
                        Pick::When(when) => Some(quote! {
                            #rt::proptest::strategy::LazyJust::new(|| -> #ty { #when }).boxed()
                        }),
                        Pick::Other | Pick::Keyword(_) => None,
                    });
                    quote!(#rt::proptest::strategy::Union::new([#(#values),*]))
                }
                _ => {
                    let passed_to = variants.iter().find_map(|(variant, _)| {
                        let arg = variant
                            .pass
                            .iter()
                            .find(|arg| arg.value.name() == Some(&param.ident))?;
                        Some((variant.payload?, &arg.param))
                    });
                    match passed_to {
                        Some((payload, nested)) => quote! {
                            <#payload as #rt::testing::Sample>::context_strategy()
                                .prop_map(|__nested| __nested.#nested)
                        },
                        None => quote!(#rt::testing::strategy::<#ty>()),
                    }
                }
            }
        })
        .collect();
    context_of_strategies(rt, choice.ident, params, &strategies)
}

/// Values for a context: the variant its selector chooses, or (by tag)
/// any variant, the `other` one with a tag no other variant has.
fn strategy(rt: &Runtime, choice: &ChoicePlan, kind: &Chooser, variants: &Variants) -> TokenStream {
    let ident = choice.ident;
    let variant_strategy = |variant: &VariantPlan| {
        let name = variant.ident;
        match variant.payload {
            Some(payload) => {
                let context = payload_context(rt, Encoding::Binary, variant, payload);
                quote! {
                    <#payload as #rt::testing::Sample>::strategy_with(&#context)
                        .prop_map(#ident::#name)
                        .boxed()
                }
            }
            None => quote!(#rt::proptest::strategy::LazyJust::new(|| #ident::#name).boxed()),
        }
    };
    match kind {
        Chooser::Tag { ty, .. } => {
            let whens: Vec<&syn::Expr> = variants
                .iter()
                .filter_map(|(_, pick)| match pick {
                    Pick::When(when) => Some(*when),
                    Pick::Other | Pick::Keyword(_) => None,
                })
                .collect();
            let arms = variants.iter().map(|(variant, pick)| match pick {
                Pick::Other => {
                    let name = variant.ident;
                    quote! {
                        #rt::testing::strategy::<#ty>()
                            .prop_filter("a tag no other variant has", |__tag| {
                                true #(&& *__tag != (#whens))*
                            })
                            .prop_map(#ident::#name)
                            .boxed()
                    }
                }
                Pick::When(_) | Pick::Keyword(_) => variant_strategy(variant),
            });
            quote! {
                let __context = ::core::clone::Clone::clone(context);
                #rt::proptest::strategy::Union::new([#(#arms),*]).boxed()
            }
        }
        Chooser::Select { param, .. } | Chooser::TextSelect { param } => {
            let arms = variants.iter().filter_map(|(variant, pick)| match pick {
                Pick::When(when) => {
                    let strategy = variant_strategy(variant);
                    Some(quote! {
                        if __context.#param == (#when) {
                            return #strategy;
                        }
                    })
                }
                Pick::Other | Pick::Keyword(_) => None,
            });
            quote! {
                let __context = ::core::clone::Clone::clone(context);
                #(#arms)*
                #rt::testing::no_variant()
            }
        }
    }
}
