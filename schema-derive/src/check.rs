//! Validation: turns the parsed model into a plan per field, or spanned errors.

use proc_macro2::Span;
use syn::{Ident, Path, Type};

use crate::ast::{is_named, unwrap_generic, Container, Errors, Field};
use crate::attr::{ByteOrder, Constant, ContextArg, Presence, Repeat, StringKind};
use crate::check_context;

/// A field as the expansion sees it.
pub struct Plan<'a> {
    pub field: &'a Field<'a>,
    pub byte_order: ByteOrder,
    pub codec: Codec<'a>,
    /// The IFF chunk whose payload the field is (or is part of).
    pub chunk: Option<[u8; 4]>,
    /// Whether the field shares the chunk of the field before it: fields
    /// in a row naming one tag are one chunk.
    pub joins_chunk: bool,
    /// The IFF form whose children the field is.
    pub form: Option<[u8; 4]>,
    /// Whether errors inside the field name it. A chunk names itself by its
    /// tag instead, and so does a form nested in a form, by its type.
    pub named_in_paths: bool,
}

/// The chunk a run of fields sharing one (or a single field) is read and
/// written in: none for a field present by the next tag, which looks for
/// its chunk itself.
pub fn shared_chunk(group: &[Plan]) -> Option<[u8; 4]> {
    group
        .first()
        .filter(|plan| !plan.by_next_tag())
        .and_then(|plan| plan.chunk)
}

impl Plan<'_> {
    /// Whether the field is an `Option` present when the next child begins as it does.
    pub fn by_next_tag(&self) -> bool {
        matches!(
            self.codec,
            Codec::Data(Data {
                presence: Some(Presence::NextTag),
                ..
            })
        )
    }
}

pub enum Codec<'a> {
    /// A constant checked on read; the field's type is `Magic`.
    Magic(Constant),
    /// A `Count<_>` field: stores the shared length of these collections.
    Count(Vec<CountUser>),
    /// The field's own `with` module reads and writes it, given these values.
    With(Path, Vec<ContextArg>),
    Data(Data<'a>),
}

/// A collection governed by a count field.
pub struct CountUser {
    pub field: Ident,
    pub optional: bool,
    /// The chunk (or form) the collection is stored in, which names it in errors.
    pub chunk: Option<[u8; 4]>,
}

/// A value, maybe optional, maybe repeated, of an element type.
pub struct Data<'a> {
    pub presence: Option<Presence>,
    pub repeat: Option<Repeat>,
    pub element: Element,
    pub element_ty: &'a Type,
    /// Values passed to the element type's context.
    pub pass: Vec<ContextArg>,
}

pub enum Element {
    /// Read and written by the type's own `Decode`/`Encode`.
    Plain,
    String(StringKind),
}

