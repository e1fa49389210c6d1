//! Values the layout computes: the numbers expressions give (a count, a
//! block's size), and stored values the writer computes (`calc`), kept in
//! a [`Calc`] when a file held another.

use std::fmt::{Debug, Display};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Decode, Encode, Endian, Error, ErrorKind, Output, VecOutput};

/// A stored value the writer computes from the rest of the value
/// (`#[schema(calc = expr)]`): a size, a count, an offset, a checksum.
/// It holds nothing when the file held the computed value (and when the
/// value is built by hand: the writer computes it); with `keep`, a file
/// that held another keeps it here, and the writer writes it back as found.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Calc<T> {
    found: Option<T>,
}

impl<T> Calc<T> {
    /// The computed value: what the writer writes is computed from the rest.
    pub const fn computed() -> Self {
        Calc { found: None }
    }

    /// A value the file held, which disagrees with the computed one, to be
    /// written back as it is.
    pub const fn found(value: T) -> Self {
        Calc { found: Some(value) }
    }

    /// The value the file held when it disagreed with the computed one.
    pub fn found_value(&self) -> Option<&T> {
        self.found.as_ref()
    }
}

impl<T> Default for Calc<T> {
    fn default() -> Self {
        Calc::computed()
    }
}

impl<T: Debug> Debug for Calc<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.found {
            None => f.write_str("Calc(computed)"),
            Some(found) => write!(f, "Calc(found {found:?})"),
        }
    }
}

/// In JSON, the value found, or `null` for the computed one.
impl<T: Serialize> Serialize for Calc<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.found.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Calc<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::deserialize(deserializer).map(|found| Calc { found })
    }
}

/// The value a `calc` field is written with: the one found, else the
/// computed one (asked for only then).
pub fn calc_to_write<T: Clone>(
    calc: &Calc<T>,
    computed: impl FnOnce() -> Result<T, Error>,
) -> Result<T, Error> {
    match &calc.found {
        Some(found) => Ok(found.clone()),
        None => computed(),
    }
}

/// Reading: the `calc` field's value, from what the file held (`found`,
/// at byte `at`) and what the layout computes. A disagreement is an error
/// naming both, unless the layout keeps what it found.
pub fn calc_found<T: PartialEq + Debug>(
    expression: &'static str,
    at: u64,
    found: T,
    computed: T,
    keep: bool,
) -> Result<Calc<T>, Error> {
    if found == computed {
        return Ok(Calc::computed());
    }
    if keep {
        return Ok(Calc::found(found));
    }
    Err(Error::at_byte(
        at,
        ErrorKind::Invalid(format!(
            "the file holds {found:?}, but `{expression}` gives {computed:?}"
        )),
    ))
}

/// A computed value as the stored type `T`, or an error naming the
/// expression when it does not fit.
pub fn calc_value<T: TryFrom<V>, V: Debug + Clone>(
    expression: &'static str,
    value: V,
) -> Result<T, Error> {
    T::try_from(value.clone()).map_err(|_| {
        Error::new(ErrorKind::Invalid(format!(
            "`{expression}` gives {value:?}, which the field's type cannot hold"
        )))
    })
}

/// The number of elements a `count = expr` gives.
pub fn count_value<V: TryInto<usize> + Display + Copy>(
    expression: &'static str,
    value: V,
) -> Result<usize, Error> {
    value.try_into().map_err(|_| {
        Error::new(ErrorKind::Invalid(format!(
            "`{expression}` gives {value}, which is not a count"
        )))
    })
}

/// The number of bytes a `size = expr` gives.
pub fn size_value<V: TryInto<u64> + Display + Copy>(
    expression: &'static str,
    value: V,
) -> Result<u64, Error> {
    value.try_into().map_err(|_| {
        Error::new(ErrorKind::Invalid(format!(
            "`{expression}` gives {value}, which is not a size"
        )))
    })
}

/// Writes `value` over the placeholder written at `at` (as many bytes),
/// once what it depends on is written: a size that counts bytes written
/// after it.
#[inline]
pub fn patch_value<O: Output, T: Encode<Context = ()> + Decode>(
    output: &mut O,
    at: u64,
    value: &T,
    endian: Endian,
) -> Result<(), Error> {
    // A plain value (the numbers sizes, words and offsets are) is encoded
    // on the stack: a patch is made for every offset or word written, and
    // a buffer on the heap each time cost an allocation apiece.
    let mut small = [0u8; 16];
    if let Some(bytes) = T::PLAIN_SIZE.and_then(|size| small.get_mut(..size)) {
        if value.encode_plain(bytes, endian) {
            return output.patch(at, bytes);
        }
    }
    let mut bytes = VecOutput::default();
    value.encode_output(&mut bytes, endian, &())?;
    output.patch(at, &bytes.into_bytes())
}

/// The placeholder a computed value is written as until it is known:
/// `size` zero bytes, `size` being its type's fixed size.
pub fn write_placeholder<O: Output>(output: &mut O, size: Option<u64>) -> Result<(), Error> {
    let size = size.ok_or_else(|| {
        Error::new(ErrorKind::Invalid(
            "a value computed from what follows it needs a type of one size".to_owned(),
        ))
    })?;
    let zeros = vec![0; usize::try_from(size).unwrap_or(0)];
    output.write_bytes(&zeros)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disagreeing_value_is_an_error_or_kept() {
        assert_eq!(
            calc_found("n + 1", 4, 3u8, 3, false).unwrap(),
            Calc::computed()
        );
        assert_eq!(
            calc_found("n + 1", 4, 7u8, 3, false)
                .unwrap_err()
                .to_string(),
            "byte 4: the file holds 7, but `n + 1` gives 3"
        );
        assert_eq!(
            calc_found("n + 1", 4, 7u8, 3, true).unwrap(),
            Calc::found(7)
        );
    }

    #[test]
    fn numbers_that_do_not_fit_are_errors() {
        assert_eq!(count_value("n - 1", 3i32).unwrap(), 3);
        assert_eq!(
            count_value("n - 1", -1i32).unwrap_err().to_string(),
            "`n - 1` gives -1, which is not a count"
        );
        assert_eq!(
            calc_value::<u8, u64>("size_of(data)", 300)
                .unwrap_err()
                .to_string(),
            "`size_of(data)` gives 300, which the field's type cannot hold"
        );
    }

    #[test]
    fn a_calc_is_null_in_json_unless_found() {
        assert_eq!(
            serde_json::to_string(&Calc::<u8>::computed()).unwrap(),
            "null"
        );
        assert_eq!(serde_json::to_string(&Calc::found(7u8)).unwrap(), "7");
        let back: Calc<u8> = serde_json::from_str("7").unwrap();
        assert_eq!(back, Calc::found(7));
    }
}
