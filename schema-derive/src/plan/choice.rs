//! Validation and lowering of enums chosen by a tag, by a context value or
//! by keywords, beside the structs' (their messages shared through
//! `crate::messages`).

use syn::{Expr, Ident, LitStr, Path, Type, Visibility};

use crate::ast::{ChoiceEnum, ChoiceVariant, Errors};
use crate::attr::{ByteOrder, ContextArg, ContextParam};
use crate::messages;
use crate::suggest::{closest, did_you_mean};

/// An enum chosen by a tag, a selector or keywords, as the back ends see
/// it.
pub struct ChoicePlan<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    pub doc: &'a str,
    /// `crate = "path"`: where the runtime is.
    pub krate: Option<&'a Path>,
    /// Whether the enum is text (else binary).
    pub text: bool,
    /// `context(name: Type, ...)`.
    pub params: &'a [ContextParam],
    pub choice: Choice<'a>,
    /// Each variant, with what picks it.
    pub variants: Vec<(VariantPlan<'a>, Pick<'a>)>,
}

pub struct VariantPlan<'a> {
    pub ident: &'a Ident,
    /// The one value the variant holds, if any.
    pub payload: Option<&'a Type>,
    pub doc: &'a str,
    /// `context(...)`: the enum's values passed to the payload.
    pub pass: &'a [ContextArg],
}

/// How an enum's variant is chosen.
pub enum Choice<'a> {
    /// Text: a line spelling one of the variants' phrases.
    Keywords,
    /// By a tag or a context value.
    By(Chooser<'a>),
}

