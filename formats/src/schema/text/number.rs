//! Numbers as text tokens: how each type parses and prints.

use std::fmt::Write as _;

use super::float::{parse_g, printed_by_shape};
use super::stack_text::NumberText;
use super::style::FloatStyle;

/// A number that is one text token.
pub trait TextNumber: Copy {
    /// What a reader expected, for errors: "an integer", "a number".
    const EXPECTED: &'static str;
    fn parse(token: &str) -> Option<Self>;
    /// The token in the given style (integers are always `%d`).
    fn text(self, style: FloatStyle) -> NumberText;
    /// Whether two values are the same (floats: the same bits).
    fn same(self, other: Self) -> bool;

    /// Whether each style prints this value, read from `token`, as `token`.
    fn printed_by(self, token: &str) -> PrintedBy;
}

/// Which float styles print a value as the token it was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintedBy {
    pub msvc: bool,
    pub shortest: bool,
}

/// Whether an integer token is spelled as `%d` prints its value: a `-`
/// only before a non-zero value, no `+`, no leading zeros.
fn canonical_integer(token: &[u8]) -> bool {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    let leading_zero = digits.len() > 1 && digits.first() == Some(&b'0');
    let negative_zero = digits.len() < token.len() && digits == b"0";
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) && !leading_zero && !negative_zero
}

macro_rules! text_int {
    ($($ty:ty),*) => {$(
        impl TextNumber for $ty {
            const EXPECTED: &'static str = "an integer";

            fn parse(token: &str) -> Option<Self> {
                token.parse().ok()
            }

            fn text(self, _: FloatStyle) -> NumberText {
                let mut text = NumberText::new();
                // At most 20 characters: the buffer holds them.
                let _ = write!(text, "{self}");
                text
            }

            fn same(self, other: Self) -> bool {
                self == other
            }

            fn printed_by(self, token: &str) -> PrintedBy {
                let canonical = canonical_integer(token.as_bytes());
                PrintedBy { msvc: canonical, shortest: canonical }
            }
        }
    )*};
}

text_int!(u8, u16, u32, u64, i8, i16, i32, i64);

impl TextNumber for f32 {
    const EXPECTED: &'static str = "a number";

    /// The MSVC spellings (`1.#INF`, `-1.#IND`) and plain decimals, plus the
    /// shortest style's `NaN`, `inf` and `-inf`.
    fn parse(token: &str) -> Option<Self> {
        match token {
            "NaN" => Some(f32::NAN),
            "inf" => Some(f32::INFINITY),
            "-inf" => Some(f32::NEG_INFINITY),
            _ => parse_g(token),
        }
    }

    fn text(self, style: FloatStyle) -> NumberText {
        style.text(self)
    }

    fn same(self, other: Self) -> bool {
        self.to_bits() == other.to_bits()
    }

    /// Most tokens are decided by their shape alone (see
    /// [`printed_by_shape`]); the rest by formatting the value.
    fn printed_by(self, token: &str) -> PrintedBy {
        let [msvc, shortest] = printed_by_shape(token.as_bytes(), self);
        let formatted = |style: FloatStyle| self.text(style).as_bytes() == token.as_bytes();
        PrintedBy {
            msvc: msvc.unwrap_or_else(|| formatted(FloatStyle::Msvc)),
            shortest: shortest.unwrap_or_else(|| formatted(FloatStyle::Shortest)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_accept_what_str_parse_accepts() {
        assert_eq!(i32::parse("-1"), Some(-1));
        assert_eq!(i32::parse("+7"), Some(7));
        assert_eq!(i32::parse("007"), Some(7));
        assert_eq!(i32::parse("1.0"), None);
        assert_eq!(u32::parse("-1"), None);
        assert_eq!(i32::parse("x"), None);
    }

    #[test]
    fn floats_accept_both_styles_specials() {
        assert_eq!(f32::parse("1.#INF"), Some(f32::INFINITY));
        assert_eq!(f32::parse("-inf"), Some(f32::NEG_INFINITY));
        assert!(f32::parse("NaN").is_some_and(f32::is_nan));
        assert_eq!(f32::parse("nan"), None);
        assert_eq!(f32::parse("1e-005"), Some(1e-5));
        assert_eq!(f32::parse("abc"), None);
        assert_eq!(FloatStyle::Shortest.format(-0.0), "-0");
        assert_eq!(FloatStyle::Msvc.format(-0.0), "0");
    }
}

#[cfg(test)]
mod shape_tests {
    use super::*;
    use proptest::prelude::*;

    /// Which styles print the token's value as the token, by formatting.
    fn by_formatting<T: TextNumber>(token: &str) -> Option<PrintedBy> {
        let value = T::parse(token)?;
        let formatted = |style: FloatStyle| value.text(style).as_bytes() == token.as_bytes();
        Some(PrintedBy {
            msvc: formatted(FloatStyle::Msvc),
            shortest: formatted(FloatStyle::Shortest),
        })
    }

    /// Spellings of a value in and out of both styles.
    fn spellings(value: f32) -> Vec<String> {
        vec![
            FloatStyle::Msvc.format(value),
            FloatStyle::Shortest.format(value),
            format!("{value:e}"),
            format!("{value:.3}"),
            format!("{value:.7e}"),
            format!("+{value}"),
            format!("{value}0"),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn the_shape_decides_as_formatting_does(bits in any::<u32>(), digits in 0u32..1_000_000, exp in -45i32..39) {
            let short = format!("{digits}e{exp}").parse::<f32>().unwrap_or(0.0);
            for value in [f32::from_bits(bits), short, 0.0, -0.0] {
                for token in spellings(value) {
                    if let Some(value) = f32::parse(&token) {
                        prop_assert_eq!(Some(value.printed_by(&token)), by_formatting::<f32>(&token), "{}", token);
                    }
                }
            }
            let int = bits as i32;
            for token in [int.to_string(), format!("+{int}"), format!("0{int}"), format!("-0{}", int.unsigned_abs()), "-0".to_owned()] {
                if let Some(value) = i32::parse(&token) {
                    prop_assert_eq!(Some(value.printed_by(&token)), by_formatting::<i32>(&token), "{}", token);
                }
            }
        }
    }
}