pub fn plan<'a>(container: &'a Container<'a>) -> syn::Result<Vec<Plan<'a>>> {
    crate::check_text::reject_text_keys(container)?;
    let mut errors = Errors::default();
    let Some(container_order) = container.attrs.byte_order.as_ref().map(|order| order.value) else {
        return Err(syn::Error::new_spanned(
            container.ident,
            format!(
                "binary schema `{}` states no byte order: add #[schema(big)] or #[schema(little)]",
                container.ident
            ),
        ));
    };
    errors.take(check_context::check_params(container));
    errors.take(check_context::check_used_fields(container));
    // A struct whose fields are chunks and forms (a form's, or a run of
    // them a variant wraps) names them by their tags in error paths.
    let iff = container.attrs.form.is_some()
        || container.attrs.chunk.is_some()
        || container
            .fields
            .iter()
            .any(|field| field.attrs.chunk.is_some() || field.attrs.form.is_some());
    let mut plans: Vec<Plan> = container
        .fields
        .iter()
        .enumerate()
        .filter_map(|(index, field)| {
            let codec = errors.take(codec_of(container, index, field))?;
            if let Some(check) = &field.attrs.check {
                if matches!(codec, Codec::Data(_)) {
                    errors.take(check_context::resolve_check(container, index, &check.value));
                } else {
                    errors.push(syn::Error::new(
                        check.span,
                        "`check` applies to a field holding a value: not to a constant, a count \
                         or a `with` field",
                    ));
                }
            }
            let chunk = field.attrs.chunk.as_ref().map(|chunk| chunk.value);
            let form = field.attrs.form.as_ref().map(|form| form.value);
            if container.attrs.chunk.is_some() {
                if let Some(frame) = field.attrs.chunk.as_ref().or(field.attrs.form.as_ref()) {
                    errors.push(syn::Error::new(
                        frame.span,
                        "a chunk struct's fields are its payload: they hold no chunks or forms",
                    ));
                }
            }
            if container.attrs.form.is_some() && chunk.is_none() && form.is_none() {
                errors.take(check_form_child(field, &codec))?;
            }
            Some(Plan {
                field,
                byte_order: field
                    .attrs
                    .byte_order
                    .as_ref()
                    .map_or(container_order, |order| order.value),
                codec,
                chunk,
                joins_chunk: false,
                form,
                named_in_paths: !iff,
            })
        })
        .collect();
    for index in 1..plans.len() {
        let (before, after) = plans.split_at_mut(index);
        let (Some(previous), Some(plan)) = (before.last(), after.first_mut()) else {
            continue;
        };
        if plan.chunk.is_none() || plan.chunk != previous.chunk {
            continue;
        }
        if plan.by_next_tag() || previous.by_next_tag() {
            let optional = if plan.by_next_tag() {
                plan.field.ident
            } else {
                previous.field.ident
            };
            errors.push(syn::Error::new_spanned(
                optional,
                "fields in a row naming one chunk share it, so none of them can be an `Option` \
                 present by the next tag: give it `flag` or `present_if`",
            ));
        }
        plan.joins_chunk = true;
    }
    errors.finish()?;
    Ok(plans)
}

fn codec_of<'a>(
    container: &'a Container<'a>,
    index: usize,
    field: &'a Field<'a>,
) -> syn::Result<Codec<'a>> {
    let attrs = &field.attrs;
    let pass = match &attrs.pass {
        Some(pass) => {
            check_context::check_args(container, index, &pass.value)?;
            pass.value.clone()
        }
        None => Vec::new(),
    };
    if let Some(magic) = &attrs.magic {
        if let Some(span) = first_span(&[
            attrs.string.as_ref().map(|a| a.span),
            attrs.repeat.as_ref().map(|a| a.span),
            attrs.presence.as_ref().map(|a| a.span),
            attrs.with.as_ref().map(|a| a.span),
            attrs.pass.as_ref().map(|a| a.span),
        ]) {
            return Err(syn::Error::new(
                span,
                "a `magic` field takes no other encoding attribute",
            ));
        }
        return Ok(Codec::Magic(magic.value.clone()));
    }
    if let Some(with) = &attrs.with {
        if let Some(span) = first_span(&[
            attrs.string.as_ref().map(|a| a.span),
            attrs.repeat.as_ref().map(|a| a.span),
            attrs.presence.as_ref().map(|a| a.span),
        ]) {
            return Err(syn::Error::new(
                span,
                "a `with` field is encoded by its module alone",
            ));
        }
        return Ok(Codec::With(with.value.clone(), pass));
    }
    let users = count_users(container, field.ident);
    if !users.is_empty() {
        if let Some(span) = first_span(&[
            attrs.string.as_ref().map(|a| a.span),
            attrs.repeat.as_ref().map(|a| a.span),
            attrs.presence.as_ref().map(|a| a.span),
            attrs.pass.as_ref().map(|a| a.span),
        ]) {
            return Err(syn::Error::new(
                span,
                "a count field takes no other encoding attribute",
            ));
        }
        return Ok(Codec::Count(users));
    }

    let mut ty = field.ty;
    // An `Option` with no presence attribute is present by the next tag:
    // an IFF element, or a value in a chunk or form of its own.
    let by_next_tag = attrs.presence.is_none() && unwrap_generic(ty, "Option").is_some();
    if by_next_tag {
        if container.attrs.chunk.is_some() {
            return Err(syn::Error::new_spanned(
                field.ident,
                format!(
                    "`{}` is an `Option` inside a chunk, where no tag follows to say whether it is \
                     there: give it `flag` or `present_if`",
                    field.ident
                ),
            ));
        }
        ty = unwrap_generic(ty, "Option").unwrap_or(ty);
    }
    if let Some(presence) = &attrs.presence {
        ty = unwrap_generic(ty, "Option").ok_or_else(|| {
            syn::Error::new(
                presence.span,
                format!(
                    "`{}` needs an `Option<_>` field",
                    presence_key(&presence.value)
                ),
            )
        })?;
        if let Presence::If(condition) = &presence.value {
            condition.resolve(container, index)?;
        }
    }
    if let Some(repeat) = &attrs.repeat {
        ty = unwrap_generic(ty, "Vec").ok_or_else(|| {
            syn::Error::new(
                repeat.span,
                format!(
                    "`{}` needs a collection field (`Vec<_>`)",
                    repeat_key(&repeat.value)
                ),
            )
        })?;
        match &repeat.value {
            Repeat::Count(count) => {
                check_context::resolve(container, index, count)?;
            }
            Repeat::ToEnd
                if attrs.chunk.is_none()
                    && attrs.form.is_none()
                    && index + 1 < container.fields.len() =>
            {
                return Err(syn::Error::new(
                    repeat.span,
                    "a `to_end` list reads until the input ends, so it is the last field \
                     (or fills a chunk or form of its own)",
                ));
            }
            Repeat::Prefix(_) | Repeat::ToEnd => {}
        }
    }
    let element = match &attrs.string {
        Some(string) if !is_named(ty, "RawString") => {
            return Err(syn::Error::new(
                string.span,
                "string encodings apply to `RawString` values",
            ));
        }
        Some(string) => Element::String(string.value.clone()),
        None if is_named(ty, "RawString") => {
            return Err(syn::Error::new_spanned(
                field.ty,
                "a `RawString` needs an encoding: `pascal`, `null_terminated` or `fixed_width = N`",
            ));
        }
        None => Element::Plain,
    };
    if let (Some(pass), Element::String(_)) = (&attrs.pass, &element) {
        return Err(syn::Error::new(pass.span, "a string takes no context"));
    }
    Ok(Codec::Data(Data {
        presence: match &attrs.presence {
            Some(presence) => Some(presence.value.clone()),
            None if by_next_tag => Some(Presence::NextTag),
            None => None,
        },
        repeat: attrs.repeat.as_ref().map(|r| r.value.clone()),
        element,
        element_ty: ty,
        pass,
    }))
}

