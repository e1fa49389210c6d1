//! How a text field's `check` refusal becomes an error at the value's line
//! and column.

use super::reader::{Mark, TextReader};
use super::writer::TextWriter;
use crate::check::Refusal;
use crate::{Error, ErrorKind};

/// A `check`'s verdict on a field read at `field` (its list's elements at
/// `elements`) as an error at that place.
pub fn checked(
    reader: &TextReader<'_>,
    field: Mark,
    elements: &[Mark],
    verdict: Result<(), Refusal>,
) -> Result<(), Error> {
    verdict.map_err(|refusal| refused(reader, field, elements, refusal))
}

/// The error for a value a `check` refused: at the field's mark, or, for
/// an element of a list, at that element's.
fn refused(reader: &TextReader<'_>, field: Mark, elements: &[Mark], mut refusal: Refusal) -> Error {
    let mark = refusal
        .element
        .and_then(|index| elements.get(index).copied())
        .unwrap_or(field);
    let (line, column) = reader.position_of(mark);
    let message = std::mem::take(&mut refusal.message);
    refusal.placed(Error::at_text(line, column, ErrorKind::Invalid(message)))
}

/// A `check`'s verdict on a field the writer has just written from `field`
/// (its list's elements from `elements`, see [`TextWriter::mark`]): the
/// error the reader would give, at the same line and column.
pub fn checked_written(
    writer: &TextWriter,
    field: usize,
    elements: &[usize],
    verdict: Result<(), Refusal>,
) -> Result<(), Error> {
    verdict.map_err(|mut refusal| {
        let mark = refusal
            .element
            .and_then(|index| elements.get(index).copied())
            .unwrap_or(field);
        let (line, column) = writer.position_of(mark);
        let message = std::mem::take(&mut refusal.message);
        refusal.placed(Error::at_text(line, column, ErrorKind::Invalid(message)))
    })
}
