//! The input as a small model: a struct, its fields, their attributes and docs.

use syn::{
    Data, DeriveInput, Fields, GenericArgument, Generics, Ident, PathArguments, Type, Visibility,
};

use crate::attr;

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    /// Its type and const parameters (a binary struct's alone).
    pub generics: &'a Generics,
    pub attrs: attr::Container,
    pub doc: String,
    pub fields: Vec<Field<'a>>,
}

/// An enum of IFF elements: each variant holds one type marked
/// `#[schema(form = "TYPE")]` or `#[schema(chunk = "TAG")]`, or wraps its
/// value in a form or chunk of its own; the next child's form type or tag
/// chooses the variant.
pub struct FormEnum<'a> {
    pub ident: &'a Ident,
    /// The enum's own attributes (`plan::forms` refuses those it takes not).
    pub attrs: attr::Container,
    /// `crate = "path"`: where the runtime is, when not at `::formats`.
    pub krate: Option<syn::Path>,
    pub doc: String,
    /// `context(name: Type, ...)`: values the enum's variants pass on.
    pub params: Vec<attr::ContextParam>,
    pub variants: Vec<Variant<'a>>,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub doc: String,
    /// The form or chunk the variant wraps its value in, if it names one.
    pub frame: Option<Frame>,
    /// `context(...)`: what the variant passes to its value, constants
    /// (`version = 2u16`, so a version gates what its form may hold) or
    /// the enum's own parameters.
    pub pass: Vec<attr::ContextArg>,
}

/// An IFF form of a type, or a chunk with a tag.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Frame {
    Form([u8; 4]),
    Chunk([u8; 4]),
}

/// An enum whose variant is chosen by a leading tag (`tag = u8`), by a
/// context parameter (`select = mode`), or, in text, by a keyword line.
pub struct ChoiceEnum<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    pub attrs: attr::Container,
    pub doc: String,
    pub variants: Vec<ChoiceVariant<'a>>,
}

pub struct ChoiceVariant<'a> {
    pub ident: &'a Ident,
    /// The one value the variant holds, if any.
    pub payload: Option<&'a Type>,
    pub attrs: attr::Variant,
    pub doc: String,
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub attrs: attr::Field,
    pub doc: String,
}

