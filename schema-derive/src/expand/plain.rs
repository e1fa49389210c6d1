//! Plain values: fields whose types every bit pattern fills
//! (`Decode::PLAIN_SIZE`), decoded from bytes in hand and encoded into
//! bytes in place, a run of them at once. Which fields can join a run, and
//! how a struct's fields are grouped for reading and writing alike.

use proc_macro2::TokenStream;
use quote::quote;

use super::paths::Runtime;
use crate::plan::{BinaryPlan, BinaryType, Codec, Element};

/// A struct's fields in the groups both directions handle together: a row
/// of fields sharing a chunk, a run of fields that can be plain, or one
/// field.
pub(super) fn field_groups<'p, 'a>(
    plans: &'p [BinaryPlan<'a>],
) -> impl Iterator<Item = &'p [BinaryPlan<'a>]> {
    plans.chunk_by(|field, next| {
        let continues_word = next
            .place
            .bits
            .as_ref()
            .is_some_and(|bits| bits.begins.is_none());
        next.place.joins_chunk
            || continues_word
            || (joins_plain_run(field) && joins_plain_run(next))
    })
}

/// Whether a group is a run of two or more fields that can be plain.
pub(super) fn is_plain_run(run: &[BinaryPlan]) -> bool {
    run.len() >= 2 && run.iter().all(joins_plain_run)
}

/// A field that can join a run of plain values: a value of its type's own
/// encoding, needing no context, in no chunk or form of its own. Whether its type is plain (`Decode::PLAIN_SIZE`) is for the
/// compiler to say.
fn joins_plain_run(plan: &BinaryPlan) -> bool {
    let Codec::Value(data) = &plan.codec else {
        return false;
    };
    data.presence.is_none()
        && data.repeat.is_none()
        && matches!(data.element, Element::Plain)
        && data.pass.is_empty()
        && data.map.is_none()
        && data.size.is_none()
        && data.offset.is_none()
        // A field a `calc` measures is read alone: where it ends is noted.
        && !plan.measured
        && !plan.based
        && plan.place.chunk.is_none()
        && plan.place.form.is_none()
        && plan.place.bits.is_none()
        // A checked value is read alone: its refusal names its offset.
        && plan.check.is_none()
}

/// The plain size of a run of fields: the sum of their types'
/// `PLAIN_SIZE`s, `None` when one of them is not plain.
pub(super) fn plain_size(rt: &Runtime, run: &[BinaryPlan]) -> TokenStream {
    run.iter().fold(
        quote!(::core::option::Option::Some(0usize)),
        |size, plan| {
            let ty = plan.field.ty;
            quote!(#rt::add_plain(#size, <#ty as #rt::Decode>::PLAIN_SIZE))
        },
    )
}

/// Whether a struct can be plain: all its fields can join a plain run (a
/// chunk, a form or context makes it not plain).
pub(super) fn is_plain(ty: &BinaryType) -> bool {
    let framed = ty.shape.framing.is_framed();
    let has_context = !ty.params.is_empty();
    // A type's own check runs after its fields are read, as plain bytes are not.
    let checked = ty.check.is_some();
    !framed
        && !has_context
        && !checked
        && !ty.fields.is_empty()
        && ty.fields.iter().all(joins_plain_run)
}
