//! Fields' `check` functions, binary and text alike: what they return, and
//! how a refusal becomes an error where the value was read.

use std::cell::Cell;

use super::{Error, ErrorKind, FieldLayout, Segment, TypeLayout};

/// A value a field's `check` function refuses: why, and, for a list, which
/// element is at fault (the error then names that element).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub element: Option<usize>,
    /// Where inside the element (or the value) the fault lies, outermost
    /// first, e.g. `PIDX[5]` inside a shader group.
    pub inner: Vec<Segment>,
    pub message: String,
    /// Binary: how many bytes into the value the fault lies, when the check
    /// knows (the error's offset is then there, not at the value's start).
    pub offset: Option<u64>,
}

impl Refusal {
    /// The whole value is refused.
    pub fn new(message: impl Into<String>) -> Self {
        Refusal {
            element: None,
            inner: Vec::new(),
            message: message.into(),
            offset: None,
        }
    }

    /// Element `index` of the list is refused.
    pub fn at_element(index: usize, message: impl Into<String>) -> Self {
        Refusal {
            element: Some(index),
            inner: Vec::new(),
            message: message.into(),
            offset: None,
        }
    }

    /// The fault lies at `path` inside the element (or the value), outermost
    /// first, after any segments already given.
    pub fn inside(mut self, path: impl IntoIterator<Item = Segment>) -> Self {
        self.inner.extend(path);
        self
    }

    /// The error `error` about this refusal, its path the element's index
    /// and the segments inside it.
    pub(crate) fn placed(self, error: Error) -> Error {
        let error = self
            .inner
            .into_iter()
            .rev()
            .fold(error, |error, segment| error.within(segment));
        match self.element {
            Some(index) => error.within(Segment::Index(index)),
            None => error,
        }
    }

    /// In a binary value, the fault lies `offset` bytes after its start.
    pub fn bytes_in(self, offset: u64) -> Self {
        Refusal {
            offset: Some(offset),
            ..self
        }
    }
}

thread_local! {
    static SKIPPING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `read` with fields' checks left out on this thread: the generated
/// round-trip tests read random values, which need not pass them.
pub fn without_checks<T>(read: impl FnOnce() -> T) -> T {
    /// Puts the flag back however `read` ends, a panic included.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            SKIPPING.with(|skipping| skipping.set(self.0));
        }
    }
    let _restore = Restore(SKIPPING.with(|skipping| skipping.replace(true)));
    read()
}

/// Whether fields' checks run (they do, except inside [`without_checks`]).
pub fn checking() -> bool {
    !SKIPPING.with(Cell::get)
}

/// A binary field's check verdict on the value read from byte `start` as
/// an error there, or as many bytes on as the refusal says (for a list's
/// element, with the element's index in the path).
pub fn checked_at_byte(start: u64, verdict: Result<(), Refusal>) -> Result<(), Error> {
    verdict.map_err(|mut refusal| {
        let at = start.saturating_add(refusal.offset.unwrap_or(0));
        let message = std::mem::take(&mut refusal.message);
        refusal.placed(Error::at_byte(at, ErrorKind::Invalid(message)))
    })
}

/// How a list's elements lie, for placing a check's refusal of one.
#[derive(Debug, Clone, Copy)]
pub struct Elements {
    /// Where the first element starts (after any count before them).
    pub start: u64,
    /// The size of every element, when they have one.
    pub size: Option<u64>,
    /// The element type's layout, which places a field inside an element.
    pub layout: Option<fn() -> TypeLayout>,
    /// For a list of IFF forms or chunks: the element's type or tag.
    pub tag: Option<[u8; 4]>,
}

/// A binary list's check verdict on the list read from byte `start`: a
/// refusal naming an element, with no byte of its own, is at that element's
/// first byte (or at the field inside it the refusal names) when every
/// element has one size, else at `start`; a list of IFF forms or chunks
/// names the refused element by its tag after its index, as an error while
/// reading it would.
pub fn checked_elements_at_byte(
    start: u64,
    elements: Elements,
    verdict: Result<(), Refusal>,
) -> Result<(), Error> {
    verdict.map_err(|mut refusal| {
        let at = match (refusal.offset, refusal.element, elements.size) {
            (Some(offset), _, _) => start.saturating_add(offset),
            (None, Some(index), Some(size)) => {
                let element = elements
                    .start
                    .saturating_add((index as u64).saturating_mul(size));
                let inside = match refusal.inner.as_slice() {
                    [] => Some(0),
                    inner => elements
                        .layout
                        .and_then(|layout| offset_in_type(&layout(), inner)),
                };
                inside.map_or(element, |inside| element.saturating_add(inside))
            }
            (None, _, _) => start,
        };
        let element_tag = elements.tag;
        if let (Some(_), Some(tag)) = (refusal.element, element_tag) {
            refusal.inner.insert(0, Segment::Chunk(tag));
        }
        let message = std::mem::take(&mut refusal.message);
        refusal.placed(Error::at_byte(at, ErrorKind::Invalid(message)))
    })
}

