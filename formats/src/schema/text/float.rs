//! `printf("%g")` exactly as the old Microsoft C runtime (MSVCRT, Visual C++ 4.x
//! through Visual Studio 2013) printed a `float` promoted to `double`.
//!
//! This is the number style of the Maxis tools that wrote the Sims 1 `.cmx` and
//! `.skn` files: `-5.88894e-005`, `0.00807638`, `700000`, `1e+006`.
//!
//! # What the old CRT did (and why this is not just `format!("{:.5e}")`)
//!
//! The printf path is `_cftog` -> `_fltout` -> `$I10_OUTPUT` -> `_fptostr` ->
//! `_cropzeros`:
//!
//! 1. `_fltout` converts the double to an 80-bit value (`___dtold`, which drops
//!    the sign of a zero) and calls `$I10_OUTPUT(ld, 17, ..)`. That produces 18
//!    digits by *truncation* and rounds them to 17 **half-up on the 18th digit
//!    alone**, then drops trailing zeros. Zero gets sign `' '`.
//! 2. `_fptostr(buf, precision, ..)` keeps `precision` digits and rounds
//!    **half-up** (`if (*mantissa >= '5')`) on the next digit of that
//!    17-digit string: a decimal tie rounds away from zero, not to even.
//! 3. `%g` picks e-style when the exponent *after rounding* is below -4 or
//!    at least the precision; the exponent is always written with a sign and
//!    at least three digits (`e+006`, `e-045`).
//! 4. `_cropzeros` removes trailing zeros and then a bare decimal point.
//!
//! Consequences that differ from a naive `format!("{:.5e}")` (which rounds
//! exact ties to even):
//! * `1.015625` (an exact f32 tie at 7 digits) prints `1.01563`, not `1.01562`.
//! * `-0.0` prints `0` (the sign of zero is dropped twice, in `___dtold` and
//!   in `$I10_OUTPUT`).
//! * Infinities and NaNs print `1.#INF`, `-1.#INF`, `1.#QNAN`, `-1.#QNAN`,
//!   `-1.#IND` (the x86 "indefinite" NaN, sign set and only the quiet bit).
//!
//! The only thing not reproduced bit for bit is `$I10_OUTPUT`'s own 80-bit
//! arithmetic: digits are taken here from the exact binary value, where the CRT
//! used an approximation good to about 19-20 digits. That can only change the
//! output when the exact digits 7..17 of a value read `4999999999 9` (or the
//! like) right at a 17-digit rounding boundary, about one value in 10^11.

use std::fmt::Write as _;

use super::stack_text::{NumberText, StackText};

/// Significant digits of a number (at most 17).
type Digits = StackText<24>;

/// `printf("%g", (double)x)` as the old MSVC CRT printed it (precision 6).
pub fn format_g(x: f32) -> String {
    format_g_prec(x, 6).as_str().to_owned()
}

/// [`format_g`] on the stack, for readers and writers that format every number.
pub(crate) fn g_text(x: f32) -> NumberText {
    format_g_prec(x, 6)
}

/// `printf("%.<precision>g", (double)x)` as the old MSVC CRT printed it.
/// `precision` 0 means 1, as in C. Precisions above 11 are clamped to 11,
/// where the fast path's reasoning (p + 6 <= 17 digits) still holds.
fn format_g_prec(x: f32, precision: usize) -> NumberText {
    let p = precision.clamp(1, 11);
    let mut out = NumberText::new();
    if x.is_nan() || x.is_infinite() {
        let _ = out.push_bytes(special(x).as_bytes());
        return out;
    }
    if x == 0.0 {
        let _ = out.push(b'0'); // sign of zero dropped by the CRT
        return out;
    }
    let (digits, exp) = msvc_digits(f64::from(x), p);
    let e_style = exp < -4 || exp >= p as i32;
    lay_out(
        &mut out,
        x.is_sign_negative(),
        digits.as_bytes(),
        exp,
        e_style,
    );
    out
}

