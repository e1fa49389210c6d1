//! Text layouts: `TextRead`/`TextWrite` (and `TextTokens` for `one_line`
//! records), `TextSchema`, `Layout` and the round-trip test.

use proc_macro2::TokenStream;
use quote::quote;

use super::context::{self, nested_context, value_of, Side};
use super::layout::{context_layout, passed, type_text};
use super::paths::Runtime;
use super::tests::{counted_len, struct_test_module, Check, TestField};
use super::{count_local, field_local, str_lit};
use crate::ast::{is_named, Container};
use crate::check_context::{self, is_param};
use crate::check_text::{self, Form, TextCodec, TextPlan, TextRepeat, TextValue};

pub fn derive(rt: &Runtime, container: &Container) -> syn::Result<TokenStream> {
    let plans = check_text::plan(container)?;
    let one_line = container.attrs.one_line.is_some();
    let codec = if one_line {
        one_line_impls(rt, container, &plans)
    } else {
        record_impls(rt, container, &plans)
    };
    let context = context::context_items(
        rt,
        container.ident,
        container.vis,
        check_context::params(container),
    );
    let schema = schema_impl(rt, container, &plans);
    let layout = layout_impl(rt, container, &plans, one_line);
    let tests = round_trip_module(rt, container, &plans);
    Ok(quote! {
        #context
        #codec
        #schema
        #layout
        #tests
    })
}

/// Fewest lines a field takes.
fn min_lines(rt: &Runtime, codec: &TextCodec) -> TokenStream {
    match codec {
        TextCodec::Style => quote!(0u64),
        TextCodec::Value(TextValue {
            repeat: None,
            form: Form::Plain,
            element_ty,
            ..
        }) => quote!(<#element_ty as #rt::TextRead>::MIN_LINES),
        TextCodec::Value(TextValue {
            repeat: Some(TextRepeat::Count(_) | TextRepeat::ToEnd),
            ..
        }) => quote!(0u64),
        TextCodec::Magic(_) | TextCodec::Count(_) | TextCodec::Value(_) => quote!(1u64),
    }
}

/// Fewest lines one element of a list takes.
fn element_min_lines(rt: &Runtime, value: &TextValue) -> TokenStream {
    let ty = value.element_ty;
    match value.form {
        Form::Plain => quote!(<#ty as #rt::TextRead>::MIN_LINES),
        Form::Line | Form::Comment | Form::Vector => quote!(1u64),
    }
}

/// A record whose fields take their own lines.
fn record_impls(rt: &Runtime, container: &Container, plans: &[TextPlan]) -> TokenStream {
    let ident = container.ident;
    let min_lines = plans.iter().map(|plan| min_lines(rt, &plan.codec));
    // The style is known once everything else is read.
    let reads = plans
        .iter()
        .filter(|plan| !matches!(plan.codec, TextCodec::Style))
        .map(|plan| read_field(rt, container, plan, false));
    let styles = plans
        .iter()
        .filter(|plan| matches!(plan.codec, TextCodec::Style))
        .map(|plan| {
            let local = field_local(plan.field.ident);
            quote!(let #local = __reader.style();)
        });
    let inits = field_inits(plans);
    let counts = plans.iter().filter_map(|plan| match &plan.codec {
        TextCodec::Count(users) => Some(shared_count(rt, plan, users)),
        _ => None,
    });
    let writes = plans
        .iter()
        .map(|plan| write_field(rt, container, plan, false));
    quote! {
        impl #rt::TextRead for #ident {
            const MIN_LINES: u64 = 0u64 #(+ #min_lines)*;
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::Layout>::LAYOUT);

            fn read_text(
                __reader: &mut #rt::TextReader<'_>,
                __context: &<Self as #rt::HasContext>::Context,
            ) -> ::core::result::Result<Self, #rt::Error> {
                #(#reads)*
                #(#styles)*
                ::core::result::Result::Ok(Self { #(#inits),* })
            }
        }

        impl #rt::TextWrite for #ident {
            fn write_text(
                &self,
                __writer: &mut #rt::TextWriter,
                __context: &<Self as #rt::HasContext>::Context,
            ) -> ::core::result::Result<(), #rt::Error> {
                #(#counts)*
                #(#writes)*
                ::core::result::Result::Ok(())
            }
        }
    }
}

