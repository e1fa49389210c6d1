//! The functions a type's expressions are compiled into
//! ([`Expression`]), one each, on the type, and their calls: the reader,
//! the writer and the generated test all call the same function, so a
//! mistake in an expression is one error.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::Ident;

use super::context::{check_fn, check_fn_ident, Side};
use super::heading::{Bound, Heading};
use super::names::{count_local, field_local};
use super::paths::Runtime;
use crate::check_context::{FieldCheck, Held, PassValue};
use crate::condition::{size_local, Condition};
use crate::plan::expr::{Expression, InScope};
use crate::plan::{Codec, Medium, Presence, Repeat, TypePlan, Value};

/// One expression's function: `leading` parameters first (an element, a
/// value checked), then every value in scope by its name (`()` for one
/// the expression does not read), then the sizes it reads; `body` sees
/// them all.
pub fn function(
    expression: &Expression,
    leading: TokenStream,
    returns: TokenStream,
    body: TokenStream,
) -> TokenStream {
    let function = &expression.function;
    let params = expression.scope.iter().map(|in_scope| {
        let name = &in_scope.name.ident;
        let ty = &in_scope.ty;
        if in_scope.read {
            quote!(#name: #ty)
        } else {
            quote!(#name: ())
        }
    });
    let sizes = expression.sizes.iter().map(|field| {
        let local = size_local(field);
        quote!(#local: u64)
    });
    quote! {
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, clippy::too_many_arguments, clippy::unused_unit)]
        fn #function(#leading #(#params,)* #(#sizes,)*) -> #returns {
            #body
        }
    }
}

/// The functions of a type, in one `impl` block, each name once.
pub fn functions_impl(
    rt: &Runtime,
    heading: Heading,
    functions: Vec<(Ident, TokenStream)>,
) -> TokenStream {
    let mut names: Vec<Ident> = Vec::new();
    let mut kept = Vec::new();
    for (name, function) in functions {
        if !names.contains(&name) {
            names.push(name);
            kept.push(function);
        }
    }
    if kept.is_empty() {
        return TokenStream::new();
    }
    let (impl_params, this) = heading.split(rt, Bound::None);
    quote! {
        impl #impl_params #this {
            #(#kept)*
        }
    }
}

