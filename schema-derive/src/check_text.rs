//! Validation of text layouts (`#[schema(text)]`), and of text-only
//! attributes where a binary layout uses them.

use proc_macro2::Span;
use syn::{LitStr, Type};

use crate::ast::{is_named, unwrap_generic, Container, Errors, Field};
use crate::attr::{Check, ContextArg, Presence, Repeat, TextForm};
use crate::check_context;
use crate::condition::Condition;

/// A field of a text layout as the expansion sees it.
pub struct TextPlan<'a> {
    pub field: &'a Field<'a>,
    pub codec: TextCodec<'a>,
    /// `same_line`: the field's tokens continue the previous field's line.
    pub same_line: bool,
    /// `check = path(args)`: run on the value once it is read.
    pub check: Option<Check>,
}

pub enum TextCodec<'a> {
    /// The file's `TextStyle`: filled in by the reader, used by the writer.
    Style,
    /// Tokens that must read exactly so; the field's type is `Magic`.
    Magic(LitStr),
    /// A `Count<_>` field: a count holding the shared length of these lists.
    Count(Vec<syn::Ident>),
    Value(TextValue<'a>),
}

/// A value, maybe a list, maybe optional, of an element type.
pub struct TextValue<'a> {
    pub presence: Option<TextPresence>,
    pub repeat: Option<TextRepeat>,
    /// `flow`: the list's elements are tokens in any whitespace.
    pub flow: bool,
    pub form: Form,
    pub element_ty: &'a Type,
    /// Values passed to the element type's context.
    pub pass: Vec<ContextArg>,
}

/// When an `Option` field holds a value.
#[derive(Clone)]
pub enum TextPresence {
    /// When a condition over earlier fields and context parameters holds
    /// (`present_if`).
    If(Condition),
    /// Unless the file holds this word instead of the value (`none = "*"`).
    NoneWord(LitStr),
}

/// Where a text list's length comes from.
#[derive(Clone)]
pub enum TextRepeat {
    /// A count line right before the elements (`prefix`).
    CountLine,
    /// A `Count<_>` field or a context parameter (`count = name`).
    Count(syn::Ident),
    /// The end of the text (`to_end`).
    ToEnd,
}

/// How one element appears in the file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// By the type's own text impls: tokens, or a nested record's lines.
    Plain,
    /// A whole line, spaces included (`line`).
    Line,
    /// A `//` line (`comment`).
    Comment,
    /// `| tokens |` (`vector`).
    Vector,
    /// `<name with spaces>` (`angle_brackets`).
    AngleBrackets,
}

impl TextPlan<'_> {
    /// Whether the field is tokens within a line, so that the next field
    /// may continue its line.
    pub fn is_tokens(&self) -> bool {
        match &self.codec {
            TextCodec::Style => false,
            TextCodec::Magic(_) | TextCodec::Count(_) => true,
            TextCodec::Value(value) => value.is_tokens(),
        }
    }
}

impl TextValue<'_> {
    /// Whether the value is written as tokens within a line (so it may
    /// share one): one value, always present or standing for none.
    pub fn is_tokens(&self) -> bool {
        self.repeat.is_none()
            && matches!(self.presence, None | Some(TextPresence::NoneWord(_)))
            && matches!(self.form, Form::Plain | Form::Vector | Form::AngleBrackets)
    }
}

