//! Support for the round-trip tests `#[derive(Schema)]` generates: value
//! strategies that stay within each layout's constraints, and the checks.
//!
//! Behind the `testing` feature (off by default; `formats` turns it on),
//! so the generated tests compile in any crate that turns it on. A hand-written codec
//! (`with = path`) supplies its own strategy with the [`proptest`](mod@proptest)
//! re-exported here.

use std::fmt::Debug;
use std::marker::PhantomData;

pub use proptest;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::check::without_checks;
use super::collection::{CountInt, Length};
use super::text::{FloatStyle, LineEnding, RawLine, TextSchema, TextStyle};
use super::SizeOutput;
use super::{json, BinarySchema, Block, Encode, Endian, Error, HasContext, RawChunk, RawString};

/// Cases each generated round-trip test runs.
pub const CASES: u32 = 256;

/// Longest collection the generated values use: enough to cover empty, one
/// and many, small enough that nested lists stay quick.
pub const MAX_LEN: usize = 6;

/// Values of a type that any valid file could hold, with the contexts such
/// a file could be read with.
pub trait Sample: HasContext + Sized + Debug {
    /// Contexts a file of this type could be read with (small counts,
    /// selectors that choose a variant).
    fn context_strategy() -> BoxedStrategy<Self::Context>;
    /// Values a file read with `context` could hold.
    fn strategy_with(context: &Self::Context) -> BoxedStrategy<Self>;
}

/// A type with a text encoding: the text context a context drawn for it
/// gives (the same values, but for a type whose binary encoding alone
/// takes some parameters, which its text is never given).
pub trait TextSample: Sample {
    fn text_context(context: &Self::Context) -> Self::TextContext;
}

/// Values of `T` drawn with any of its contexts: what a text field that
/// passes nothing holds (a type whose binary encoding alone takes a
/// parameter, a byte order, is given none by text, and draws the same
/// values whatever it is).
pub fn with_any_context<T: Sample + 'static>() -> BoxedStrategy<T> {
    T::context_strategy()
        .prop_flat_map(|context| T::strategy_with(&context))
        .boxed()
}

/// Values of a type that needs no context.
pub fn strategy<T: Sample<Context = ()>>() -> BoxedStrategy<T> {
    T::strategy_with(&())
}

macro_rules! sample_number {
    ($($ty:ty => $strategy:expr),*) => {$(
        impl Sample for $ty {
            fn context_strategy() -> BoxedStrategy<()> {
                Just(()).boxed()
            }

            fn strategy_with(_: &()) -> BoxedStrategy<Self> {
                $strategy.boxed()
            }
        }
    )*};
}

// Floats come from raw bits, so NaN payloads, infinities, subnormals and
// negative zero all appear.
sample_number!(
    u8 => any::<u8>(), u16 => any::<u16>(), u32 => any::<u32>(), u64 => any::<u64>(),
    i8 => any::<i8>(), i16 => any::<i16>(), i32 => any::<i32>(), i64 => any::<i64>(),
    f32 => any::<u32>().prop_map(f32::from_bits),
    f64 => any::<u64>().prop_map(f64::from_bits)
);

/// Every element is drawn with the array's context.
impl<T: Sample + 'static, const N: usize> Sample for [T; N] {
    fn context_strategy() -> BoxedStrategy<T::Context> {
        T::context_strategy()
    }

    fn strategy_with(context: &T::Context) -> BoxedStrategy<Self> {
        proptest::array::uniform::<_, N>(T::strategy_with(context)).boxed()
    }
}

/// Both byte orders, for a context parameter that chooses one
/// (`endian = param`).
impl Sample for crate::Endian {
    fn context_strategy() -> BoxedStrategy<()> {
        Just(()).boxed()
    }

    fn strategy_with(_: &()) -> BoxedStrategy<Self> {
        prop_oneof![Just(crate::Endian::Big), Just(crate::Endian::Little)].boxed()
    }
}

/// Chunks with lower-case tags, which no layout names, so that the named
/// children of a form never take one for their own.
impl Sample for RawChunk {
    fn context_strategy() -> BoxedStrategy<()> {
        Just(()).boxed()
    }

    fn strategy_with(_: &()) -> BoxedStrategy<Self> {
        (
            proptest::array::uniform4(b'a'..=b'z'),
            vec(any::<u8>(), 0..=MAX_LEN),
        )
            .prop_map(|(tag, data)| RawChunk { tag, data })
            .boxed()
    }
}