/// `let __count_n = shared_len("n", &[("a", Some(self.a.len())), ...])?;`
fn shared_count(rt: &Runtime, plan: &TextPlan, users: &[syn::Ident]) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = count_local(name);
    let lengths = users.iter().map(|user| {
        let user_label = str_lit(&user.to_string());
        quote!((#user_label, ::core::option::Option::Some(self.#user.len())))
    });
    quote! {
        let #local = #rt::shared_len(#label, &[#(#lengths),*])?;
    }
}

/// A record whose fields are the tokens of one line.
fn one_line_impls(rt: &Runtime, container: &Container, plans: &[TextPlan]) -> TokenStream {
    let ident = container.ident;
    let expected = str_lit(&format!("a `{ident}` line"));
    let reads = plans
        .iter()
        .map(|plan| read_field(rt, container, plan, true));
    let inits = field_inits(plans);
    let writes = plans
        .iter()
        .map(|plan| write_field(rt, container, plan, true));
    quote! {
        impl #rt::TextTokens for #ident {
            const EXPECTED: &'static str = #expected;
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::Layout>::LAYOUT);

            fn read_tokens(
                __reader: &mut #rt::TextReader<'_>,
            ) -> ::core::result::Result<Self, #rt::Error> {
                #(#reads)*
                ::core::result::Result::Ok(Self { #(#inits),* })
            }

            fn write_tokens(
                &self,
                __writer: &mut #rt::TextWriter,
            ) -> ::core::result::Result<(), #rt::Error> {
                #(#writes)*
                ::core::result::Result::Ok(())
            }
        }

        impl #rt::TextRead for #ident {
            const MIN_LINES: u64 = 1;
            const NESTED_LAYOUT: ::core::option::Option<fn() -> #rt::TypeLayout> =
                ::core::option::Option::Some(|| <Self as #rt::Layout>::LAYOUT);

            fn read_text(
                __reader: &mut #rt::TextReader<'_>,
                _: &(),
            ) -> ::core::result::Result<Self, #rt::Error> {
                #rt::read_token_line(__reader, #expected, <Self as #rt::TextTokens>::read_tokens)
            }
        }

        impl #rt::TextWrite for #ident {
            fn write_text(
                &self,
                __writer: &mut #rt::TextWriter,
                _: &(),
            ) -> ::core::result::Result<(), #rt::Error> {
                #rt::write_token_line(__writer, |__w| #rt::TextTokens::write_tokens(self, __w))
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

fn schema_impl(rt: &Runtime, container: &Container, plans: &[TextPlan]) -> TokenStream {
    let ident = container.ident;
    let style = plans
        .iter()
        .find(|plan| matches!(plan.codec, TextCodec::Style))
        .map(|plan| {
            let name = plan.field.ident;
            quote! {
                fn text_style(&self) -> ::core::option::Option<&#rt::TextStyle> {
                    ::core::option::Option::Some(&self.#name)
                }
            }
        });
    quote! {
        impl #rt::TextSchema for #ident {
            #style
        }
    }
}

