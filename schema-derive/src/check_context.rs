//! Context: the parameters a type declares, the names its attributes use
//! (an earlier field or a parameter), and the values it passes on.

use syn::{Ident, LitStr, Type};

use crate::ast::{is_named, Container, Errors, Field};
use crate::attr::{ByteOrder, Check, ContextArg, ContextParam, ContextValue, Presence, Repeat};
use crate::condition::value_names;
use crate::messages;
use crate::plan::expr::{expression, Expression, Role};
use crate::suggest::{closest, did_you_mean};

/// Where a name used in an attribute (`count = n`, `present_if = f`,
/// `context(p = v)`) finds its value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// An earlier field of the same type.
    Field,
    /// One of the type's own context parameters.
    Context,
}

/// The type's declared parameters (none without `context(...)`).
pub fn params<'a>(container: &'a Container) -> &'a [ContextParam] {
    container
        .attrs
        .context
        .as_ref()
        .map_or(&[], |context| context.value.as_slice())
}

pub fn is_param(container: &Container, name: &Ident) -> bool {
    params(container).iter().any(|param| &param.ident == name)
}

/// A name used by field `index`: an earlier field or a context parameter.
pub fn resolve(container: &Container, index: usize, name: &Ident) -> syn::Result<Source> {
    if is_param(container, name) {
        return Ok(Source::Context);
    }
    match container
        .fields
        .iter()
        .position(|field| field.ident == name)
    {
        Some(position) if position < index => Ok(Source::Field),
        Some(_) => Err(syn::Error::new(
            name.span(),
            format!("`{name}` must be an earlier field: it is read after this one"),
        )),
        None if container.attrs.binary_only.contains(name) => Err(syn::Error::new(
            name.span(),
            messages::binary_only_param(name),
        )),
        None => Err(unknown_name(container, name)),
    }
}

/// A name that is neither a field nor a parameter of the type, with the
/// closest one that is.
pub fn unknown_name(container: &Container, name: &Ident) -> syn::Error {
    let what = if params(container).is_empty() {
        "field"
    } else {
        "field or context parameter"
    };
    let fields = container.fields.iter().map(|field| field.ident);
    let names: Vec<String> = fields
        .chain(params(container).iter().map(|param| &param.ident))
        .map(Ident::to_string)
        .collect();
    let suggestion = did_you_mean(&name.to_string(), names.iter().map(String::as_str));
    syn::Error::new(
        name.span(),
        format!("no {what} named `{name}` in this struct{suggestion}"),
    )
}

/// A field's `check`, resolved once.
pub enum FieldCheck {
    /// `check = path(args)`, its arguments resolved.
    Function {
        path: syn::Path,
        args: Vec<CheckArg>,
    },
    /// `check = expr, "message"`.
    Inline {
        expression: Expression,
        message: LitStr,
    },
}

/// A value a check is given, resolved: where it is, and its type.
#[derive(Clone)]
pub enum CheckArg {
    /// An earlier field, of this type.
    Field(Ident, Type),
    /// An earlier `Count<_>` field: the count it holds, as a `usize`.
    Count(Ident),
    /// One of the type's context parameters, of this type.
    Param(Ident, Type),
}

impl CheckArg {
    pub fn ident(&self) -> &Ident {
        match self {
            CheckArg::Field(ident, _) | CheckArg::Count(ident) | CheckArg::Param(ident, _) => ident,
        }
    }
}

/// The `check` on field `index`, each value it is given resolved.
pub fn resolve_check(
    container: &Container,
    index: usize,
    check: &Check,
) -> syn::Result<FieldCheck> {
    let (path, check_args) = match check {
        Check::Function { path, args } => (path, args),
        Check::Inline { expr, message } => {
            return Ok(FieldCheck::Inline {
                expression: expression(container, index, Role::Check, expr)?,
                message: message.clone(),
            })
        }
    };
    let mut errors = Errors::default();
    let mut args = Vec::new();
    for arg in check_args {
        let Some(source) = errors.take(resolve(container, index, arg)) else {
            continue;
        };
        let param = params(container).iter().find(|param| &param.ident == arg);
        let field = container.fields.iter().find(|field| field.ident == arg);
        match (source, param, field) {
            (Source::Context, Some(param), _) => {
                args.push(CheckArg::Param(arg.clone(), param.ty.clone()));
            }
            (Source::Field, _, Some(field)) if is_named(field.ty, "Count") => {
                args.push(CheckArg::Count(arg.clone()));
            }
            (Source::Field, _, Some(field)) => {
                args.push(CheckArg::Field(arg.clone(), field.ty.clone()));
            }
            _ => errors.push(unknown_name(container, arg)),
        }
    }
    errors.finish()?;
    Ok(FieldCheck::Function {
        path: path.clone(),
        args,
    })
}

