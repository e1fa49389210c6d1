//! Expressions in attributes (`present_if`, `count`, `size`, `calc`,
//! `until`, an inline `check`, a context value), each lowered into one
//! function of the values in scope: the fields before it and the type's
//! context parameters, by their names, so that the compiler resolves the
//! names an expression reads (a misspelt one is one error, at the name,
//! with the name it meant), and a mistake in an expression is reported
//! once, however many places run it.

use quote::format_ident;
use syn::{Expr, Ident, Type};

use crate::ast::{is_named, unwrap_generic, Container, Errors};
use crate::check_context::{self, Held, Pass, PassValue, Resolved};
use crate::condition::{describe, take_sizes, value_names};
use crate::messages;
use crate::suggest::did_you_mean;

/// An expression, as the function it is compiled into.
pub struct Expression {
    /// The expression, each `size_of(field)` replaced by a local.
    pub expr: Box<Expr>,
    /// As people read it, in messages and docs: `version >= 300`.
    pub text: String,
    /// The function, on the type.
    pub function: Ident,
    /// Every value in scope, in order: its parameters.
    pub scope: Vec<InScope>,
    /// The fields whose size in bytes it reads (`size_of(field)`), each
    /// once, in order: parameters after the scope's.
    pub sizes: Vec<Ident>,
    /// An inline `check`: whether it reads the value checked, by its
    /// field's name.
    pub own: bool,
    /// The names it reads as written in it, for errors at them.
    uses: Vec<Ident>,
}

/// A value in an expression's scope.
pub struct InScope {
    pub name: Resolved,
    /// The type of its value: a field's or parameter's, a count's `usize`,
    /// a `calc` field's stored type.
    pub ty: Type,
    /// Whether the expression reads it. One it does not is given as `()`:
    /// it is there for the compiler to suggest it for a misspelt name.
    pub read: bool,
}

impl Expression {
    /// The names it reads, resolved, in scope order.
    pub fn reads(&self) -> impl Iterator<Item = &Resolved> {
        self.scope
            .iter()
            .filter(|in_scope| in_scope.read)
            .map(|in_scope| &in_scope.name)
    }

    /// Whether it reads a value the writer computes (`calc`).
    pub fn reads_calc(&self) -> bool {
        self.reads().any(|read| read.held == Held::Calc)
    }

    /// Where it reads `name`, as written.
    pub fn span_of(&self, name: &Ident) -> proc_macro2::Span {
        self.uses
            .iter()
            .find(|used| *used == name)
            .map_or_else(|| name.span(), Ident::span)
    }
}

/// What an expression is for, which names its function and decides what
/// it may read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Condition,
    Count,
    Size,
    Calc,
    Until,
    Check,
    Context,
    TextContext,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Condition => "present",
            Role::Count => "count",
            Role::Size => "size",
            Role::Calc => "calc",
            Role::Until => "until",
            Role::Check => "check",
            Role::Context => "context",
            Role::TextContext => "text_context",
        }
    }

    /// The key it is written with, for messages.
    fn key(self) -> &'static str {
        match self {
            Role::Condition => "present_if",
            Role::Count => "count",
            Role::Size => "size",
            Role::Calc => "calc",
            Role::Until => "until",
            Role::Check => "check",
            Role::Context | Role::TextContext => "context",
        }
    }
}

/// The expression `expr` of field `index`'s `role`. Its scope is the
/// fields before the field and the context parameters; a `calc`, computed
/// once the whole value is known, sees every other field too, and may
/// read `size_of(field)` of any field.
pub fn expression(
    container: &Container,
    index: usize,
    role: Role,
    expr: &Expr,
) -> syn::Result<Expression> {
    let mut errors = Errors::default();
    // Docs and messages show the expression as written, `size_of` included.
    let text = describe(expr);
    let (expr, sizes) = take_sizes(expr)?;
    let field = container
        .fields
        .get(index)
        .map(|field| field.ident)
        .ok_or_else(|| syn::Error::new_spanned(&expr, "an expression of no field"))?;
    for size in &sizes {
        if role != Role::Calc {
            errors.push(syn::Error::new(
                size.span(),
                "`size_of(field)` is the number of bytes a field takes, which only a `calc` \
                 reads: the writer knows it once the field is written",
            ));
        } else if !container.fields.iter().any(|field| field.ident == size) {
            let fields: Vec<String> = container
                .fields
                .iter()
                .map(|field| field.ident.to_string())
                .collect();
            let suggestion = did_you_mean(&size.to_string(), fields.iter().map(String::as_str));
            errors.push(syn::Error::new(
                size.span(),
                format!("`size_of` names a field, and there is no field `{size}`{suggestion}"),
            ));
        }
    }
    let read_names = value_names(&expr);
    let sees = |position: usize| match role {
        Role::Calc => position != index,
        _ => position < index,
    };
    for name in &read_names {
        let own = role == Role::Check && name == field;
        let later = container
            .fields
            .iter()
            .position(|field| field.ident == name)
            .filter(|&position| !sees(position) && !own);
        if later.is_some() {
            errors.push(syn::Error::new(
                name.span(),
                format!("`{name}` must be an earlier field: it is read after this one"),
            ));
        }
        if container.attrs.binary_only.contains(name) {
            errors.push(syn::Error::new(
                name.span(),
                messages::binary_only_param(name),
            ));
        }
    }
    let mut scope = Vec::new();
    for param in check_context::params(container) {
        scope.push(InScope {
            name: Resolved {
                ident: param.ident.clone(),
                held: Held::Param,
            },
            ty: param.ty.clone(),
            read: read_names.contains(&param.ident),
        });
    }
    for (position, in_scope) in container.fields.iter().enumerate() {
        // A parameter named like a field is an error of its own: the
        // parameter stands for both here, so the scope names each once.
        if !sees(position) || check_context::is_param(container, in_scope.ident) {
            continue;
        }
        let read = read_names.contains(in_scope.ident);
        let (held, ty) = held_as(in_scope.ty);
        if read && held == Held::Calc && !matches!(role, Role::Size | Role::Count) {
            let used = read_names.iter().find(|used| *used == in_scope.ident);
            errors.push(syn::Error::new(
                used.map_or_else(|| in_scope.ident.span(), Ident::span),
                format!(
                    "`{}` is a value the writer computes (`calc`): only a `size` or a `count` \
                     reads it, not a `{}`",
                    in_scope.ident,
                    role.key()
                ),
            ));
        }
        scope.push(InScope {
            name: Resolved {
                ident: in_scope.ident.clone(),
                held,
            },
            ty,
            read,
        });
    }
    errors.finish()?;
    Ok(Expression {
        text,
        function: format_ident!("__schema_{}_{}", role.name(), field),
        own: role == Role::Check && read_names.contains(field),
        uses: read_names,
        expr: Box::new(expr),
        scope,
        sizes,
    })
}

