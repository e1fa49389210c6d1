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

use super::digits::{leading_digits, take_digits, POWERS_OF_TEN};
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
/// the most the tests check.
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
    let (digits, exp) =
        integer_msvc_digits(x, p).unwrap_or_else(|| exact_msvc_digits(f64::from(x), p));
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

/// A number token in the shape both styles print, taken apart in one pass
/// over its bytes: `[-]digits[.digits][e(+|-)digits]`, at most 17
/// significant digits and an exponent of at most 3 digits, ending at a
/// space, a tab, a line ending or the end of the text. Any other spelling
/// (`+1`, `.5`, `1E5`, `1.#INF`) is left to [`parse_g`] and formatting.
struct Decimal {
    /// The bytes the token takes.
    len: usize,
    negative: bool,
    /// The digits from the first non-zero one on, as an integer.
    mantissa: u64,
    /// Significant digits: from the first non-zero digit to the last.
    significant: usize,
    /// The decimal exponent of the first significant digit.
    exp: i32,
    /// The power of ten `mantissa` is multiplied by.
    scale: i32,
    /// The integer part is `0` or has no leading zero.
    integer_canonical: bool,
    /// The integer part is one digit from 1 to 9, as e-style's.
    integer_one_nonzero_digit: bool,
    /// There is no fraction, or its last digit is not 0.
    fraction_canonical: bool,
    /// The exponent as written: whether its sign is `-`, and its digits.
    exponent: Option<(bool, usize)>,
}

/// How many decimal digits `value` (below 10^17) has; 0 for 0.
#[inline(always)]
fn decimal_digits(value: u64) -> usize {
    // A value of b bits has floor(b log10 2) digits or one more.
    let bits = (u64::BITS - value.leading_zeros()) as usize;
    let fewer = (bits * 1233) >> 12;
    fewer
        + usize::from(
            POWERS_OF_TEN
                .get(fewer)
                .is_some_and(|&power| value >= power),
        )
}

/// The digits from the first non-zero one on, as an integer, and how many
/// there are, for digits whose leading zeros make them more than 17 in
/// all; `None` when more than 17 remain.
#[cold]
fn without_leading_zeros(integer: &[u8], fraction: &[u8]) -> Option<(u64, usize)> {
    let mut significant = integer
        .iter()
        .chain(fraction)
        .skip_while(|&&digit| digit == b'0');
    let mut mantissa = 0u64;
    let mut count = 0;
    for &digit in significant.by_ref().take(18) {
        mantissa = mantissa * 10 + u64::from(digit - b'0');
        count += 1;
    }
    (count <= 17).then_some((mantissa, count))
}

impl Decimal {
    #[inline(always)]
    fn scan(text: &[u8]) -> Option<Self> {
        let negative = text.first() == Some(&b'-');
        let integer_start = usize::from(negative);
        let mut mantissa = 0u64;
        let integer_end = take_digits(text, integer_start, &mut mantissa);
        let integer_first = *text
            .get(integer_start)
            .filter(|_| integer_end > integer_start)?;
        let integer_len = integer_end - integer_start;
        let fraction_start = integer_end + 1;
        let digits_end = match text.get(integer_end) {
            Some(b'.') => match take_digits(text, fraction_start, &mut mantissa) {
                end if end == fraction_start => return None,
                end => end,
            },
            _ => integer_end,
        };
        let fraction_len = digits_end.saturating_sub(fraction_start);
        let last_digit_zero = text.get(digits_end - 1) == Some(&b'0');
        let (mantissa, mantissa_digits) = if integer_len + fraction_len <= 17 {
            (mantissa, decimal_digits(mantissa))
        } else {
            without_leading_zeros(
                text.get(integer_start..integer_end).unwrap_or_default(),
                text.get(fraction_start..digits_end).unwrap_or_default(),
            )?
        };
        let significant = if last_digit_zero && mantissa != 0 {
            let mut trailing_zeros = 0;
            let mut rest = mantissa;
            while rest % 10 == 0 {
                rest /= 10;
                trailing_zeros += 1;
            }
            mantissa_digits - trailing_zeros
        } else {
            mantissa_digits
        };
        let mut at = digits_end;
        let mut exponent = None;
        let mut written_exp = 0i32;
        if text.get(at) == Some(&b'e') {
            let negative_exponent = match text.get(at + 1) {
                Some(b'-') => true,
                Some(b'+') => false,
                _ => return None,
            };
            let start = at + 2;
            at = start;
            while let Some(digit) = text.get(at).filter(|byte| byte.is_ascii_digit()) {
                written_exp = written_exp * 10 + i32::from(digit - b'0');
                at += 1;
                if at - start > 3 {
                    return None;
                }
            }
            if at == start {
                return None;
            }
            if negative_exponent {
                written_exp = -written_exp;
            }
            exponent = Some((negative_exponent, at - start));
        }
        if !matches!(text.get(at), None | Some(b' ' | b'\t' | b'\r' | b'\n')) {
            return None;
        }
        let scale = written_exp.saturating_sub(i32::try_from(fraction_len).unwrap_or(i32::MAX));
        let exp = match mantissa_digits {
            0 => 0,
            count => scale.saturating_add(count as i32 - 1),
        };
        Some(Decimal {
            len: at,
            negative,
            mantissa,
            significant,
            exp,
            scale,
            integer_canonical: integer_first != b'0' || integer_len == 1,
            integer_one_nonzero_digit: integer_len == 1 && integer_first != b'0',
            fraction_canonical: fraction_len == 0 || !last_digit_zero,
            exponent,
        })
    }

