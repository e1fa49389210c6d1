//! Counts and the collections they govern.

use super::{Decode, Encode, Endian, Error, ErrorKind, HasContext, Input, Output, Segment};
use std::fmt::Debug;

/// An integer type that can hold a collection's length: a count stored in
/// a file ([`CountInt`]), or given as context (a `usize` too).
pub trait Length: Copy + Debug {
    const NAME: &'static str;
    const MAX: u64;
    fn to_u64(self) -> u64;
    fn from_len(len: usize) -> Option<Self>;
}

/// An integer type that can store a collection's length in a file.
pub trait CountInt: Length + Decode<Context = ()> + Encode {}

impl<T: Length + Decode<Context = ()> + Encode> CountInt for T {}

macro_rules! count_int {
    ($($ty:ty),*) => {$(
        impl Length for $ty {
            const NAME: &'static str = stringify!($ty);
            const MAX: u64 = <$ty>::MAX as u64;
            #[inline]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline]
            fn from_len(len: usize) -> Option<Self> {
                <$ty>::try_from(len).ok()
            }
        }
    )*};
}

count_int!(u8, u16, u32, u64, usize);

// Signed counts (SWG's SLOD stores an i16). A negative count maps above
// `MAX`, which `read_count` rejects.
macro_rules! signed_count_int {
    ($($ty:ty),*) => {$(
        impl Length for $ty {
            const NAME: &'static str = stringify!($ty);
            const MAX: u64 = <$ty>::MAX as u64;
            #[inline]
            fn to_u64(self) -> u64 {
                u64::try_from(self).unwrap_or(u64::MAX)
            }
            #[inline]
            fn from_len(len: usize) -> Option<Self> {
                <$ty>::try_from(len).ok()
            }
        }
    )*};
}

signed_count_int!(i16, i32);

/// An integer whose non-zero value means "present".
pub trait FlagInt: Copy {
    fn is_set(self) -> bool;
}

macro_rules! flag_int {
    ($($ty:ty),*) => {$(
        impl FlagInt for $ty {
            #[inline]
            fn is_set(self) -> bool {
                self != 0
            }
        }
    )*};
}

flag_int!(u8, u16, u32, u64, usize, i8, i16, i32, i64);

/// Reads a count and converts it to a length.
#[inline]
pub fn read_count<C: CountInt, I: Input>(input: &mut I, endian: Endian) -> Result<usize, Error> {
    let at = input.position()?;
    let count = C::decode_input(input, endian, &())?.to_u64();
    if count > C::MAX {
        return Err(Error::at_byte(
            at,
            ErrorKind::Invalid(format!("the {} count is negative", C::NAME)),
        ));
    }
    usize::try_from(count).map_err(|_| {
        Error::at_byte(
            at,
            ErrorKind::Invalid(format!("count {count} does not fit this machine's memory")),
        )
    })
}

/// Elements that may take no bytes at all (a frame of no records, a variant
/// holding nothing) a list may hold beyond one per byte left: enough for
/// any real file, few enough that a corrupted count cannot make a reader
/// use memory out of proportion to its input.
pub const EMPTY_ELEMENTS_ALLOWED: u64 = 65_536;

/// The input a list of `count` elements of at least `min_size` bytes (or
/// lines) each needs: `count * min_size`, or for elements that may be
/// empty, one byte per element beyond [`EMPTY_ELEMENTS_ALLOWED`].
pub fn input_needed(count: u64, min_size: u64) -> u64 {
    match min_size {
        0 => count.saturating_sub(EMPTY_ELEMENTS_ALLOWED),
        _ => count.saturating_mul(min_size),
    }
}

/// Reads `count` elements of at least `min_size` bytes each. The count is
/// checked against the bytes left before anything is allocated, so a
/// corrupted count fails at once instead of reserving gigabytes.
#[inline]
pub fn read_vec<T, I, F>(
    input: &mut I,
    count: usize,
    min_size: u64,
    mut read_one: F,
) -> Result<Vec<T>, Error>
where
    I: Input,
    F: FnMut(&mut I) -> Result<T, Error>,
{
    check_count(input, count, min_size)?;
    let mut elements = Vec::with_capacity(count);
    let recording = crate::map::recording_in::<I>();
    for index in 0..count {
        let entered = crate::map::enter_if(recording, Segment::Index(index));
        let read = read_one(input);
        drop(entered);
        match read {
            Ok(element) => push_within_capacity(&mut elements, element)?,
            Err(error) => return Err(error.within(Segment::Index(index))),
        }
    }
    Ok(elements)
}

