//! `present_if = EXPR`: when an `Option` field holds a value, as a Rust
//! boolean expression over earlier fields and context parameters.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::{Expr, Ident, LitStr};

/// A field's condition: `present_if = version >= 300`, or a bare name
/// (`present_if = has_properties`), which holds when that value is not 0.
#[derive(Clone)]
pub struct Condition {
    pub expr: Box<Expr>,
    /// The earlier fields and context parameters the expression reads, in
    /// order of first use, each once.
    pub names: Vec<Ident>,
}

impl Parse for Condition {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let expr: Expr = input.parse()?;
        let mut names = Vec::new();
        collect_names(expr.to_token_stream(), &mut names);
        Ok(Condition {
            expr: Box::new(expr),
            names,
        })
    }
}

impl Condition {
    /// The one value a bare-name condition tests for non-zero.
    pub fn flag(&self) -> Option<&Ident> {
        match &*self.expr {
            Expr::Path(path) if path.qself.is_none() => path.path.get_ident(),
            _ => None,
        }
    }

    /// Whether the expression reads `name`.
    pub fn reads(&self, name: &Ident) -> bool {
        self.names.contains(name)
    }

    /// The condition as people read it in messages and layout docs:
    /// `version >= 300`, or `has_properties != 0` for a bare name.
    pub fn describe(&self) -> String {
        match self.flag() {
            Some(flag) => format!("{flag} != 0"),
            None => tidy(&self.expr.to_token_stream().to_string()),
        }
    }

    /// A `bool` expression evaluating the condition, given where the
    /// value of each of its names is (`places`, in the order of `names`:
    /// a field's local, `self.name`, or the context's). Values are cloned
    /// into locals of their names, so the expression reads them as written
    /// (`version >= 300`, `mode == Mode::Bones`).
    pub fn tokens(&self, rt: &impl ToTokens, places: &[TokenStream]) -> TokenStream {
        if let (Some(_), Some(place)) = (self.flag(), places.first()) {
            return quote!(#rt::FlagInt::is_set(#place));
        }
        let bindings = self
            .names
            .iter()
            .zip(places)
            .map(|(name, value)| quote!(let #name = ::core::clone::Clone::clone(&#value);));
        let expr = &self.expr;
        quote! {{
            #(#bindings)*
            let __present: bool = #expr;
            __present
        }}
    }

    /// Reading: `Some` of what `read` (a `Result` expression) reads when the
    /// condition holds, else `None`.
    pub fn read(
        &self,
        rt: &impl ToTokens,
        places: &[TokenStream],
        read: TokenStream,
    ) -> TokenStream {
        read_when(self.tokens(rt, places), read)
    }

    /// A `Result<(), Error>` expression: the writer's refusal of a value
    /// whose presence (`present`, a `bool`) disagrees with the condition.
    pub fn check_tokens(
        &self,
        rt: &impl ToTokens,
        places: &[TokenStream],
        present: TokenStream,
    ) -> TokenStream {
        let holds = self.tokens(rt, places);
        match self.flag() {
            Some(flag) => {
                let label = LitStr::new(&flag.to_string(), flag.span());
                quote!(#rt::check_presence(#label, #holds, #present))
            }
            None => {
                let label = LitStr::new(&self.describe(), Span::call_site());
                quote!(#rt::check_condition(#label, #holds, #present))
            }
        }
    }

    /// How layout docs say when the value is there: `` `flags` is not 0 ``,
    /// `` `version >= 300` ``.
    pub fn doc(&self) -> String {
        match self.flag() {
            Some(flag) => format!("`{flag}` is not 0"),
            None => format!("`{}`", self.describe()),
        }
    }
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

/// The identifiers of a condition that name values: not method names
/// (after `.`), path segments (around `::`), types after `as`, called
/// functions or macros, `true`/`false`, or constants and variants (which
/// begin with a capital letter).
fn collect_names(tokens: TokenStream, names: &mut Vec<Ident>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (index, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Group(group) => collect_names(group.stream(), names),
            TokenTree::Ident(ident) => {
                let text = ident.to_string();
                let before = index.checked_sub(1).and_then(|before| trees.get(before));
                let after = trees.get(index + 1);
                let a_value = !matches!(text.as_str(), "true" | "false" | "as")
                    && !text.starts_with(|c: char| c.is_ascii_uppercase())
                    && !is_punct(before, '.')
                    && !is_punct(before, ':')
                    && !matches!(before, Some(TokenTree::Ident(word)) if word == "as")
                    && !is_punct(after, ':')
                    && !is_punct(after, '!')
                    && !matches!(after, Some(TokenTree::Group(group))
                        if group.delimiter() == Delimiter::Parenthesis);
                if a_value && !names.contains(ident) {
                    names.push(ident.clone());
                }
            }
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
}

fn is_punct(tree: Option<&TokenTree>, c: char) -> bool {
    matches!(tree, Some(TokenTree::Punct(punct)) if punct.as_char() == c)
}

/// Token text as written: `Mode :: Bones` as `Mode::Bones`, `a . len ()`
/// as `a.len()`.
fn tidy(text: &str) -> String {
    text.replace(" :: ", "::")
        .replace(" . ", ".")
        .replace(" ()", "()")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace("! ", "!")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn condition(text: &str) -> Condition {
        syn::parse_str(text).unwrap()
    }

    fn names(text: &str) -> Vec<String> {
        condition(text)
            .names
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn names_are_the_values_an_expression_reads() {
        assert_eq!(names("version >= 300"), ["version"]);
        assert_eq!(names("flags & 4 != 0"), ["flags"]);
        assert_eq!(names("mode == Mode::Bones"), ["mode"]);
        assert_eq!(names("(a > 1 && b < 2) || a == 0"), ["a", "b"]);
        assert_eq!(names("count as u64 > LIMIT"), ["count"]);
        assert_eq!(names("is_big(size) && name.is_empty()"), ["size", "name"]);
        assert_eq!(names("flag"), ["flag"]);
    }

    #[test]
    fn a_bare_name_tests_for_non_zero() {
        assert_eq!(condition("flags").flag().unwrap(), "flags");
        assert!(condition("flags != 0").flag().is_none());
        assert_eq!(condition("flags").describe(), "flags != 0");
    }

    #[test]
    fn descriptions_read_as_written() {
        assert_eq!(condition("version >= 300").describe(), "version >= 300");
        assert_eq!(
            condition("mode == Mode::Bones").describe(),
            "mode == Mode::Bones"
        );
        assert_eq!(condition("flags & 4 != 0").describe(), "flags & 4 != 0");
    }
}