pub fn plan<'a>(container: &'a Container<'a>) -> syn::Result<Vec<TextPlan<'a>>> {
    let mut errors = Errors::default();
    if let Some(order) = &container.attrs.byte_order {
        errors.push(syn::Error::new(
            order.span,
            "a text layout has no byte order: remove `big`/`little`",
        ));
    }
    if let Some(frame) = container
        .attrs
        .form
        .as_ref()
        .or(container.attrs.chunk.as_ref())
    {
        errors.push(syn::Error::new(
            frame.span,
            "IFF framing is binary: a text layout cannot be a `form` or a `chunk`",
        ));
    }
    let one_line = container.attrs.one_line.is_some();
    if let (true, Some(context)) = (one_line, &container.attrs.context) {
        errors.push(syn::Error::new(
            context.span,
            "a `one_line` record takes no context: its fields are tokens",
        ));
    }
    if let Some(comments) = container.attrs.comments {
        if one_line {
            errors.push(syn::Error::new(
                comments,
                "a `one_line` record is within its holder's line: put `comments` on the record \
                 holding it",
            ));
        }
        if let Some(comment) = container
            .fields
            .iter()
            .filter_map(|field| field.attrs.text_form.as_ref())
            .find(|form| form.value == TextForm::Comment)
            .map(|form| form.span)
        {
            errors.push(syn::Error::new(
                comment,
                "a record with `comments` keeps every comment in its style: a `comment` field \
                 would take the first one as data",
            ));
        }
    }
    errors.take(check_context::check_params(container));
    errors.take(check_context::check_used_fields(container));
    let plans: Vec<TextPlan> = container
        .fields
        .iter()
        .enumerate()
        .filter_map(|(index, field)| {
            let codec = errors.take(codec_of(container, index, field, one_line))?;
            let check = match &field.attrs.check {
                Some(check) => {
                    errors.take(check_of(container, index, &codec, check.span, &check.value))?
                }
                None => None,
            };
            Some(TextPlan {
                field,
                codec,
                same_line: field.attrs.same_line.is_some(),
                check,
            })
        })
        .collect();
    for (index, plan) in plans.iter().enumerate() {
        if let Some(span) = plan.field.attrs.same_line {
            errors.take(check_same_line(
                span,
                one_line,
                plan,
                index
                    .checked_sub(1)
                    .and_then(|previous| plans.get(previous)),
            ));
        }
    }
    let mut styles = container
        .fields
        .iter()
        .filter_map(|field| field.attrs.style);
    if let (Some(_), Some(second)) = (styles.next(), styles.next()) {
        errors.push(syn::Error::new(
            second,
            "a text layout takes only one `style` field",
        ));
    }
    errors.finish()?;
    Ok(plans)
}

/// A `same_line` field holds tokens and follows a field that does.
fn check_same_line(
    span: Span,
    one_line: bool,
    plan: &TextPlan,
    previous: Option<&TextPlan>,
) -> syn::Result<()> {
    if one_line {
        return Err(syn::Error::new(
            span,
            "every field of a `one_line` record is on the same line: remove `same_line`",
        ));
    }
    if !plan.is_tokens() {
        return Err(syn::Error::new(
            span,
            "`same_line` applies to values written as tokens: not to lists, whole lines, \
             comments or values present by `present_if`",
        ));
    }
    match previous {
        None => Err(syn::Error::new(
            span,
            "the first field has no line to continue: remove `same_line`",
        )),
        Some(previous) if !previous.is_tokens() => Err(syn::Error::new(
            span,
            format!(
                "`same_line` continues the previous field's line, but `{}` is not written as \
                 tokens",
                previous.field.ident
            ),
        )),
        Some(_) => Ok(()),
    }
}

/// A `check` runs on a value, with earlier fields, counts or parameters.
fn check_of(
    container: &Container,
    index: usize,
    codec: &TextCodec,
    span: Span,
    check: &Check,
) -> syn::Result<Option<Check>> {
    if !matches!(codec, TextCodec::Value(_)) {
        return Err(syn::Error::new(
            span,
            "`check` applies to a field holding a value: not to a style, a constant or a count",
        ));
    }
    check_context::resolve_check(container, index, check)?;
    Ok(Some(check.clone()))
}