    /// The token's value, when one correctly rounded `f32` operation gives
    /// it: a mantissa below 2^24 times or over a power of ten that `f32`
    /// holds exactly (up to 10^10). Otherwise `None`, for `str::parse`.
    #[inline(always)]
    fn exact_value(&self) -> Option<f32> {
        const POWERS: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
        if self.mantissa >= 1 << 24 {
            return None;
        }
        let mantissa = self.mantissa as f32;
        let power = POWERS.get(self.scale.unsigned_abs() as usize)?;
        let magnitude = if self.scale >= 0 {
            mantissa * power
        } else {
            mantissa / power
        };
        // The sign set without a branch: half the numbers of a file have it.
        Some(f32::from_bits(
            magnitude.to_bits() | u32::from(self.negative) << 31,
        ))
    }

    /// Laid out positionally as both styles lay out a number's digits:
    /// no exponent, no leading zero but a lone `0` before the point, a
    /// fraction without trailing zeros.
    fn positional(&self) -> bool {
        self.exponent.is_none() && self.integer_canonical && self.fraction_canonical
    }

    /// Laid out as MSVC's e-style: one non-zero digit, a fraction without
    /// trailing zeros, `e`, the exponent's sign and three digits.
    fn e_style(&self) -> bool {
        let exponent_canonical = self
            .exponent
            .is_some_and(|(negative, digits)| digits == 3 && negative == (self.exp < 0));
        self.integer_one_nonzero_digit && self.fraction_canonical && exponent_canonical
    }

    /// Whether each style prints `value`, read from `token` (this
    /// decimal's bytes), as the token: `%g`, then `Display`. `None` where
    /// only formatting the value can tell.
    ///
    /// A token of at most 6 significant digits whose value is a normal
    /// `f32` is the value's own shortest spelling (6-digit decimals map to
    /// distinct floats and back) and its `%g` digits (the float lies within
    /// 2^-24 of the token, far inside half a unit of its 6th digit); it is
    /// then printed as it is when it is laid out as that style lays out
    /// those digits. `%g` never prints more than 6 digits; `Display` never
    /// an exponent. A zero prints as `0` (and `-0` in `Display`).
    ///
    /// `zero` and `normal` say what the value is; a zero's sign is the
    /// token's.
    fn printed_by(&self, token: &[u8], zero: bool, normal: bool) -> [Option<bool>; 2] {
        if zero {
            let shortest: &[u8] = if self.negative { b"-0" } else { b"0" };
            return [Some(token == b"0"), Some(token == shortest)];
        }
        if self.significant > 6 || !normal {
            let msvc_never = self.significant > 6;
            let shortest_never = self.exponent.is_some();
            return [msvc_never.then_some(false), shortest_never.then_some(false)];
        }
        let msvc = if self.exp < -4 || self.exp >= 6 {
            self.e_style()
        } else {
            self.positional()
        };
        [Some(msvc), Some(self.positional())]
    }
}

