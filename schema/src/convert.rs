//! `map = S` and `try_map = S`: a field's value stored as another type,
//! converted both ways with `From` or `TryFrom`.

use std::fmt::Display;

use super::{Error, ErrorKind};

/// Reading `try_map = S`: the value the stored one converts to, or the
/// conversion's refusal as the error.
pub fn try_mapped<S, U>(stored: S) -> Result<U, Error>
where
    U: TryFrom<S>,
    U::Error: Display,
{
    U::try_from(stored).map_err(|refusal| Error::new(ErrorKind::Invalid(refusal.to_string())))
}

/// Writing `map = S`: the value as stored.
pub fn mapped_back<U: Clone, S: From<U>>(value: &U) -> S {
    S::from(value.clone())
}

/// Writing `try_map = S`: the value as stored, or the conversion's
/// refusal as the error.
pub fn try_mapped_back<U: Clone, S>(value: &U) -> Result<S, Error>
where
    S: TryFrom<U>,
    S::Error: Display,
{
    S::try_from(value.clone())
        .map_err(|refusal| Error::new(ErrorKind::Invalid(refusal.to_string())))
}