fn codec_of<'a>(
    container: &'a Container<'a>,
    index: usize,
    field: &'a Field<'a>,
    one_line: bool,
) -> syn::Result<TextCodec<'a>> {
    let attrs = &field.attrs;
    reject_binary_keys(field)?;
    let pass = match &attrs.pass {
        Some(pass) => {
            check_context::check_args(container, index, &pass.value)?;
            pass.value.clone()
        }
        None => Vec::new(),
    };
    let form = attrs.text_form.as_ref().map(|form| {
        let form_of = match form.value {
            TextForm::Line => Form::Line,
            TextForm::Comment => Form::Comment,
            TextForm::Vector => Form::Vector,
            TextForm::AngleBrackets => Form::AngleBrackets,
        };
        (form.span, form_of)
    });
    let presence_span = match (&attrs.presence, &attrs.none) {
        (Some(_), Some(none)) => {
            return Err(syn::Error::new(
                none.span,
                "a field takes only one of `present_if` and `none`",
            ));
        }
        (Some(presence), None) => Some(presence.span),
        (None, Some(none)) => Some(none.span),
        (None, None) => None,
    };

    if let Some(style) = attrs.style {
        if let Some(span) = first_span(&[
            attrs.text_prefix,
            attrs.text_magic.as_ref().map(|m| m.span),
            form.map(|(span, _)| span),
            attrs.repeat.as_ref().map(|r| r.span),
            attrs.pass.as_ref().map(|p| p.span),
            presence_span,
            attrs.same_line,
        ]) {
            return Err(syn::Error::new(
                span,
                "a `style` field takes no other attribute",
            ));
        }
        if one_line {
            return Err(syn::Error::new(
                style,
                "a `one_line` record cannot hold a `style` field",
            ));
        }
        if !is_named(field.ty, "TextStyle") {
            return Err(syn::Error::new(
                style,
                "a `style` field has the type `TextStyle`",
            ));
        }
        return Ok(TextCodec::Style);
    }
    if let Some(magic) = &attrs.text_magic {
        if let Some(span) = first_span(&[
            attrs.text_prefix,
            form.map(|(span, _)| span),
            attrs.repeat.as_ref().map(|r| r.span),
            attrs.pass.as_ref().map(|p| p.span),
            presence_span,
        ]) {
            return Err(syn::Error::new(
                span,
                "a `magic` field takes no other attribute",
            ));
        }
        if magic.value.value().split_whitespace().next().is_none() {
            return Err(syn::Error::new(
                magic.span,
                "a text constant needs at least one word",
            ));
        }
        return Ok(TextCodec::Magic(magic.value.clone()));
    }

    let users: Vec<syn::Ident> = container
        .fields
        .iter()
        .filter(|other| {
            matches!(&other.attrs.repeat, Some(repeat) if matches!(&repeat.value, Repeat::Count(name) if name == field.ident))
        })
        .map(|other| other.ident.clone())
        .collect();
    if !users.is_empty() {
        if let Some(span) = first_span(&[
            attrs.text_prefix,
            form.map(|(span, _)| span),
            attrs.repeat.as_ref().map(|r| r.span),
            attrs.pass.as_ref().map(|p| p.span),
            presence_span,
        ]) {
            return Err(syn::Error::new(
                span,
                "a count field takes no other attribute",
            ));
        }
        return Ok(TextCodec::Count(users));
    }

    let mut ty = field.ty;
    let presence = match (&attrs.presence, &attrs.none) {
        (Some(presence), _) => {
            let Presence::If(condition) = &presence.value else {
                return Err(syn::Error::new(presence.span, "`flag` is binary only"));
            };
            condition.resolve(container, index)?;
            Some((presence.span, TextPresence::If(condition.clone())))
        }
        (None, Some(none)) => {
            let word = none.value.value();
            if word.is_empty() || word.contains(char::is_whitespace) || word.starts_with("//") {
                return Err(syn::Error::new(
                    none.value.span(),
                    "`none` takes one word, such as \"*\"",
                ));
            }
            Some((none.span, TextPresence::NoneWord(none.value.clone())))
        }
        (None, None) => None,
    };
    if let Some((span, presence)) = &presence {
        let key = match presence {
            TextPresence::If(_) => "present_if",
            TextPresence::NoneWord(_) => "none",
        };
        ty = unwrap_generic(ty, "Option")
            .ok_or_else(|| syn::Error::new(*span, format!("`{key}` needs an `Option<_>` field")))?;
    }
    let repeat = match (attrs.text_prefix, &attrs.repeat) {
        (Some(_), Some(repeat)) => {
            return Err(syn::Error::new(
                repeat.span,
                "a field takes only one count attribute",
            ));
        }
        (Some(span), None) => Some((span, TextRepeat::CountLine)),
        (None, Some(repeat)) => {
            let text_repeat = match &repeat.value {
                Repeat::Count(name) => {
                    check_context::resolve(container, index, name)?;
                    TextRepeat::Count(name.clone())
                }
                Repeat::ToEnd if index + 1 < container.fields.len() => {
                    return Err(syn::Error::new(
                        repeat.span,
                        "a `to_end` list reads until the text ends, so it is the last field",
                    ));
                }
                Repeat::ToEnd => TextRepeat::ToEnd,
                Repeat::Prefix(_) => {
                    return Err(syn::Error::new(
                        repeat.span,
                        "a text count is a decimal number: write `prefix` without a type",
                    ))
                }
            };
            Some((repeat.span, text_repeat))
        }
        (None, None) => None,
    };
    let repeat = match repeat {
        Some((span, repeat)) => {
            if one_line {
                return Err(syn::Error::new(
                    span,
                    "a list in a `one_line` record is not supported: its elements take lines",
                ));
            }
            ty = unwrap_generic(ty, "Vec").ok_or_else(|| {
                syn::Error::new(span, "a list needs a collection field (`Vec<_>`)")
            })?;
            Some(repeat)
        }
        None if unwrap_generic(ty, "Vec").is_some() => {
            return Err(syn::Error::new_spanned(
                field.ty,
                "a text collection needs a count: a count line before it (`prefix`), \
                 `count = field` or `to_end`",
            ));
        }
        None => None,
    };
    if let Some((span, TextPresence::NoneWord(_))) = &presence {
        if repeat.is_some() || form.is_some() {
            return Err(syn::Error::new(
                *span,
                "`none` stands for an absent value of tokens: not a list, a line, a comment, \
                 a vector or a `<name>`",
            ));
        }
    }
    let form = match form {
        None => Form::Plain,
        Some((span, form @ (Form::Line | Form::Comment))) => {
            if one_line {
                return Err(syn::Error::new(
                    span,
                    "a `one_line` record cannot hold a whole line: its fields are tokens",
                ));
            }
            if !is_named(ty, "RawString") {
                return Err(syn::Error::new(
                    span,
                    "`line` and `comment` apply to `RawString` values",
                ));
            }
            form
        }
        Some((span, Form::AngleBrackets)) => {
            if !is_named(ty, "RawString") {
                return Err(syn::Error::new(
                    span,
                    "`angle_brackets` applies to `RawString` values",
                ));
            }
            Form::AngleBrackets
        }
        Some((_, form)) => form,
    };
    if !pass.is_empty() && (one_line || form != Form::Plain) {
        if let Some(pass) = &attrs.pass {
            return Err(syn::Error::new(
                pass.span,
                "only a nested record takes context",
            ));
        }
    }
    if let Some(span) = attrs.flow {
        if !matches!(repeat, Some(TextRepeat::CountLine)) || form != Form::Plain || !pass.is_empty()
        {
            return Err(syn::Error::new(
                span,
                "`flow` applies to a `prefix` list of values written as tokens (numbers, \
                 words, `one_line` records), which take no context",
            ));
        }
    }
    Ok(TextCodec::Value(TextValue {
        presence: presence.map(|(_, presence)| presence),
        repeat,
        flow: attrs.flow.is_some(),
        form,
        element_ty: ty,
        pass,
    }))
}

