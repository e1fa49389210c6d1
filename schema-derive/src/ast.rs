//! The input as a small model: a struct, its fields, their attributes and docs.

use syn::{Data, DeriveInput, Fields, GenericArgument, Ident, PathArguments, Type};

use crate::attr;

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub attrs: attr::Container,
    pub doc: String,
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub attrs: attr::Field,
    pub doc: String,
}

impl<'a> Container<'a> {
    pub fn from_input(input: &'a DeriveInput) -> syn::Result<Self> {
        let Data::Struct(data) = &input.data else {
            return Err(syn::Error::new_spanned(
                &input.ident,
                "#[derive(Schema)] supports structs with named fields",
            ));
        };
        let Fields::Named(named) = &data.fields else {
            return Err(syn::Error::new_spanned(
                &input.ident,
                "#[derive(Schema)] supports structs with named fields",
            ));
        };
        if !input.generics.params.is_empty() {
            return Err(syn::Error::new_spanned(
                &input.generics,
                "#[derive(Schema)] does not support generic parameters",
            ));
        }
        let mut errors = Errors::default();
        let attrs = errors
            .take(attr::Container::parse(&input.attrs))
            .unwrap_or_default();
        let fields = named
            .named
            .iter()
            .filter_map(|field| {
                let ident = field.ident.as_ref()?;
                let attrs = errors.take(attr::Field::parse(&field.attrs))?;
                Some(Field {
                    ident,
                    ty: &field.ty,
                    attrs,
                    doc: doc_comment(&field.attrs),
                })
            })
            .collect();
        errors.finish()?;
        Ok(Container {
            ident: &input.ident,
            attrs,
            doc: doc_comment(&input.attrs),
            fields,
        })
    }
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