/// A struct as each of its encodings sees it.
pub enum Views<'a> {
    Binary(Container<'a>),
    Text(Container<'a>),
    /// A type with both encodings (`#[schema(binary(little), text)]`).
    Both {
        binary: Box<Container<'a>>,
        text: Box<Container<'a>>,
    },
}

impl<'a> Container<'a> {
    /// The struct's views, its attributes parsed once. A struct it is not
    /// is the error; mistakes in its attributes go to `errors`, and the
    /// views keep the keys that parse.
    pub fn views(input: &'a DeriveInput, errors: &mut Errors) -> syn::Result<Views<'a>> {
        let Data::Struct(data) = &input.data else {
            return Err(syn::Error::new_spanned(
                &input.ident,
                "#[derive(Schema)] supports structs with named fields and enums of forms",
            ));
        };
        let Fields::Named(named) = &data.fields else {
            return Err(syn::Error::new_spanned(
                &input.ident,
                "#[derive(Schema)] supports structs with named fields",
            ));
        };
        let attrs = attr::Container::parse(&input.attrs, errors);
        let encodings = attrs.encodings();
        errors.take(check_generics(
            &input.generics,
            encodings == attr::Encodings::One(attr::Kind::Binary),
        ));
        let fields: Vec<_> = named
            .named
            .iter()
            .filter_map(|field| {
                let ident = field.ident.as_ref()?;
                let views = attr::Field::parse(&field.attrs, encodings, errors);
                Some((ident, field, views))
            })
            .collect();
        let mut binary_fields = Vec::new();
        let mut text_fields = Vec::new();
        for (ident, field, views) in fields {
            let doc = doc_comment(&field.attrs);
            binary_fields.push(Field {
                ident,
                ty: &field.ty,
                attrs: views.binary,
                doc: doc.clone(),
            });
            text_fields.push(Field {
                ident,
                ty: &field.ty,
                attrs: views.text,
                doc,
            });
        }
        let view = |kind: attr::Kind, fields: Vec<Field<'a>>| Container {
            ident: &input.ident,
            vis: &input.vis,
            generics: &input.generics,
            attrs: attrs.view(kind),
            doc: doc_comment(&input.attrs),
            fields,
        };
        Ok(match encodings {
            attr::Encodings::One(attr::Kind::Binary) => {
                Views::Binary(view(attr::Kind::Binary, binary_fields))
            }
            attr::Encodings::One(attr::Kind::Text) => {
                Views::Text(view(attr::Kind::Text, text_fields))
            }
            attr::Encodings::Both => Views::Both {
                binary: Box::new(view(attr::Kind::Binary, binary_fields)),
                text: Box::new(view(attr::Kind::Text, text_fields)),
            },
        })
    }
}

impl<'a> FormEnum<'a> {
    /// The enum as written; `plan::forms::check` validates it.
    pub fn from_input(input: &'a DeriveInput) -> syn::Result<Self> {
        let data = enum_data(input)?;
        let mut errors = Errors::default();
        let attrs = attr::Container::parse(&input.attrs, &mut errors);
        if let Some(context) = &attrs.binary_context {
            errors.push(binary_context_on_an_enum(context.span));
        }
        if data.variants.is_empty() {
            errors.push(syn::Error::new_spanned(
                &input.ident,
                "an enum of IFF elements needs at least one variant",
            ));
        }
        let params: Vec<attr::ContextParam> = attrs
            .context
            .as_ref()
            .map_or_else(Vec::new, |context| context.value.clone());
        let variants: Vec<Variant> = data
            .variants
            .iter()
            .filter_map(|variant| errors.take(Variant::from_variant(variant)))
            .collect();
        errors.finish()?;
        Ok(FormEnum {
            ident: &input.ident,
            krate: attrs.krate.as_ref().map(|krate| krate.value.clone()),
            attrs,
            doc: doc_comment(&input.attrs),
            params,
            variants,
        })
    }
}

impl<'a> ChoiceEnum<'a> {
    /// Whether an enum is chosen by a tag, a selector or keywords rather
    /// than being an enum of forms.
    pub fn applies_to(input: &DeriveInput) -> bool {
        // Decided by the keys that parse; the others are errors either way.
        let attrs = attr::Container::parse(&input.attrs, &mut Errors::default());
        attrs.tag.is_some() || attrs.select.is_some() || attrs.text.is_some()
    }

    pub fn from_input(input: &'a DeriveInput) -> syn::Result<Self> {
        let data = enum_data(input)?;
        let mut errors = Errors::default();
        let attrs = attr::Container::parse(&input.attrs, &mut errors);
        if let Some(context) = &attrs.binary_context {
            errors.push(binary_context_on_an_enum(context.span));
        }
        if let (true, Some(binary)) = (attrs.is_twin(), attrs.binary) {
            errors.push(syn::Error::new(
                binary,
                "an enum has one encoding: one type with both applies to structs",
            ));
        }
        if data.variants.is_empty() {
            errors.push(syn::Error::new_spanned(
                &input.ident,
                "a schema enum needs at least one variant",
            ));
        }
        let variants = data
            .variants
            .iter()
            .filter_map(|variant| {
                let attrs = attr::Variant::parse(&variant.attrs, &mut errors);
                let payload = match &variant.fields {
                    Fields::Unit => None,
                    Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                        fields.unnamed.first().map(|field| &field.ty)
                    }
                    _ => {
                        errors.push(syn::Error::new_spanned(
                            variant,
                            "a variant holds one value, e.g. `Full(f32)`, or none",
                        ));
                        return None;
                    }
                };
                if let Some((_, discriminant)) = &variant.discriminant {
                    errors.push(syn::Error::new_spanned(
                        discriminant,
                        "a variant's value is given with `#[schema(when = ...)]`, not `= ...`",
                    ));
                }
                Some(ChoiceVariant {
                    ident: &variant.ident,
                    payload,
                    attrs,
                    doc: doc_comment(&variant.attrs),
                })
            })
            .collect();
        errors.finish()?;
        Ok(ChoiceEnum {
            ident: &input.ident,
            vis: &input.vis,
            attrs,
            doc: doc_comment(&input.attrs),
            variants,
        })
    }
}