/// What chooses the variant of an enum that is not a keyword enum.
pub enum Chooser<'a> {
    /// Binary: a leading value of this type, read with this byte order;
    /// with `bits`, a word whose first (most significant) bits are the
    /// tag, and whose others begin the variant's value.
    Tag {
        ty: &'a Type,
        order: ByteOrder,
        bits: Option<TagBits>,
    },
    /// Binary: a context parameter's value; the variants' values are read
    /// with this byte order.
    Select { param: &'a Ident, order: ByteOrder },
    /// Text: a context parameter's value.
    TextSelect { param: &'a Ident },
}

/// A tag that is the first bits of a word.
#[derive(Clone, Copy)]
pub struct TagBits {
    /// The tag's bits.
    pub tag: u32,
    /// The word's bits after the tag, which begin the variant's value.
    pub rest: u32,
}

/// What picks one variant.
pub enum Pick<'a> {
    /// `when = value`.
    When(&'a Expr),
    /// `other`: every tag no other variant has; the variant holds the tag.
    Other,
    /// `keyword = "phrase"`.
    Keyword(&'a LitStr),
}

pub fn plan<'a>(choice: &'a ChoiceEnum<'a>) -> syn::Result<ChoicePlan<'a>> {
    let attrs = &choice.attrs;
    let mut errors = Errors::default();
    if let Some(frame) = attrs.form.as_ref().or(attrs.chunk.as_ref()) {
        errors.push(syn::Error::new(
            frame.span,
            "an enum chosen by a tag, a selector or keywords is not a `form` or a `chunk`",
        ));
    }
    if let Some(span) = attrs.one_line {
        errors.push(syn::Error::new(span, "`one_line` applies to text records"));
    }
    if let (Some(bits), None) = (&attrs.bits, &attrs.tag) {
        errors.push(syn::Error::new(
            bits.span,
            "`bits = N` says how many of the first bits of the tag's word choose the variant: \
             give the word with `tag = u16`",
        ));
    }
    if let Some(check) = &attrs.check {
        errors.push(syn::Error::new(check.span, messages::TYPE_CHECK_ON_AN_ENUM));
    }
    if let Some(span) = attrs.comments {
        errors.push(syn::Error::new(
            span,
            "`comments` applies to text records: put it on the record holding the enum",
        ));
    }
    let text = attrs.text.is_some();
    let order = attrs.byte_order.as_ref().map(|order| order.value.clone());
    if let (true, Some(order)) = (text, &attrs.byte_order) {
        errors.push(syn::Error::new(
            order.span,
            messages::TEXT_HAS_NO_BYTE_ORDER,
        ));
    }
    let choice_kind = match (&attrs.tag, &attrs.select, text) {
        (Some(_), Some(select), _) => {
            errors.push(syn::Error::new(
                select.span,
                "an enum is chosen by a `tag` or by `select`, not both",
            ));
            None
        }
        (Some(tag), None, true) => {
            errors.push(syn::Error::new(
                tag.span,
                "a text enum is chosen by keywords or by `select = param`, not by a tag",
            ));
            None
        }
        (Some(tag), None, false) => match order {
            Some(order) => Some(Choice::By(Chooser::Tag {
                ty: &tag.value,
                order,
                bits: errors.take(tag_bits(choice)).flatten(),
            })),
            None => {
                errors.push(missing_order(choice));
                None
            }
        },
        (None, Some(select), _) => {
            let param = attrs
                .context
                .iter()
                .flat_map(|context| context.value.iter())
                .find(|param| param.ident == select.value);
            match (param, order, text) {
                (None, _, _) => {
                    errors.push(syn::Error::new(
                        select.value.span(),
                        format!(
                            "`select = {}` names no context parameter{}: declare it with \
                             `context({}: Type)`",
                            select.value,
                            closest_param(choice, &select.value),
                            select.value
                        ),
                    ));
                    None
                }
                (Some(param), _, true) => Some(Choice::By(Chooser::TextSelect {
                    param: &param.ident,
                })),
                (Some(param), Some(order), false) => Some(Choice::By(Chooser::Select {
                    param: &param.ident,
                    order,
                })),
                (Some(_), None, false) => {
                    errors.push(missing_order(choice));
                    None
                }
            }
        }
        (None, None, _) => {
            if let Some(context) = &attrs.context {
                errors.push(syn::Error::new(
                    context.span,
                    "a keyword enum takes no context",
                ));
            }
            Some(Choice::Keywords)
        }
    };
    let picks: Vec<Option<Pick>> = choice
        .variants
        .iter()
        .map(|variant| errors.take(pick(choice, choice_kind.as_ref(), variant)))
        .collect();
    let others: Vec<&ChoiceVariant> = choice
        .variants
        .iter()
        .filter(|variant| variant.attrs.other.is_some())
        .collect();
    if let [_, second, ..] = others.as_slice() {
        errors.push(syn::Error::new_spanned(
            second.ident,
            "only one variant can be `other`",
        ));
    }
    // A keyword enum's context is refused whole, not parameter by parameter.
    if !matches!(choice_kind, Some(Choice::Keywords)) {
        errors.take(check_context_use(choice));
    }
    errors.finish()?;
    let choice_kind = choice_kind.ok_or_else(|| {
        syn::Error::new_spanned(choice.ident, "the enum's choice could not be planned")
    })?;
    let variants = choice
        .variants
        .iter()
        .zip(picks.into_iter().flatten())
        .map(|(variant, pick)| {
            let plan = VariantPlan {
                ident: variant.ident,
                payload: variant.payload,
                doc: &variant.doc,
                pass: variant
                    .attrs
                    .pass
                    .as_ref()
                    .map_or(&[][..], |pass| pass.value.as_slice()),
            };
            (plan, pick)
        })
        .collect();
    Ok(ChoicePlan {
        ident: choice.ident,
        vis: choice.vis,
        doc: &choice.doc,
        krate: attrs.krate.as_ref().map(|krate| &krate.value),
        text,
        params: attrs
            .context
            .as_ref()
            .map_or(&[][..], |context| context.value.as_slice()),
        choice: choice_kind,
        variants,
    })
}

/// `bits = N` beside `tag = Word`: the word's first N bits are the tag.
fn tag_bits(choice: &ChoiceEnum) -> syn::Result<Option<TagBits>> {
    let Some(bits) = &choice.attrs.bits else {
        return Ok(None);
    };
    let word = choice.attrs.tag.as_ref().and_then(|tag| match &*tag.value {
        Type::Path(path) => match path.path.get_ident()?.to_string().as_str() {
            "u8" => Some(8),
            "u16" => Some(16),
            "u32" => Some(32),
            "u64" => Some(64),
            _ => None,
        },
        _ => None,
    });
    let Some(word) = word.filter(|&word| bits.value < word) else {
        return Err(syn::Error::new(
            bits.span,
            "`bits = N` says how many of the first bits of the tag's word choose the variant: \
             the tag is a `u8`, `u16`, `u32` or `u64` of more bits",
        ));
    };
    let mut errors = Errors::default();
    for variant in &choice.variants {
        if let Some(other) = variant.attrs.other {
            errors.push(syn::Error::new(
                other,
                "a tag of a word's first bits has no `other` variant: each variant names its \
                 tag with `when`",
            ));
        }
    }
    errors.finish()?;
    Ok(Some(TagBits {
        tag: bits.value,
        rest: word - bits.value,
    }))
}

/// The enum's parameter `name` may be a misspelling of, suggested.
fn closest_param(choice: &ChoiceEnum, name: &Ident) -> String {
    let params: Vec<String> = choice
        .attrs
        .context
        .iter()
        .flat_map(|context| context.value.iter())
        .map(|param| param.ident.to_string())
        .collect();
    did_you_mean(&name.to_string(), params.iter().map(String::as_str))
}

fn missing_order(choice: &ChoiceEnum) -> syn::Error {
    syn::Error::new_spanned(choice.ident, messages::no_byte_order(choice.ident))
}

fn pick<'a>(
    choice: &'a ChoiceEnum,
    kind: Option<&Choice>,
    variant: &'a ChoiceVariant,
) -> syn::Result<Pick<'a>> {
    let attrs = &variant.attrs;
    let keywords = matches!(kind, Some(Choice::Keywords));
    if let Some(frame) = attrs.form.as_ref().or(attrs.chunk.as_ref()) {
        return Err(syn::Error::new(
            frame.span,
            "a variant's `form` or `chunk` is for enums of IFF elements, chosen by the next tag",
        ));
    }
    if let Some(pass) = &attrs.pass {
        if keywords {
            return Err(syn::Error::new(
                pass.span,
                "a keyword variant holds nothing to pass context to",
            ));
        }
        if variant.payload.is_none() {
            return Err(syn::Error::new(
                pass.span,
                "a variant without a value takes no context",
            ));
        }
        // A constant is checked by the compiler, against the parameter's type.
        for value in pass.value.iter().filter_map(|arg| arg.value.name()) {
            let declared = choice
                .attrs
                .context
                .iter()
                .flat_map(|context| context.value.iter())
                .any(|param| &param.ident == value);
            if !declared {
                return Err(syn::Error::new(
                    value.span(),
                    format!(
                        "no context parameter named `{value}`{}: a variant passes the enum's \
                         own parameters",
                        closest_param(choice, value)
                    ),
                ));
            }
        }
    }
    match (&attrs.when, attrs.other, &attrs.keyword) {
        (Some(when), None, None) if !keywords => Ok(Pick::When(&when.value)),
        (None, Some(span), None) => match kind {
            Some(Choice::By(Chooser::Tag { .. })) if variant.payload.is_some() => Ok(Pick::Other),
            Some(Choice::By(Chooser::Tag { .. })) => Err(syn::Error::new(
                span,
                "the `other` variant keeps the tag it was read with: give it one value of the tag's type",
            )),
            _ => Err(syn::Error::new(
                span,
                "`other` is for enums chosen by a tag: it keeps the tag value",
            )),
        },
        (None, None, Some(keyword)) if keywords => {
            if variant.payload.is_some() {
                return Err(syn::Error::new_spanned(
                    variant.ident,
                    "a keyword variant holds no value: the keyword is all there is",
                ));
            }
            if keyword.value.value().split_whitespace().collect::<Vec<_>>().join(" ")
                != keyword.value.value()
                || keyword.value.value().contains('"')
            {
                return Err(syn::Error::new(
                    keyword.value.span(),
                    "a keyword is words with single spaces between them, without quotes",
                ));
            }
            Ok(Pick::Keyword(&keyword.value))
        }
        (_, _, Some(keyword)) if !keywords => Err(syn::Error::new(
            keyword.span,
            "`keyword` is for text enums chosen by keywords (no `tag` or `select`)",
        )),
        _ if keywords => Err(syn::Error::new_spanned(
            variant.ident,
            "each variant of a keyword enum needs `#[schema(keyword = \"...\")]`",
        )),
        _ => Err(syn::Error::new_spanned(
            variant.ident,
            "each variant needs exactly one of `#[schema(when = value)]` and `#[schema(other)]`",
        )),
    }
}

