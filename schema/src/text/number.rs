//! Numbers as text tokens: how each type parses and prints.

use std::fmt::Write as _;

use super::digits::{leading_digits, take_digits};
use super::float::{parse_g, read_leading_decimal};
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

    /// Reads a token: its value, and whether each style prints that value
    /// as the token. `None` where [`Self::parse`] gives none.
    fn read(token: &[u8]) -> Option<(Self, PrintedBy)>;

    /// [`Self::read`] for the token at the start of `text`, which ends at
    /// a space, a tab, a line ending or the end of `text`, in one pass over
    /// its bytes: the value, which styles print it as the token, and the
    /// token's length. `None` for the spellings that pass leaves to `read`
    /// (and for tokens that are no number): the caller then takes the
    /// token and calls `read`.
    fn read_leading(text: &[u8]) -> Option<(Self, PrintedBy, usize)>;
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

/// The token at the start of `text` when it is an optional `-` and 1 to 18
/// digits ending at a space, a tab, a line ending or the end of `text`:
/// its value (which `str::parse` gives it too where the type holds it),
/// whether `%d` prints that value so (no leading zero), and its length.
/// `None` for any other spelling, and for a negative zero (`-0`, `-00`),
/// which signed types read and unsigned ones refuse.
#[inline(always)]
fn read_leading_integer(text: &[u8]) -> Option<(i64, bool, usize)> {
    let negative = text.first() == Some(&b'-');
    let start = usize::from(negative);
    // The commonest integers, of up to 7 digits, end inside one load of 8
    // bytes; longer ones, and those at the end of the text, loop.
    let (end, magnitude) = match text.get(start..).and_then(<[u8]>::first_chunk::<8>) {
        Some(bytes) => match leading_digits(*bytes) {
            (8, _) => return read_long_integer(text, negative),
            (digits, magnitude) => (start + digits, magnitude),
        },
        None => return read_long_integer(text, negative),
    };
    integer_token(text, negative, end, magnitude)
}

/// [`read_leading_integer`] for digits that need more than one load.
#[inline(never)]
fn read_long_integer(text: &[u8], negative: bool) -> Option<(i64, bool, usize)> {
    let mut magnitude = 0u64;
    let end = take_digits(text, usize::from(negative), &mut magnitude);
    integer_token(text, negative, end, magnitude)
}

/// The integer whose digits, after a `-` when `negative`, end at `end`
/// and are worth `magnitude` (wrapped past 19 digits), as
/// [`read_leading_integer`] gives it.
#[inline(always)]
fn integer_token(
    text: &[u8],
    negative: bool,
    end: usize,
    magnitude: u64,
) -> Option<(i64, bool, usize)> {
    let start = usize::from(negative);
    let digits = end - start;
    if !(1..=18).contains(&digits)
        || !matches!(text.get(end), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
    {
        return None;
    }
    // At most 18 digits: below 10^18, so no wrap and an `i64`.
    let magnitude = i64::try_from(magnitude).ok()?;
    let leading_zero = digits > 1 && text.get(start) == Some(&b'0');
    let value = match (negative, magnitude) {
        (true, 0) => return None,
        (true, _) => -magnitude,
        (false, _) => magnitude,
    };
    Some((value, !leading_zero, end))
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

            fn read(token: &[u8]) -> Option<(Self, PrintedBy)> {
                if let Some((value, printed_by, _)) = Self::read_leading(token) {
                    return Some((value, printed_by));
                }
                // Other spellings (`+7`, `-0`, 19 digits or more), and values
                // the type cannot hold, as `str::parse` reads them.
                let value = Self::parse(std::str::from_utf8(token).ok()?)?;
                let canonical = canonical_integer(token);
                Some((value, PrintedBy { msvc: canonical, shortest: canonical }))
            }

            #[inline(always)]
            fn read_leading(text: &[u8]) -> Option<(Self, PrintedBy, usize)> {
                let (value, canonical, len) = read_leading_integer(text)?;
                let value = Self::try_from(value).ok()?;
                Some((value, PrintedBy { msvc: canonical, shortest: canonical }, len))
            }
        }
    )*};
}

text_int!(u8, u16, u32, u64, i8, i16, i32, i64);

/// Which styles print `value` as `token`: as `decided` says, and by
/// formatting the value where it says nothing.
#[inline]
fn printed_by(token: &[u8], value: f32, decided: [Option<bool>; 2]) -> PrintedBy {
    let [msvc, shortest] = decided;
    PrintedBy {
        msvc: msvc.unwrap_or_else(|| formats_as(value, FloatStyle::Msvc, token)),
        shortest: shortest.unwrap_or_else(|| formats_as(value, FloatStyle::Shortest, token)),
    }
}