/// A block's value, then a few bytes it leaves.
impl<T: Sample + 'static> Sample for Block<T> {
    fn context_strategy() -> BoxedStrategy<T::Context> {
        T::context_strategy()
    }

    fn strategy_with(context: &T::Context) -> BoxedStrategy<Self> {
        (T::strategy_with(context), vec(any::<u8>(), 0..=MAX_LEN))
            .prop_map(|(value, rest)| Block { value, rest })
            .boxed()
    }
}

/// A value the writer places.
impl<T: Sample + 'static> Sample for crate::At<T> {
    fn context_strategy() -> BoxedStrategy<T::Context> {
        T::context_strategy()
    }

    fn strategy_with(context: &T::Context) -> BoxedStrategy<Self> {
        T::strategy_with(context).prop_map(crate::At::new).boxed()
    }
}

/// The bytes of a value decoded when asked for: any.
impl<T: Debug + 'static> Sample for crate::Lazy<T> {
    fn context_strategy() -> BoxedStrategy<()> {
        Just(()).boxed()
    }

    fn strategy_with(_: &()) -> BoxedStrategy<Self> {
        vec(any::<u8>(), 0..=MAX_LEN)
            .prop_map(crate::Lazy::from_bytes)
            .boxed()
    }
}

/// A value to be encoded anew.
impl<X: 'static, T: Sample + 'static> Sample for crate::Transformed<X, T>
where
    crate::Transformed<X, T>: Debug,
{
    fn context_strategy() -> BoxedStrategy<T::Context> {
        T::context_strategy()
    }

    fn strategy_with(context: &T::Context) -> BoxedStrategy<Self> {
        T::strategy_with(context)
            .prop_map(crate::Transformed::new)
            .boxed()
    }
}

/// How many bytes more than its value's fewest a block of a size drawn
/// for a test holds at most.
pub const MAX_BLOCK: u64 = 32;

/// The most elements a list an expression counts holds in a test.
pub const MAX_COUNTED: usize = 64;

/// Draws a value an expression reads (a count, a size) as a small number
/// when it is one, so that what the expression gives stays small, and
/// anything its type holds otherwise. Autoref specialization, as
/// [`JsonProbe`]: `(&NumberProbe::<T>::NEW).small()` resolves to
/// [`SmallNumber`] when `T` is a number, else to [`AnyValue`].
pub struct NumberProbe<T>(PhantomData<T>);

impl<T> NumberProbe<T> {
    pub const NEW: Self = NumberProbe(PhantomData);
}

pub trait SmallNumber<T> {
    /// 0 to [`MAX_LEN`].
    fn small(&self) -> BoxedStrategy<T>;
    /// The size of a block whose value takes at least `fewest` bytes:
    /// `fewest` to [`MAX_BLOCK`] more.
    fn size(&self, fewest: u64) -> BoxedStrategy<T>;
}

impl<T: TryFrom<u64> + Debug + 'static> SmallNumber<T> for NumberProbe<T> {
    fn small(&self) -> BoxedStrategy<T> {
        numbers(0, MAX_LEN as u64)
    }

    fn size(&self, fewest: u64) -> BoxedStrategy<T> {
        numbers(fewest, fewest.saturating_add(MAX_BLOCK))
    }
}

fn numbers<T: TryFrom<u64> + Debug + 'static>(least: u64, most: u64) -> BoxedStrategy<T> {
    (least..=most)
        .prop_filter_map("fits the type", |number| T::try_from(number).ok())
        .boxed()
}

pub trait AnyValue<T> {
    fn small(&self) -> BoxedStrategy<T>;
    fn size(&self, fewest: u64) -> BoxedStrategy<T>;
}

impl<T: Sample<Context = ()> + 'static> AnyValue<T> for &NumberProbe<T> {
    fn small(&self) -> BoxedStrategy<T> {
        strategy()
    }

    fn size(&self, _: u64) -> BoxedStrategy<T> {
        strategy()
    }
}

/// A list of as many elements as a `count = expr` gives for the values
/// drawn (a case whose count is no count, or too long, is left out).
pub fn list_of_count<T: Debug + 'static>(
    element: BoxedStrategy<T>,
    count: Result<usize, Error>,
) -> BoxedStrategy<Vec<T>> {
    match count {
        Ok(len) if len <= MAX_COUNTED => list_of_len(element, len),
        _ => rejected("the count drawn is no list's"),
    }
}

