//! Support for the round-trip tests `#[derive(Schema)]` generates: value
//! strategies that stay within each layout's constraints, and the check.

use std::fmt::Debug;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use super::text::{FloatStyle, LineEnding, TextSchema, TextStyle};
use super::{BinarySchema, RawString};

/// Cases each generated round-trip test runs.
pub const CASES: u32 = 256;

/// Longest collection the generated values use: enough to cover empty, one
/// and many, small enough that nested lists stay quick.
pub const MAX_LEN: usize = 6;

/// Values of a type that any valid file could hold.
pub trait Sample: Sized + Debug {
    fn strategy() -> BoxedStrategy<Self>;
}

macro_rules! sample_int {
    ($($ty:ty),*) => {$(
        impl Sample for $ty {
            fn strategy() -> BoxedStrategy<Self> {
                any::<$ty>().boxed()
            }
        }
    )*};
}

sample_int!(u8, u16, u32, u64, i8, i16, i32, i64);

// Floats come from raw bits, so NaN payloads, infinities, subnormals and
// negative zero all appear.
impl Sample for f32 {
    fn strategy() -> BoxedStrategy<Self> {
        any::<u32>().prop_map(f32::from_bits).boxed()
    }
}

impl Sample for f64 {
    fn strategy() -> BoxedStrategy<Self> {
        any::<u64>().prop_map(f64::from_bits).boxed()
    }
}

impl<T: Sample + 'static, const N: usize> Sample for [T; N] {
    fn strategy() -> BoxedStrategy<Self> {
        proptest::array::uniform::<_, N>(T::strategy()).boxed()
    }
}

pub fn pascal_string() -> BoxedStrategy<RawString> {
    vec(any::<u8>(), 0..=255).prop_map(RawString).boxed()
}

pub fn null_terminated_string() -> BoxedStrategy<RawString> {
    vec(1u8..=255, 0..=32).prop_map(RawString).boxed()
}

pub fn fixed_width_string(width: usize) -> BoxedStrategy<RawString> {
    vec(any::<u8>(), 0..=width).prop_map(RawString).boxed()
}

/// A list of `MAX_LEN` or fewer elements.
pub fn list<T: Debug + 'static>(element: BoxedStrategy<T>) -> BoxedStrategy<Vec<T>> {
    vec(element, 0..=MAX_LEN).boxed()
}

/// A list of exactly `len` elements (collections sharing one count).
pub fn list_of_len<T: Debug + 'static>(
    element: BoxedStrategy<T>,
    len: usize,
) -> BoxedStrategy<Vec<T>> {
    vec(element, len).boxed()
}

/// write -> read -> write must give the same bytes. Bytes are compared, not
/// values, so NaN floats pass.
pub fn check_round_trip<T: BinarySchema + Sample>() {
    run_round_trips::<T, _>("round trip", T::to_bytes, |bytes| {
        T::from_bytes(bytes).map_err(|e| e.to_string())
    });
}

/// Generates values of `T` and checks each through `write`, `read`, `write`.
fn run_round_trips<T, E>(
    what: &str,
    write: fn(&T) -> Result<Vec<u8>, E>,
    read: fn(&[u8]) -> Result<T, String>,
) where
    T: Sample,
    E: std::fmt::Display,
{
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&T::strategy(), |value| {
        let first = write(&value)
            .map_err(|e| TestCaseError::fail(format!("writing a generated value failed: {e}")))?;
        let decoded = read(&first).map_err(|e| {
            TestCaseError::fail(format!(
                "reading back failed: {e}\n{}",
                String::from_utf8_lossy(&first)
            ))
        })?;
        let second = write(&decoded)
            .map_err(|e| TestCaseError::fail(format!("writing the decoded value failed: {e}")))?;
        prop_assert_eq!(
            String::from_utf8_lossy(&first),
            String::from_utf8_lossy(&second)
        );
        prop_assert_eq!(first, second);
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{what} of {} failed: {failure}", std::any::type_name::<T>());
    }
}

/// A word of a text layout: one or more bytes, none of them a space, tab or
/// line break.
pub fn token_string() -> BoxedStrategy<RawString> {
    let byte = any::<u8>().prop_filter("not a separator", |b| {
        !matches!(b, b' ' | b'\t' | b'\r' | b'\n')
    });
    vec(byte, 1..=16).prop_map(RawString).boxed()
}

/// A whole line of a text layout: any bytes but line breaks, spaces included.
pub fn line_string() -> BoxedStrategy<RawString> {
    let byte = any::<u8>().prop_filter("not a line break", |b| !matches!(b, b'\r' | b'\n'));
    vec(byte, 0..=24).prop_map(RawString).boxed()
}

/// Line ending, final line ending and float style; no raw tokens or lines,
/// which only make sense next to the values they were read with.
pub fn text_style() -> BoxedStrategy<TextStyle> {
    let line_ending = prop_oneof![Just(LineEnding::Crlf), Just(LineEnding::Lf)];
    let float_style = prop_oneof![Just(FloatStyle::Msvc), Just(FloatStyle::Shortest)];
    (line_ending, any::<bool>(), float_style)
        .prop_map(|(line_ending, final_line_ending, float_style)| TextStyle {
            line_ending,
            final_line_ending,
            float_style,
            ..TextStyle::default()
        })
        .boxed()
}

/// write -> read -> write must give the same text.
pub fn check_text_round_trip<T: TextSchema + Sample>() {
    run_round_trips::<T, _>("text round trip", T::to_text, |text| {
        T::from_text(text).map_err(|e| e.to_string())
    });
}