/// Whether `style` prints `value` as `token`.
#[cold]
fn formats_as(value: f32, style: FloatStyle, token: &[u8]) -> bool {
    value.text(style).as_bytes() == token
}

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

    /// Most tokens are read and judged in one pass over their digits (see
    /// `read_leading_decimal`); the rest, and what that pass leaves open,
    /// by `str::parse` and by formatting the value.
    fn read(token: &[u8]) -> Option<(Self, PrintedBy)> {
        if let Some((value, printed_by, _)) = Self::read_leading(token) {
            return Some((value, printed_by));
        }
        let value = Self::parse(std::str::from_utf8(token).ok()?)?;
        Some((value, printed_by(token, value, [None, None])))
    }

    #[inline(always)]
    fn read_leading(text: &[u8]) -> Option<(Self, PrintedBy, usize)> {
        let (value, decided, len) = read_leading_decimal(text)?;
        let token = text.get(..len)?;
        Some((value, printed_by(token, value, decided), len))
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
        for token in ["-0", "-00", "+0", "-5", "00"] {
            let read = |value: Option<(u32, PrintedBy)>| value.map(|(value, _)| value);
            assert_eq!(
                read(u32::read(token.as_bytes())),
                u32::parse(token),
                "{token}"
            );
            let read = |value: Option<(i8, PrintedBy)>| value.map(|(value, _)| value);
            assert_eq!(
                read(i8::read(token.as_bytes())),
                i8::parse(token),
                "{token}"
            );
        }
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

    /// The value `str::parse` gives the token, and which styles print it
    /// as the token, by formatting.
    fn by_formatting<T: TextNumber>(token: &str) -> Option<(T, PrintedBy)> {
        let value = T::parse(token)?;
        let formatted = |style: FloatStyle| value.text(style).as_bytes() == token.as_bytes();
        let printed_by = PrintedBy {
            msvc: formatted(FloatStyle::Msvc),
            shortest: formatted(FloatStyle::Shortest),
        };
        Some((value, printed_by))
    }

    /// Whether `read` gives what parsing and formatting give, and
    /// `read_leading`, where it reads the token followed by what may
    /// follow a token in a line, gives the same.
    fn reads_as_formatting<T: TextNumber + std::fmt::Debug>(
        token: &str,
    ) -> Result<(), TestCaseError> {
        let read = T::read(token.as_bytes());
        let expected = by_formatting::<T>(token);
        for after in [
            "",
            " ",
            "\t",
            "\r\n",
            "\n",
            " 0.5 0.25 0.125",
            "\r\n1 2 3 4 5 6",
        ] {
            let text = format!("{token}{after}");
            if let Some((value, printed_by, len)) = T::read_leading(text.as_bytes()) {
                let (expected_value, expected_printed_by) = read.ok_or_else(|| {
                    TestCaseError::fail(format!("{text:?} reads, {token} alone does not"))
                })?;
                prop_assert!(value.same(expected_value), "{:?}: {:?}", text, value);
                prop_assert_eq!(printed_by, expected_printed_by, "{:?}", text);
                prop_assert_eq!(len, token.len(), "{:?}", text);
            }
        }
        match (read, expected) {
            (Some((value, printed_by)), Some((expected_value, expected_printed_by))) => {
                prop_assert!(
                    value.same(expected_value),
                    "{}: read {:?}, parsed {:?}",
                    token,
                    value,
                    expected_value
                );
                prop_assert_eq!(printed_by, expected_printed_by, "{}", token);
            }
            (read, expected) => prop_assert_eq!(read.is_some(), expected.is_some(), "{}", token),
        }
        Ok(())
    }

    /// Spellings of a value in and out of both styles.
    fn spellings(value: f32) -> Vec<String> {
        vec![
            FloatStyle::Msvc.format(value),
            FloatStyle::Shortest.format(value),
            format!("{value:e}"),
            format!("{value:.1}"),
            format!("{value:.3}"),
            format!("{value:.7e}"),
            format!("+{value}"),
            format!("{value}0"),
            format!("0{value}"),
            format!("{}e+000", FloatStyle::Shortest.format(value)),
            format!("{}e-01", FloatStyle::Shortest.format(value)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn one_pass_reads_as_parsing_and_formatting_do(bits in any::<u32>(), digits in 0u32..1_000_000, exp in -45i32..39) {
            let short = format!("{digits}e{exp}").parse::<f32>().unwrap_or(0.0);
            for value in [f32::from_bits(bits), short, 0.0, -0.0] {
                for token in spellings(value) {
                    reads_as_formatting::<f32>(&token)?;
                }
            }
            // Integers of every length, the short ones most of all.
            let int = bits as i32;
            let short = int % 10i32.pow(digits % 9);
            for token in [int.to_string(), short.to_string(), format!("+{int}"), format!("0{int}"), format!("0{short}"), format!("-0{}", int.unsigned_abs()), "-0".to_owned(), format!("{int}0000000000")] {
                reads_as_formatting::<i32>(&token)?;
                reads_as_formatting::<u8>(&token)?;
                reads_as_formatting::<u32>(&token)?;
                reads_as_formatting::<i64>(&token)?;
            }
        }
    }
}
