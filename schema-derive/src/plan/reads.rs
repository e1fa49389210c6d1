//! The names a field's layout reads (earlier fields and context
//! parameters, resolved in the plan), and what for: the generated test
//! draws each before the fields reading it, as its first reader needs.

use syn::{Ident, Type};

use super::{Codec, Medium, Plan, Presence, Repeat, Value};
use crate::check_context::{Pass, PassValue};

/// One name a field's layout reads.
pub struct Read<'p> {
    pub name: &'p Ident,
    pub how: ReadAs<'p>,
}

/// What a field's layout reads a name for.
#[derive(Clone, Copy)]
pub enum ReadAs<'p> {
    /// The number of its list's elements.
    Count,
    /// Its `present_if` condition; `flag` when the condition is the name
    /// alone, tested for non-zero.
    Condition { flag: bool },
    /// A value passed to parameter `param` of `to`; `len` when only the
    /// length of the named list is passed.
    Passed {
        param: &'p Ident,
        len: bool,
        to: PassedTo<'p>,
    },
}

/// What a field passes values to.
#[derive(Clone, Copy)]
pub enum PassedTo<'p> {
    /// The context of its element type.
    Element(&'p Type),
    /// Its `with` module.
    With,
}

impl<P: Medium> Plan<'_, P> {
    /// Every name the field's layout reads: its count's, then its
    /// condition's, then those it passes on.
    pub fn reads(&self) -> Vec<Read<'_>> {
        match &self.codec {
            Codec::Value(value) => value_reads(value),
            Codec::With(_, _, passes) => passes
                .iter()
                .filter_map(|pass| passed(pass, PassedTo::With))
                .collect(),
            Codec::Style(_) | Codec::Magic(_) | Codec::Count(_) => Vec::new(),
        }
    }
}

fn value_reads<'p, M: Medium>(value: &'p Value<'_, M>) -> Vec<Read<'p>> {
    let count = match &value.repeat {
        Some(Repeat::CountField(name) | Repeat::CountParam(name)) => Some(Read {
            name,
            how: ReadAs::Count,
        }),
        _ => None,
    };
    let condition = match &value.presence {
        Some(Presence::If(condition, names)) => names
            .iter()
            .map(|name| Read {
                name: &name.ident,
                how: ReadAs::Condition {
                    flag: condition.flag().is_some(),
                },
            })
            .collect(),
        _ => Vec::new(),
    };
    count
        .into_iter()
        .chain(condition)
        .chain(
            value
                .pass
                .iter()
                .filter_map(|pass| passed(pass, PassedTo::Element(value.element_ty))),
        )
        .collect()
}

/// The name a value passed on reads; a constant reads none.
fn passed<'p>(pass: &'p Pass, to: PassedTo<'p>) -> Option<Read<'p>> {
    let (name, len) = match &pass.value {
        PassValue::Name(name) => (&name.ident, false),
        PassValue::Len(list) => (&list.ident, true),
        PassValue::Constant(_) => return None,
    };
    Some(Read {
        name,
        how: ReadAs::Passed {
            param: &pass.param,
            len,
            to,
        },
    })
}
