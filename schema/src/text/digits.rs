//! Runs of decimal digits read eight bytes at a time: a number's digits
//! end where its length says, found without a branch per digit (a loop
//! that stops at a length that varies from token to token mispredicts its
//! exit once a token).

/// 10^n, for n digits taken at once and for counting a value's digits.
pub(super) const POWERS_OF_TEN: [u64; 18] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
    10_000_000_000,
    100_000_000_000,
    1_000_000_000_000,
    10_000_000_000_000,
    100_000_000_000_000,
    1_000_000_000_000_000,
    10_000_000_000_000_000,
    100_000_000_000_000_000,
];

/// How many of the eight bytes are decimal digits before the first that
/// is not, and those digits' value.
#[inline(always)]
pub(super) fn leading_digits(bytes: [u8; 8]) -> (usize, u64) {
    // The first byte is the lowest: the digits' order is the bytes'.
    let values = u64::from_le_bytes(bytes) ^ 0x3030_3030_3030_3030;
    // A byte's high bit is set where it is no digit: its value past 9
    // carries into the high bit, or had it already. A carry out of such a
    // byte reaches only bytes after it, which are not looked at.
    let not_digits = (values.wrapping_add(0x7676_7676_7676_7676) | values) & 0x8080_8080_8080_8080;
    let count = (not_digits.trailing_zeros() / 8) as usize;
    if count == 0 {
        return (0, 0);
    }
    // The digits moved to the top, zeros below them: eight digits with
    // leading zeros, combined in pairs, fours and eights.
    let digits = values << (64 - 8 * count);
    let pairs = (digits.wrapping_mul(10) + (digits >> 8)) & 0x00FF_00FF_00FF_00FF;
    let fours = (pairs.wrapping_mul(100) + (pairs >> 16)) & 0x0000_FFFF_0000_FFFF;
    let eights = (fours.wrapping_mul(10_000) + (fours >> 32)) & 0xFFFF_FFFF;
    (count, eights)
}

/// Appends the decimal digits at `text[at..]` to `value` (`value * 10 +
/// digit` for each, wrapping past 19 digits: a caller that can get so
/// many counts them) and returns where they end.
#[inline(always)]
pub(super) fn take_digits(text: &[u8], mut at: usize, value: &mut u64) -> usize {
    loop {
        let Some(bytes) = text.get(at..).and_then(<[u8]>::first_chunk::<8>) else {
            return take_digits_one_by_one(text, at, value);
        };
        let (count, digits) = leading_digits(*bytes);
        let scale = POWERS_OF_TEN.get(count).copied().unwrap_or_default();
        *value = value.wrapping_mul(scale).wrapping_add(digits);
        at += count;
        if count < 8 {
            return at;
        }
    }
}

/// [`take_digits`] for the last bytes of the text, fewer than eight.
#[inline]
fn take_digits_one_by_one(text: &[u8], mut at: usize, value: &mut u64) -> usize {
    while let Some(digit) = text
        .get(at)
        .map(|byte| byte.wrapping_sub(b'0'))
        .filter(|&digit| digit <= 9)
    {
        *value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_at_a_time_reads_as_one_by_one() {
        let alphabet = b"0123456789 .-e\r\n\t/:+\x80\xff\x00";
        let mut state: u32 = 0x1234_5678;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let len = (state % 24) as usize;
            let digit_run = (state >> 8) as usize % 20;
            let text: Vec<u8> = (0..len)
                .map(|index| {
                    let pick = (state.rotate_left(index as u32 * 5) as usize) % alphabet.len();
                    if index < digit_run {
                        alphabet[pick % 10]
                    } else {
                        alphabet[pick]
                    }
                })
                .collect();
            for at in 0..=text.len() {
                let (mut fast, mut plain) = (7u64, 7u64);
                let end = take_digits(&text, at, &mut fast);
                assert_eq!(
                    end,
                    take_digits_one_by_one(&text, at, &mut plain),
                    "{text:?} {at}"
                );
                assert_eq!(fast, plain, "{text:?} {at}");
            }
        }
    }
}
