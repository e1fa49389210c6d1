//! Size arithmetic for the `MIN_SIZE` and `FIXED_SIZE` constants the derive emits.

/// Sum of two minimum sizes.
pub const fn add_min(a: u64, b: u64) -> u64 {
    a.saturating_add(b)
}

/// The smaller of two minimum sizes: an enum's is its smallest variant's.
pub const fn lesser_min(a: u64, b: u64) -> u64 {
    if a < b {
        a
    } else {
        b
    }
}

/// Sum of two fixed sizes; `None` once any part varies.
pub const fn add_fixed(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.saturating_add(b)),
        _ => None,
    }
}

/// Sum of two plain sizes (`Decode::PLAIN_SIZE`); `None` once any part is not plain.
pub const fn add_plain(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => a.checked_add(b),
        _ => None,
    }
}