/// `elements.push(element)` into a vector made with room for all its
/// elements. Checking the room first lets the compiler drop `push`'s call
/// that would grow the vector, which kept the vector in memory, not in
/// registers, through a decoding loop. (The loops match on each decoded
/// element rather than `?` it: moved once, from where the decoder put it
/// into the vector, not through a copy in between.)
#[inline(always)]
pub(crate) fn push_within_capacity<T>(elements: &mut Vec<T>, element: T) -> Result<(), Error> {
    push_made(elements, || element)
}

/// `push_within_capacity` of the element `make` builds once the room
/// is checked: built after the check, it is written straight into the
/// vector. (Built before it, as an argument is, it went through the stack,
/// and its copy from there stalled on the narrower stores that built it.)
#[inline(always)]
pub fn push_made<T>(elements: &mut Vec<T>, make: impl FnOnce() -> T) -> Result<(), Error> {
    if elements.len() == elements.capacity() {
        return Err(list_overflow());
    }
    elements.push(make());
    Ok(())
}

/// The loops that push do so once for each element they made room for,
/// so this is never returned.
#[cold]
fn list_overflow() -> Error {
    Error::new(ErrorKind::Invalid(
        "a list has more elements than its count".to_owned(),
    ))
}

/// Fails, before anything is allocated, when `count` elements of
/// `min_size` bytes cannot fit in what is left.
#[inline]
fn check_count<I: Input>(input: &mut I, count: usize, min_size: u64) -> Result<(), Error> {
    let needed = input_needed(count as u64, min_size);
    let left = input.remaining_up_to(needed)?;
    if needed > left {
        return Err(Error::at_byte(
            input.position()?,
            ErrorKind::CountTooLarge {
                count: count as u64,
                needed,
                remaining: left,
            },
        ));
    }
    Ok(())
}

/// [`read_vec`] for elements of a schema type: plain ones (numbers,
/// vertices, faces) are decoded from bytes in hand, in one loop after one
/// bounds check, where the input allows.
pub fn read_elements<T: Decode, I: Input>(
    input: &mut I,
    count: usize,
    endian: Endian,
    context: &T::Context,
) -> Result<Vec<T>, Error> {
    check_count(input, count, T::MIN_SIZE)?;
    if let (Some(_), Some(size), true) = (
        T::NUMBER_TEXT,
        T::PLAIN_SIZE.filter(|&size| size > 0),
        crate::map::recording_in::<I>(),
    ) {
        return read_numbers_noted(input, count, size, endian);
    }
    if let Some(size) = T::PLAIN_SIZE.filter(|&size| size > 0) {
        let plain = count.checked_mul(size).and_then(|total| {
            input.read_plain(total, |bytes| {
                T::decode_plain_bytes(bytes).or_else(|| decode_all(bytes, size, endian))
            })
        });
        if let Some(elements) = plain {
            return Ok(elements);
        }
    }
    let mut elements = Vec::with_capacity(count);
    let recording = crate::map::recording_in::<I>();
    input.held(|input| {
        for index in 0..count {
            let entered = crate::map::enter_if(recording, Segment::Index(index));
            let read = T::decode_onto(input, endian, context, &mut elements);
            drop(entered);
            if let Err(error) = read {
                return Err(within_element(error, index));
            }
        }
        Ok(elements)
    })
}

/// A list of numbers (or arrays of them) read while the byte map records:
/// one span for the whole list. (A span a number would make the map of a
/// picture's pixels many times the picture.)
#[cold]
#[inline(never)]
fn read_numbers_noted<T: Decode, I: Input>(
    input: &mut I,
    count: usize,
    size: usize,
    endian: Endian,
) -> Result<Vec<T>, Error> {
    let total = count.checked_mul(size).ok_or_else(list_overflow)?;
    let start = input.position()?;
    let bytes = input.read_bytes(total as u64)?;
    let elements = decode_all(&bytes, size, endian).ok_or_else(list_overflow)?;
    crate::primitive::note_numbers::<T>(start, &bytes, endian, std::any::type_name::<[T]>());
    Ok(elements)
}