fn read_field(rt: &Runtime, container: &Container, plan: &TextPlan, one_line: bool) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let local = field_local(name);
    let ty = plan.field.ty;
    let value = match &plan.codec {
        // Filled in after the other fields (see `record_impls`).
        TextCodec::Style => return TokenStream::new(),
        TextCodec::Magic(constant) if one_line => quote!(#rt::read_keywords(__reader, #constant)),
        TextCodec::Magic(constant) => {
            let expected = str_lit(&format!("`{}`", constant.value()));
            quote! {
                #rt::read_token_line(__reader, #expected, |__r| #rt::read_keywords(__r, #constant))
            }
        }
        TextCodec::Count(_) => {
            let count = count_local(name);
            return quote! {
                let #count = __reader
                    .count_line::<<#ty as #rt::CountField>::Int>()
                    .map_err(|e| e.in_field(#label))?;
                let #local: #ty = ::core::default::Default::default();
            };
        }
        TextCodec::Value(value) => {
            let element = read_element(rt, value, one_line, &quote!(__r));
            let min_lines = element_min_lines(rt, value);
            let read = match &value.repeat {
                None => read_element(rt, value, one_line, &quote!(__reader)),
                Some(TextRepeat::CountLine) => {
                    quote!(#rt::read_list(__reader, #min_lines, |__r| #element))
                }
                Some(TextRepeat::Count(count)) if is_param(container, count) => {
                    let count_label = str_lit(&count.to_string());
                    quote! {
                        #rt::context_len(#count_label, ::core::clone::Clone::clone(&__context.#count))
                            .and_then(|__len| #rt::read_counted(__reader, __len, #min_lines, |__r| #element))
                    }
                }
                Some(TextRepeat::Count(count)) => {
                    let count = count_local(count);
                    quote!(#rt::read_counted(__reader, #count, #min_lines, |__r| #element))
                }
                Some(TextRepeat::ToEnd) => quote!(#rt::read_lines_to_end(__reader, |__r| #element)),
            };
            if one_line {
                read
            } else {
                let nested = nested_context(rt, value.element_ty, &value.pass, |name| {
                    value_of(name, is_param(container, name), Side::Read)
                });
                quote! {
                    {
                        let __element_context = #nested;
                        #read
                    }
                }
            }
        }
    };
    quote! {
        let #local: #ty = #value.map_err(|e| e.in_field(#label))?;
    }
}

fn read_element(
    rt: &Runtime,
    value: &TextValue,
    one_line: bool,
    reader: &TokenStream,
) -> TokenStream {
    let ty = value.element_ty;
    let tokens = quote!(<#ty as #rt::TextTokens>::read_tokens);
    match (value.form, one_line) {
        (Form::Plain, false) => {
            quote!(<#ty as #rt::TextRead>::read_text(#reader, &__element_context))
        }
        (Form::Plain, true) => quote!(#tokens(#reader)),
        (Form::Vector, true) => quote!(#rt::read_vector(#reader, #tokens)),
        (Form::Vector, false) => quote! {
            #rt::read_token_line(#reader, "a `| ... |` line", |__v| #rt::read_vector(__v, #tokens))
        },
        (Form::Line, _) => quote!(#rt::read_line_string(#reader)),
        (Form::Comment, _) => quote!(#rt::read_comment(#reader)),
    }
}

fn write_field(
    rt: &Runtime,
    container: &Container,
    plan: &TextPlan,
    one_line: bool,
) -> TokenStream {
    let name = plan.field.ident;
    let label = str_lit(&name.to_string());
    let ty = plan.field.ty;
    let write = match &plan.codec {
        // Used by `TextSchema::to_text` before anything is written.
        TextCodec::Style => return TokenStream::new(),
        TextCodec::Magic(constant) if one_line => {
            quote!(#rt::write_keywords(__writer, #constant))
        }
        TextCodec::Magic(constant) => quote! {
            #rt::write_token_line(__writer, |__w| #rt::write_keywords(__w, #constant))
        },
        TextCodec::Count(_) => {
            let count = count_local(name);
            quote!(__writer.count_line::<<#ty as #rt::CountField>::Int>(#count))
        }
        TextCodec::Value(value) => {
            let element = write_element(rt, value, one_line, &quote!(__w), &quote!(__e));
            let write = match &value.repeat {
                None => write_element(rt, value, one_line, &quote!(__writer), &quote!(&self.#name)),
                Some(TextRepeat::CountLine) => {
                    quote!(#rt::write_list(__writer, &self.#name, |__w, __e| #element))
                }
                Some(TextRepeat::Count(count)) if is_param(container, count) => {
                    let count_label = str_lit(&count.to_string());
                    quote! {
                        #rt::context_len(#count_label, ::core::clone::Clone::clone(&__context.#count))
                            .and_then(|__len| #rt::check_len(self.#name.len(), #count_label, __len))
                            .and_then(|()| #rt::write_elements(__writer, &self.#name, |__w, __e| #element))
                    }
                }
                Some(TextRepeat::Count(_) | TextRepeat::ToEnd) => {
                    quote!(#rt::write_elements(__writer, &self.#name, |__w, __e| #element))
                }
            };
            if one_line {
                write
            } else {
                let nested = nested_context(rt, value.element_ty, &value.pass, |name| {
                    value_of(name, is_param(container, name), Side::Write)
                });
                quote! {
                    {
                        let __element_context = #nested;
                        #write
                    }
                }
            }
        }
    };
    quote! {
        #write.map_err(|e| e.in_field(#label))?;
    }
}

fn write_element(
    rt: &Runtime,
    value: &TextValue,
    one_line: bool,
    writer: &TokenStream,
    element: &TokenStream,
) -> TokenStream {
    let tokens = quote!(#rt::TextTokens::write_tokens(#element, __t));
    match (value.form, one_line) {
        (Form::Plain, false) => {
            quote!(#rt::TextWrite::write_text(#element, #writer, &__element_context))
        }
        (Form::Plain, true) => quote!(#rt::TextTokens::write_tokens(#element, #writer)),
        (Form::Vector, true) => quote!(#rt::write_vector(#writer, |__t| #tokens)),
        (Form::Vector, false) => quote! {
            #rt::write_token_line(#writer, |__v| #rt::write_vector(__v, |__t| #tokens))
        },
        (Form::Line, _) => quote!(#rt::write_line_string(#writer, #element)),
        (Form::Comment, _) => quote!(#rt::write_comment(#writer, #element)),
    }
}

fn layout_impl(
    rt: &Runtime,
    container: &Container,
    plans: &[TextPlan],
    one_line: bool,
) -> TokenStream {
    let ident = container.ident;
    let name = str_lit(&ident.to_string());
    let doc = str_lit(&container.doc);
    let fields = plans.iter().map(|plan| {
        let field = plan.field;
        let name = str_lit(&field.ident.to_string());
        let rust_type = str_lit(&type_text(field.ty));
        let encoding = str_lit(&encoding(&plan.codec, one_line));
        let count = match &plan.codec {
            TextCodec::Value(TextValue {
                repeat: Some(repeat),
                ..
            }) => {
                let source = match repeat {
                    TextRepeat::CountLine => "count line".to_owned(),
                    TextRepeat::Count(count) if is_param(container, count) => {
                        format!("context `{count}`")
                    }
                    TextRepeat::Count(count) => format!("field `{count}`"),
                    TextRepeat::ToEnd => "the end of the text".to_owned(),
                };
                let source = str_lit(&source);
                quote!(::core::option::Option::Some(#source))
            }
            _ => quote!(::core::option::Option::None),
        };
        let doc = str_lit(&field.doc);
        let nested = nested_layout(rt, &plan.codec, one_line);
        quote! {
            #rt::FieldLayout {
                name: #name,
                rust_type: #rust_type,
                encoding: #encoding,
                byte_order: #rt::ByteOrder::Text,
                count: #count,
                chunk: ::core::option::Option::None,
                offset: ::core::option::Option::None,
                doc: #doc,
                nested: #nested,
            }
        }
    });
    let context = context_layout(rt, check_context::params(container));
    quote! {
        impl #rt::Layout for #ident {
            const LAYOUT: #rt::TypeLayout = #rt::TypeLayout {
                name: #name,
                doc: #doc,
                byte_order: #rt::ByteOrder::Text,
                form: ::core::option::Option::None,
                context: #context,
                chosen_by: ::core::option::Option::None,
                fields: &[#(#fields),*],
                min_size: 0,
                fixed_size: ::core::option::Option::None,
            };
        }
    }
}

/// The layout of the record a field holds, through the trait that reads it.
fn nested_layout(rt: &Runtime, codec: &TextCodec, one_line: bool) -> TokenStream {
    let TextCodec::Value(value) = codec else {
        return quote!(::core::option::Option::None);
    };
    let ty = value.element_ty;
    match (value.form, one_line) {
        (Form::Plain, false) => quote!(<#ty as #rt::TextRead>::NESTED_LAYOUT),
        (Form::Plain, true) | (Form::Vector, _) => quote!(<#ty as #rt::TextTokens>::NESTED_LAYOUT),
        (Form::Line | Form::Comment, _) => quote!(::core::option::Option::None),
    }
}

fn encoding(codec: &TextCodec, one_line: bool) -> String {
    match codec {
        TextCodec::Style => "not stored: the file's line ending and number style".to_owned(),
        TextCodec::Magic(constant) if one_line => format!("constant `{}`", constant.value()),
        TextCodec::Magic(constant) => format!("constant line `{}`", constant.value()),
        TextCodec::Count(users) => {
            let names: Vec<String> = users.iter().map(|user| format!("`{user}`")).collect();
            format!("count line: element count of {}", names.join(", "))
        }
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
                (Form::Plain | Form::Vector, false) if value.repeat.is_none() => {
                    format!("line: {element}")
                }
                _ => element,
            };
            let repeated = match &value.repeat {
                None => element,
                Some(TextRepeat::CountLine) => format!("count line, then that many × {element}"),
                Some(TextRepeat::Count(count)) => format!("`{count}` × {element}"),
                Some(TextRepeat::ToEnd) => format!("{element}, repeated to the end of the text"),
            };
            match passed(&value.pass) {
                Some(passed) => format!("{repeated}, given {passed}"),
                None => repeated,
            }
        }
    }
}

fn round_trip_module(rt: &Runtime, container: &Container, plans: &[TextPlan]) -> TokenStream {
    let counts: Vec<&syn::Ident> = plans
        .iter()
        .filter(|plan| matches!(plan.codec, TextCodec::Count(_)))
        .map(|plan| plan.field.ident)
        .collect();
    let fields: Vec<TestField> = plans
        .iter()
        .map(|plan| TestField {
            ident: plan.field.ident,
            strategy: field_strategy(rt, container, plan),
        })
        .collect();
    struct_test_module(rt, container, &counts, &fields, Check::Text)
}

fn field_strategy(rt: &Runtime, container: &Container, plan: &TextPlan) -> TokenStream {
    let ty = plan.field.ty;
    match &plan.codec {
        TextCodec::Style => quote!(#rt::testing::text_style()),
        TextCodec::Magic(_) | TextCodec::Count(_) => {
            quote!(#rt::proptest::strategy::Just(<#ty as ::core::default::Default>::default()))
        }
        TextCodec::Value(value) => {
            let ty = value.element_ty;
            let element = match value.form {
                Form::Line | Form::Comment => quote!(#rt::testing::line_string()),
                Form::Plain if is_named(ty, "RawString") => quote!(#rt::testing::token_string()),
                Form::Plain | Form::Vector => {
                    let nested = nested_context(rt, ty, &value.pass, |name| {
                        super::tests::test_value(container, name)
                    });
                    quote!(<#ty as #rt::testing::Sample>::strategy_with(&#nested))
                }
            };
            match &value.repeat {
                None => element,
                Some(TextRepeat::CountLine | TextRepeat::ToEnd) => {
                    quote!(#rt::testing::list(#element))
                }
                Some(TextRepeat::Count(count)) => {
                    let len = counted_len(rt, container, count);
                    quote!(#rt::testing::list_of_len(#element, #len))
                }
            }
        }
    }
}