/// A list read `until` an element ends it: elements that do not, then
/// one that does: `terminator` when it does (few drawn values end a list
/// that a zero ends), else one drawn that does.
pub fn terminated_list<T: Debug + Clone + 'static>(
    element: BoxedStrategy<T>,
    ends: fn(&T) -> bool,
    terminator: Option<T>,
) -> BoxedStrategy<Vec<T>> {
    let others = element
        .clone()
        .prop_filter("an element that does not end the list", move |e| !ends(e));
    let last = match terminator.filter(ends) {
        Some(terminator) => Just(terminator).boxed(),
        None => element
            .prop_filter("the element that ends the list", ends)
            .boxed(),
    };
    (vec(others, 0..MAX_LEN), last)
        .prop_map(|(mut elements, last)| {
            elements.push(last);
            elements
        })
        .boxed()
}

/// The default value of `T`, when it has one: `(&DefaultProbe::<T>::NEW)
/// .value()` resolves to [`WithDefault`] when `T: Default`, else to
/// [`WithoutDefault`] (autoref specialization, as [`JsonProbe`]).
pub struct DefaultProbe<T>(PhantomData<T>);

impl<T> DefaultProbe<T> {
    pub const NEW: Self = DefaultProbe(PhantomData);
}

pub trait WithDefault<T> {
    fn value(&self) -> Option<T>;
}

impl<T: Default> WithDefault<T> for DefaultProbe<T> {
    fn value(&self) -> Option<T> {
        Some(T::default())
    }
}

pub trait WithoutDefault<T> {
    fn value(&self) -> Option<T>;
}

impl<T> WithoutDefault<T> for &DefaultProbe<T> {
    fn value(&self) -> Option<T> {
        None
    }
}

/// A block of the size an expression gives for the values drawn: a value
/// that fits, then bytes making up the size.
pub fn block_of_size<T: Sample + Encode + 'static>(
    size: Result<u64, Error>,
    endian: Endian,
    context: &<T as HasContext>::Context,
) -> BoxedStrategy<Block<T>> {
    let Ok(size) = size else {
        return rejected("the size drawn is no block's");
    };
    let writing = context.clone();
    T::strategy_with(context)
        .prop_filter_map("a value that fits the block", move |value| {
            let mut measured = SizeOutput::default();
            value.encode_output(&mut measured, endian, &writing).ok()?;
            let rest = size.checked_sub(measured.counted())?;
            Some(Block {
                value,
                rest: vec![0; usize::try_from(rest).ok()?],
            })
        })
        .boxed()
}

/// A context the values drawn give: they fit it (counts are short), so
/// an error here is the test's own.
pub fn drawn<T>(context: Result<T, Error>) -> T {
    context.unwrap_or_else(|error| panic!("the values drawn give no context: {error}"))
}

/// No value, so that a case that draws one is left out.
pub fn rejected<T: Debug + 'static>(why: &'static str) -> BoxedStrategy<T> {
    Just(()).prop_filter_map(why, |()| None).boxed()
}

/// Values of a bit field of `bits` bits: any its bits hold.
pub fn in_bits<T: crate::BitField + Debug + 'static>(bits: u32) -> BoxedStrategy<T> {
    any::<u64>()
        .prop_map(move |drawn| T::from_bits(drawn, bits))
        .boxed()
}

/// The longest list a count of `bits` bits counts in a test.
pub fn longest_in_bits(bits: u32) -> usize {
    usize::try_from(crate::bits::mask(bits)).map_or(MAX_LEN, |most| most.min(MAX_LEN))
}

/// A context value used as a count: a length a generated list can have.
pub fn context_count<C: Length + 'static>() -> BoxedStrategy<C> {
    (0..=MAX_LEN)
        .prop_filter_map("fits the count type", C::from_len)
        .boxed()
}

/// A drawn count passed as context, as the parameter's integer type (the
/// drawn counts, at most [`MAX_LEN`], fit every one).
pub fn count_as<T: TryFrom<usize> + Default>(count: usize) -> T {
    T::try_from(count).unwrap_or_default()
}

/// A `usize` context parameter on its own (a count its holder passes):
/// a short length.
impl Sample for usize {
    fn context_strategy() -> BoxedStrategy<()> {
        Just(()).boxed()
    }

    fn strategy_with(_: &()) -> BoxedStrategy<Self> {
        (0..=MAX_LEN).boxed()
    }
}

/// A context value used as a presence flag: 0 or 1.
pub fn context_flag<F: TryFrom<u8> + Debug + 'static>() -> BoxedStrategy<F> {
    (0u8..=1)
        .prop_filter_map("fits the flag type", |flag| F::try_from(flag).ok())
        .boxed()
}

/// The length a count drawn by [`context_count`] stands for.
pub fn len_of<C: Length>(count: &C) -> usize {
    usize::try_from(count.to_u64()).unwrap_or(0)
}