/// Writes significant `digits` whose first has decimal exponent `exp`:
/// `d.ddde+XXX` (MSVC's e-style, three exponent digits at least), or
/// positional (`123.45`, `0.00012`, `700000`), trailing zeros after the
/// point cropped as `_cropzeros` does. Rust's `Display` for `f32` lays out
/// its shortest digits positionally the same way.
fn lay_out(out: &mut NumberText, negative: bool, digits: &[u8], exp: i32, e_style: bool) {
    // Every caller's text fits a NumberText, so the pushes cannot fail.
    if negative {
        let _ = out.push(b'-');
    }
    let (first, rest) = digits.split_at(1.min(digits.len()));
    if e_style {
        let _ = out.push_bytes(first);
        push_fraction(out, rest);
        let sign = if exp < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:03}", exp.unsigned_abs());
    } else if exp >= 0 {
        let int_len = exp.unsigned_abs() as usize + 1;
        let (int_part, fraction) = digits.split_at(int_len.min(digits.len()));
        let _ = out.push_bytes(int_part);
        for _ in int_part.len()..int_len {
            let _ = out.push(b'0');
        }
        push_fraction(out, fraction);
    } else {
        let _ = out.push_bytes(b"0.");
        for _ in 0..(-exp - 1) {
            let _ = out.push(b'0');
        }
        let _ = out.push_bytes(trim_zeros(digits)); // never empty: the first digit is not 0
    }
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let kept = digits
        .iter()
        .rposition(|&d| d != b'0')
        .map_or(0, |last| last + 1);
    digits.get(..kept).unwrap_or_default()
}

/// `.ddd` with trailing zeros (and then a bare point) dropped, as `_cropzeros`.
fn push_fraction(out: &mut NumberText, fraction: &[u8]) {
    let kept = trim_zeros(fraction);
    if !kept.is_empty() {
        let _ = out.push(b'.');
        let _ = out.push_bytes(kept);
    }
}

/// Whether each style prints `value` (read from `token`) as `token`
/// (`%g`, then `Display`), decided from the token's shape where that is
/// enough: `None` where only formatting the value can tell.
///
/// A token of at most 6 significant digits whose value is a normal `f32`
/// is the value's own shortest spelling (6-digit decimals map to distinct
/// floats and back) and its `%g` digits (the float lies within 2^-24 of the
/// token, far inside half a unit of its 6th digit); it is then printed as
/// it is when it is laid out as that style lays out those digits. `%g`
/// never prints more than 6 digits; `Display` never an exponent. A zero
/// prints as `0` (and `-0` in `Display`).
pub(crate) fn printed_by_shape(token: &[u8], value: f32) -> [Option<bool>; 2] {
    if value == 0.0 {
        let shortest: &[u8] = if value.is_sign_negative() {
            b"-0"
        } else {
            b"0"
        };
        return [Some(token == b"0"), Some(token == shortest)];
    }
    let Some(shape) = Shape::of(token) else {
        return [None, None];
    };
    let digit_count = shape.digits.as_bytes().len();
    let msvc_never = digit_count > 6;
    let shortest_never = shape.exponent_written;
    if digit_count > 6 || !value.is_normal() {
        return [msvc_never.then_some(false), shortest_never.then_some(false)];
    }
    let laid_out_as_token = |e_style: bool| {
        let mut text = NumberText::new();
        let digits = shape.digits.as_bytes();
        lay_out(&mut text, shape.negative, digits, shape.exp, e_style);
        text.as_bytes() == token
    };
    let positional = laid_out_as_token(false);
    let msvc = if shape.exp < -4 || shape.exp >= 6 {
        laid_out_as_token(true)
    } else {
        positional
    };
    [Some(msvc), Some(positional && !shortest_never)]
}

/// A decimal token taken apart: its sign, its significant digits (no
/// leading or trailing zeros) and the decimal exponent of the first.
struct Shape {
    negative: bool,
    digits: Digits,
    exp: i32,
    exponent_written: bool,
}

impl Shape {
    /// `None` for a token that is not `[-]digits[.digits][e[+-]digits]`,
    /// has no non-zero digit, or has more than 17 significant digits.
    fn of(token: &[u8]) -> Option<Shape> {
        let (negative, unsigned) = match token.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, token),
        };
        let (mantissa, exponent) = match unsigned.iter().position(|&b| b == b'e') {
            Some(at) => (unsigned.get(..at)?, Some(unsigned.get(at + 1..)?)),
            None => (unsigned, None),
        };
        let written_exp = match exponent {
            Some(text) => std::str::from_utf8(text).ok()?.parse::<i32>().ok()?,
            None => 0,
        };
        let mut digits = Digits::new();
        // Digits before the point, counted from the first significant one.
        let mut int_digits: i32 = 0;
        let mut leading_zeros_after_point: i32 = 0;
        let mut seen_point = false;
        for &byte in mantissa {
            match byte {
                b'.' if !seen_point => seen_point = true,
                b'0'..=b'9' => {
                    let significant = byte != b'0' || !digits.as_bytes().is_empty();
                    if significant {
                        digits.push(byte).ok()?;
                    } else if seen_point {
                        leading_zeros_after_point += 1;
                    }
                    if !seen_point && significant {
                        int_digits += 1;
                    }
                }
                _ => return None,
            }
        }
        let significant = trim_zeros(digits.as_bytes()).len();
        let mut trimmed = Digits::new();
        trimmed
            .push_bytes(digits.as_bytes().get(..significant)?)
            .ok()?;
        if trimmed.as_bytes().is_empty() {
            return None;
        }
        let exp = if int_digits > 0 {
            int_digits - 1
        } else {
            -leading_zeros_after_point - 1
        };
        Some(Shape {
            negative,
            digits: trimmed,
            exp: exp.checked_add(written_exp)?,
            exponent_written: exponent.is_some(),
        })
    }
}

