//! Rust expressions in attributes, as written: `present_if = EXPR`, and
//! what every expression key shares (the names an expression may read,
//! `size_of(field)`, how it reads in messages and docs).

use proc_macro2::{Delimiter, Group, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream};
use syn::{Expr, Ident};

use crate::attr::bare_name;

/// A field's condition: `present_if = version >= 300`, or a bare name
/// (`present_if = has_properties`), which holds when that value is not 0.
#[derive(Clone)]
pub struct Condition {
    pub expr: Box<Expr>,
}

impl Parse for Condition {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        Ok(Condition {
            expr: Box::new(input.parse()?),
        })
    }
}

impl Condition {
    /// The one value a bare-name condition tests for non-zero.
    pub fn flag(&self) -> Option<&Ident> {
        bare_name(&self.expr)
    }

    /// The condition as people read it in messages and layout docs:
    /// `version >= 300`, or `has_properties != 0` for a bare name.
    pub fn describe(&self) -> String {
        match self.flag() {
            Some(flag) => format!("{flag} != 0"),
            None => describe(&self.expr),
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

/// An expression as people read it: `mode == Mode::Bones`, not
/// `mode == Mode :: Bones`.
pub fn describe(expr: &impl ToTokens) -> String {
    tidy(&expr.to_token_stream().to_string())
}

/// The identifiers of an expression that may name values, each once, in
/// order: not method or field names (after `.`), path segments (around
/// `::`), types after `as`, called functions or macros, `true`/`false`,
/// or the parameters of a closure in it. Which of them are fields or
/// context parameters the layout decides.
pub fn value_names(expr: &impl ToTokens) -> Vec<Ident> {
    let tokens = expr.to_token_stream();
    let mut bound = Vec::new();
    collect_closure_params(tokens.clone(), &mut bound);
    let mut names = Vec::new();
    collect_names(tokens, &mut names);
    names.retain(|name| !bound.contains(name));
    names
}

/// The names closures bind in their parameters (`|sum, v| ...`): a `|`
/// that begins an expression (first, after punctuation or `move`) opens
/// them, the next `|` closes them.
fn collect_closure_params(tokens: TokenStream, bound: &mut Vec<Ident>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut index = 0;
    while let Some(tree) = trees.get(index) {
        index += 1;
        match tree {
            TokenTree::Group(group) => collect_closure_params(group.stream(), bound),
            // `||`: a logical or, or a closure without parameters.
            TokenTree::Punct(punct)
                if punct.as_char() == '|' && punct.spacing() == Spacing::Joint =>
            {
                index += 1;
            }
            TokenTree::Punct(punct) if punct.as_char() == '|' => {
                let before = index.checked_sub(2).and_then(|before| trees.get(before));
                let opens = match before {
                    None | Some(TokenTree::Punct(_)) => true,
                    Some(TokenTree::Ident(word)) => word == "move",
                    Some(TokenTree::Group(_) | TokenTree::Literal(_)) => false,
                };
                if !opens {
                    continue;
                }
                // Their types too: not names of values.
                while let Some(param) = trees.get(index) {
                    index += 1;
                    match param {
                        TokenTree::Punct(punct) if punct.as_char() == '|' => break,
                        TokenTree::Ident(name) => bound.push(name.clone()),
                        TokenTree::Group(group) => every_ident(group.stream(), bound),
                        TokenTree::Punct(_) | TokenTree::Literal(_) => {}
                    }
                }
            }
            _ => {}
        }
    }
}

fn every_ident(tokens: TokenStream, idents: &mut Vec<Ident>) {
    for tree in tokens {
        match tree {
            TokenTree::Ident(ident) => idents.push(ident),
            TokenTree::Group(group) => every_ident(group.stream(), idents),
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
}

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
                    && !is_punct(before, '.')
                    && !is_punct(before, ':')
                    && !matches!(before, Some(TokenTree::Ident(word)) if word == "as")
                    && !is_punct(after, ':')
                    && !is_macro_bang(after)
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

/// The `!` of a macro call (`name!(...)`), standing alone before its
/// group; the `!` of `!=` is joined to the `=` after it, and the name
/// before it is a value.
fn is_macro_bang(tree: Option<&TokenTree>) -> bool {
    matches!(tree, Some(TokenTree::Punct(punct))
        if punct.as_char() == '!' && punct.spacing() == Spacing::Alone)
}

fn is_punct(tree: Option<&TokenTree>, c: char) -> bool {
    matches!(tree, Some(TokenTree::Punct(punct)) if punct.as_char() == c)
}

/// The local a `size_of(field)` stands for in an expression's function.
pub fn size_local(field: &Ident) -> Ident {
    quote::format_ident!("__size_of_{}", field)
}

/// `size_of(field)` in an expression, the number of bytes `field` takes:
/// the expression with each replaced by [`size_local`], and the fields, in
/// order, each once. An argument that is not a bare name is left as
/// written (the compiler then finds no `size_of`).
pub fn take_sizes(expr: &Expr) -> syn::Result<(Expr, Vec<Ident>)> {
    let mut sizes = Vec::new();
    let tokens = replace_sizes(expr.to_token_stream(), &mut sizes);
    Ok((syn::parse2(tokens)?, sizes))
}

fn replace_sizes(tokens: TokenStream, sizes: &mut Vec<Ident>) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut index = 0;
    while let Some(tree) = trees.get(index) {
        let sized = match (tree, trees.get(index + 1)) {
            (TokenTree::Ident(ident), Some(TokenTree::Group(group)))
                if ident == "size_of"
                    && group.delimiter() == Delimiter::Parenthesis
                    && !is_punct(index.checked_sub(1).and_then(|b| trees.get(b)), ':') =>
            {
                syn::parse2::<Ident>(group.stream()).ok()
            }
            _ => None,
        };
        match (sized, tree) {
            (Some(field), _) => {
                let local = size_local(&field);
                if !sizes.contains(&field) {
                    sizes.push(field);
                }
                out.push(TokenTree::Ident(local));
                index += 2;
                continue;
            }
            (None, TokenTree::Group(group)) => {
                let mut inner = Group::new(group.delimiter(), replace_sizes(group.stream(), sizes));
                inner.set_span(group.span());
                out.push(TokenTree::Group(inner));
            }
            (None, other) => out.push(other.clone()),
        }
        index += 1;
    }
    out.into_iter().collect()
}

/// Token text as written: `Mode :: Bones` as `Mode::Bones`, `a . len ()`
/// as `a.len()`.
fn tidy(text: &str) -> String {
    // A closure (`until = |point: &[i8; 2]| *point == [0, 0]`): its
    // parameters, then its body, each tidied.
    if let Some((params, body)) = text
        .strip_prefix("| ")
        .and_then(|rest| rest.split_once(" | "))
    {
        let params = params.replace(" : ", ": ").replace("& ", "&");
        let body = body
            .strip_prefix("* ")
            .map_or(body.to_owned(), |body| format!("*{body}"));
        return format!("|{params}| {}", tidy(&body));
    }
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
        value_names(&condition(text).expr)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn names_are_the_values_an_expression_may_read() {
        assert_eq!(names("version >= 300"), ["version"]);
        assert_eq!(names("flags & 4 != 0"), ["flags"]);
        assert_eq!(names("mode == Mode::Bones"), ["mode"]);
        assert_eq!(names("(a > 1 && b < 2) || a == 0"), ["a", "b"]);
        assert_eq!(names("count as u64 > LIMIT"), ["count", "LIMIT"]);
        assert_eq!(names("is_big(size) && name.is_empty()"), ["size", "name"]);
        assert_eq!(names("flag"), ["flag"]);
        assert_eq!(names("version != 0"), ["version"]);
        assert_eq!(names("version!=0"), ["version"]);
        assert_eq!(names("a != b && c == 1"), ["a", "b", "c"]);
        assert_eq!(names("a != b"), ["a", "b"]);
        assert_eq!(
            names("matches!(mode, 1 | 2) && kind != 0"),
            ["mode", "kind"]
        );
        assert_eq!(names("a | b"), ["a", "b"]);
        assert_eq!(
            names("items.iter().fold(0, |sum, v| sum + v + total)"),
            ["items", "total"]
        );
        assert_eq!(names("|point: &[i8; 2]| *point == origin"), ["origin"]);
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

    #[test]
    fn sizes_of_fields_become_locals() {
        let expr: Expr = syn::parse_str("size_of(payload) + 76 + size_of(payload)").unwrap();
        let (rewritten, sizes) = take_sizes(&expr).unwrap();
        assert_eq!(
            describe(&rewritten),
            "__size_of_payload + 76 + __size_of_payload"
        );
        assert_eq!(sizes, ["payload"]);
    }
}
