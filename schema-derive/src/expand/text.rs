//! Text layouts: `TextRead`/`TextWrite` (and `TextTokens` for `one_line`
//! records), `TextSchema`, `Layout` and the round-trip test.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::layout::type_text;
use super::tests::{nest_pattern, nest_strategies, snake_case};
use super::{field_local, str_lit};
use crate::ast::{is_named, Container};
use crate::check_text::{self, Form, TextCodec, TextPlan, TextValue};

pub fn derive(container: &Container) -> syn::Result<TokenStream> {
    let plans = check_text::plan(container)?;
    let one_line = container.attrs.one_line.is_some();
    let codec = if one_line {
        one_line_impls(container, &plans)
    } else {
        record_impls(container, &plans)
    };
    let schema = schema_impl(container, &plans);
    let layout = layout_impl(container, &plans, one_line);
    let tests = round_trip_module(container, &plans);
    Ok(quote! {
        #codec
        #schema
        #layout
        #tests
    })
}

fn text() -> TokenStream {
    quote!(::formats::schema::text)
}

/// A record whose fields take their own lines.
fn record_impls(container: &Container, plans: &[TextPlan]) -> TokenStream {
    let ident = container.ident;
    let text = text();
    let min_lines = plans.iter().map(|plan| match &plan.codec {
        TextCodec::Style => quote!(0u64),
        TextCodec::Value(TextValue {
            repeated: false,
            form: Form::Plain,
            element_ty,
        }) => quote!(<#element_ty as #text::TextRead>::MIN_LINES),
        TextCodec::Magic(_) | TextCodec::Value(_) => quote!(1u64),
    });
    // The style is known once everything else is read.
    let reads = plans
        .iter()
        .filter(|plan| !matches!(plan.codec, TextCodec::Style))
        .map(|plan| read_field(plan, false));
    let styles = plans
        .iter()
        .filter(|plan| matches!(plan.codec, TextCodec::Style))
        .map(|plan| {
            let local = field_local(plan.field.ident);
            quote!(let #local = __reader.style();)
        });
    let inits = field_inits(plans);
    let writes = plans.iter().map(|plan| write_field(plan, false));
    quote! {
        impl #text::TextRead for #ident {
            const MIN_LINES: u64 = 0u64 #(+ #min_lines)*;

            fn read_text(
                __reader: &mut #text::TextReader<'_>,
            ) -> ::core::result::Result<Self, #text::TextError> {
                #(#reads)*
                #(#styles)*
                ::core::result::Result::Ok(Self { #(#inits),* })
            }
        }

        impl #text::TextWrite for #ident {
            fn write_text(
                &self,
                __writer: &mut #text::TextWriter,
            ) -> ::core::result::Result<(), ::formats::schema::WriteError> {
                #(#writes)*
                ::core::result::Result::Ok(())
            }
        }
    }
}

/// A record whose fields are the tokens of one line.
fn one_line_impls(container: &Container, plans: &[TextPlan]) -> TokenStream {
    let ident = container.ident;
    let text = text();
    let expected = str_lit(&format!("a `{ident}` line"));
    let reads = plans.iter().map(|plan| read_field(plan, true));
    let inits = field_inits(plans);
    let writes = plans.iter().map(|plan| write_field(plan, true));
    quote! {
        impl #text::TextTokens for #ident {
            const EXPECTED: &'static str = #expected;

            fn read_tokens(
                __reader: &mut #text::TextReader<'_>,
            ) -> ::core::result::Result<Self, #text::TextError> {
                #(#reads)*
                ::core::result::Result::Ok(Self { #(#inits),* })
            }

            fn write_tokens(
                &self,
                __writer: &mut #text::TextWriter,
            ) -> ::core::result::Result<(), ::formats::schema::WriteError> {
                #(#writes)*
                ::core::result::Result::Ok(())
            }
        }

        impl #text::TextRead for #ident {
            const MIN_LINES: u64 = 1;

            fn read_text(
                __reader: &mut #text::TextReader<'_>,
            ) -> ::core::result::Result<Self, #text::TextError> {
                #text::read_token_line(__reader, #expected, <Self as #text::TextTokens>::read_tokens)
            }
        }

        impl #text::TextWrite for #ident {
            fn write_text(
                &self,
                __writer: &mut #text::TextWriter,
            ) -> ::core::result::Result<(), ::formats::schema::WriteError> {
                #text::write_token_line(__writer, |__w| #text::TextTokens::write_tokens(self, __w))
            }
        }
    }
}