/// Parses a token in this style, accepting the CRT's special values.
/// NaN payloads other than the class cannot come back from text: `1.#QNAN`
/// gives `0x7FC00000`, `-1.#QNAN` gives `0xFFC00001` (any non-indefinite
/// negative quiet NaN would do), `-1.#IND` gives `0xFFC00000`.
pub fn parse_g(token: &str) -> Option<f32> {
    match token {
        "1.#INF" => Some(f32::INFINITY),
        "-1.#INF" => Some(f32::NEG_INFINITY),
        "1.#QNAN" | "1.#IND" => Some(f32::from_bits(0x7FC0_0000)),
        "-1.#QNAN" => Some(f32::from_bits(0xFFC0_0001)),
        "-1.#IND" => Some(f32::from_bits(0xFFC0_0000)),
        "1.#SNAN" => Some(f32::from_bits(0x7FA0_0000)),
        "-1.#SNAN" => Some(f32::from_bits(0xFFA0_0000)),
        _ => {
            let plain = !token.is_empty()
                && token
                    .bytes()
                    .all(|c| c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E'));
            // Refuses "inf", "nan" and "infinity", which `str::parse` accepts.
            if plain {
                token.parse::<f32>().ok()
            } else {
                None
            }
        }
    }
}

/// What `%g` printed for a NaN or infinity (f32 promoted to double).
fn special(x: f32) -> &'static str {
    let bits = x.to_bits();
    let negative = bits >> 31 == 1;
    if x.is_infinite() {
        return if negative { "-1.#INF" } else { "1.#INF" };
    }
    // float -> double promotion (fld / cvtss2sd) sets the quiet bit, so a
    // signalling f32 NaN prints as QNAN. IND = sign set, payload only the quiet bit.
    let payload = bits & 0x003F_FFFF; // below the quiet bit
    match (negative, payload) {
        (true, 0) => "-1.#IND",
        (true, _) => "-1.#QNAN",
        (false, _) => "1.#QNAN",
    }
}

/// The `p` significant digits the CRT prints for finite non-zero `v`, and the
/// decimal exponent of the first digit (after rounding).
fn msvc_digits(v: f64, p: usize) -> (Digits, i32) {
    // Fast path: p + 6 correctly rounded digits decide the rounding unless the
    // six digits after the p-th sit next to the half-way point (or a carry
    // reached them), where the CRT's two-stage half-up rounding needs the
    // exact expansion.
    //
    // Why this is enough (R = the p+6 correctly rounded digits, D = its last
    // six): D >= 500001 means the exact tail is above one half by more than
    // the CRT's 17-digit stage can move it, so both round up; D <= 499998
    // means both keep the digits. D = 000000 with a carry from below means
    // the exact digits were ...999999x, which the CRT rounds up too, giving
    // the same first p digits as R. Only 499999 and 500000 are undecided.
    let mut text = StackText::<40>::new();
    let _ = write!(text, "{:.*e}", p + 5, v.abs());
    let (mantissa, exp) = split_e(text.as_bytes());
    let mantissa = mantissa.as_bytes();
    let (kept, guard) = mantissa.split_at(p.min(mantissa.len()));
    if guard != b"499999" && guard != b"500000" {
        return round_up_if(kept, exp, guard >= b"5".as_slice());
    }
    exact_msvc_digits(v, p)
}

/// Exact emulation: truncate the exact expansion to 18 digits, round half-up
/// on the 18th to 17 (`$I10_OUTPUT`), then half-up to `p` (`_fptostr`).
fn exact_msvc_digits(v: f64, p: usize) -> (Digits, i32) {
    // f32 values have at most 112 significant digits; 130 gives the exact
    // expansion (Rust's exact mode pads with zeros past the last digit).
    let mut text = StackText::<160>::new();
    let _ = write!(text, "{:.130e}", v.abs());
    let (mantissa, exp) = split_e(text.as_bytes());
    let mantissa = mantissa.as_bytes();
    let (first17, rest) = mantissa.split_at(17.min(mantissa.len()));
    let (digits17, exp17) = round_up_if(first17, exp, rest >= b"5".as_slice());
    let digits17 = digits17.as_bytes();
    let (kept, next) = digits17.split_at(p.min(digits17.len()));
    round_up_if(kept, exp17, next >= b"5".as_slice())
}

