//! Errors of enums chosen by a tag, by a context value or by keywords. Only
//! the derive's expansions call these.

use std::fmt::Debug;

use super::text::TextReader;
use super::{Error, ErrorKind, Input};

/// A tag no variant has, read at byte `at`; `known` lists the variants'.
pub fn unknown_tag(at: u64, found: &dyn Debug, known: &'static str) -> Error {
    Error::at_byte(
        at,
        ErrorKind::UnknownTag {
            found: format!("{found:?}"),
            known,
        },
    )
}

fn unknown_selector_kind(
    selector: &'static str,
    value: &dyn Debug,
    known: &'static str,
) -> ErrorKind {
    ErrorKind::UnknownSelector {
        selection: format!("`{selector}` is {value:?}"),
        known,
    }
}

/// The context value `selector` chooses no variant of the binary enum that
/// was to be read at the reader's position.
pub fn unknown_selector<I: Input>(
    input: &mut I,
    selector: &'static str,
    value: &dyn Debug,
    known: &'static str,
) -> Error {
    match input.position() {
        Ok(at) => Error::at_byte(at, unknown_selector_kind(selector, value, known)),
        Err(error) => error,
    }
}

/// As [`unknown_selector`], for a text enum to be read at the next line.
pub fn unknown_text_selector(
    reader: &TextReader<'_>,
    selector: &'static str,
    value: &dyn Debug,
    known: &'static str,
) -> Error {
    reader.error_at_next_line(unknown_selector_kind(selector, value, known))
}

/// A value whose variant is not the one its selector chooses (`chosen`,
/// `None` when the selector chooses none).
pub fn variant_disagrees(
    variant: &'static str,
    selector: &'static str,
    value: &dyn Debug,
    chosen: Option<&'static str>,
) -> Error {
    let chosen = chosen.map_or_else(|| "no variant".to_owned(), |chosen| format!("`{chosen}`"));
    Error::new(ErrorKind::VariantDisagrees {
        variant,
        selection: format!("`{selector}` is {value:?}, which chooses {chosen}"),
    })
}

/// The `other` variant holds a tag that another variant owns, so it would
/// read back as that variant.
pub fn tag_taken(tag: &dyn Debug, owner: &'static str) -> Error {
    Error::new(ErrorKind::TagTaken {
        tag: format!("{tag:?}"),
        owner,
    })
}