/// A type's own check verdict on a value read from byte `start`: a refusal
/// whose place begins with a field, and gives no byte of its own, is at
/// the byte that place was read from, found from where each field began
/// (`fields`, names and offsets, in file order) and the type's layout
/// (fixed sizes within the field); else at `start`.
pub fn checked_fields_at_byte(
    start: u64,
    fields: &[(&'static str, u64)],
    layout: &TypeLayout,
    verdict: Result<(), Refusal>,
) -> Result<(), Error> {
    verdict.map_err(|mut refusal| {
        let found = match (refusal.offset, refusal.element) {
            (Some(offset), _) => Some(start.saturating_add(offset)),
            (None, None) => offset_of_place(fields, layout, &refusal.inner),
            (None, Some(_)) => None,
        };
        let message = std::mem::take(&mut refusal.message);
        refusal.placed(Error::at_byte(
            found.unwrap_or(start),
            ErrorKind::Invalid(message),
        ))
    })
}

/// The byte a place inside a value was read from: the field's start, then
/// fixed offsets down the layout; `None` where a size varies.
fn offset_of_place(
    fields: &[(&'static str, u64)],
    layout: &TypeLayout,
    place: &[Segment],
) -> Option<u64> {
    let (Segment::Field(name), rest) = place.split_first()? else {
        return None;
    };
    let (_, field_start) = fields.iter().find(|(field, _)| field == name)?;
    let field = layout.fields.iter().find(|field| field.name == *name)?;
    offset_in_field(field, rest).map(|offset| field_start.saturating_add(offset))
}

/// How far into `field`'s bytes the place `rest` inside its value lies.
fn offset_in_field(field: &FieldLayout, rest: &[Segment]) -> Option<u64> {
    match rest {
        [] => Some(0),
        [Segment::Index(index), inner @ ..] => {
            let element = (*index as u64).checked_mul(field.element_size?)?;
            let first = field.elements_offset?.checked_add(element)?;
            let inside = match inner {
                [] => 0,
                [Segment::Index(at)] => (*at as u64).checked_mul(field.inner_element_size?)?,
                _ => offset_in_type(&(field.nested?)(), inner)?,
            };
            first.checked_add(inside)
        }
        [Segment::Field(_), ..] if field.element_size.is_none() => {
            offset_in_type(&(field.nested?)(), rest)
        }
        _ => None,
    }
}

/// How far into a value of the type `layout` the place `place` lies, its
/// fields at fixed offsets.
fn offset_in_type(layout: &TypeLayout, place: &[Segment]) -> Option<u64> {
    let (Segment::Field(name), rest) = place.split_first()? else {
        return None;
    };
    let field = layout.fields.iter().find(|field| field.name == *name)?;
    field.offset?.checked_add(offset_in_field(field, rest)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn a_refusal_is_an_error_at_the_value_naming_the_element() {
        let error = checked_at_byte(12, Err(Refusal::at_element(3, "index 9 is past 4")))
            .unwrap_err()
            .in_field("faces");
        assert_eq!(error.position, Some(Position::Byte(12)));
        assert_eq!(error.path.to_string(), "faces[3]");
        assert_eq!(error.kind.to_string(), "index 9 is past 4");
    }

    #[test]
    fn a_refusal_may_point_into_the_value() {
        let refusal = Refusal::at_element(1, "depth 0 is below 1").bytes_in(59);
        let error = checked_at_byte(4, Err(refusal)).unwrap_err();
        assert_eq!(error.position, Some(Position::Byte(63)));
        assert_eq!(error.path.to_string(), "[1]");
    }

    #[test]
    fn a_refusal_may_name_a_place_inside_the_element() {
        let refusal = Refusal::at_element(2, "index 9 is outside the 4 vertices")
            .inside([Segment::Field("corners"), Segment::Index(1)]);
        let error = checked_at_byte(0, Err(refusal))
            .unwrap_err()
            .in_field("faces");
        assert_eq!(error.path.to_string(), "faces[2].corners[1]");
    }

    #[test]
    fn checks_are_skipped_only_inside_without_checks() {
        assert!(checking());
        assert!(!without_checks(checking));
        assert!(checking());
    }
}