/// Every `size`-byte plain value in `bytes`, decoded straight into the
/// vector's room: a loop with no room check an element, which the
/// compiler unrolls and, for records that are their bytes, turns into
/// wide copies (as a hand-written `collect` over fixed-size chunks is).
/// Pushing checked the room at every element and ran a quarter slower
/// on 100,000 `.bmf` vertices with the heap warm. Records of the small
/// sizes lists mostly hold (bytes, pixels, words, vectors) are split at a
/// size the compiler knows, so that each decodes without a length check:
/// split at a size known only when running, a list of bytes or byte pairs
/// decoded an element at a time, with a branch each.
fn decode_all<T: Decode>(bytes: &[u8], size: usize, endian: Endian) -> Option<Vec<T>> {
    match size {
        1 => decode_all_sized::<T, 1>(bytes, endian),
        2 => decode_all_sized::<T, 2>(bytes, endian),
        3 => decode_all_sized::<T, 3>(bytes, endian),
        4 => decode_all_sized::<T, 4>(bytes, endian),
        8 => decode_all_sized::<T, 8>(bytes, endian),
        12 => decode_all_sized::<T, 12>(bytes, endian),
        _ => decode_all_chunks(bytes, size, endian, T::decode_plain),
    }
}

/// [`decode_all`] of `SIZE`-byte records.
fn decode_all_sized<T: Decode, const SIZE: usize>(bytes: &[u8], endian: Endian) -> Option<Vec<T>> {
    decode_all_chunks(bytes, SIZE, endian, |record, endian| {
        let record: &[u8; SIZE] = record.try_into().ok()?;
        T::decode_plain(record, endian)
    })
}

#[inline(always)]
fn decode_all_chunks<T>(
    bytes: &[u8],
    size: usize,
    endian: Endian,
    decode: impl Fn(&[u8], Endian) -> Option<T>,
) -> Option<Vec<T>> {
    let count = bytes.len() / size;
    let mut elements = Vec::with_capacity(count);
    let slots = elements.spare_capacity_mut().get_mut(..count)?;
    for (slot, element) in slots.iter_mut().zip(bytes.chunks_exact(size)) {
        slot.write(decode(element, endian)?);
    }
    // SAFETY: `slots` is the first `count` elements of the room, and the
    // loop wrote each of them: `bytes.chunks_exact(size)` yields `count`
    // chunks, and a chunk that fails to decode returns before this line.
    unsafe { elements.set_len(count) };
    Some(elements)
}

/// The number of elements a `count = expr` gives, or its error at the
/// list's first byte.
#[inline]
pub fn counted<I: Input>(input: &mut I, count: Result<usize, Error>) -> Result<usize, Error> {
    count.map_err(|error| error.or_at_byte(input.position().unwrap_or(0)))
}

/// The length a count from the context stands for (`count = param`).
pub fn context_len<C: Length>(name: &'static str, count: C) -> Result<usize, Error> {
    let count = count.to_u64();
    if count > C::MAX {
        return Err(Error::new(ErrorKind::Invalid(format!(
            "`{name}` is a negative count"
        ))));
    }
    usize::try_from(count).map_err(|_| {
        Error::new(ErrorKind::Invalid(format!(
            "`{name}` = {count} does not fit this machine's memory"
        )))
    })
}

/// A count passed as context (`context(param = count_field)`), as the
/// parameter's integer type: an error naming the count when it does not
/// fit there.
pub fn count_as<T: TryFrom<usize>>(name: &'static str, count: usize) -> Result<T, Error> {
    T::try_from(count).map_err(|_| {
        Error::new(ErrorKind::Invalid(format!(
            "the count `{name}` = {count} does not fit the context parameter it is passed to"
        )))
    })
}

/// A list whose length a type passes as context
/// (`context(vertices = len(positions))`): an absent one has none.
pub trait ListLen {
    fn list_len(&self) -> usize;
}

impl<T> ListLen for Vec<T> {
    fn list_len(&self) -> usize {
        self.len()
    }
}

impl<T, const N: usize> ListLen for [T; N] {
    fn list_len(&self) -> usize {
        N
    }
}

impl<L: ListLen> ListLen for Option<L> {
    fn list_len(&self) -> usize {
        self.as_ref().map_or(0, ListLen::list_len)
    }
}

/// The length `len(list)` passes as context.
pub fn list_len<L: ListLen>(list: &L) -> usize {
    list.list_len()
}