/// [`read_leading_decimal`] for the commonest token, `[-]d.ddd` with at
/// most 6 significant digits, the last not 0 (`-0.706899`, `0.0271739`,
/// `3.5`), when 8 bytes follow its point: one load holds its fraction and
/// the byte after it. `None` for any other token, which [`Decimal::scan`]
/// takes.
///
/// Both styles print such a token's value as the token (see
/// [`Decimal::printed_by`]), except that `%g` gives one whose first digit
/// stands below 10^-4 an exponent.
#[inline(always)]
fn read_short_fraction(text: &[u8]) -> Option<(f32, [Option<bool>; 2], usize)> {
    const POWERS: [f32; 8] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7];
    let negative = text.first() == Some(&b'-');
    let start = usize::from(negative);
    let [unit, b'.', after_point @ ..] = text.get(start..)? else {
        return None;
    };
    let unit = unit.wrapping_sub(b'0');
    let fraction = after_point.first_chunk::<8>()?;
    let (digits, fraction_value) = leading_digits(*fraction);
    let last_digit = fraction.get(digits.checked_sub(1)?)?;
    let ends = matches!(fraction.get(digits), Some(b' ' | b'\t' | b'\r' | b'\n'));
    let scale = POWERS_OF_TEN.get(digits)?;
    let mantissa = u64::from(unit) * scale + fraction_value;
    if unit > 9 || !ends || *last_digit == b'0' || mantissa >= 1_000_000 {
        return None;
    }
    // Below 10^6 over at most 10^7: exact in `f32`, one rounding.
    let magnitude = mantissa as f32 / POWERS.get(digits)?;
    let value = f32::from_bits(magnitude.to_bits() | u32::from(negative) << 31);
    // The first digit stands at 10^(d - digits - 1) for a mantissa of d
    // digits: below 10^-4 when the mantissa is below 10^(digits - 4).
    let above_e_style = digits < 4
        || POWERS_OF_TEN
            .get(digits - 4)
            .is_some_and(|&power| mantissa >= power);
    Some((value, [Some(above_e_style), Some(true)], start + 2 + digits))
}