/// The values field `index` passes to its type's context, each resolved.
pub fn check_args(
    container: &Container,
    index: usize,
    args: &[ContextArg],
) -> syn::Result<Vec<Pass>> {
    let mut errors = Errors::default();
    let mut passes = Vec::new();
    for (position, arg) in args.iter().enumerate() {
        if args[..position]
            .iter()
            .any(|earlier| earlier.param == arg.param)
        {
            errors.push(syn::Error::new(
                arg.param.span(),
                format!("`{}` is passed twice", arg.param),
            ));
        }
        // A constant is checked by the compiler, against the parameter's
        // type; a `Count<_>` field passes the count it reads (or the writer
        // derives), as the parameter's integer type.
        let value = match &arg.value {
            ContextValue::Name(name) => errors
                .take(resolved(container, index, name))
                .map(PassValue::Name),
            ContextValue::Len(list) => errors
                .take(resolved(container, index, list))
                .map(PassValue::Len),
            ContextValue::Expr(constant) => Some(PassValue::Expr(constant.clone())),
        };
        if let Some(value) = value {
            passes.push(Pass {
                param: arg.param.clone(),
                value,
            });
        }
    }
    errors.finish()?;
    Ok(passes)
}

/// A name field `index` uses, resolved: an earlier field (maybe a
/// `Count<_>`) or a context parameter.
pub fn resolved(container: &Container, index: usize, name: &Ident) -> syn::Result<Resolved> {
    let calc = container
        .fields
        .iter()
        .any(|field| field.ident == name && crate::plan::expr::is_calc(field.ty));
    if calc {
        return Err(syn::Error::new(
            name.span(),
            format!(
                "`{name}` is a value the writer computes (`calc`): it is not passed on by name"
            ),
        ));
    }
    let held = match resolve(container, index, name)? {
        Source::Context => Held::Param,
        Source::Field if is_count_field(container, name) => Held::Count,
        Source::Field => Held::Field,
    };
    Ok(Resolved {
        ident: name.clone(),
        held,
    })
}

/// Whether `name` is one of the type's `Count<_>` fields.
pub fn is_count_field(container: &Container, name: &Ident) -> bool {
    container
        .fields
        .iter()
        .any(|field| field.ident == name && is_named(field.ty, "Count"))
}

/// Where a name's value is held, resolved once.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// An earlier field.
    Field,
    /// An earlier `Count<_>` field: the count it reads or the writer derives.
    Count,
    /// One of the type's context parameters.
    Param,
    /// An earlier `Calc<_>` field: the value stored (read, or computed by
    /// the writer).
    Calc,
}

/// A name an attribute uses, resolved.
#[derive(Clone)]
pub struct Resolved {
    pub ident: Ident,
    pub held: Held,
}

/// A value passed to a nested type's context parameter `param`.
#[derive(Clone)]
pub struct Pass {
    pub param: Ident,
    pub value: PassValue,
}

/// What a [`Pass`] passes: a name's value, a list's length, or an
/// expression (a constant, or one over the values in scope).
#[derive(Clone)]
pub enum PassValue {
    Name(Resolved),
    Len(Resolved),
    Expr(Box<syn::Expr>),
}

impl Pass {
    /// An enum variant's passes: each name is one of the enum's own
    /// parameters (the enum's validation sees to it).
    pub fn of_enum(args: &[ContextArg]) -> Vec<Pass> {
        let param = |name: &Ident| Resolved {
            ident: name.clone(),
            held: Held::Param,
        };
        args.iter()
            .map(|arg| Pass {
                param: arg.param.clone(),
                value: match &arg.value {
                    ContextValue::Name(name) => PassValue::Name(param(name)),
                    ContextValue::Len(list) => PassValue::Len(param(list)),
                    ContextValue::Expr(constant) => PassValue::Expr(constant.clone()),
                },
            })
            .collect()
    }
}

impl std::fmt::Display for PassValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PassValue::Name(name) => write!(f, "{}", name.ident),
            PassValue::Len(list) => write!(f, "len({})", list.ident),
            PassValue::Expr(constant) => {
                let text = quote::ToTokens::to_token_stream(constant).to_string();
                f.write_str(&text.replace(" :: ", "::"))
            }
        }
    }
}

