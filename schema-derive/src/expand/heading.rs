//! The head of each impl of a type: `impl<T, const N: usize> Trait for
//! Pair<T, N> where T: Bound` for a generic type, `impl Trait for Pair`
//! for one without parameters.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{parse_quote, Generics, Ident, Type, WherePredicate};

use super::paths::Runtime;
use crate::plan::{Medium, TypePlan};

/// A type's name and its generic parameters (a binary struct's; other
/// types take none).
#[derive(Clone, Copy)]
pub struct Heading<'a> {
    ident: &'a Ident,
    generics: Option<&'a Generics>,
}

/// What the impl asks of each type parameter.
#[derive(Clone, Copy)]
pub enum Bound {
    /// Nothing more than the type itself says (its context, its
    /// expressions' functions).
    None,
    /// A value with a binary encoding that needs no context, as every
    /// field of a parameter's type is read and written.
    Binary,
    /// Such a value the generated test can draw.
    Sample,
}

impl<'a> Heading<'a> {
    pub fn new(ident: &'a Ident, generics: &'a Generics) -> Self {
        Heading {
            ident,
            generics: Some(generics),
        }
    }

    /// A struct's heading.
    pub fn of<M: Medium>(ty: &TypePlan<'a, M>) -> Self {
        Heading::new(ty.ident, ty.generics)
    }

    /// The heading of a type without parameters.
    pub fn plain(ident: &'a Ident) -> Self {
        Heading {
            ident,
            generics: None,
        }
    }

    /// The impl's parameters (`<T, const N: usize>`, nothing without) and
    /// the type it implements for, with its where clause (each type
    /// parameter bound by `bound`): `impl #params Trait for #this`.
    pub fn split(&self, rt: &Runtime, bound: Bound) -> (TokenStream, TokenStream) {
        self.split_where(rt, bound, Vec::new())
    }

    /// `impl ReadsForward` for the type, when it reads forward once each
    /// of `types` (its fields', its variants') does.
    pub fn reads_forward<'t>(
        &self,
        rt: &Runtime,
        types: impl IntoIterator<Item = &'t Type>,
    ) -> TokenStream {
        // A bound on a type without parameters that does not hold is an
        // error at the impl; under `for<'__forward>` it leaves the impl
        // out, and reading the type from a stream is the error.
        let predicates = types
            .into_iter()
            .map(|ty| parse_quote!(for<'__forward> #ty: #rt::ReadsForward))
            .collect();
        let (params, this) = self.split_where(rt, Bound::Binary, predicates);
        quote!(impl #params #rt::ReadsForward for #this {})
    }

    fn split_where(
        &self,
        rt: &Runtime,
        bound: Bound,
        mut predicates: Vec<WherePredicate>,
    ) -> (TokenStream, TokenStream) {
        let ident = self.ident;
        let mut generics = self.generics.cloned().unwrap_or_default();
        let bound = match bound {
            Bound::None => None,
            Bound::Binary => Some(quote!(#rt::Decode<Context = ()> + #rt::Encode<Context = ()>)),
            Bound::Sample => Some(quote! {
                #rt::Decode<Context = ()> + #rt::Encode<Context = ()>
                    + #rt::testing::Sample + 'static
            }),
        };
        if let Some(bound) = bound {
            let params = generics.type_params().map(|param| {
                let name = &param.ident;
                parse_quote!(#name: #bound)
            });
            predicates.splice(0..0, params.collect::<Vec<WherePredicate>>());
        }
        if !predicates.is_empty() {
            generics.make_where_clause().predicates.extend(predicates);
        }
        let (params, arguments, where_clause) = generics.split_for_impl();
        (quote!(#params), quote!(#ident #arguments #where_clause))
    }

    pub fn ident(&self) -> &'a Ident {
        self.ident
    }

    /// Whether the type has generic parameters (its test is its
    /// instantiations').
    pub fn is_generic(&self) -> bool {
        self.generics
            .is_some_and(|generics| !generics.params.is_empty())
    }
}