impl<'a> Variant<'a> {
    fn from_variant(variant: &'a syn::Variant) -> syn::Result<Self> {
        let field_attr = variant
            .fields
            .iter()
            .flat_map(|field| field.attrs.iter())
            .find(|attr| attr.path().is_ident("schema"));
        if let Some(attr) = field_attr {
            return Err(syn::Error::new_spanned(
                attr,
                "the value of a variant of an enum of IFF elements takes no schema attribute",
            ));
        }
        let mut errors = Errors::default();
        let attrs = attr::Variant::parse(&variant.attrs, &mut errors);
        errors.finish()?;
        let stray = [
            attrs.when.as_ref().map(|when| when.span),
            attrs.other,
            attrs.keyword.as_ref().map(|keyword| keyword.span),
        ];
        if let Some(span) = stray.into_iter().flatten().next() {
            return Err(syn::Error::new(
                span,
                "a variant of an enum of IFF elements is chosen by the next tag: it takes only \
                 `form = \"TYPE\"` or `chunk = \"TAG\"`, to wrap its value in one, and \
                 `context(...)`, to pass its value constants",
            ));
        }
        let frame = match (&attrs.form, &attrs.chunk) {
            (Some(form), _) => Some(Frame::Form(form.value)),
            (None, Some(chunk)) => Some(Frame::Chunk(chunk.value)),
            (None, None) => None,
        };
        let only_field = match &variant.fields {
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => fields.unnamed.first(),
            _ => None,
        };
        match (only_field, &variant.discriminant) {
            (Some(field), None) => Ok(Variant {
                ident: &variant.ident,
                ty: &field.ty,
                doc: doc_comment(&variant.attrs),
                frame,
                pass: attrs.pass.map_or_else(Vec::new, |pass| pass.value),
            }),
            _ => Err(syn::Error::new_spanned(
                variant,
                "each variant of an enum of IFF elements holds exactly one value, e.g. \
                 `V2(SkeletonV2)`",
            )),
        }
    }
}

/// The variants of an enum without generic parameters.
fn enum_data(input: &DeriveInput) -> syn::Result<&syn::DataEnum> {
    let Data::Enum(data) = &input.data else {
        return Err(syn::Error::new_spanned(&input.ident, "expected an enum"));
    };
    check_generics(&input.generics, false)?;
    Ok(data)
}

/// A type's generic parameters: type and const parameters on a binary
/// struct (`binary` says whether the type is one), no lifetimes, since a
/// value read owns what it holds.
fn check_generics(generics: &Generics, binary: bool) -> syn::Result<()> {
    if let Some(lifetime) = generics.lifetimes().next() {
        return Err(syn::Error::new_spanned(
            lifetime,
            "a value read owns what it holds: #[derive(Schema)] takes no lifetime parameters",
        ));
    }
    if !binary && !generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            generics,
            "#[derive(Schema)] takes type and const parameters on structs with a binary \
             encoding alone",
        ));
    }
    Ok(())
}

/// `binary(context(...))` on an enum, which has one encoding.
fn binary_context_on_an_enum(span: proc_macro2::Span) -> syn::Error {
    syn::Error::new(
        span,
        "an enum has one encoding: declare its parameters with `context(...)`, outside \
         `binary(...)`",
    )
}

/// Collects every error so one compile shows them all.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(first) => first.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub fn take<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|error| self.push(error)).ok()
    }

    pub fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

/// The text of `///` comments, one line each, without the leading space.
pub fn doc_comment(attrs: &[syn::Attribute]) -> String {
    attrs
        .iter()
        .filter(|attr| attr.path().is_ident("doc"))
        .filter_map(|attr| match &attr.meta {
            syn::Meta::NameValue(syn::MetaNameValue {
                value:
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }),
                ..
            }) => Some(text.value()),
            _ => None,
        })
        .map(|line| line.strip_prefix(' ').map(str::to_owned).unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `Wrapper<T>` -> `T` when the type's last path segment is `wrapper`.
pub fn unwrap_generic<'t>(ty: &'t Type, wrapper: &str) -> Option<&'t Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != wrapper {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(inner) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// Whether the type's last path segment is `name` (e.g. `RawString`).
pub fn is_named(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(path) if path.path.segments.last().is_some_and(|last| last.ident == name))
}