/// Parameters must not share a name with a field, and each must be used.
pub fn check_params(container: &Container) -> syn::Result<()> {
    let mut errors = Errors::default();
    for (position, param) in params(container).iter().enumerate() {
        if params(container)[..position]
            .iter()
            .any(|earlier| earlier.ident == param.ident)
        {
            errors.push(syn::Error::new(
                param.ident.span(),
                format!("context parameter `{}` is declared twice", param.ident),
            ));
        }
        if container
            .fields
            .iter()
            .any(|field| field.ident == &param.ident)
        {
            errors.push(syn::Error::new(
                param.ident.span(),
                format!(
                    "context parameter `{}` has the name of a field; rename one",
                    param.ident
                ),
            ));
        }
        let orders = std::iter::once(&container.attrs.byte_order)
            .chain(container.fields.iter().map(|field| &field.attrs.byte_order))
            .flatten()
            .any(|order| order.value == ByteOrder::Param(param.ident.clone()));
        if !orders
            && !misspelt_as(container, &param.ident)
            && !container
                .fields
                .iter()
                .any(|field| uses(field, &param.ident) || checks_with(field, &param.ident))
        {
            errors.push(syn::Error::new(
                param.ident.span(),
                messages::unused_param(
                    &param.ident,
                    "name it in `count`, `present_if`, a `check`, `endian` or a field's \
                     `context(...)`",
                ),
            ));
        }
    }
    errors.finish()
}

/// Whether a field's attributes name `name`: in a count or a list's end,
/// a condition, a block's size, a computed value, or a value passed on.
pub fn uses(field: &Field, name: &Ident) -> bool {
    names_read(field).contains(name)
}

/// The names a field's attributes read (see [`uses`]).
fn names_read(field: &Field) -> Vec<Ident> {
    let attrs = &field.attrs;
    let mut names = Vec::new();
    if let Some(repeat) = &attrs.repeat {
        if let Repeat::Count(expr) | Repeat::Until(expr) = &repeat.value {
            names.extend(value_names(expr));
        }
    }
    if let Some(presence) = &attrs.presence {
        if let Presence::If(condition) = &presence.value {
            names.extend(value_names(&condition.expr));
        }
    }
    for expr in [&attrs.size, &attrs.calc].into_iter().flatten() {
        names.extend(value_names(&expr.value));
    }
    for arg in attrs.pass.iter().flat_map(|pass| &pass.value) {
        match &arg.value {
            ContextValue::Name(value) | ContextValue::Len(value) => names.push(value.clone()),
            ContextValue::Expr(expr) => names.extend(value_names(expr)),
        }
    }
    names
}

/// Whether a field's `check` is given `name`. The generated tests leave
/// checks out, so unlike [`uses`] this asks nothing of how `name` is drawn.
pub fn checks_with(field: &Field, name: &Ident) -> bool {
    names_checked(field).contains(name)
}

fn names_checked(field: &Field) -> Vec<Ident> {
    match field.attrs.check.as_ref().map(|check| &check.value) {
        Some(Check::Function { args, .. }) => args.clone(),
        Some(Check::Inline { expr, .. }) => value_names(expr),
        None => Vec::new(),
    }
}

/// Whether a name some field reads is no field or parameter, and `known`
/// (a field or a parameter) the one it is closest to: that name is the
/// error (suggesting `known`), not `known` going unused.
pub fn misspelt_as(container: &Container, known: &Ident) -> bool {
    let names: Vec<String> = container
        .fields
        .iter()
        .map(|field| field.ident)
        .chain(params(container).iter().map(|param| &param.ident))
        .map(Ident::to_string)
        .collect();
    container
        .fields
        .iter()
        .flat_map(|field| names_read(field).into_iter().chain(names_checked(field)))
        .map(|name| name.to_string())
        .filter(|name| !names.contains(name))
        .any(|name| closest(&name, names.iter().map(String::as_str)) == Some(&*known.to_string()))
}

/// A `with` module is given names, lengths and constants, which read no
/// field or parameter: not expressions over them.
pub fn constant_values(container: &Container, passes: &[Pass]) -> syn::Result<()> {
    let mut errors = Errors::default();
    for pass in passes {
        let PassValue::Expr(constant) = &pass.value else {
            continue;
        };
        let known = |name: &Ident| {
            is_param(container, name) || container.fields.iter().any(|field| field.ident == name)
        };
        if let Some(name) = value_names(constant).into_iter().find(|name| known(name)) {
            errors.push(syn::Error::new(
                name.span(),
                format!(
                    "a `with` module is given fields and parameters by name (`context({} = {name})`), \
                     their lengths or constants, not expressions over them",
                    pass.param
                ),
            ));
        }
    }
    errors.finish()
}