fn field_inits(plans: &[TextPlan]) -> Vec<TokenStream> {
    plans
        .iter()
        .map(|plan| {
            let name = plan.field.ident;
            let local = field_local(name);
            quote!(#name: #local)
        })
        .collect()
}

fn schema_impl(container: &Container, plans: &[TextPlan]) -> TokenStream {
    let ident = container.ident;
    let text = text();
    let style = plans
        .iter()
        .find(|plan| matches!(plan.codec, TextCodec::Style))
        .map(|plan| {
            let name = plan.field.ident;
            quote! {
                fn text_style(&self) -> ::core::option::Option<&#text::TextStyle> {
                    ::core::option::Option::Some(&self.#name)
                }
            }
        });
    quote! {
        impl #text::TextSchema for #ident {
            #style
        }
    }
}

fn read_field(plan: &TextPlan, one_line: bool) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = field_local(name);
    let ty = plan.field.ty;
    let text = text();
    let value = match &plan.codec {
        // Filled in after the other fields (see `record_impls`).
        TextCodec::Style => return TokenStream::new(),
        TextCodec::Magic(constant) if one_line => quote!(#text::read_keywords(__reader, #constant)),
        TextCodec::Magic(constant) => {
            let expected = str_lit(&format!("`{}`", constant.value()));
            quote! {
                #text::read_token_line(__reader, #expected, |__r| #text::read_keywords(__r, #constant))
            }
        }
        TextCodec::Value(value) if value.repeated => {
            let element = read_element(value, one_line, &quote!(__r));
            let ty = value.element_ty;
            let min_lines = match value.form {
                Form::Plain => quote!(<#ty as #text::TextRead>::MIN_LINES),
                Form::Line | Form::Comment | Form::Vector => quote!(1u64),
            };
            quote!(#text::read_list(__reader, #min_lines, |__r| #element))
        }
        TextCodec::Value(value) => read_element(value, one_line, &quote!(__reader)),
    };
    quote! {
        let #local: #ty = #value.map_err(|e| e.in_field(#label))?;
    }
}

fn read_element(value: &TextValue, one_line: bool, reader: &TokenStream) -> TokenStream {
    let ty = value.element_ty;
    let text = text();
    let tokens = quote!(<#ty as #text::TextTokens>::read_tokens);
    match (value.form, one_line) {
        (Form::Plain, false) => quote!(<#ty as #text::TextRead>::read_text(#reader)),
        (Form::Plain, true) => quote!(#tokens(#reader)),
        (Form::Vector, true) => quote!(#text::read_vector(#reader, #tokens)),
        (Form::Vector, false) => quote! {
            #text::read_token_line(#reader, "a `| ... |` line", |__v| #text::read_vector(__v, #tokens))
        },
        (Form::Line, _) => quote!(#text::read_line_string(#reader)),
        (Form::Comment, _) => quote!(#text::read_comment(#reader)),
    }
}

fn write_field(plan: &TextPlan, one_line: bool) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let text = text();
    let write = match &plan.codec {
        // Used by `TextSchema::to_text` before anything is written.
        TextCodec::Style => return TokenStream::new(),
        TextCodec::Magic(constant) if one_line => {
            quote!(#text::write_keywords(__writer, #constant))
        }
        TextCodec::Magic(constant) => quote! {
            #text::write_token_line(__writer, |__w| #text::write_keywords(__w, #constant))
        },
        TextCodec::Value(value) if value.repeated => {
            let element = write_element(value, one_line, &quote!(__w), &quote!(__e));
            quote!(#text::write_list(__writer, &self.#name, |__w, __e| #element))
        }
        TextCodec::Value(value) => {
            write_element(value, one_line, &quote!(__writer), &quote!(&self.#name))
        }
    };
    quote! {
        #write.map_err(|e| e.in_field(#label))?;
    }
}

fn write_element(
    value: &TextValue,
    one_line: bool,
    writer: &TokenStream,
    element: &TokenStream,
) -> TokenStream {
    let text = text();
    let tokens = quote!(#text::TextTokens::write_tokens(#element, __t));
    match (value.form, one_line) {
        (Form::Plain, false) => quote!(#text::TextWrite::write_text(#element, #writer)),
        (Form::Plain, true) => quote!(#text::TextTokens::write_tokens(#element, #writer)),
        (Form::Vector, true) => quote!(#text::write_vector(#writer, |__t| #tokens)),
        (Form::Vector, false) => quote! {
            #text::write_token_line(#writer, |__v| #text::write_vector(__v, |__t| #tokens))
        },
        (Form::Line, _) => quote!(#text::write_line_string(#writer, #element)),
        (Form::Comment, _) => quote!(#text::write_comment(#writer, #element)),
    }
}

fn layout_impl(container: &Container, plans: &[TextPlan], one_line: bool) -> TokenStream {
    let ident = container.ident;
    let name = str_lit(&ident.to_string());
    let doc = str_lit(&container.doc);
    let fields = plans.iter().map(|plan| {
        let field = plan.field;
        let name = str_lit(&field.ident.to_string());
        let rust_type = str_lit(&type_text(field.ty));
        let encoding = str_lit(&encoding(&plan.codec, one_line));
        let count = match &plan.codec {
            TextCodec::Value(TextValue { repeated: true, .. }) => {
                quote!(::core::option::Option::Some("count line"))
            }
            _ => quote!(::core::option::Option::None),
        };
        let doc = str_lit(&field.doc);
        quote! {
            ::formats::schema::FieldLayout {
                name: #name,
                rust_type: #rust_type,
                encoding: #encoding,
                byte_order: "text",
                count: #count,
                chunk: ::core::option::Option::None,
                offset: ::core::option::Option::None,
                doc: #doc,
            }
        }
    });
    quote! {
        impl ::formats::schema::Layout for #ident {
            const LAYOUT: ::formats::schema::TypeLayout = ::formats::schema::TypeLayout {
                name: #name,
                doc: #doc,
                byte_order: "text",
                form: ::core::option::Option::None,
                fields: &[#(#fields),*],
                min_size: 0,
                fixed_size: ::core::option::Option::None,
            };
        }
    }
}

fn encoding(codec: &TextCodec, one_line: bool) -> String {
    match codec {
        TextCodec::Style => "not stored: the file's line ending and number style".to_owned(),
        TextCodec::Magic(constant) if one_line => format!("constant `{}`", constant.value()),
        TextCodec::Magic(constant) => format!("constant line `{}`", constant.value()),
        TextCodec::Value(value) => {
            let ty = value.element_ty;
            let element = match value.form {
                Form::Plain if is_named(ty, "RawString") => "one word".to_owned(),
                Form::Plain => type_text(ty),
                Form::Line => "whole line".to_owned(),
                Form::Comment => "`//` comment line".to_owned(),
                Form::Vector => format!("`| … |` of {}", type_text(ty)),
            };
            let element = match (value.form, one_line) {
                (Form::Plain | Form::Vector, false) if !value.repeated => {
                    format!("line: {element}")
                }
                _ => element,
            };
            if value.repeated {
                format!("count line, then that many × {element}")
            } else {
                element
            }
        }
    }
}

fn round_trip_module(container: &Container, plans: &[TextPlan]) -> TokenStream {
    let ident = container.ident;
    let module = format_ident!("round_trip_{}", snake_case(&ident.to_string()));
    let testing = quote!(::formats::schema::testing);
    let strategies: Vec<TokenStream> = plans.iter().map(field_strategy).collect();
    let locals: Vec<TokenStream> = plans
        .iter()
        .map(|plan| {
            let local = field_local(plan.field.ident);
            quote!(#local)
        })
        .collect();
    let inits = field_inits(plans);
    let fields_strategy = nest_strategies(&strategies);
    let fields_pattern = nest_pattern(&locals);
    quote! {
        #[cfg(test)]
        mod #module {
            use super::*;
            use ::proptest::strategy::Strategy as _;

            impl #testing::Sample for #ident {
                fn strategy() -> ::proptest::strategy::BoxedStrategy<Self> {
                    #fields_strategy.prop_map(|#fields_pattern| #ident { #(#inits),* }).boxed()
                }
            }

            #[test]
            fn write_read_write() {
                #testing::check_text_round_trip::<#ident>();
            }
        }
    }
}

fn field_strategy(plan: &TextPlan) -> TokenStream {
    let testing = quote!(::formats::schema::testing);
    let ty = plan.field.ty;
    match &plan.codec {
        TextCodec::Style => quote!(#testing::text_style()),
        TextCodec::Magic(_) => {
            quote!(::proptest::strategy::Just(<#ty as ::core::default::Default>::default()))
        }
        TextCodec::Value(value) => {
            let ty = value.element_ty;
            let element = match value.form {
                Form::Line | Form::Comment => quote!(#testing::line_string()),
                Form::Plain if is_named(ty, "RawString") => quote!(#testing::token_string()),
                Form::Plain | Form::Vector => quote!(<#ty as #testing::Sample>::strategy()),
            };
            if value.repeated {
                quote!(#testing::list(#element))
            } else {
                element
            }
        }
    }
}