/// A collection counted by a value it does not store (the context's) must
/// hold exactly that many entries.
pub fn check_len(len: usize, count_name: &'static str, count: usize) -> Result<(), Error> {
    if len == count {
        return Ok(());
    }
    Err(Error::new(ErrorKind::LengthDisagrees {
        len,
        count_name,
        count: count as u64,
    }))
}

/// [`read_to_end`] for elements of a schema type: plain ones (numbers,
/// vertices) in one run after one bounds check when the bytes left are a
/// whole number of them, as [`read_elements`] reads a counted list.
pub fn read_elements_to_end<T: Decode, I: Input>(
    input: &mut I,
    endian: Endian,
    context: &T::Context,
) -> Result<Vec<T>, Error> {
    if let Some(size) = T::PLAIN_SIZE.and_then(|size| u64::try_from(size).ok()) {
        let left = input.remaining()?;
        let whole = size > 0 && left % size == 0;
        if let (true, Ok(count)) = (whole, usize::try_from(left / size.max(1))) {
            return read_elements(input, count, endian, context);
        }
    }
    input.held(|input| {
        let mut elements = Vec::new();
        let recording = crate::map::recording_in::<I>();
        while input.remaining_up_to(1)? > 0 {
            read_element_onto(input, &mut elements, recording, endian, context)?;
        }
        Ok(elements)
    })
}

/// [`read_until`] for elements of a schema type.
pub fn read_elements_until<T: Decode, I: Input>(
    input: &mut I,
    endian: Endian,
    context: &T::Context,
    mut ends: impl FnMut(&T) -> bool,
) -> Result<Vec<T>, Error> {
    input.held(|input| {
        let mut elements = Vec::new();
        let recording = crate::map::recording_in::<I>();
        loop {
            if input.remaining_up_to(1)? == 0 {
                return Err(unended(input)?);
            }
            read_element_onto(input, &mut elements, recording, endian, context)?;
            if elements.last().is_some_and(&mut ends) {
                return Ok(elements);
            }
        }
    })
}

/// [`read_element`] of a schema type, onto the end of `elements`: room
/// made first, so that the element is built where it is kept.
#[inline]
fn read_element_onto<T: Decode, I: Input>(
    input: &mut I,
    elements: &mut Vec<T>,
    recording: bool,
    endian: Endian,
    context: &T::Context,
) -> Result<(), Error> {
    elements.reserve(1);
    let index = elements.len();
    let start = input.position()?;
    let entered = crate::map::enter_if(recording, Segment::Index(index));
    let read = T::decode_onto(input, endian, context, elements);
    drop(entered);
    match read {
        Ok(()) if input.position()? == start => Err(empty_element(start, index)),
        Ok(()) => Ok(()),
        Err(error) => Err(within_element(error, index)),
    }
}

/// Reads elements until the input ends: the file's end, or the enclosing
/// chunk's. Each element must take at least one byte, so the list ends.
#[inline]
pub fn read_to_end<T, I, F>(input: &mut I, mut read_one: F) -> Result<Vec<T>, Error>
where
    I: Input,
    F: FnMut(&mut I) -> Result<T, Error>,
{
    let mut elements = Vec::new();
    let recording = crate::map::recording_in::<I>();
    while input.remaining_up_to(1)? > 0 {
        // Room first, so that the element goes from where its reader put
        // it into the vector, not through copies around a call that grows
        // the vector or a result made again (each copy read bytes just
        // written, and stalled).
        elements.reserve(1);
        let index = elements.len();
        let start = input.position()?;
        let entered = crate::map::enter_if(recording, Segment::Index(index));
        let read = read_one(input);
        drop(entered);
        match read {
            Ok(_) if input.position()? == start => return Err(empty_element(start, index)),
            Ok(element) => push_within_capacity(&mut elements, element)?,
            Err(error) => return Err(error.within(Segment::Index(index))),
        }
    }
    Ok(elements)
}

/// Element `index` of a list read to an end (the input's, or the element
/// that ends it), which must take at least one byte, so the list ends.
#[inline]
fn read_element<T, I, F>(
    input: &mut I,
    index: usize,
    recording: bool,
    read_one: &mut F,
) -> Result<T, Error>
where
    I: Input,
    F: FnMut(&mut I) -> Result<T, Error>,
{
    let start = input.position()?;
    let entered = crate::map::enter_if(recording, Segment::Index(index));
    let read = read_one(input);
    drop(entered);
    match read {
        Ok(_) if input.position()? == start => Err(empty_element(start, index)),
        Ok(element) => Ok(element),
        Err(error) => Err(error.within(Segment::Index(index))),
    }
}