/// The number token at the start of `text`, which ends at a space, a tab,
/// a line ending or the end of `text`: its value, whether each style
/// (`%g`, then `Display`) prints that value as the token (`None`: only
/// formatting can tell), and its length, for the tokens both styles print;
/// `None` for any other spelling.
#[inline(always)]
pub(crate) fn read_leading_decimal(text: &[u8]) -> Option<(f32, [Option<bool>; 2], usize)> {
    if let Some(read) = read_short_fraction(text) {
        return Some(read);
    }
    let decimal = Decimal::scan(text)?;
    let token = text.get(..decimal.len)?;
    // An exact value lies between 1e-10 and 2^24 * 1e10 unless it is 0:
    // what it is is known before the division that gives it ends.
    let (value, zero, normal) = match decimal.exact_value() {
        Some(value) => (value, decimal.mantissa == 0, decimal.mantissa != 0),
        None => {
            let value = std::str::from_utf8(token).ok()?.parse::<f32>().ok()?;
            (value, value == 0.0, value.is_normal())
        }
    };
    let decided = decimal.printed_by(token, zero, normal);
    Some((value, decided, decimal.len))
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

/// The `p` significant digits the CRT prints for finite non-zero `x` and
/// the decimal exponent of the first (after rounding), by integer
/// arithmetic on `x`'s exact value: [`rounded_17`], then half-up to `p`
/// digits. `None` where `rounded_17` gives none.
fn integer_msvc_digits(x: f32, p: usize) -> Option<(Digits, i32)> {
    let (digits17, exp17) = rounded_17(x)?;
    let divisor = 10u64.pow(17 - p as u32);
    let mut kept = digits17 / divisor;
    let mut exp = exp17;
    if 2 * (digits17 % divisor) >= divisor {
        kept += 1;
        // A carry out of the first digit: 999999.5 -> 1000000.
        if kept == 10u64.pow(p as u32) {
            kept /= 10;
            exp += 1;
        }
    }
    let mut ascii = [b'0'; 17];
    let ascii = ascii.get_mut(..p)?;
    for slot in ascii.iter_mut().rev() {
        *slot = b'0' + (kept % 10) as u8;
        kept /= 10;
    }
    let mut digits = Digits::new();
    digits.push_bytes(ascii).ok()?;
    Some((digits, exp))
}

/// `x`'s exact value (finite, non-zero) rounded half-up to 17 significant
/// digits, as `$I10_OUTPUT` rounds it: the digits as an integer in
/// `[10^16, 10^17)` and the decimal exponent of the first. `x` is
/// `m * 2^e` with `m < 2^24`, so `x * 10^k` is `m * 10^k` shifted, exact in
/// 128 bits down to `|x|` = 1e-15 (`k` <= 31); `None` below that.
fn rounded_17(x: f32) -> Option<(u64, i32)> {
    const LOW: u128 = 10u128.pow(16);
    const HIGH: u128 = 10u128.pow(17);
    let bits = x.to_bits() & 0x7FFF_FFFF;
    let biased = (bits >> 23) as i32;
    let (m, e) = match biased {
        0 => (bits, -149),
        _ => (bits & 0x7F_FFFF | 0x80_0000, biased - 150),
    };
    if m == 0 || biased == 0xFF {
        return None;
    }
    let log2 = 31 - m.leading_zeros() as i32 + e;
    // floor(log10 x) is floor(log2 * log10(2)) or one more.
    let mut exp10 = (log2 * 78_913) >> 18;
    for _ in 0..2 {
        let (truncated, rounded) = scaled(m, e, 16 - exp10)?;
        if truncated >= HIGH {
            exp10 += 1;
            continue;
        }
        if truncated < LOW {
            return None;
        }
        // Rounding up 99..9.5 gives 10^17: one digit more, as the CRT's carry.
        return Some(if rounded == HIGH {
            (LOW as u64, exp10 + 1)
        } else {
            (rounded as u64, exp10)
        });
    }
    None
}

/// `m * 2^e * 10^k` truncated and rounded half-up to an integer, when the
/// arithmetic fits 128 bits.
fn scaled(m: u32, e: i32, k: i32) -> Option<(u128, u128)> {
    let m = u128::from(m);
    if k >= 0 {
        let numerator = m.checked_mul(10u128.checked_pow(k as u32)?)?;
        if e >= 0 {
            let value = numerator
                .checked_shl(e as u32)
                .filter(|v| v >> e == numerator)?;
            return Some((value, value));
        }
        let shift = e.unsigned_abs();
        if shift >= 128 {
            return None;
        }
        let truncated = numerator >> shift;
        let remainder = numerator - (truncated << shift);
        let half = 1u128 << (shift - 1);
        Some((truncated, truncated + u128::from(remainder >= half)))
    } else {
        let divisor = 10u128.checked_pow(k.unsigned_abs())?;
        // Only large values get here: e >= 0 and m * 2^e below 2^128.
        let numerator = m.checked_shl(u32::try_from(e).ok()?)?;
        let truncated = numerator / divisor;
        let remainder = numerator % divisor;
        Some((truncated, truncated + u128::from(2 * remainder >= divisor)))
    }
}

/// Exact emulation: truncate the exact expansion to 18 digits, round half-up
/// on the 18th to 17 (`$I10_OUTPUT`), then half-up to `p` (`_fptostr`).
/// For the values [`integer_msvc_digits`] cannot take (below 1e-15).
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
    fn integer_digits_agree_with_exact_emulation() {
        let mut state: u32 = 0x2545_F491;
        let mut checked = 0;
        let mut agree = |x: f32| {
            for p in 1..=11 {
                if let Some(digits) = integer_msvc_digits(x, p) {
                    assert_eq!(digits, exact_msvc_digits(f64::from(x), p), "{x:e} p={p}");
                    checked += 1;
                }
            }
        };
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            agree(f32::from_bits(state & 0x7FFF_FFFF));
        }
        // Ties at 7 digits and their neighbours.
        for k in 0..4096u32 {
            let tie = 1.0 + (2 * k + 1) as f32 / 64.0;
            for step in [-1i32, 0, 1] {
                agree(f32::from_bits(tie.to_bits().wrapping_add_signed(step)));
            }
        }
        // Neighbours of short decimals: digits ...999999x that carry.
        for base in [
            1.0f32, 0.5, 0.1, 10.0, 100.0, 1e-5, 0.3, 2.0e6, 123.456, 9.99999,
        ] {
            for step in -4i32..=4 {
                agree(f32::from_bits(base.to_bits().wrapping_add_signed(step)));
            }
        }
        // Neighbours of powers of ten.
        for exp in -15..=38 {
            let power = format!("1e{exp}").parse::<f32>().unwrap_or(1.0);
            for base in [power, 9.999995 * power, 0.5 * power, 123.456 * power] {
                for step in -4i32..=4 {
                    agree(f32::from_bits(base.to_bits().wrapping_add_signed(step)));
                }
            }
        }
        agree(f32::MAX);
        agree(1e-15);
        assert!(checked > 500_000, "{checked}");
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

/// The previous reader's decisions, token by token (a token taken apart in
/// several passes), against which the one-pass scan is checked.
#[cfg(test)]
mod previous {

    /// A number token in the shape both styles print, taken apart in one pass:
    /// `[-]digits[.digits][e(+|-)digits]`, at most 17 significant digits and
    /// an exponent of at most 3 digits. Any other spelling (`+1`, `.5`, `1E5`,
    /// `1.#INF`) is left to [`parse_g`] and formatting.
    struct Decimal<'t> {
        token: &'t [u8],
        negative: bool,
        integer: &'t [u8],
        /// The digits after the point; `None` without a point.
        fraction: Option<&'t [u8]>,
        /// The exponent's sign and digits as written; `None` without one.
        exponent: Option<(u8, &'t [u8])>,
        /// The digits from the first non-zero one on, as an integer.
        mantissa: u64,
        /// How many digits `mantissa` holds (trailing zeros included).
        mantissa_digits: u32,
        /// Significant digits: from the first non-zero digit to the last.
        significant: u32,
        /// The decimal exponent of the first significant digit.
        exp: i32,
        /// The power of ten `mantissa` is multiplied by.
        scale: i32,
    }

    /// The digits at the start of `bytes` and what follows them.
    fn split_digits(bytes: &[u8]) -> (&[u8], &[u8]) {
        let len = bytes
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(bytes.len());
        bytes.split_at(len)
    }

    impl<'t> Decimal<'t> {
        fn of(token: &'t [u8]) -> Option<Self> {
            let (negative, unsigned) = match token.split_first() {
                Some((b'-', rest)) => (true, rest),
                _ => (false, token),
            };
            let (integer, rest) = split_digits(unsigned);
            let (fraction, rest) = match rest.split_first() {
                Some((b'.', after)) => {
                    let (fraction, rest) = split_digits(after);
                    (Some(fraction), rest)
                }
                _ => (None, rest),
            };
            let exponent = match rest {
                [] => None,
                [b'e', sign @ (b'+' | b'-'), digits @ ..] => Some((*sign, digits)),
                _ => return None,
            };
            let valid_exponent = exponent.is_none_or(|(_, digits)| {
                (1..=3).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit)
            });
            if integer.is_empty() || fraction.is_some_and(<[u8]>::is_empty) || !valid_exponent {
                return None;
            }
            let written_exp = exponent.map_or(0, |(sign, digits)| {
                let magnitude = digits
                    .iter()
                    .fold(0i32, |value, digit| value * 10 + i32::from(digit - b'0'));
                if sign == b'-' {
                    -magnitude
                } else {
                    magnitude
                }
            });
            let fraction_digits = fraction.unwrap_or_default();
            let mut decimal = Decimal {
                token,
                negative,
                integer,
                fraction,
                exponent,
                mantissa: 0,
                mantissa_digits: 0,
                significant: 0,
                exp: 0,
                scale: written_exp - fraction_digits.len() as i32,
            };
            let mut first_nonzero = None;
            for (index, &digit) in integer.iter().chain(fraction_digits).enumerate() {
                if digit != b'0' && first_nonzero.is_none() {
                    first_nonzero = Some(index);
                }
                if first_nonzero.is_some() {
                    decimal.mantissa_digits += 1;
                    if decimal.mantissa_digits > 17 {
                        return None;
                    }
                    decimal.mantissa = decimal.mantissa * 10 + u64::from(digit - b'0');
                    if digit != b'0' {
                        decimal.significant = decimal.mantissa_digits;
                    }
                }
            }
            if let Some(first) = first_nonzero {
                decimal.exp = integer.len() as i32 - 1 - first as i32 + written_exp;
            }
            Some(decimal)
        }

        /// The token's value, when one correctly rounded `f32` operation gives
        /// it: a mantissa below 2^24 times or over a power of ten that `f32`
        /// holds exactly (up to 10^10). Otherwise `None`, for `str::parse`.
        fn exact_value(&self) -> Option<f32> {
            const POWERS: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
            if self.mantissa >= 1 << 24 {
                return None;
            }
            let mantissa = self.mantissa as f32;
            let power = POWERS.get(self.scale.unsigned_abs() as usize)?;
            let magnitude = if self.scale >= 0 {
                mantissa * power
            } else {
                mantissa / power
            };
            Some(if self.negative { -magnitude } else { magnitude })
        }

        /// Laid out positionally as both styles lay out a number's digits:
        /// no exponent, no leading zero but a lone `0` before the point, a
        /// fraction without trailing zeros.
        fn positional(&self) -> bool {
            self.exponent.is_none() && self.integer_canonical() && self.fraction_canonical()
        }

        /// Laid out as MSVC's e-style: one non-zero digit, a fraction without
        /// trailing zeros, `e`, the exponent's sign and three digits.
        fn e_style(&self) -> bool {
            let exponent_canonical = self.exponent.is_some_and(|(sign, digits)| {
                digits.len() == 3 && (sign == b'-') == (self.exp < 0)
            });
            matches!(self.integer, [b'1'..=b'9']) && self.fraction_canonical() && exponent_canonical
        }

        fn integer_canonical(&self) -> bool {
            self.integer == b"0" || self.integer.first().is_some_and(|&digit| digit != b'0')
        }

        fn fraction_canonical(&self) -> bool {
            self.fraction
                .is_none_or(|digits| digits.last().is_some_and(|&digit| digit != b'0'))
        }

        /// Whether each style prints `value`, read from this token, as the
        /// token: `%g`, then `Display`. `None` where only formatting the value
        /// can tell.
        ///
        /// A token of at most 6 significant digits whose value is a normal
        /// `f32` is the value's own shortest spelling (6-digit decimals map to
        /// distinct floats and back) and its `%g` digits (the float lies within
        /// 2^-24 of the token, far inside half a unit of its 6th digit); it is
        /// then printed as it is when it is laid out as that style lays out
        /// those digits. `%g` never prints more than 6 digits; `Display` never
        /// an exponent. A zero prints as `0` (and `-0` in `Display`).
        fn printed_by(&self, value: f32) -> [Option<bool>; 2] {
            if value == 0.0 {
                let shortest: &[u8] = if value.is_sign_negative() {
                    b"-0"
                } else {
                    b"0"
                };
                return [Some(self.token == b"0"), Some(self.token == shortest)];
            }
            if self.significant > 6 || !value.is_normal() {
                let msvc_never = self.significant > 6;
                let shortest_never = self.exponent.is_some();
                return [msvc_never.then_some(false), shortest_never.then_some(false)];
            }
            let msvc = if self.exp < -4 || self.exp >= 6 {
                self.e_style()
            } else {
                self.positional()
            };
            [Some(msvc), Some(self.positional())]
        }
    }

    /// A number token's value, and whether each style (`%g`, then `Display`)
    /// prints that value as the token (`None`: only formatting can tell), for
    /// the tokens both styles print; `None` for any other spelling.
    pub(super) fn read_decimal(token: &[u8]) -> Option<(f32, [Option<bool>; 2])> {
        let decimal = Decimal::of(token)?;
        let value = match decimal.exact_value() {
            Some(value) => value,
            None => std::str::from_utf8(token).ok()?.parse::<f32>().ok()?,
        };
        Some((value, decimal.printed_by(value)))
    }
}

