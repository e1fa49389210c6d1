//! Code generation: `derive` chooses what the input is (an enum, or a
//! struct with a binary layout, a text one, or both) and hands it to the
//! module generating it. Every runtime path goes through
//! [`paths::Runtime`].

mod binary;
mod choice;
mod codec;
mod context;
mod expressions;
mod fallback;
mod forms;
mod heading;
mod keywords;
mod layout;
mod names;
mod offsets;
mod paths;
mod plain;
mod read;
mod sizes;
#[cfg(test)]
mod snapshots_test;
mod tests;
mod text;
mod tokens;
mod twin;
mod words;
mod write;

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput};

use crate::ast::{ChoiceEnum, Container, Errors, FormEnum, Views};
use crate::plan;
pub use fallback::fallback;
use heading::Heading;
pub use paths::Root;
use paths::Runtime;

pub fn derive(input: &DeriveInput, root: Root) -> syn::Result<TokenStream> {
    crate::serde_contract::check(input)?;
    if let Data::Enum(_) = &input.data {
        if ChoiceEnum::applies_to(input) {
            return choice::derive(&ChoiceEnum::from_input(input)?, root);
        }
        let form_enum = FormEnum::from_input(input)?;
        plan::forms::check(&form_enum)?;
        let rt = Runtime::new(form_enum.krate.as_ref(), root);
        let impls = forms::form_enum_impls(&rt, &form_enum);
        let heading = Heading::plain(form_enum.ident);
        let context = context::context_items(&rt, heading, &input.vis, &form_enum.params);
        let binary = codec::binary_schema_impls(&rt, heading);
        let tests = tests::form_enum_round_trip_module(&rt, &form_enum);
        return Ok(quote! {
            #impls
            #context
            #binary
            #tests
        });
    }
    let mut attribute_errors = Errors::default();
    let views = Container::views(input, &mut attribute_errors)?;
    // A type whose attributes hold mistakes is not planned (the plan would
    // find the keys left out missing), but its expressions are read.
    let items = attribute_errors
        .finish()
        .and_then(|()| struct_items(root, &views));
    items.map_err(|mut error| {
        // The compiler stops at the derive's errors, before it would find a
        // misspelt name in an expression: the derive names those too.
        let containers: Vec<&Container> = match &views {
            Views::Binary(container) | Views::Text(container) => vec![container],
            Views::Both { binary, text } => vec![binary, text],
        };
        for unknown in plan::expr::unknown_names(&containers) {
            error.combine(unknown);
        }
        error
    })
}

/// Everything a struct implements, in its encodings.
fn struct_items(root: Root, views: &Views) -> syn::Result<TokenStream> {
    match views {
        Views::Binary(container) => {
            let ty = plan::binary(container)?;
            let rt = &Runtime::new(ty.krate, root);
            let heading = Heading::of(&ty);
            let context = context::context_items(rt, heading, ty.vis, ty.params);
            let binary = binary::binary_items(rt, &ty);
            let functions =
                expressions::functions_impl(rt, heading, expressions::functions_of(rt, &ty));
            let check = match ty.shape.tail {
                Some(_) => tests::Check::Sample,
                None => tests::Check::Binary,
            };
            let tests = tests::round_trip_module(rt, &ty, check);
            Ok(quote! {
                #context
                #functions
                #binary
                #tests
            })
        }
        Views::Text(container) => {
            let ty = plan::text(container)?;
            Ok(text::derive(&Runtime::new(ty.krate, root), &ty))
        }
        Views::Both { binary, text } => {
            let (binary, text) = twin::plan(binary, text)?;
            // `crate = "path"` is said of the type, so either view has it.
            Ok(twin::derive(
                &Runtime::new(binary.krate, root),
                &binary,
                &text,
            ))
        }
    }
}
