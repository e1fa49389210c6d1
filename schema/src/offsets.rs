//! Values a file stores elsewhere, at offsets other fields store
//! (`#[schema(offset = u32)]`): read where the offsets point, placed by
//! the writer, which fills in every offset. A value read from a file
//! keeps where it lay and the bytes before it, so that a file whose
//! values are out of order, leave gaps or share a target comes back byte
//! for byte; one built by hand is placed after the fields of the struct
//! holding it, one after another.

use std::cell::Cell;
use std::collections::HashMap;
use std::marker::PhantomData;

use serde::{Deserialize, Serialize};

use super::{Encode, Endian, Error, ErrorKind, HasContext, Input, Output};
use crate::map;

/// A value stored at an offset a field stores.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct At<T> {
    /// Where the value lay, counted from the offset's base, as the file
    /// stored it; `None` for a value the writer places.
    pub offset: Option<u64>,
    pub value: T,
    /// The bytes between what lay before the value in the file (the
    /// fields of the struct holding it, or the value before it) and the
    /// value, as found; the writer writes them back before it.
    pub gap: Vec<u8>,
}

impl<T> At<T> {
    /// A value the writer places.
    pub fn new(value: T) -> Self {
        At {
            offset: None,
            value,
            gap: Vec::new(),
        }
    }
}

/// The value's context is its holder's.
impl<T: HasContext> HasContext for At<T> {
    type Context = T::Context;
    type TextContext = T::TextContext;
}

/// A value kept as its bytes and decoded when asked for: the bytes left
/// in its input when read (a `size` block's, or, at an offset, those up
/// to the next value its struct's offsets point to, or the input's end),
/// written back as they are.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Lazy<T> {
    pub bytes: Vec<u8>,
    #[serde(skip)]
    value: PhantomData<fn() -> T>,
}

impl<T> Lazy<T> {
    /// The value these bytes hold, when decoded.
    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        Lazy {
            bytes,
            value: PhantomData,
        }
    }
}

impl<T: crate::Decode> Lazy<T> {
    /// Decodes the value from the start of its bytes (which may hold more
    /// after it: what lay up to the next value).
    pub fn decode_with(&self, endian: Endian, context: &T::Context) -> Result<T, Error> {
        T::decode_input(&mut crate::SliceInput::new(&self.bytes), endian, context)
    }
}

impl<T: Encode> Lazy<T> {
    /// The value as bytes, to be decoded when asked for.
    pub fn encode_with(value: &T, endian: Endian, context: &T::Context) -> Result<Self, Error> {
        let mut output = crate::VecOutput::default();
        value.encode_output(&mut output, endian, context)?;
        Ok(Lazy::from_bytes(output.into_bytes()))
    }
}

impl<T> HasContext for Lazy<T> {
    type Context = ();
    type TextContext = ();
}

impl<T> crate::Decode for Lazy<T> {
    const MIN_SIZE: u64 = 0;
    const FIXED_SIZE: Option<u64> = None;

    decode_through_input!();

    fn decode_input<I: Input>(input: &mut I, _: Endian, _: &()) -> Result<Self, Error> {
        let start = input.position()?;
        let len = input.remaining()?;
        let bytes = input.read_bytes(len)?;
        map::note(
            start,
            start + len,
            "lazy value",
            map::SpanKind::Field,
            || format!("{len} byte(s), decoded when asked for"),
        );
        Ok(Lazy::from_bytes(bytes))
    }
}

impl<T> Encode for Lazy<T> {
    encode_through_output!();

    fn encode_output<O: Output>(&self, output: &mut O, _: Endian, _: &()) -> Result<(), Error> {
        output.write_bytes(&self.bytes)
    }
}

/// What an offset counts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// The start of the file.
    File,
    /// The start of the enclosing block: an IFF chunk's payload, a form's
    /// children, a `size` block, else the file.
    Block,
    /// The position of an earlier field.
    Field(u64),
}

impl Base {
    /// The position offsets count from, in the block this thread is
    /// reading or writing.
    #[inline]
    pub fn position(self) -> u64 {
        self.position_in(crate::block::block_start())
    }

    /// The position offsets count from, in a block that begins at
    /// `block_start`.
    #[inline]
    pub fn position_in(self, block_start: u64) -> u64 {
        match self {
            Base::File => 0,
            Base::Block => block_start,
            Base::Field(position) => position,
        }
    }
}