#[cfg(test)]
mod one_pass_tests {
    use super::*;

    /// Spellings of `value` in and out of both styles, and near misses.
    fn spellings(value: f32) -> Vec<String> {
        let shortest = format!("{value}");
        vec![
            format_g(value),
            shortest.clone(),
            format!("{value:e}"),
            format!("{value:.1}"),
            format!("{value:.3}"),
            format!("{value:.9}"),
            format!("{value:.7e}"),
            format!("{value:.16e}"),
            format!("+{value}"),
            format!("{shortest}0"),
            format!("0{shortest}"),
            format!("{shortest}e+000"),
            format!("{shortest}e-01"),
            format!("{shortest}e+0001"),
            format!("{}e-005", format_g(value)),
            format_g(value).replace("e", "E"),
            format_g(value).replace("e-0", "e-"),
            format_g(value).replace("e+0", "e0"),
        ]
    }

    /// The one-pass scan of `token` followed by `after`, against the
    /// previous reader's decisions on the token alone.
    fn agrees(token: &str, after: &str) {
        let text = format!("{token}{after}");
        let new = read_leading_decimal(text.as_bytes());
        // The previous reader's tokens ended at spaces and tabs, and its
        // lines at their endings.
        let first = text
            .split([' ', '\t', '\r', '\n'])
            .next()
            .unwrap_or_default();
        let old = previous::read_decimal(first.as_bytes());
        match (new, old) {
            (Some((value, decided, len)), Some((old_value, old_decided))) => {
                assert_eq!(value.to_bits(), old_value.to_bits(), "{text:?}");
                assert_eq!(decided, old_decided, "{text:?}");
                assert_eq!(len, first.len(), "{text:?}");
            }
            (None, None) => {}
            (new, old) => panic!("{text:?}: one pass {new:?}, before {old:?}"),
        }
    }

