//! Bit fields: which fields make up each word (`word = u16` begins one,
//! `bits = N` takes its bits, in order), where in it each lies, and what a
//! bit field may hold.

use proc_macro2::Span;
use syn::Type;

use super::{Binary, BitPlace, Codec, Element, Plan, Value, WordStart};
use crate::ast::Errors;

/// A word being filled: where it began among the fields, its bits and
/// those taken so far.
struct Open {
    first: usize,
    ty: Option<Box<Type>>,
    bits: u32,
    used: u32,
    lsb_first: bool,
    span: Span,
    /// A field was refused its bits: how full the word is says nothing more.
    refused: bool,
}

/// Places each bit field in its word; the bits of the struct's first
/// fields when they continue their holder's word (a tail).
pub fn place_bits(plans: &mut [Plan<Binary>]) -> syn::Result<Option<u32>> {
    let mut errors = Errors::default();
    let mut words: Vec<Open> = Vec::new();
    let mut open: Option<Open> = None;
    for index in 0..plans.len() {
        let Some(plan) = plans.get(index) else {
            continue;
        };
        let attrs = &plan.field.attrs;
        if let (Some(span), None) = (attrs.lsb_first, &attrs.word) {
            errors.push(syn::Error::new(
                span,
                "`lsb_first` says how a word's bit fields lie: put it beside the `word = T` \
                 that begins it",
            ));
        }
        match (&attrs.word, &attrs.bits) {
            (Some(word), None) => errors.push(syn::Error::new(
                word.span,
                "`word = T` begins a word of bit fields: give this field its bits, `bits = N`",
            )),
            (Some(word), Some(bits)) => {
                close(&mut open, &mut words, &mut errors);
                match word_bits(&word.value) {
                    Some(size) => {
                        open = Some(Open {
                            first: index,
                            ty: Some(word.value.clone()),
                            bits: size,
                            used: 0,
                            lsb_first: attrs.lsb_first.is_some(),
                            span: word.span,
                            refused: false,
                        });
                        errors.take(take_bits(&mut open, bits.value, bits.span));
                    }
                    None => errors.push(syn::Error::new_spanned(
                        &word.value,
                        "a word of bit fields is a `u8`, `u16`, `u32` or `u64`",
                    )),
                }
            }
            (None, Some(bits)) => {
                let tail = open.is_none() && words.is_empty() && index == 0;
                match (&open, tail) {
                    (None, true) => {
                        open = Some(Open {
                            first: index,
                            ty: None,
                            bits: 64,
                            used: 0,
                            lsb_first: false,
                            span: bits.span,
                            refused: false,
                        });
                        errors.take(take_bits(&mut open, bits.value, bits.span));
                    }
                    (Some(_), _) => {
                        errors.take(take_bits(&mut open, bits.value, bits.span));
                    }
                    (None, false) => errors.push(syn::Error::new(
                        bits.span,
                        "`bits = N` continues the word an earlier field begins with `word = T` \
                         (or, on a struct's first fields, the word its holder begins)",
                    )),
                }
            }
            (None, None) => close(&mut open, &mut words, &mut errors),
        }
        if attrs.bits.is_some() {
            errors.take(check_bit_field(plan));
        }
    }
    close(&mut open, &mut words, &mut errors);
    errors.finish()?;
    let tail = words
        .first()
        .filter(|word| word.ty.is_none())
        .map(|word| word.used);
    for word in words {
        let mut taken = 0;
        for plan in plans.iter_mut().skip(word.first) {
            let Some(width) = plan.field.attrs.bits.as_ref().map(|bits| bits.value) else {
                break;
            };
            if taken == word.used {
                break;
            }
            let shift = if word.lsb_first {
                taken
            } else {
                word.used - taken - width
            };
            let begins = (taken == 0).then(|| WordStart {
                ty: word.ty.clone(),
            });
            plan.place.bits = Some(BitPlace {
                shift,
                width,
                begins,
            });
            taken += width;
        }
    }
    Ok(tail)
}

/// Takes `bits` more of the open word.
fn take_bits(open: &mut Option<Open>, bits: u32, span: Span) -> syn::Result<()> {
    let Some(word) = open else {
        return Ok(());
    };
    if word.used + bits > word.bits {
        word.refused = true;
        return Err(syn::Error::new(
            span,
            format!(
                "the word's {} bits are taken: this field's {bits} would make {}",
                word.bits,
                word.used + bits
            ),
        ));
    }
    word.used += bits;
    Ok(())
}

/// Ends the open word: a word of its own type must be filled (a tail
/// takes what it takes).
fn close(open: &mut Option<Open>, words: &mut Vec<Open>, errors: &mut Errors) {
    let Some(word) = open.take() else {
        return;
    };
    if word.ty.is_some() && word.used != word.bits && !word.refused {
        errors.push(syn::Error::new(
            word.span,
            format!(
                "the bit fields of this word take {} of its {} bits: they fill it (a field of \
                 the bits left over keeps them)",
                word.used, word.bits
            ),
        ));
    }
    words.push(word);
}

/// The bits of a word type.
fn word_bits(ty: &Type) -> Option<u32> {
    let Type::Path(path) = ty else {
        return None;
    };
    match path.path.get_ident()?.to_string().as_str() {
        "u8" => Some(8),
        "u16" => Some(16),
        "u32" => Some(32),
        "u64" => Some(64),
        _ => None,
    }
}

/// A bit field holds a number, a `bool`, a `Count<_>` or a `Calc<_>`,
/// alone: not a list, an option, a string or a value of another field's
/// chunk.
fn check_bit_field(plan: &Plan<Binary>) -> syn::Result<()> {
    let holds_bits = match &plan.codec {
        Codec::Count(_) | Codec::Calc(..) => true,
        Codec::Value(Value {
            presence: None,
            repeat: None,
            element: Element::Plain,
            map: None,
            size: None,
            pass,
            ..
        }) => pass.is_empty(),
        _ => false,
    };
    let framed = plan.place.chunk.is_some() || plan.place.form.is_some();
    if holds_bits && !framed {
        return Ok(());
    }
    let span = plan
        .field
        .attrs
        .bits
        .as_ref()
        .map_or_else(|| plan.field.ident.span(), |bits| bits.span);
    Err(syn::Error::new(
        span,
        format!(
            "a bit field holds a number, a `bool`, a `Count<_>` or a `Calc<_>` alone; `{}` is \
             {}",
            plan.field.ident,
            match framed {
                true => "in a chunk or form",
                false => "not one",
            }
        ),
    ))
}