/// A call of an expression's function on `side` (the generated test
/// draws its values as the reader's locals), `leading` arguments first.
pub fn call(expression: &Expression, side: Side, leading: &[TokenStream]) -> TokenStream {
    let function = &expression.function;
    let args = expression
        .scope
        .iter()
        .map(|in_scope| scope_value(in_scope, side));
    let sizes = expression.sizes.iter().map(|field| {
        let (at, end) = (start_local(field), end_local(field));
        quote!(#end - #at)
    });
    quote!(Self::#function(#(#leading,)* #(#args,)* #(#sizes),*))
}

/// A value in scope as its function is given it.
fn scope_value(in_scope: &InScope, side: Side) -> TokenStream {
    if !in_scope.read {
        return quote!(());
    }
    let name = &in_scope.name.ident;
    match (in_scope.name.held, side) {
        (Held::Count, _) => {
            let count = count_local(name);
            quote!(#count)
        }
        (Held::Calc, _) => {
            let stored = stored_local(name);
            quote!(::core::clone::Clone::clone(&#stored))
        }
        (Held::Param, _) => quote!(::core::clone::Clone::clone(&__context.#name)),
        (Held::Field, Side::Read) => {
            let local = field_local(name);
            quote!(::core::clone::Clone::clone(&#local))
        }
        (Held::Field, Side::Write) => quote!(::core::clone::Clone::clone(&self.#name)),
    }
}

/// The body of a condition's function: the expression, or, for a bare
/// name, whether that value is not 0.
pub fn condition_body(rt: &Runtime, expression: &Expression, flag: Option<&Ident>) -> TokenStream {
    match flag {
        Some(flag) => quote!(#rt::FlagInt::is_set(#flag)),
        None => {
            let expr = &expression.expr;
            quote!(#expr)
        }
    }
}

/// The local holding the value a `calc` field stores: read, or computed
/// (or kept) to be written.
pub fn stored_local(field: &Ident) -> Ident {
    format_ident!("__stored_{}", field)
}

/// The local holding where a field begins, in the file or the output.
pub fn start_local(field: &Ident) -> Ident {
    format_ident!("__at_{}", field)
}

/// The local holding where a field ends.
pub fn end_local(field: &Ident) -> Ident {
    format_ident!("__end_{}", field)
}

/// Every function a type's fields call (their expressions' and checks'),
/// each with its name: a type with both encodings has those the two
/// share once ([`functions_impl`] keeps the first of a name).
pub fn functions_of<M: Medium>(rt: &Runtime, ty: &TypePlan<M>) -> Vec<(Ident, TokenStream)> {
    let mut functions = Vec::new();
    for plan in &ty.fields {
        let field = plan.field.ident;
        if let Some(check) = &plan.check {
            let checked = match plan.codec {
                Codec::Count(_) => quote!(usize),
                _ => {
                    let ty = plan.field.ty;
                    quote!(#ty)
                }
            };
            let function = match check {
                FieldCheck::Function { .. } => check_fn_ident(field),
                FieldCheck::Inline { expression, .. } => expression.function.clone(),
            };
            functions.push((function, check_fn(rt, field, &checked, check)));
        }
        let mut add = |expression: &Expression, leading: TokenStream, returns, body| {
            let function = function(expression, leading, returns, body);
            functions.push((expression.function.clone(), function));
        };
        match &plan.codec {
            Codec::Calc(_, computed) => {
                let (stored, expr) = (computed.stored, &computed.expression.expr);
                let text = &computed.expression.text;
                add(
                    &computed.expression,
                    TokenStream::new(),
                    quote!(::core::result::Result<#stored, #rt::Error>),
                    quote!(#rt::calc_value::<#stored, _>(#text, #expr)),
                );
            }
            Codec::Value(value) => {
                if let Some(Presence::If(condition, expression)) = &value.presence {
                    add(
                        expression,
                        TokenStream::new(),
                        quote!(bool),
                        condition_body(rt, expression, condition.flag()),
                    );
                }
                match &value.repeat {
                    Some(Repeat::CountExpr(expression)) => {
                        let (expr, text) = (&expression.expr, &expression.text);
                        add(
                            expression,
                            TokenStream::new(),
                            quote!(::core::result::Result<usize, #rt::Error>),
                            quote!(#rt::count_value(#text, #expr)),
                        );
                    }
                    Some(Repeat::Until(_, expression)) => {
                        let (expr, element) = (&expression.expr, value.element_ty);
                        add(
                            expression,
                            quote!(__element: &#element,),
                            quote!(bool),
                            quote!(#rt::until_fn::<#element>(#expr)(__element)),
                        );
                    }
                    _ => {}
                }
                if let Some(expression) = &value.size {
                    let (expr, text) = (&expression.expr, &expression.text);
                    add(
                        expression,
                        TokenStream::new(),
                        quote!(::core::result::Result<u64, #rt::Error>),
                        quote!(#rt::size_value(#text, #expr)),
                    );
                }
                if let Some(expression) = &value.context {
                    let (leading, returns, body) = context_function(rt, value, M::IS_TEXT);
                    add(expression, leading, returns, body);
                }
            }
            Codec::Style(_)
            | Codec::Magic(_)
            | Codec::Count(_)
            | Codec::With(..)
            | Codec::Padding(..) => {}
        }
    }
    functions
}

/// The parameters besides the scope, the return type and the body of a
/// field's context function: the element type's binary or text context,
/// built from the values passed.
fn context_function(
    rt: &Runtime,
    value: &Value<impl Medium>,
    text: bool,
) -> (TokenStream, TokenStream, TokenStream) {
    let ty = value.stored_ty();
    let lens = value.pass.iter().filter_map(|pass| match &pass.value {
        PassValue::Len(list) => {
            let local = len_local(&list.ident);
            Some(quote!(#local: usize,))
        }
        PassValue::Name(_) | PassValue::Expr(_) => None,
    });
    let params = value.pass.iter().map(|pass| &pass.param);
    let values = value.pass.iter().map(|pass| match &pass.value {
        PassValue::Name(name) if name.held == Held::Count => {
            let (name, label) = (&name.ident, name.ident.to_string());
            quote!(#rt::count_as(#label, #name)?)
        }
        PassValue::Name(name) => {
            let name = &name.ident;
            quote!(#name)
        }
        PassValue::Len(list) => {
            let local = len_local(&list.ident);
            quote!(#local)
        }
        PassValue::Expr(expr) => quote!(#expr),
    });
    let (context, body) = if text {
        let context = quote_spanned!(ty.span()=> <#ty as #rt::HasContext>::TextContext);
        // Gathered through `TakesTextContext`, so that values passed to a
        // type whose text takes none are refused once, by name.
        let body = quote! {
            type __Values = <#context as #rt::TakesTextContext>::Values;
            ::core::result::Result::Ok(<#context as ::core::convert::From<__Values>>::from(
                __Values { #(#params: #values),* }
            ))
        };
        (context, body)
    } else {
        let context = quote_spanned!(ty.span()=> <#ty as #rt::HasContext>::Context);
        let body = quote! {
            type __Context = #context;
            ::core::result::Result::Ok(__Context { #(#params: #values),* })
        };
        (context, body)
    };
    (
        quote!(#(#lens)*),
        quote!(::core::result::Result<#context, #rt::Error>),
        body,
    )
}

/// A call of a field's context function on `side`: the lengths of the
/// lists it passes, then the values in scope.
pub fn context_call(rt: &Runtime, value: &Value<impl Medium>, side: Side) -> Option<TokenStream> {
    let expression = value.context.as_ref()?;
    let lens: Vec<TokenStream> = value
        .pass
        .iter()
        .filter_map(|pass| match &pass.value {
            PassValue::Len(list) => {
                let place = super::context::resolved_place(list, side);
                Some(quote!(#rt::list_len(&#place)))
            }
            PassValue::Name(_) | PassValue::Expr(_) => None,
        })
        .collect();
    Some(call(expression, side, &lens))
}

/// The parameter holding the length of a list passed as context.
fn len_local(list: &Ident) -> Ident {
    format_ident!("__len_{}", list)
}

/// `Some` of what `read` (a `Result` expression) reads when `present` (a
/// `bool` expression) holds, else `None`.
pub fn read_when(present: TokenStream, read: TokenStream) -> TokenStream {
    quote! {
        if #present {
            #read.map(::core::option::Option::Some)
        } else {
            ::core::result::Result::Ok(::core::option::Option::None)
        }
    }
}

/// A `Result<(), Error>` expression: the writer's refusal of a value
/// whose presence (`present`, a `bool`) disagrees with its condition.
pub fn presence_check(
    rt: &Runtime,
    condition: &Condition,
    expression: &Expression,
    present: TokenStream,
) -> TokenStream {
    let holds = call(expression, Side::Write, &[]);
    match condition.flag() {
        Some(flag) => {
            let label = flag.to_string();
            quote!(#rt::check_presence(#label, #holds, #present))
        }
        None => {
            let label = condition.describe();
            quote!(#rt::check_condition(#label, #holds, #present))
        }
    }
}

/// The context an element of `value` is given on `side`: its context
/// function's, or `()` when no values are passed (a type that needs
/// context then fails to compile, with the message of `NoContext`, at
/// the field's type). `encoding` says which of the element type's
/// contexts.
pub fn element_context(
    rt: &Runtime,
    value: &Value<impl Medium>,
    text: bool,
    side: Side,
) -> TokenStream {
    if let Some(call) = context_call(rt, value, side) {
        return quote!(#call?);
    }
    let ty = value.stored_ty();
    let context = Ident::new(if text { "TextContext" } else { "Context" }, ty.span());
    quote_spanned! {ty.span()=>
        <<#ty as #rt::HasContext>::#context as #rt::NoContext>::none()
    }
}