/// `error` within element `index`. Out of line, with the index as a
/// number: a segment built in the loop was stored on every element's path,
/// ready for its error.
#[cold]
#[inline(never)]
fn within_element(error: Error, index: usize) -> Error {
    error.within(Segment::Index(index))
}

#[cold]
fn empty_element(start: u64, index: usize) -> Error {
    Error::at_byte(start, ErrorKind::EmptyElement).within(Segment::Index(index))
}

/// Reads elements until one `ends` the list (`until = expr`), that one
/// included. Each element must take at least one byte, so the list ends
/// with the input at the latest, where a list without its last element
/// is an error.
#[inline]
pub fn read_until<T, I, F>(
    input: &mut I,
    mut ends: impl FnMut(&T) -> bool,
    mut read_one: F,
) -> Result<Vec<T>, Error>
where
    I: Input,
    F: FnMut(&mut I) -> Result<T, Error>,
{
    let mut elements = Vec::new();
    let recording = crate::map::recording_in::<I>();
    loop {
        if input.remaining_up_to(1)? == 0 {
            return Err(unended(input)?);
        }
        elements.reserve(1);
        let read = read_element(input, elements.len(), recording, &mut read_one);
        let last = match read {
            Ok(element) => {
                let last = ends(&element);
                push_within_capacity(&mut elements, element)?;
                last
            }
            Err(error) => return Err(error),
        };
        if last {
            return Ok(elements);
        }
    }
}

/// The error of a list read `until` an element ends it, whose input ends
/// first (or the error finding where it ends).
#[cold]
fn unended<I: Input>(input: &mut I) -> Result<Error, Error> {
    Ok(Error::at_byte(
        input.position()?,
        ErrorKind::Invalid("the input ends before the element that ends the list".to_owned()),
    ))
}

/// The closure an `until` expression is, with its element's type given,
/// so that `until = |byte| *byte == 0` needs no annotation.
pub fn until_fn<T>(ends: impl Fn(&T) -> bool) -> impl Fn(&T) -> bool {
    ends
}

/// Writing a list read `until` an element ends it: its last element, and
/// only that one, must end it, or the file would read back otherwise.
pub fn check_terminated<T>(elements: &[T], ends: impl Fn(&T) -> bool) -> Result<(), Error> {
    let Some(last) = elements.len().checked_sub(1) else {
        return Err(Error::new(ErrorKind::Invalid(
            "the list is empty, but it ends with the element that ends it".to_owned(),
        )));
    };
    match elements.iter().position(&ends) {
        Some(index) if index == last => Ok(()),
        Some(index) => Err(Error::new(ErrorKind::Invalid(format!(
            "element {index} ends the list, but {} more follow it",
            last - index
        )))),
        None => Err(Error::new(ErrorKind::Invalid(
            "the last element does not end the list".to_owned(),
        ))),
    }
}

/// Writes a collection's length as a `C`, or fails if it does not fit.
#[inline]
pub fn write_count<C: CountInt, O: Output>(
    output: &mut O,
    endian: Endian,
    len: usize,
) -> Result<(), Error> {
    let count = C::from_len(len).ok_or_else(|| {
        Error::new(ErrorKind::TooLong {
            len,
            count_type: C::NAME,
            max: C::MAX,
        })
    })?;
    count.encode_output(output, endian, &())
}