/// Binary encodings have no meaning in a text layout.
fn reject_binary_keys(field: &Field) -> syn::Result<()> {
    let attrs = &field.attrs;
    if let Some(order) = &attrs.byte_order {
        return Err(syn::Error::new(
            order.span,
            "text fields have no byte order",
        ));
    }
    if let Some(string) = &attrs.string {
        return Err(syn::Error::new(
            string.span,
            "string encodings are binary: in a text layout a `RawString` is one word, or a whole line with `line`",
        ));
    }
    if let Some(magic) = &attrs.magic {
        return Err(syn::Error::new(
            magic.span,
            "a text constant is a string: `magic = \"version 300\"`",
        ));
    }
    if let Some(with) = &attrs.with {
        return Err(syn::Error::new(with.span, "`with` is binary only"));
    }
    if let Some(frame) = attrs.chunk.as_ref().or(attrs.form.as_ref()) {
        return Err(syn::Error::new(
            frame.span,
            "IFF chunks and forms are binary only",
        ));
    }
    Ok(())
}

/// Text attributes have no meaning in a binary layout.
pub fn reject_text_keys(container: &Container) -> syn::Result<()> {
    let mut errors = Errors::default();
    let container_keys = [
        (container.attrs.one_line, "one_line"),
        (container.attrs.comments, "comments"),
    ];
    for (span, key) in container_keys {
        if let Some(span) = span {
            errors.push(syn::Error::new(
                span,
                format!("`{key}` applies to text layouts: add `text`"),
            ));
        }
    }
    for field in &container.fields {
        let attrs = &field.attrs;
        let keys = [
            (
                attrs.text_form.as_ref().map(|form| form.span),
                attrs.text_form.as_ref().map_or("", |form| form.value.key()),
            ),
            (attrs.style, "style"),
            (attrs.none.as_ref().map(|none| none.span), "none"),
            (attrs.same_line, "same_line"),
            (attrs.flow, "flow"),
        ];
        for (span, key) in keys {
            if let Some(span) = span {
                errors.push(syn::Error::new(
                    span,
                    format!("`{key}` applies to text layouts (#[schema(text)])"),
                ));
            }
        }
        if let Some(span) = attrs.text_prefix {
            errors.push(syn::Error::new(
                span,
                "a binary count prefix needs its integer type: `prefix = u32`",
            ));
        }
        if let Some(magic) = &attrs.text_magic {
            errors.push(syn::Error::new(
                magic.span,
                "a string constant applies to text layouts; a binary constant is `b\"...\"` or a suffixed integer",
            ));
        }
    }
    errors.finish()
}

fn first_span(spans: &[Option<Span>]) -> Option<Span> {
    spans.iter().flatten().next().copied()
}