    #[test]
    fn one_pass_decides_as_the_previous_reader() {
        let mut state: u32 = 0x9E37_79B9;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        let mut values = vec![
            0.0f32,
            -0.0,
            1.0,
            0.5,
            1e-5,
            1e6,
            f32::MAX,
            f32::MIN_POSITIVE,
        ];
        for _ in 0..40_000 {
            values.push(f32::from_bits(next()));
            let digits = next() % 1_000_000;
            let exp = (next() % 84) as i32 - 45;
            values.push(format!("{digits}e{exp}").parse().unwrap_or(0.0));
            // As the synthetic skins and real files hold them.
            values.push((next() >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0);
        }
        for value in values {
            for token in spellings(value) {
                // Short and long: the commonest tokens are read by a load
                // of 8 bytes when the text has them.
                for after in [
                    "",
                    " 1",
                    "\t2",
                    "  ",
                    "\r\n3",
                    "\n",
                    "x",
                    ".5",
                    "e+005",
                    " 0.5 0.25 0.125",
                    "\r\n-0.706899 1",
                    "\t\t\t\t\t\t\t\t",
                    "\n\n\n\n\n\n\n\n",
                    "12345678",
                    "e-005 1 2 3 4",
                ] {
                    agrees(&token, after);
                }
            }
        }
        for token in [
            "",
            "-",
            ".",
            "-.5",
            "1.",
            "1e",
            "1e+",
            "1e5",
            "00",
            "-0",
            "-00.000",
            "0.000",
            "12345678901234567",
            "123456789012345678",
            "0.000000000000000000001",
            "99999999999999999999999",
            "1e-999",
            "1e+999",
            "16777216",
            "16777217",
            "1.#INF",
            "NaN",
            "inf",
        ] {
            for after in ["", " 1", "\t"] {
                agrees(token, after);
            }
        }
    }
}