/// The function building the context field `index` passes to its type
/// (`role`: its binary or its text context): its scope, reading the names
/// passed and those the expressions passed read.
pub fn context_expression(
    container: &Container,
    index: usize,
    role: Role,
    passes: &[Pass],
) -> syn::Result<Expression> {
    let exprs = passes.iter().filter_map(|pass| match &pass.value {
        PassValue::Expr(expr) => Some(expr),
        PassValue::Name(_) | PassValue::Len(_) => None,
    });
    let values: Expr = syn::parse_quote!((#(#exprs,)*));
    let mut expression = expression(container, index, role, &values)?;
    for in_scope in &mut expression.scope {
        let passed = passes
            .iter()
            .any(|pass| matches!(&pass.value, PassValue::Name(name) if name.ident == in_scope.name.ident));
        in_scope.read |= passed;
    }
    Ok(expression)
}

/// How a field's value is held in an expression's scope: a `Count<_>`
/// as the `usize` count, a `Calc<T>` as the `T` stored, anything else as
/// itself.
fn held_as(ty: &Type) -> (Held, Type) {
    if is_named(ty, "Count") {
        return (Held::Count, syn::parse_quote!(usize));
    }
    match unwrap_generic(ty, "Calc") {
        Some(stored) => (Held::Calc, stored.clone()),
        None => (Held::Field, ty.clone()),
    }
}

/// Whether `ty` is a `Calc<_>`.
pub fn is_calc(ty: &Type) -> bool {
    unwrap_generic(ty, "Calc").is_some()
}

/// The names the expressions of a type's fields read that are neither a
/// field nor a context parameter, as errors. Only asked when the derive
/// fails: the compiler, which would find them (with the name meant),
/// stops at the derive's errors, so these are found in the same compile.
/// A lowercase name in an expression that names no field or parameter
/// (and that no closure in it binds) is taken for a misspelt one; others,
/// constants, are left to the compiler.
pub fn unknown_names(containers: &[&Container]) -> Vec<syn::Error> {
    let mut errors: Vec<syn::Error> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for container in containers {
        for field in &container.fields {
            for expr in field_expressions(&field.attrs) {
                // A `size_of(field)` is refused where it names no field.
                let Ok((expr, _)) = take_sizes(expr) else {
                    continue;
                };
                for name in value_names(&expr) {
                    let text = name.to_string();
                    let known = check_context::is_param(container, &name)
                        || text.starts_with("__")
                        || container.fields.iter().any(|field| field.ident == &name)
                        || container.attrs.binary_only.contains(&name)
                        || !text.starts_with(|c: char| c.is_lowercase() || c == '_');
                    let place = format!("{:?}", name.span());
                    if known || seen.contains(&place) {
                        continue;
                    }
                    seen.push(place);
                    errors.push(check_context::unknown_name(container, &name));
                }
            }
        }
    }
    errors
}

/// The expressions among a field's attributes that are not bare names
/// (those the derive resolves itself).
fn field_expressions(attrs: &crate::attr::Field) -> Vec<&Expr> {
    use crate::attr::{Check, ContextValue, Presence, Repeat};
    let mut exprs = Vec::new();
    if let Some(presence) = &attrs.presence {
        if let Presence::If(condition) = &presence.value {
            exprs.push(&*condition.expr);
        }
    }
    if let Some(repeat) = &attrs.repeat {
        match &repeat.value {
            Repeat::Count(count) if repeat.value.count_name().is_none() => exprs.push(&**count),
            Repeat::Until(ends) => exprs.push(&**ends),
            _ => {}
        }
    }
    for expr in [&attrs.size, &attrs.calc].into_iter().flatten() {
        exprs.push(&expr.value);
    }
    if let Some(check) = &attrs.check {
        if let Check::Inline { expr, .. } = &check.value {
            exprs.push(&**expr);
        }
    }
    if let Some(pass) = &attrs.pass {
        for arg in &pass.value {
            if let ContextValue::Expr(expr) = &arg.value {
                exprs.push(&**expr);
            }
        }
    }
    exprs
}