/// Everything inside a FORM is a chunk or a nested form: a field without
/// `chunk` must be a form value (maybe a list of them, maybe absent), never
/// bytes of its own between the chunks.
fn check_form_child(field: &Field, codec: &Codec) -> syn::Result<()> {
    let nested_form = matches!(
        codec,
        Codec::Data(Data {
            element: Element::Plain,
            repeat: None | Some(Repeat::Count(_) | Repeat::ToEnd),
            presence: None | Some(Presence::If(_) | Presence::NextTag),
            ..
        })
    );
    if nested_form {
        return Ok(());
    }
    Err(syn::Error::new(
        field.ident.span(),
        format!(
            "`{}` would put bytes between the chunks of a FORM: store it in a chunk with \
             `#[schema(chunk = \"TAG\")]`, or make its type a form",
            field.ident
        ),
    ))
}

/// The collections whose `count = ...` names this field.
fn count_users(container: &Container, count: &Ident) -> Vec<CountUser> {
    container
        .fields
        .iter()
        .filter(|field| {
            matches!(&field.attrs.repeat, Some(repeat) if matches!(&repeat.value, Repeat::Count(name) if name == count))
        })
        .map(|field| CountUser {
            field: field.ident.clone(),
            optional: field.attrs.presence.is_some()
                || unwrap_generic(field.ty, "Option").is_some(),
            chunk: field
                .attrs
                .chunk
                .as_ref()
                .or(field.attrs.form.as_ref())
                .map(|frame| frame.value),
        })
        .collect()
}

fn presence_key(presence: &Presence) -> &'static str {
    match presence {
        Presence::Flag(_) => "flag",
        Presence::If(_) => "present_if",
        Presence::NextTag => "an `Option` present by the next tag",
    }
}

fn repeat_key(repeat: &Repeat) -> &'static str {
    match repeat {
        Repeat::Prefix(_) => "prefix",
        Repeat::Count(_) => "count",
        Repeat::ToEnd => "to_end",
    }
}

fn first_span(spans: &[Option<Span>]) -> Option<Span> {
    spans.iter().flatten().next().copied()
}
