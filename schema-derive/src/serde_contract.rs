//! What serde must be told about a struct's runtime marker fields: a
//! constant (`Magic`) and a count (`Count<_>`) are not data, so the JSON
//! model leaves them out (`#[serde(skip)]`), and a text style (`TextStyle`)
//! is filled in when the JSON has none (`#[serde(default)]`). A type
//! attribute cannot make serde skip a field, so the derive asks for the
//! attribute, one error at each field lacking it, when it sees the struct
//! use serde: a `#[serde(...)]` attribute on it or on a field (the other
//! derives of a struct are not shown to a derive, so a serde struct with
//! no serde attribute at all goes unseen, and its marker fields serialize
//! as `null`).

use syn::{Attribute, Data, DeriveInput, Fields, Type};

/// One error per marker field that lacks the serde attribute it needs,
/// when the struct uses serde; none otherwise.
pub fn check(input: &DeriveInput) -> syn::Result<()> {
    let Data::Struct(data) = &input.data else {
        return Ok(());
    };
    let Fields::Named(fields) = &data.fields else {
        return Ok(());
    };
    let uses_serde = input.attrs.iter().any(|attr| attr.path().is_ident("serde"))
        || fields
            .named
            .iter()
            .any(|field| field.attrs.iter().any(|attr| attr.path().is_ident("serde")));
    if !uses_serde {
        return Ok(());
    }
    let mut errors: Option<syn::Error> = None;
    for field in &fields.named {
        let Some(name) = &field.ident else { continue };
        let (marker, needs, what) = match type_name(&field.ty).as_deref() {
            Some("Magic") => ("a constant (`Magic`)", "skip", "the JSON leaves it out"),
            Some("Count") => ("a count (`Count<_>`)", "skip", "the JSON leaves it out"),
            Some("TextStyle") => (
                "a text style (`TextStyle`)",
                "default",
                "JSON without one reads as the default style",
            ),
            _ => continue,
        };
        if serde_keys(&field.attrs)
            .iter()
            .any(|key| key == needs || key == "skip")
        {
            continue;
        }
        let ty = &field.ty;
        let error = syn::Error::new_spanned(
            quote::quote!(#name: #ty),
            format!("`{name}` is {marker}: add `#[serde({needs})]` to it, so {what}"),
        );
        match &mut errors {
            Some(errors) => errors.combine(error),
            None => errors = Some(error),
        }
    }
    errors.map_or(Ok(()), Err)
}

/// The keys of a field's `#[serde(...)]` attributes (`skip`, `default`,
/// `rename`...), as written.
fn serde_keys(attrs: &[Attribute]) -> Vec<String> {
    let mut keys = Vec::new();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        // A serde attribute that does not parse is serde's to report.
        let _ = attr.parse_nested_meta(|meta| {
            if let Some(key) = meta.path.get_ident() {
                keys.push(key.to_string());
            }
            if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            }
            Ok(())
        });
    }
    keys
}

/// The last segment of a type's path (`Magic` for `ossuary_schema::Magic`).
fn type_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .map(|segment| segment.ident.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(input: proc_macro2::TokenStream) -> Vec<String> {
        let input: DeriveInput = syn::parse2(input).unwrap();
        match check(&input) {
            Ok(()) => Vec::new(),
            Err(error) => error.into_iter().map(|error| error.to_string()).collect(),
        }
    }

    #[test]
    fn a_marker_field_of_a_serde_struct_needs_its_attribute() {
        let found = errors(quote::quote! {
            #[serde(rename_all = "snake_case")]
            struct Tagged {
                tag: Magic,
                #[serde(skip)]
                count: Count<u16>,
                items: Count<u8>,
                style: TextStyle,
                #[serde(default)]
                kept: TextStyle,
                value: u32,
            }
        });
        assert_eq!(
            found,
            [
                "`tag` is a constant (`Magic`): add `#[serde(skip)]` to it, so the JSON leaves it out",
                "`items` is a count (`Count<_>`): add `#[serde(skip)]` to it, so the JSON leaves it out",
                "`style` is a text style (`TextStyle`): add `#[serde(default)]` to it, so JSON without one reads as the default style",
            ]
        );
    }

    #[test]
    fn a_struct_without_serde_needs_nothing() {
        assert!(errors(quote::quote! {
            struct Plain {
                tag: Magic,
                count: Count<u16>,
            }
        })
        .is_empty());
    }
}
