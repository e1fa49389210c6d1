//! Numbers as text tokens: how each type parses and prints.

use super::float::parse_g;
use super::style::FloatStyle;

/// A number that is one text token.
pub trait TextNumber: Copy {
    /// What a reader expected, for errors: "an integer", "a number".
    const EXPECTED: &'static str;
    fn parse(token: &str) -> Option<Self>;
    /// The token in the given style (integers are always `%d`).
    fn format(self, style: FloatStyle) -> String;
    /// Whether two values are the same (floats: the same bits).
    fn same(self, other: Self) -> bool;
}

macro_rules! text_int {
    ($($ty:ty),*) => {$(
        impl TextNumber for $ty {
            const EXPECTED: &'static str = "an integer";

            fn parse(token: &str) -> Option<Self> {
                token.parse().ok()
            }

            fn format(self, _: FloatStyle) -> String {
                self.to_string()
            }

            fn same(self, other: Self) -> bool {
                self == other
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

    fn format(self, style: FloatStyle) -> String {
        style.format(self)
    }

    fn same(self, other: Self) -> bool {
        self.to_bits() == other.to_bits()
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
