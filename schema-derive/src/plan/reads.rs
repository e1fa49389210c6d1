//! The names a field's layout reads (earlier fields and context
//! parameters, resolved in the plan), and what for: the generated test
//! draws each before the fields reading it, as its first reader needs, so
//! a field later fields read must be one it can draw on its own.

use syn::{Ident, Type};

use super::expr::Expression;
use super::{Codec, Medium, Presence, Repeat, Value};
use crate::ast::{Errors, Field};
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
    /// A value in an expression giving a count or a value passed on: a
    /// small number is drawn (when it is one).
    Small,
    /// A value in an expression giving a block's size: a number from
    /// the fewest bytes the block's type takes to a few dozen more.
    Size(&'p Type),
    /// A value in an expression that takes any (a list's end).
    Value,
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

impl<M: Medium> Codec<'_, M> {
    /// Every name the field's layout reads: its count's, then its
    /// condition's, then those it passes on.
    pub fn reads(&self) -> Vec<Read<'_>> {
        match self {
            Codec::Value(value) => value_reads(value),
            Codec::With(_, _, passes) => passes
                .iter()
                .filter_map(|pass| passed(pass, PassedTo::With))
                .collect(),
            Codec::Style(_)
            | Codec::Magic(_)
            | Codec::Count(_)
            | Codec::Calc(..)
            | Codec::Padding(..) => Vec::new(),
        }
    }
}

/// Whether every read of `name` takes only its length (`len(name)`): the
/// generated test then draws the list by its own strategy, whatever its
/// shape.
pub fn read_for_len_only<'p>(reads: impl IntoIterator<Item = &'p Read<'p>>, name: &Ident) -> bool {
    reads
        .into_iter()
        .filter(|read| read.name == name)
        .all(|read| matches!(read.how, ReadAs::Passed { len: true, .. }))
}

/// A field later fields read (as a count, a flag or a value passed on) is
/// drawn first by the generated test, on its own: it must be a plain value,
/// or a list only its length is taken of (`len(list)`).
pub fn check_read_fields<M: Medium>(fields: &[(&Field, &Codec<M>)]) -> syn::Result<()> {
    let mut errors = Errors::default();
    let reads: Vec<Vec<Read>> = fields.iter().map(|(_, codec)| codec.reads()).collect();
    for (index, (field, codec)) in fields.iter().enumerate() {
        let later = reads.get(index + 1..).unwrap_or_default();
        let read = later.iter().flatten().any(|read| read.name == field.ident);
        let shaped = match codec {
            Codec::With(..) => true,
            Codec::Value(value) => {
                value.repeat.is_some() || value.presence.is_some() || !value.pass.is_empty()
            }
            Codec::Style(_)
            | Codec::Magic(_)
            | Codec::Count(_)
            | Codec::Calc(..)
            | Codec::Padding(..) => false,
        };
        if read && shaped && !read_for_len_only(later.iter().flatten(), field.ident) {
            errors.push(syn::Error::new(
                field.ident.span(),
                format!(
                    "`{}` is used by a later field, so it must be a plain value \
                     (no list, option, `with` or context of its own)",
                    field.ident
                ),
            ));
        }
    }
    errors.finish()
}

fn value_reads<'p, M: Medium>(value: &'p Value<'_, M>) -> Vec<Read<'p>> {
    let expression_reads = |expression: &'p Expression, how: ReadAs<'p>| {
        expression
            .reads()
            .map(move |name| Read {
                name: &name.ident,
                how,
            })
            .collect::<Vec<_>>()
    };
    let count = match &value.repeat {
        Some(Repeat::CountField(name) | Repeat::CountParam(name)) => vec![Read {
            name,
            how: ReadAs::Count,
        }],
        Some(Repeat::CountExpr(expression)) => expression_reads(expression, ReadAs::Small),
        Some(Repeat::Until(_, expression)) => expression_reads(expression, ReadAs::Value),
        _ => Vec::new(),
    };
    let condition = match &value.presence {
        Some(Presence::If(condition, expression)) => expression_reads(
            expression,
            ReadAs::Condition {
                flag: condition.flag().is_some(),
            },
        ),
        _ => Vec::new(),
    };
    let size = value
        .size
        .iter()
        .flat_map(|size| expression_reads(size, ReadAs::Size(value.element_ty)));
    // The names the expressions passed read; those passed by name or
    // length are reads of their own.
    let passed_by_expression = value
        .context
        .iter()
        .flat_map(|context| context.reads())
        .filter(|name| {
            !value.pass.iter().any(
                |pass| matches!(&pass.value, PassValue::Name(passed) if passed.ident == name.ident),
            )
        })
        .map(|name| Read {
            name: &name.ident,
            how: ReadAs::Small,
        });
    count
        .into_iter()
        .chain(condition)
        .chain(size)
        .chain(
            value
                .pass
                .iter()
                .filter_map(|pass| passed(pass, PassedTo::Element(value.stored_ty()))),
        )
        .chain(passed_by_expression)
        .collect()
}

/// The name a value passed on reads; a constant reads none.
fn passed<'p>(pass: &'p Pass, to: PassedTo<'p>) -> Option<Read<'p>> {
    let (name, len) = match &pass.value {
        PassValue::Name(name) => (&name.ident, false),
        PassValue::Len(list) => (&list.ident, true),
        PassValue::Expr(_) => return None,
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