/// Digits and exponent of Rust's `d.ddde[-]N` output (always well formed).
fn split_e(text: &[u8]) -> (StackText<160>, i32) {
    let (mantissa, exp) = match text.iter().position(|&b| b == b'e') {
        Some(at) => text.split_at(at),
        None => (text, b"e0".as_slice()),
    };
    let mut digits = StackText::<160>::new();
    for &byte in mantissa.iter().filter(|byte| byte.is_ascii_digit()) {
        let _ = digits.push(byte);
    }
    let exp = std::str::from_utf8(exp.get(1..).unwrap_or_default())
        .ok()
        .and_then(|exp| exp.parse().ok())
        .unwrap_or(0);
    (digits, exp)
}

/// Adds one unit in the last place when `up`; a carry out of the first digit
/// gives `1000..` and bumps the exponent (the CRT's overflow digit).
fn round_up_if(digits: &[u8], exp: i32, up: bool) -> (Digits, i32) {
    let mut rounded = Digits::new();
    let _ = rounded.push_bytes(digits);
    let mut exp = exp;
    if up {
        let mut carry = true;
        for digit in rounded.bytes_mut().iter_mut().rev() {
            if *digit == b'9' {
                *digit = b'0';
            } else {
                *digit += 1;
                carry = false;
                break;
            }
        }
        if carry {
            if let Some(first) = rounded.bytes_mut().first_mut() {
                *first = b'1';
            }
            exp += 1;
        }
    }
    (rounded, exp)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(x: f32) -> String {
        format_g(x)
    }

    /// Parse `token` and check that this style prints it back byte for byte.
    fn token_in_style(token: &str) -> bool {
        parse_g(token).is_some_and(|value| format_g(value) == token)
    }

    #[test]
    fn examples_from_the_files() {
        assert_eq!(g(-5.88894e-5), "-5.88894e-005");
        assert_eq!(g(1.72489e-8), "1.72489e-008");
        assert_eq!(g(3.01362), "3.01362");
        assert_eq!(g(0.00807638), "0.00807638");
        assert_eq!(g(-0.706899), "-0.706899");
        assert_eq!(g(0.5), "0.5");
        assert_eq!(g(-1.0), "-1");
        assert_eq!(g(700000.0), "700000");
        assert_eq!(g(0.05), "0.05");
        assert_eq!(g(1999.0), "1999");
        assert_eq!(g(6.71966), "6.71966");
        assert_eq!(g(0.000317027), "0.000317027");
        assert_eq!(g(-2.95136e-15), "-2.95136e-015");
    }

    #[test]
    fn style_switch_uses_exponent_after_rounding() {
        assert_eq!(g(1e6), "1e+006");
        assert_eq!(g(999999.0), "999999");
        assert_eq!(g(999999.5), "1e+006"); // rounds up to 1000000 -> e-style
        assert_eq!(g(123456.0), "123456");
        assert_eq!(g(1234567.0), "1.23457e+006");
        assert_eq!(g(0.0001), "0.0001");
        assert_eq!(g(0.00001), "1e-005");
        assert_eq!(g(0.000123456), "0.000123456");
        assert_eq!(g(0.0000999999), "9.99999e-005");
        assert_eq!(g(0.00009999996), "0.0001"); // rounds to 1e-4 -> f-style
        assert_eq!(g(9.999996), "10");
        assert_eq!(g(1.5e-45), "1.4013e-045"); // smallest subnormal
        assert_eq!(g(f32::MAX), "3.40282e+038");
        assert_eq!(g(f32::MIN_POSITIVE), "1.17549e-038");
        assert_eq!(g(100.0), "100");
        assert_eq!(g(0.1), "0.1");
        assert_eq!(g(-0.25), "-0.25");
        assert_eq!(g(f32::from_bits(0.5f32.to_bits() - 1)), "0.5"); // 0.49999997
        assert_eq!(g(f32::from_bits(1.0f32.to_bits() - 1)), "1"); // 0.99999994
        assert_eq!(g(f32::from_bits(1.0f32.to_bits() + 1)), "1"); // 1.0000001
    }

    #[test]
    fn ties_round_half_up_like_fptostr() {
        // exact f32 values with 7 significant digits ending in 5
        assert_eq!(g(1.015625), "1.01563"); // Rust's {:.5e} gives 1.01562
        assert_eq!(g(-1.015625), "-1.01563");
        assert_eq!(g(1234565.0), "1.23457e+006");
        assert_eq!(g(1234575.0), "1.23458e+006");
        assert_eq!(g(0.0078125 * 1.25), "0.00976563"); // 0.009765625
        assert_eq!(format_g_prec(2.5, 1), "3");
        assert_eq!(format_g_prec(0.125, 2), "0.13");
    }

    #[test]
    fn zero_and_specials() {
        assert_eq!(g(0.0), "0");
        assert_eq!(g(-0.0), "0");
        assert_eq!(g(f32::INFINITY), "1.#INF");
        assert_eq!(g(f32::NEG_INFINITY), "-1.#INF");
        assert_eq!(g(f32::from_bits(0x7FC0_0000)), "1.#QNAN");
        assert_eq!(g(f32::from_bits(0xFFC0_0000)), "-1.#IND");
        assert_eq!(g(f32::from_bits(0xFFC0_0001)), "-1.#QNAN");
        assert_eq!(g(f32::from_bits(0x7F80_0001)), "1.#QNAN"); // sNaN quieted by promotion
        for token in ["1.#INF", "-1.#INF", "1.#QNAN", "-1.#QNAN", "-1.#IND"] {
            assert!(token_in_style(token), "{token}");
        }
        assert!(!token_in_style("-0"));
        assert!(token_in_style("0"));
        assert!(!token_in_style("inf"));
        assert!(!token_in_style("nan"));
    }

    #[test]
    fn other_styles_are_rejected() {
        for token in [
            "1e-05",
            "1.5e-05",
            "1e+06",
            "1.000000",
            "0.10",
            "1.",
            ".5",
            "+1",
            "01",
            "1E-005",
            "0.1234567",
            "3.0136199",
            "-0",
            "1.72489e-08",
            "5.0e-005",
        ] {
            assert!(!token_in_style(token), "{token} should not be in style");
        }
        for token in [
            "1",
            "-1",
            "0.5",
            "1e-005",
            "1.5e-005",
            "1e+006",
            "123456",
            "-3.40282e+038",
        ] {
            assert!(token_in_style(token), "{token} should be in style");
        }
    }

    #[test]
    fn fast_path_agrees_with_exact_emulation() {
        // xorshift over all exponents, plus neighbourhoods of ties
        let mut state: u32 = 0x9E37_79B9;
        let mut checked = 0;
        for _ in 0..40_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let x = f32::from_bits(state & 0x7FFF_FFFF);
            if !x.is_finite() || x == 0.0 {
                continue;
            }
            for p in [1, 3, 6, 9, 11] {
                let v = f64::from(x);
                assert_eq!(msvc_digits(v, p), exact_msvc_digits(v, p), "{x:e} p={p}");
            }
            checked += 1;
        }
        for k in 0..4096u32 {
            // x = (2k+1)/64 + 1 and neighbours: many 7-digit ties
            let x = 1.0 + (2 * k + 1) as f32 / 64.0;
            for step in [-1i32, 0, 1] {
                let y = f64::from(f32::from_bits(x.to_bits().wrapping_add_signed(step)));
                assert_eq!(msvc_digits(y, 6), exact_msvc_digits(y, 6), "{y:e}");
            }
        }
        // neighbours of short decimals: the "000000 after a carry" case
        for base in [
            1.0f32, 0.5, 0.1, 10.0, 100.0, 1e-5, 0.3, 2.0e6, 123.456, 9.99999,
        ] {
            for step in -4i32..=4 {
                let y = f64::from(f32::from_bits(base.to_bits().wrapping_add_signed(step)));
                for p in 1..=11 {
                    assert_eq!(msvc_digits(y, p), exact_msvc_digits(y, p), "{y:e} p={p}");
                }
            }
        }
        assert!(checked > 20_000);
    }

    #[test]
    fn every_printed_value_reads_back_to_itself() {
        // A 6-digit token re-reads to an f32 that prints the same token
        // (FLT_DIG = 6), subnormals included.
        let mut state: u32 = 12345;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let x = f32::from_bits(state);
            let token = format_g(x);
            let back = parse_g(&token).unwrap_or_else(|| panic!("{token} does not parse"));
            assert_eq!(format_g(back), token, "{x:e}");
        }
    }
}