/// The one length shared by the named collections that are present
/// (`None` = absent option); 0 when none is present.
#[inline]
pub fn shared_len(
    count_field: &'static str,
    lengths: &[(&'static str, Option<usize>)],
) -> Result<usize, Error> {
    let mut present = lengths
        .iter()
        .filter_map(|(name, len)| len.map(|len| (*name, len)));
    let Some((_, first)) = present.next() else {
        return Ok(0);
    };
    if present.all(|(_, len)| len == first) {
        return Ok(first);
    }
    let listing = lengths
        .iter()
        .filter_map(|(name, len)| len.map(|len| format!("{name} has {len}")))
        .collect::<Vec<_>>()
        .join(", ");
    Err(Error::new(ErrorKind::CountMismatch(listing)).in_field(count_field))
}

/// Writes each element, tagging errors with the element's index.
#[inline]
pub fn write_each<T, O, F>(output: &mut O, elements: &[T], mut write_one: F) -> Result<(), Error>
where
    O: Output,
    F: FnMut(&mut O, &T) -> Result<(), Error>,
{
    for (index, element) in elements.iter().enumerate() {
        write_one(output, element).map_err(|e| e.within(Segment::Index(index)))?;
    }
    Ok(())
}

/// [`write_each`] for elements of a schema type, with room made first for
/// elements of a fixed size.
pub fn encode_each<T: Encode + Decode, O: Output>(
    output: &mut O,
    elements: &[T],
    endian: Endian,
    context: &<T as HasContext>::Context,
) -> Result<(), Error> {
    // Bytes, at hand as they are written: one copy.
    if T::plain_bytes(elements).is_some_and(|bytes| output.write_plain_bytes(bytes)) {
        return Ok(());
    }
    if let Some(size) = T::FIXED_SIZE.and_then(|size| usize::try_from(size).ok()) {
        output.reserve(size.saturating_mul(elements.len()));
    }
    // A plain list in one run: the output is grown once and each element
    // encoded into its place, with no room check and no copy through a
    // small buffer an element (a store forwarded badly from that buffer
    // stalled every element of a `.bmf`'s vertices).
    if let Some(size) = T::PLAIN_SIZE.filter(|&size| size > 0) {
        let in_place = size.checked_mul(elements.len()).is_some_and(|total| {
            output.write_plain(total, |bytes| encode_all(bytes, elements, size, endian))
        });
        if in_place {
            return Ok(());
        }
    }
    // An estimate walks the first element and assumes the rest alike.
    if O::ESTIMATES {
        if let [first, rest @ ..] = elements {
            let start = output.position()?;
            first
                .encode_output(output, endian, context)
                .map_err(|e| e.within(Segment::Index(0)))?;
            if !rest.is_empty() {
                let one = output.position()?.saturating_sub(start);
                output.assume(one.saturating_mul(rest.len() as u64));
            }
        }
        return Ok(());
    }
    // What the output could not take in place (a stream), or an element
    // that failed, one by one: a failure is then reported at its index.
    for (index, element) in elements.iter().enumerate() {
        element
            .encode_output(output, endian, context)
            .map_err(|e| e.within(Segment::Index(index)))?;
    }
    Ok(())
}

/// Every element encoded into its `size` bytes of `bytes`; false when one
/// is not plain. As [`decode_all`], records of the small sizes are split
/// at a size the compiler knows, and every element is encoded whatever
/// the one before gave (no early exit), so that a list of bytes or words
/// becomes wide copies rather than a loop with a branch an element.
fn encode_all<T: Encode>(bytes: &mut [u8], elements: &[T], size: usize, endian: Endian) -> bool {
    match size {
        1 => encode_all_sized::<T, 1>(bytes, elements, endian),
        2 => encode_all_sized::<T, 2>(bytes, elements, endian),
        3 => encode_all_sized::<T, 3>(bytes, elements, endian),
        4 => encode_all_sized::<T, 4>(bytes, elements, endian),
        8 => encode_all_sized::<T, 8>(bytes, elements, endian),
        12 => encode_all_sized::<T, 12>(bytes, elements, endian),
        _ => bytes
            .chunks_exact_mut(size)
            .zip(elements)
            .all(|(bytes, element)| element.encode_plain(bytes, endian)),
    }
}

/// [`encode_all`] of `SIZE`-byte records.
fn encode_all_sized<T: Encode, const SIZE: usize>(
    bytes: &mut [u8],
    elements: &[T],
    endian: Endian,
) -> bool {
    let mut all = true;
    for (record, element) in bytes.chunks_exact_mut(SIZE).zip(elements) {
        all &= element.encode_plain(record, endian);
    }
    all
}

/// An optional value behind a flag: 0 absent, 1 present, anything else an error.
pub fn read_flagged<F, I, T>(
    input: &mut I,
    endian: Endian,
    read_value: impl FnOnce(&mut I) -> Result<T, Error>,
) -> Result<Option<T>, Error>
where
    F: CountInt,
    I: Input,
{
    match F::decode_input(input, endian, &())?.to_u64() {
        0 => Ok(None),
        1 => read_value(input).map(Some),
        other => Err(Error::at_byte(
            input.position()?.saturating_sub(F::MIN_SIZE),
            ErrorKind::BadFlag(other),
        )),
    }
}

pub fn write_flagged<F, O, T>(
    output: &mut O,
    endian: Endian,
    value: Option<&T>,
    write_value: impl FnOnce(&mut O, &T) -> Result<(), Error>,
) -> Result<(), Error>
where
    F: CountInt,
    O: Output,
{
    write_count::<F, O>(output, endian, usize::from(value.is_some()))?;
    value.map_or(Ok(()), |value| write_value(output, value))
}

/// A value present by an earlier field must agree with it.
pub fn check_presence(flag: &'static str, flag_set: bool, present: bool) -> Result<(), Error> {
    if flag_set == present {
        return Ok(());
    }
    let (flag_says, value_is) = if flag_set {
        ("present", "absent")
    } else {
        ("absent", "present")
    };
    Err(Error::new(ErrorKind::PresenceMismatch {
        flag,
        flag_says,
        value_is,
    }))
}

/// Writing: an `Option` field with a condition (`present_if = version >=
/// 300`) holds a value exactly when the condition holds.
pub fn check_condition(condition: &'static str, holds: bool, present: bool) -> Result<(), Error> {
    if holds == present {
        return Ok(());
    }
    let (condition_is, value_is) = if holds {
        ("holds", "absent")
    } else {
        ("does not hold", "present")
    };
    Err(Error::new(ErrorKind::ConditionMismatch {
        condition,
        condition_is,
        value_is,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn a_count_larger_than_the_input_fails_before_allocating() {
        let bytes = [0u8; 10];
        let mut reader = Cursor::new(&bytes[..]);
        let error = read_vec(&mut reader, usize::MAX / 2, 4, |r| {
            u32::decode(r, Endian::Little, &())
        })
        .unwrap_err();
        assert!(matches!(
            error.kind,
            ErrorKind::CountTooLarge { remaining: 10, .. }
        ));
    }

    #[test]
    fn a_length_too_long_for_its_count_type_is_a_write_error() {
        let mut out = Cursor::new(Vec::new());
        let error = write_count::<u8, _>(&mut out, Endian::Big, 300).unwrap_err();
        assert_eq!(
            error.to_string(),
            "300 entries do not fit a u8 count (at most 255)"
        );
        assert!(out.get_ref().is_empty());
    }

    #[test]
    fn a_negative_signed_count_is_a_read_error() {
        let bytes = (-1i16).to_le_bytes();
        let error = read_count::<i16, _>(&mut Cursor::new(&bytes[..]), Endian::Little).unwrap_err();
        assert_eq!(error.to_string(), "byte 0: the i16 count is negative");
    }

    #[test]
    fn a_list_ends_with_the_element_that_ends_it() {
        let mut input = crate::SliceInput::new(&[3, 5, 0, 9]);
        let list = read_until(
            &mut input,
            |byte: &u8| *byte == 0,
            |input| u8::decode_input(input, Endian::Little, &()),
        )
        .unwrap();
        assert_eq!(list, [3, 5, 0]);
        let mut input = crate::SliceInput::new(&[3, 5]);
        let error = read_until(
            &mut input,
            |byte: &u8| *byte == 0,
            |input| u8::decode_input(input, Endian::Little, &()),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 2: the input ends before the element that ends the list"
        );
        let ends = |byte: &u8| *byte == 0;
        assert!(check_terminated(&[3, 0], ends).is_ok());
        assert_eq!(
            check_terminated(&[0, 3, 0], ends).unwrap_err().to_string(),
            "element 0 ends the list, but 2 more follow it"
        );
        assert_eq!(
            check_terminated(&[3], ends).unwrap_err().to_string(),
            "the last element does not end the list"
        );
        assert!(check_terminated(&[] as &[u8], ends).is_err());
    }

    #[test]
    fn shared_lengths_must_agree() {
        assert_eq!(
            shared_len("n", &[("a", Some(3)), ("b", None), ("c", Some(3))]).unwrap(),
            3
        );
        assert_eq!(shared_len("n", &[("a", None)]).unwrap(), 0);
        let error = shared_len("n", &[("a", Some(3)), ("b", Some(2))]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "n: collections sharing one count differ in length: a has 3, b has 2"
        );
    }
}
