//! Support for the round-trip tests `#[derive(Schema)]` generates: value
//! strategies that stay within each layout's constraints, and the check.

use std::fmt::Debug;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

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
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&T::strategy(), |value| {
        let first = value
            .to_bytes()
            .map_err(|e| TestCaseError::fail(format!("writing a generated value failed: {e}")))?;
        let decoded = T::from_bytes(&first)
            .map_err(|e| TestCaseError::fail(format!("reading back failed: {e}")))?;
        let second = decoded
            .to_bytes()
            .map_err(|e| TestCaseError::fail(format!("writing the decoded value failed: {e}")))?;
        prop_assert_eq!(first, second);
        Ok(())
    });
    if let Err(failure) = result {
        panic!(
            "round trip of {} failed: {failure}",
            std::any::type_name::<T>()
        );
    }
}