/// Bytes read through offsets, per byte of the input, that a decode may
/// spend: many offsets sharing one large target (or nested values doing
/// so) read it once per offset, so a crafted input of a megabyte could
/// otherwise ask for tens of gigabytes of work. Files whose values lie
/// apart, or share small ones, stay far below it.
pub const OFFSET_READS_PER_BYTE: u64 = 32;

/// The least budget: a small block may share a value more often.
const LEAST_OFFSET_READS: u64 = 1 << 16;

thread_local! {
    /// Bytes left to read through offsets in this decode; `None` outside
    /// one (a decode's entry point sets it: [`with_read_budget`]).
    static OFFSET_READS_LEFT: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Runs `decode`, a whole decode of an input of `len` bytes, with one
/// budget of reads through offsets for everything it reads, however many
/// structs with offsets it holds; inside a decode that has one already,
/// that one. The entry points (`from_bytes`, `read_from`) run in it; a
/// value decoded on its own (`decode_input` called directly) gets one per
/// outermost struct with offsets instead.
pub fn with_read_budget<T>(len: u64, decode: impl FnOnce() -> T) -> T {
    let _budget = ReadBudget::begin(len);
    decode()
}

/// Adds to the budget of the decode under way the reads `len` more bytes
/// allow: bytes a transform decoded (a gzip stream's), which are input
/// the file's length did not count.
pub(crate) fn widen_read_budget(len: u64) {
    OFFSET_READS_LEFT.with(|left| {
        if let Some(budget) = left.get() {
            left.set(Some(
                budget.saturating_add(len.saturating_mul(OFFSET_READS_PER_BYTE)),
            ));
        }
    });
}

/// Ends the budget of reads through offsets when the decode that set it
/// is done.
struct ReadBudget;

impl ReadBudget {
    /// A budget for a block of `len` bytes (a chunk's, a `size` block's,
    /// the file's), unless one is set.
    fn begin(len: u64) -> Option<ReadBudget> {
        OFFSET_READS_LEFT.with(|left| match left.get() {
            Some(_) => None,
            None => {
                let budget = len.saturating_mul(OFFSET_READS_PER_BYTE);
                left.set(Some(budget.max(LEAST_OFFSET_READS)));
                Some(ReadBudget)
            }
        })
    }

    /// Takes `bytes` from the budget; `false` when it is spent. (Inlined:
    /// it is asked once a value.)
    #[inline]
    fn spend(bytes: u64) -> bool {
        OFFSET_READS_LEFT.with(|left| match left.get() {
            Some(budget) if budget >= bytes => {
                left.set(Some(budget - bytes));
                true
            }
            Some(_) => {
                left.set(Some(0));
                false
            }
            None => true,
        })
    }
}

impl Drop for ReadBudget {
    fn drop(&mut self) {
        OFFSET_READS_LEFT.with(|left| left.set(None));
    }
}

/// Reading the values a struct's offsets point to, once its own fields
/// are read: each where its offset points, then the bytes between them
/// (its gaps), ending where the last of them ends.
pub struct Placement {
    /// Where the struct's own fields end.
    fields_end: u64,
    /// Where the input ends.
    input_end: u64,
    /// Where the block the struct lies in begins (offsets from the block
    /// count from it; none points before it).
    block_start: u64,
    /// Each place read, once, in order: where it begins and ends.
    read: Vec<(u64, u64)>,
    /// Whether `read` is kept: not when the values' offsets, all known
    /// before any is read, point to places each past the one before, and
    /// no byte map is being made (then no place is read twice, no gap is
    /// left for `finish`, and a list as long as the values, the reader's
    /// one allocation beside the values themselves, is not made).
    places_kept: bool,
    /// Where the last value read begins, while `read` is not kept.
    last_start: Option<u64>,
    /// Where each place read ends, by where it begins: made once a place
    /// comes before one read earlier. Until then (values laid out in the
    /// order of their offsets, as nearly every file has them) `read` is
    /// sorted, and searched instead of hashing every place.
    ends: Option<HashMap<u64, u64>>,
    /// Where each value read begins, in order, those sharing a place too,
    /// and whether it was the first read there: `None` while every value
    /// was the first at its place and past the one before (then these are
    /// `read`'s starts, which are not kept twice).
    starts: Option<Vec<(u64, bool)>>,
    /// Where the values read so far end, at the furthest (or the fields,
    /// before any): while they come in order, the next one's gap begins
    /// there.
    furthest: u64,
    /// Whether each value read so far was given its gap as it was read:
    /// while they come in order, and the byte map is not being made (which
    /// notes the gaps after the values, where `finish` reads them).
    gaps_given: bool,
    /// Set when this is the outermost placement of a decode that began
    /// without a budget.
    _budget: Option<ReadBudget>,
}

impl Placement {
    /// Begins at the end of the struct's fields; the gaps are read by
    /// [`Placement::finish`].
    pub fn new<I: Input>(input: &mut I) -> Result<Self, Error> {
        let fields_end = input.position()?;
        let input_end = fields_end.saturating_add(input.remaining()?);
        let block_start = input.block_start();
        Ok(Placement {
            fields_end,
            input_end,
            block_start,
            read: Vec::new(),
            places_kept: true,
            last_start: None,
            ends: None,
            starts: None,
            furthest: fields_end,
            gaps_given: false,
            _budget: ReadBudget::begin(input_end.saturating_sub(block_start)),
        })
    }

    /// [`Placement::new`], to read `values` values, each given its gap as
    /// it is read while they come in the order they lie and the byte map
    /// is not being made: then no list of gaps is made, and
    /// [`Placement::finish`] gives none. `offsets` are the values' offsets
    /// and their bases, in the order the values will be read: when each
    /// points past the one before, no list of places is made either (and
    /// a value read out of that order is an error); else room is made for
    /// their places.
    pub fn for_values<I: Input>(
        input: &mut I,
        values: usize,
        offsets: impl IntoIterator<Item = (Base, u64)>,
    ) -> Result<Self, Error> {
        let mut placement = Placement::new(input)?;
        placement.gaps_given = !map::recording_in::<I>();
        let block_start = placement.block_start;
        let mut last = None;
        let ascending = offsets.into_iter().all(|(base, offset)| {
            let start = base.position_in(block_start).checked_add(offset);
            let past = start.is_some() && last.is_none_or(|last| start > Some(last));
            last = start;
            past
        });
        placement.places_kept = !(ascending && placement.gaps_given);
        if placement.places_kept {
            // No more places than the input has bytes, whatever the count.
            let places = placement.input_end - placement.fields_end;
            placement
                .read
                .reserve(values.min(usize::try_from(places).unwrap_or(usize::MAX)));
        }
        Ok(placement)
    }

    /// Reads a [`Lazy`] value at `offset` from `base`: the bytes up to the
    /// next of `targets` (where the struct's offsets point) after it, else
    /// to the input's end.
    pub fn read_lazy<I: Input, T>(
        &mut self,
        input: &mut I,
        base: Base,
        offset: (u64, u64),
        targets: &[u64],
    ) -> Result<At<Lazy<T>>, Error> {
        let input_end = self.input_end;
        self.read(input, base, offset, |input| {
            let start = input.position()?;
            let end = targets
                .iter()
                .copied()
                .filter(|&target| target > start)
                .fold(input_end, u64::min);
            input.narrowed(end - start, |value| {
                <Lazy<T> as crate::Decode>::decode_input(value, Endian::Little, &())
            })
        })
    }

    /// Reads the value at `offset` from `base` with `read`; an offset
    /// pointing outside the data is an error at its own byte, `offset_at`.
    /// A value at a place read already (a target shared by several
    /// offsets) is read again, unseen by the byte map; every read counts
    /// against [`OFFSET_READS_PER_BYTE`], an error at the offset once spent.
    pub fn read<I: Input, T>(
        &mut self,
        input: &mut I,
        base: Base,
        offset: (u64, u64),
        read: impl FnOnce(&mut I) -> Result<T, Error>,
    ) -> Result<At<T>, Error> {
        let (value, gap) = self.place(input, base, offset, read)?;
        Ok(At {
            offset: Some(offset.0),
            value,
            gap,
        })
    }

    /// [`Placement::read`] onto the end of `values`, which has room for it:
    /// the value is built where it is kept. (Returned, it went through the
    /// stack, and its copy from there stalled on the narrower stores that
    /// built it.)
    pub fn read_onto<I: Input, T>(
        &mut self,
        input: &mut I,
        base: Base,
        offset: (u64, u64),
        values: &mut Vec<At<T>>,
        read: impl FnOnce(&mut I) -> Result<T, Error>,
    ) -> Result<(), Error> {
        let (value, gap) = self.place(input, base, offset, read)?;
        crate::collection::push_made(values, || At {
            offset: Some(offset.0),
            value,
            gap,
        })
    }

    /// The value at `offset` from `base`, read with `read`, and its gap
    /// when it is given as read.
    #[inline(always)]
    fn place<I: Input, T>(
        &mut self,
        input: &mut I,
        base: Base,
        (offset, offset_at): (u64, u64),
        read: impl FnOnce(&mut I) -> Result<T, Error>,
    ) -> Result<(T, Vec<u8>), Error> {
        let block_start = self.block_start;
        let base = base.position_in(block_start);
        let start = base
            .checked_add(offset)
            .filter(|&start| start >= block_start && start <= self.input_end);
        let Some(start) = start else {
            return Err(Error::at_byte(
                offset_at,
                ErrorKind::Invalid(format!(
                    "offset {offset} from byte {base} points outside the data (bytes {} to {})",
                    block_start, self.input_end
                )),
            ));
        };
        let shared_end = match self.places_kept {
            true => self.end_of(start),
            false => {
                if self.last_start.is_some_and(|last| start <= last) {
                    return Err(Error::at_byte(
                        offset_at,
                        ErrorKind::Invalid(format!(
                            "offset {offset} is read out of the order its struct gave"
                        )),
                    ));
                }
                self.last_start = Some(start);
                None
            }
        };
        // A shared place's length is known before it is read again.
        let known = shared_end.map_or(0, |end| end.saturating_sub(start));
        if known > 0 && !ReadBudget::spend(known) {
            return Err(too_many_reads(offset_at));
        }
        input.seek_to(start)?;
        let muted = shared_end.is_some().then(map::mute);
        let value = read(input)?;
        drop(muted);
        let end = input.position()?;
        if shared_end.is_none() {
            let len = end.saturating_sub(start);
            if len > 0 && !ReadBudget::spend(len) {
                return Err(too_many_reads(offset_at));
            }
            if self.places_kept {
                self.note_read(start, end);
            }
        }
        let in_order = self.ends.is_none() && shared_end.is_none();
        match &mut self.starts {
            Some(starts) => starts.push((start, shared_end.is_none())),
            None if in_order => {}
            None => {
                let mut starts: Vec<(u64, bool)> =
                    self.read.iter().map(|&(start, _)| (start, true)).collect();
                // A value at a new place is in `read` already.
                if shared_end.is_none() {
                    starts.pop();
                }
                starts.push((start, shared_end.is_none()));
                self.starts = Some(starts);
            }
        }
        // In order, a value's gap runs from the furthest end before it,
        // and is read now; out of order, every gap is read by `finish`.
        self.gaps_given &= self.starts.is_none();
        // Most values have no gap: that case makes no call (whose returned
        // vector, read back from the stack, stalled on its stores).
        let gap = match self.gaps_given && self.furthest < start {
            true => read_gap(input, self.furthest, start)?,
            false => Vec::new(),
        };
        self.furthest = self.furthest.max(end);
        Ok((value, gap))
    }

    /// Where the place read at `start` ends, if one was.
    fn end_of(&self, start: u64) -> Option<u64> {
        if let Some(ends) = &self.ends {
            return ends.get(&start).copied();
        }
        // Past the last place read: new (the common case, no search).
        if self.read.last().is_none_or(|&(last, _)| last < start) {
            return None;
        }
        let found = self.read.binary_search_by_key(&start, |&(start, _)| start);
        found
            .ok()
            .and_then(|index| self.read.get(index))
            .map(|&(_, end)| end)
    }

    /// Notes a place read for the first time.
    fn note_read(&mut self, start: u64, end: u64) {
        match &mut self.ends {
            Some(ends) => {
                ends.insert(start, end);
            }
            None if self.read.last().is_some_and(|&(last, _)| last > start) => {
                let mut ends: HashMap<u64, u64> = self.read.iter().copied().collect();
                ends.insert(start, end);
                self.ends = Some(ends);
            }
            None => {}
        }
        self.read.push((start, end));
    }

    /// Reads the gaps, each value's in the order the values were read (an
    /// empty one for a value sharing the place of one before it), and
    /// leaves the input where the last value ends; none when each value
    /// was given its own as it was read. Gaps overlap nothing: a value that
    /// lies within another's bytes, or within the struct's fields, has none.
    pub fn finish<I: Input>(self, input: &mut I) -> Result<Vec<Vec<u8>>, Error> {
        if self.gaps_given {
            input.seek_to(self.furthest)?;
            return Ok(Vec::new());
        }
        // Values read in the order they lie, none sharing a place (nearly
        // every file): each one's gap runs from the furthest end before
        // it, which one pass carries along.
        let Some(starts) = self.starts else {
            let mut furthest = self.fields_end;
            let mut gaps = Vec::with_capacity(self.read.len());
            for &(start, end) in &self.read {
                gaps.push(read_gap(input, furthest, start)?);
                furthest = furthest.max(end);
            }
            input.seek_to(furthest)?;
            return Ok(gaps);
        };
        let mut by_start: Vec<(u64, u64)> = self.read;
        if self.ends.is_some() {
            by_start.sort_unstable();
        }
        // The furthest end among the places beginning at or before each.
        let furthest: Vec<u64> = by_start
            .iter()
            .scan(self.fields_end, |furthest, &(_, end)| {
                *furthest = (*furthest).max(end);
                Some(*furthest)
            })
            .collect();
        let mut gaps = Vec::with_capacity(starts.len());
        for &(start, first) in &starts {
            let earlier = by_start.partition_point(|&(other, _)| other < start);
            let before = earlier
                .checked_sub(1)
                .and_then(|last| furthest.get(last).copied())
                .unwrap_or(self.fields_end);
            let gap = match first {
                true => read_gap(input, before, start)?,
                false => Vec::new(),
            };
            gaps.push(gap);
        }
        let end = furthest.last().copied().unwrap_or(self.fields_end);
        input.seek_to(end)?;
        Ok(gaps)
    }
}

/// The bytes from `before` to a value at `start`, when it lies after
/// them; none when it lies within what was read before it.
fn read_gap<I: Input>(input: &mut I, before: u64, start: u64) -> Result<Vec<u8>, Error> {
    if before >= start {
        return Ok(Vec::new());
    }
    input.seek_to(before)?;
    let bytes = input.read_bytes(start - before)?;
    map::note(before, start, "gap", map::SpanKind::Opaque, || {
        format!("{} byte(s) kept as found", start - before)
    });
    Ok(bytes)
}

#[cold]
fn too_many_reads(offset_at: u64) -> Error {
    Error::at_byte(
        offset_at,
        ErrorKind::Invalid(format!(
            "the values offsets point to take more than {OFFSET_READS_PER_BYTE} times the \
             input's bytes to read (offsets sharing a large value)"
        )),
    )
}

/// Writing the values a struct's offsets point to, once its own fields
/// (their offsets as placeholders) are written: those read from a file
/// where they lay, in the file's order, each after its gap, as long as
/// they still fit there; the others (built by hand, or no longer fitting)
/// one after another; then every offset written over its placeholder.
#[derive(Default)]
pub struct Placing {
    /// Where each value placed so far begins, sorted: the output only
    /// grows, so each is at or after the last and is added at the end, and
    /// a search is a binary one. (A list searched from its start at every
    /// value made writing 17,000 items take 50 times a hand-written
    /// encoder's time; a hashed set still twice the rest of the writing.)
    placed: Vec<u64>,
}

impl Placing {
    /// Room for `values` values' places.
    pub fn for_values(values: usize) -> Self {
        Placing {
            placed: Vec::with_capacity(values),
        }
    }

    /// The order to write values in, by index, given where each lay in
    /// the file (`None`: placed by the writer): those that lay somewhere
    /// by where, then the others as given. Values already in that order
    /// (nearly always) are not sorted, nor listed.
    pub fn order(lay: &[Option<u64>]) -> impl Iterator<Item = usize> {
        let key = |lay: &Option<u64>| match *lay {
            Some(position) => (0, position),
            None => (1, 0),
        };
        let sorted = match lay.is_sorted_by_key(key) {
            true => None,
            false => {
                let mut order: Vec<usize> = (0..lay.len()).collect();
                order.sort_by_key(|&index| lay.get(index).map(key));
                Some(order)
            }
        };
        let in_place = if sorted.is_none() { lay.len() } else { 0 };
        (0..in_place).chain(sorted.into_iter().flatten())
    }

    /// What an output that [`Output::ESTIMATES`] takes for a value at an
    /// offset, in place of placing it: the value after its gap. An
    /// estimate only sizes the output, so nothing is ordered, looked up or
    /// patched (the walk that does was a third of encoding a table of
    /// 17,000 items, made twice); values sharing a place count each time.
    #[inline]
    pub fn estimate<W: Output, T>(
        output: &mut W,
        at: &At<T>,
        write: impl FnOnce(&mut W, &T) -> Result<(), Error>,
    ) -> Result<(), Error> {
        output.assume(at.gap.len() as u64);
        write(output, &at.value)
    }

    /// Where a value lay in the file, given its offset's base.
    pub fn lay<T>(at: &At<T>, base: Base) -> Option<u64> {
        at.offset
            .and_then(|offset| base.position().checked_add(offset))
    }

    /// Writes one value with `write`, and its offset (of type `O`, from
    /// `base`) over the placeholder at `offset_at`.
    pub fn write<W: Output, O: OffsetInt, T>(
        &mut self,
        output: &mut W,
        at: &At<T>,
        base: Base,
        offset_at: u64,
        endian: Endian,
        write: impl FnOnce(&mut W, &T) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let base = base.position();
        let position = output.position()?;
        let found = at.offset.and_then(|offset| base.checked_add(offset));
        let start = match found {
            // A target another value shares: written once.
            Some(target) if self.is_placed(target) => {
                return write_offset::<W, O>(output, offset_at, base, target, endian);
            }
            // Where it lay, after its gap, when that is where the output is.
            Some(target) if position.checked_add(at.gap.len() as u64) == Some(target) => {
                output.write_bytes(&at.gap)?;
                target
            }
            _ => position,
        };
        write(output, &at.value)?;
        self.note_placed(start);
        write_offset::<W, O>(output, offset_at, base, start, endian)
    }

    /// Whether a value was placed at `start`: past the last one placed
    /// (each new value is) it was not, with no search.
    #[inline]
    fn is_placed(&self, start: u64) -> bool {
        match self.placed.last() {
            Some(&last) if start <= last => self.placed.binary_search(&start).is_ok(),
            _ => false,
        }
    }

    #[inline]
    fn note_placed(&mut self, start: u64) {
        if self.placed.last().is_none_or(|&last| last < start) {
            self.placed.push(start);
        } else if let Err(index) = self.placed.binary_search(&start) {
            self.placed.insert(index, start);
        }
    }
}

/// Writes the offset from `base` of a value placed at `start` over its
/// placeholder at `offset_at`.
fn write_offset<W: Output, O: OffsetInt>(
    output: &mut W,
    offset_at: u64,
    base: u64,
    start: u64,
    endian: Endian,
) -> Result<(), Error> {
    let offset = start.checked_sub(base).ok_or_else(|| {
        Error::new(ErrorKind::Invalid(format!(
            "the value lies at byte {start}, before its offset's base at byte {base}"
        )))
    })?;
    let offset = O::from_offset(offset)?;
    crate::computed::patch_value(output, offset_at, &offset, endian)
}

/// An unsigned integer type an offset is stored as.
pub trait OffsetInt: crate::Decode<Context = ()> + Encode<Context = ()> + Copy {
    fn to_offset(self) -> u64;
    /// The offset as this type, or an error when it does not fit.
    fn from_offset(offset: u64) -> Result<Self, Error>;
}

macro_rules! offset_int {
    ($($ty:ty),*) => {$(
        impl OffsetInt for $ty {
            #[inline]
            fn to_offset(self) -> u64 {
                u64::from(self)
            }
            #[inline]
            fn from_offset(offset: u64) -> Result<Self, Error> {
                <$ty>::try_from(offset).map_err(|_| {
                    Error::new(ErrorKind::Invalid(format!(
                        "offset {offset} does not fit a {}",
                        stringify!($ty)
                    )))
                })
            }
        }
    )*};
}

offset_int!(u8, u16, u32, u64);

/// Reads an offset of type `O`.
#[inline]
pub fn read_offset<O: OffsetInt, I: Input>(input: &mut I, endian: Endian) -> Result<u64, Error> {
    Ok(O::decode_input(input, endian, &())?.to_offset())
}

/// Writes the placeholder of an offset of type `O`, filled in once the
/// value it points to is placed; gives where it is.
#[inline]
pub fn write_offset_placeholder<O: OffsetInt, W: Output>(
    output: &mut W,
    endian: Endian,
) -> Result<u64, Error> {
    let at = output.position()?;
    O::from_offset(0)?.encode_output(output, endian, &())?;
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Decode, SliceInput, VecOutput};

    fn read_u8(input: &mut SliceInput) -> Result<u8, Error> {
        u8::decode_input(input, Endian::Little, &())
    }

    #[test]
    fn values_are_read_where_they_point_with_the_gaps_between_them() {
        // Two fields' bytes, then the values at 5 and 2, a gap at 3..5.
        let bytes = [0, 0, 20, 9, 9, 50, 7];
        let mut input = SliceInput::new(&bytes);
        input.read_array::<2>().unwrap();
        let mut placement = Placement::new(&mut input).unwrap();
        let second = placement
            .read(&mut input, Base::File, (5, 0), read_u8)
            .unwrap();
        let first = placement
            .read(&mut input, Base::File, (2, 1), read_u8)
            .unwrap();
        let shared = placement
            .read(&mut input, Base::File, (2, 1), read_u8)
            .unwrap();
        let gaps = placement.finish(&mut input).unwrap();
        assert_eq!((second.value, first.value, shared.value), (50, 20, 20));
        assert_eq!(gaps, [vec![9, 9], vec![], vec![]]);
        // The last value ends at 6: byte 6 is what follows.
        assert_eq!(input.offset(), 6);
        let error = Placement::new(&mut input)
            .unwrap()
            .read(&mut input, Base::File, (9, 1), read_u8)
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 1: offset 9 from byte 0 points outside the data (bytes 0 to 7)"
        );
    }

    #[test]
    fn values_in_the_order_they_lie_keep_the_gaps_before_each() {
        // Two fields' bytes, a gap, the value at 3, a gap, the value at 5.
        let bytes = [0, 0, 9, 20, 7, 50, 8];
        let mut input = SliceInput::new(&bytes);
        input.read_array::<2>().unwrap();
        let mut placement = Placement::new(&mut input).unwrap();
        let first = placement
            .read(&mut input, Base::File, (3, 0), read_u8)
            .unwrap();
        let second = placement
            .read(&mut input, Base::File, (5, 1), read_u8)
            .unwrap();
        let gaps = placement.finish(&mut input).unwrap();
        assert_eq!((first.value, second.value), (20, 50));
        assert_eq!(gaps, [vec![9], vec![7]]);
        assert_eq!(input.offset(), 6);
    }

    #[test]
    fn offsets_known_to_ascend_keep_no_places_and_hold_their_reads_to_that_order() {
        // Two fields' bytes, a gap, the value at 3, a gap, the value at 5.
        let bytes = [0, 0, 9, 20, 7, 50, 8];
        let after_the_fields = |offsets: [u64; 2]| {
            let mut input = SliceInput::new(&bytes);
            input.read_array::<2>().unwrap();
            let offsets = offsets.map(|offset| (Base::File, offset));
            let placement = Placement::for_values(&mut input, 2, offsets).unwrap();
            (input, placement)
        };
        let (mut input, mut placement) = after_the_fields([3, 5]);
        assert!(!placement.places_kept);
        let [first, second] = [(3, 0), (5, 1)].map(|offset| {
            placement
                .read(&mut input, Base::File, offset, read_u8)
                .unwrap()
        });
        assert_eq!(placement.read.capacity(), 0);
        assert_eq!((first.gap, second.gap), (vec![9], vec![7]));
        assert_eq!(placement.finish(&mut input).unwrap(), Vec::<Vec<u8>>::new());
        assert_eq!(input.offset(), 6);
        // A value read before one it was said to follow is refused.
        let (mut input, mut placement) = after_the_fields([3, 5]);
        let [later, earlier] =
            [(5, 1), (3, 0)].map(|offset| placement.read(&mut input, Base::File, offset, read_u8));
        assert!(later.is_ok());
        assert_eq!(
            earlier.unwrap_err().to_string(),
            "byte 0: offset 3 is read out of the order its struct gave"
        );
        // Offsets that do not ascend (here shared) keep their places.
        let (mut input, mut placement) = after_the_fields([3, 3]);
        assert!(placement.places_kept);
        for offset_at in [0, 1] {
            let at = placement
                .read(&mut input, Base::File, (3, offset_at), read_u8)
                .unwrap();
            assert_eq!(at.value, 20);
        }
        assert_eq!(placement.read, [(3, 4)]);
    }

    #[test]
    fn offsets_sharing_a_large_value_stop_at_the_budget() {
        // 4 KiB of input: one 4,000-byte value, every offset pointing to it.
        let bytes = vec![1u8; 4096];
        let read_value = |input: &mut SliceInput| input.read_bytes(4000);
        let mut input = SliceInput::new(&bytes);
        let mut placement = Placement::new(&mut input).unwrap();
        let budget = LEAST_OFFSET_READS.max(4096 * OFFSET_READS_PER_BYTE);
        let reads_allowed = budget / 4000;
        for _ in 0..reads_allowed {
            placement
                .read(&mut input, Base::File, (0, 0), read_value)
                .unwrap();
        }
        let error = placement
            .read(&mut input, Base::File, (0, 8), read_value)
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 8: the values offsets point to take more than 32 times the input's bytes to \
             read (offsets sharing a large value)"
        );
        drop(placement);
        // The budget ends with the decode that set it.
        let mut input = SliceInput::new(&bytes);
        let mut placement = Placement::new(&mut input).unwrap();
        assert!(placement
            .read(&mut input, Base::File, (0, 0), read_value)
            .is_ok());
    }

    #[test]
    fn sibling_structs_with_offsets_share_the_budget_of_their_decode() {
        // Two structs with offsets side by side in one decode of 4 KiB,
        // each pointing many times at one 4,000-byte value: the second
        // spends what the first left, not a budget of its own.
        let bytes = vec![1u8; 4096];
        let read_value = |input: &mut SliceInput| input.read_bytes(4000);
        let budget = LEAST_OFFSET_READS.max(4096 * OFFSET_READS_PER_BYTE);
        let reads_allowed = budget / 4000;
        let decode = || {
            let mut input = SliceInput::new(&bytes);
            let mut first = Placement::new(&mut input)?;
            for _ in 0..reads_allowed {
                first.read(&mut input, Base::File, (0, 0), read_value)?;
            }
            drop(first);
            let mut second = Placement::new(&mut input)?;
            second.read(&mut input, Base::File, (0, 8), read_value)
        };
        let error = with_read_budget(4096, decode).unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 8: the values offsets point to take more than 32 times the input's bytes to \
             read (offsets sharing a large value)"
        );
        // Outside a decode's entry point each outermost struct has its own.
        assert!(decode().is_ok());
    }

    #[test]
    fn values_are_written_where_they_lay_then_after_them() {
        let mut output = VecOutput::default();
        let first_offset = write_offset_placeholder::<u8, _>(&mut output, Endian::Little).unwrap();
        let second_offset = write_offset_placeholder::<u8, _>(&mut output, Endian::Little).unwrap();
        let values = [
            At {
                offset: Some(5),
                value: 50u8,
                gap: vec![9, 9],
            },
            At::new(20u8),
        ];
        let mut placing = Placing::default();
        let lay: Vec<Option<u64>> = values
            .iter()
            .map(|at| Placing::lay(at, Base::File))
            .collect();
        for index in Placing::order(&lay) {
            let offset_at = [first_offset, second_offset][index];
            placing
                .write::<_, u8, _>(
                    &mut output,
                    &values[index],
                    Base::File,
                    offset_at,
                    Endian::Little,
                    |w, v| v.encode_output(w, Endian::Little, &()),
                )
                .unwrap();
        }
        // At 2 the gap does not bring the first value to byte 5: it is
        // placed where the output is.
        assert_eq!(output.into_bytes(), [2, 3, 50, 20]);
    }
}