/// For a selector no variant answers to: no value, so the case is rejected.
pub fn no_variant<T: Debug + 'static>() -> BoxedStrategy<T> {
    Just(())
        .prop_filter_map("the selector chooses no variant", |()| None)
        .boxed()
}

pub fn pascal_string() -> BoxedStrategy<RawString> {
    vec(any::<u8>(), 0..=255).prop_map(RawString).boxed()
}

/// Strings as long as a length of type `C` can say, up to a Pascal
/// string's 255 bytes.
pub fn prefixed_string<C: CountInt>() -> BoxedStrategy<RawString> {
    vec(any::<u8>(), 0..=longest_prefixed::<C>())
        .prop_map(RawString)
        .boxed()
}

/// The longest string a length of type `C` prefixes in the generated
/// tests: as long as `C` can say, up to a Pascal string's 255 bytes.
pub fn longest_prefixed<C: CountInt>() -> usize {
    usize::try_from(C::MAX).map_or(255, |max| max.min(255))
}

/// For a type with both encodings: the strings its text layout draws
/// that its binary string encoding holds too (at most `longest` bytes,
/// and no NUL byte unless `nul` allows it).
pub fn fitting(
    strings: BoxedStrategy<RawString>,
    longest: usize,
    nul: bool,
) -> BoxedStrategy<RawString> {
    strings
        .prop_filter("a string the binary encoding holds too", move |string| {
            string.as_bytes().len() <= longest && (nul || !string.as_bytes().contains(&0))
        })
        .boxed()
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

/// write -> read -> write must give the same bytes, and so must
/// value -> JSON -> value -> write when the type has `json`. Bytes are
/// compared, not values, so NaN floats pass. Fields' `check` functions
/// are left out: the values are random and need not pass them.
pub fn check_round_trip<T: BinarySchema + Sample>(json: Option<JsonCodec<T>>) {
    run_round_trips::<T>(
        "round trip",
        |value, context| value.to_bytes_with(context).map_err(|e| e.to_string()),
        |bytes, context| {
            without_checks(|| T::from_bytes_with(bytes, context)).map_err(|e| e.to_string())
        },
        json,
    );
}

/// As [`check_round_trip`], for text layouts. Fields' `check` functions
/// are left out: the values are random and need not pass them.
pub fn check_text_round_trip<T: TextSchema + TextSample>(json: Option<JsonCodec<T>>) {
    run_round_trips::<T>(
        "text round trip",
        |value, context| {
            value
                .to_text_with(&T::text_context(context))
                .map_err(|e| e.to_string())
        },
        |text, context| {
            without_checks(|| T::from_text_with(text, &T::text_context(context)))
                .map_err(|e| e.to_string())
        },
        json,
    );
}

type Write<T> = fn(&T, &<T as HasContext>::Context) -> Result<Vec<u8>, String>;
type Read<T> = fn(&[u8], &<T as HasContext>::Context) -> Result<T, String>;

/// Generates a context and values of `T` for it, and checks each through
/// `write`, `read`, `write`, and through JSON when there is a codec for it.
fn run_round_trips<T: Sample>(
    what: &str,
    write: Write<T>,
    read: Read<T>,
    json: Option<JsonCodec<T>>,
) {
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let cases =
        T::context_strategy().prop_flat_map(|context| (T::strategy_with(&context), Just(context)));
    let result = runner.run(&cases, |(value, context)| {
        // Checks are left out both ways: the values are random and need
        // not pass them (the writer runs the reader's checks too).
        let write = |value: &T| without_checks(|| write(value, &context));
        let read = |bytes: &[u8]| read(bytes, &context);
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
        prop_assert_eq!(&first, &second);
        if let Some(codec) = &json {
            let text = (codec.to_json)(&value)
                .map_err(|e| TestCaseError::fail(format!("writing JSON failed: {e}")))?;
            let from_json = (codec.from_json)(&text).map_err(|e| {
                TestCaseError::fail(format!("reading JSON back failed: {e}\n{text}"))
            })?;
            let third = write(&from_json).map_err(|e| {
                TestCaseError::fail(format!("writing the value read from JSON failed: {e}"))
            })?;
            prop_assert_eq!(&first, &third, "through JSON: {}", text);
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{what} of {} failed: {failure}", std::any::type_name::<T>());
    }
}

/// How the generated test moves a value to JSON and back: the functions
/// `ossuary dump` and `encode` use.
pub struct JsonCodec<T> {
    to_json: fn(&T) -> Result<String, String>,
    from_json: fn(&str) -> Result<T, String>,
}

/// Finds the JSON codec of a type when it implements serde's traits, and
/// none when it does not, so a schema type needs no serde to be tested.
/// Autoref specialization: `(&JsonProbe::<T>::NEW).json()` resolves to
/// [`WithJson`] when its bounds hold, else to [`WithoutJson`], which
/// method lookup reaches only by borrowing once more.
pub struct JsonProbe<T>(PhantomData<T>);

impl<T> JsonProbe<T> {
    pub const NEW: Self = JsonProbe(PhantomData);
}

pub trait WithJson<T> {
    fn json(&self) -> Option<JsonCodec<T>>;
}

impl<T: Serialize + DeserializeOwned> WithJson<T> for JsonProbe<T> {
    fn json(&self) -> Option<JsonCodec<T>> {
        Some(JsonCodec {
            to_json: |value| json::to_string_pretty(value).map_err(|e| e.to_string()),
            from_json: |text| json::from_str(text).map_err(|e| e.to_string()),
        })
    }
}

pub trait WithoutJson<T> {
    fn json(&self) -> Option<JsonCodec<T>>;
}

impl<T> WithoutJson<T> for &JsonProbe<T> {
    fn json(&self) -> Option<JsonCodec<T>> {
        None
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

/// Whether `text` would read back with a `//` comment in it: a `//` at its
/// start or after a space or tab.
fn holds_comment(text: &[u8]) -> bool {
    text.windows(3)
        .any(|three| matches!(three, [b' ' | b'\t', b'/', b'/']))
        || text.starts_with(b"//")
}

/// A word of a layout that allows comments: never one starting with `//`.
pub fn word_among_comments() -> BoxedStrategy<RawString> {
    token_string()
        .prop_filter("reads as a comment", |word| !word.0.starts_with(b"//"))
        .boxed()
}

/// A whole line of a layout that allows comments: not blank (a comment
/// after it would make it a comment line) and holding no comment.
pub fn line_among_comments() -> BoxedStrategy<RawString> {
    line_string()
        .prop_filter("blank or holds a comment", |line| {
            !line.0.iter().all(|&b| b == b' ' || b == b'\t') && !holds_comment(&line.0)
        })
        .boxed()
}

/// A name between `<` and `>`: any bytes but `>` and line breaks, spaces
/// included; in a layout that allows comments, none that holds one.
pub fn angle_bracketed_string(among_comments: bool) -> BoxedStrategy<RawString> {
    let byte = any::<u8>().prop_filter("ends the name or the line", |b| {
        !matches!(b, b'>' | b'\r' | b'\n')
    });
    vec(byte, 0..=16)
        .prop_filter("holds a comment", move |name| {
            !(among_comments && holds_comment(name))
        })
        .prop_map(RawString)
        .boxed()
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

/// As [`text_style`], with comment lines and comments after values at
/// random line indices, for layouts that allow comments.
pub fn text_style_with_comments() -> BoxedStrategy<TextStyle> {
    let comment = || {
        let byte = any::<u8>().prop_filter("not a line break", |b| !matches!(b, b'\r' | b'\n'));
        let spaces = prop_oneof![Just(" "), Just("\t"), Just("   ")];
        (spaces, vec(byte, 0..=12)).prop_map(|(spaces, text)| {
            let mut comment = format!("{spaces}//").into_bytes();
            comment.extend(text);
            comment
        })
    };
    let at_lines = |comment: BoxedStrategy<Vec<u8>>| {
        vec((0..=MAX_LEN * 4, comment), 0..=3).prop_map(|mut lines| {
            lines.sort_by_key(|(index, _)| *index);
            lines
                .into_iter()
                .map(|(index, text)| RawLine {
                    index,
                    text: RawString(text),
                })
                .collect::<Vec<_>>()
        })
    };
    let whole_lines = at_lines(comment().boxed());
    let trailing = at_lines(comment().boxed());
    (text_style(), whole_lines, trailing)
        .prop_map(|(style, comment_lines, trailing_comments)| TextStyle {
            comment_lines,
            trailing_comments,
            ..style
        })
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    struct WithSerde;

    struct WithoutSerde;

    #[test]
    // The borrow is the one the generated test writes: without it, method
    // lookup could not fall back to `WithoutJson`.
    #[allow(clippy::needless_borrow)]
    fn the_probe_finds_a_json_codec_exactly_for_serde_types() {
        assert!((&JsonProbe::<WithSerde>::NEW).json().is_some());
        assert!((&JsonProbe::<WithoutSerde>::NEW).json().is_none());
    }
}