/// Every declared parameter is the selector or passed to a variant.
fn check_context_use(choice: &ChoiceEnum) -> syn::Result<()> {
    let mut errors = Errors::default();
    let params = choice
        .attrs
        .context
        .iter()
        .flat_map(|context| context.value.iter());
    let declared: Vec<String> = params
        .clone()
        .map(|param| param.ident.to_string())
        .collect();
    // The names the enum's keys give as parameters; one that is none is
    // the error (suggesting the parameter it is closest to), not that
    // parameter going unused.
    let named: Vec<&Ident> = choice
        .attrs
        .select
        .iter()
        .map(|select| &select.value)
        .chain(
            choice
                .variants
                .iter()
                .flat_map(|variant| variant.attrs.pass.iter().flat_map(|pass| &pass.value))
                .filter_map(|arg| arg.value.name()),
        )
        .collect();
    for param in params {
        let name = param.ident.to_string();
        let meant = |named: &&Ident| {
            let named = named.to_string();
            named == name
                || (!declared.contains(&named)
                    && closest(&named, declared.iter().map(String::as_str)) == Some(name.as_str()))
        };
        let selects_or_passed = named.iter().any(meant);
        let orders = choice
            .attrs
            .byte_order
            .as_ref()
            .is_some_and(|order| order.value == ByteOrder::Param(param.ident.clone()));
        if !selects_or_passed && !orders {
            errors.push(syn::Error::new(
                param.ident.span(),
                messages::unused_param(
                    &param.ident,
                    "name it in `select`, `endian` or a variant's `context(...)`",
                ),
            ));
        }
    }
    errors.finish()
}
