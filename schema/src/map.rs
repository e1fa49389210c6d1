//! The byte map: where each value a reader read came from. Off unless
//! asked for ([`record_spans`]): a reader then notes, for every number,
//! string, constant and IFF header it reads, its field path, its type and
//! its bytes (a text reader: its lines), so that every byte of a binary
//! file belongs to exactly one span. Outside [`record_spans`] the readers
//! pay one relaxed atomic load per value.
//!
//! [`record_map`] keeps the spans compact (a [`ByteMap`]): each path is a
//! node of one tree of paths, each value's text a range of one string,
//! about 70 bytes a span, where a [`Span`] that owns its path and its text
//! takes several hundred; a map of a big file is many times the file.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

use std::ops::Range;

use crate::{Error, FieldPath, Input, Segment};

/// One value as the reader met it.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// Where the value is, as error paths name places (with every field
    /// named, in IFF layouts too).
    pub path: FieldPath,
    /// The value's type (`u32`, `RawString`, `chunk tag`, ...).
    pub type_name: &'static str,
    /// Binary: the first byte and the byte after the last. Text: the first
    /// line and the line after the last, counted from 1.
    pub start: u64,
    pub end: u64,
    /// Text: for a token, its first column and the column after its last
    /// on its line (from 1); none for a whole line. A token's span lies
    /// within its line's, which alone counts in covering the file.
    pub columns: Option<(u32, u32)>,
    /// The value as Rust's `Debug` prints it.
    pub value: String,
    pub kind: SpanKind,
    /// For a word of bit fields: each field's bits in it.
    pub bits: Vec<BitSpan>,
    /// For bytes a transform decodes (a gzip stream): the spans of the
    /// value read from the decoded bytes, their offsets in those bytes.
    pub decoded: Vec<Span>,
    /// Those decoded bytes, which a byte map shows under the encoded ones.
    pub decoded_bytes: Vec<u8>,
}

/// A bit field of a word: its name, its bits, its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitSpan {
    pub name: &'static str,
    /// The field's lowest bit, counted from the word's least significant
    /// (bit 0).
    pub shift: u32,
    /// How many bits it takes.
    pub width: u32,
    pub value: u64,
}

/// What a span holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanKind {
    /// A value the layout names, unknown ones kept as data included.
    Field,
    /// A container's framing: an IFF tag, size or form type.
    Header,
    /// Bytes kept as found because the layout does not describe them
    /// (`RawChunk`).
    Opaque,
}

/// The spans of one read, compact: the paths as a tree of nodes, the
/// values' text in one string.
#[derive(Debug, Clone, Default)]
pub struct ByteMap {
    nodes: Vec<PathNode>,
    text: String,
    spans: Vec<Noted>,
    extras: Vec<Extra>,
}

/// A node of a [`ByteMap`]'s tree of paths: its parent (none at the top)
/// and its own segment.
#[derive(Debug, Clone)]
struct PathNode {
    parent: Option<PathId>,
    segment: Segment,
}

/// A path of a [`ByteMap`]: an index into its tree of paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PathId(u32);

/// One value as the reader met it, in a [`ByteMap`].
#[derive(Debug, Clone)]
pub struct Noted {
    /// Where the value is (none: at the top, outside every field).
    pub path: Option<PathId>,
    pub type_name: &'static str,
    /// As [`Span::start`] and [`Span::end`].
    pub start: u64,
    pub end: u64,
    /// As [`Span::columns`].
    pub columns: Option<(u32, u32)>,
    pub kind: SpanKind,
    value: Range<usize>,
    /// What only a few spans have: bit fields, decoded bytes.
    extra: Option<u32>,
}

/// A span's bit fields, or the spans read from the bytes it decodes to.
#[derive(Debug, Clone, Default)]
struct Extra {
    bits: Vec<BitSpan>,
    decoded: Vec<Noted>,
    decoded_bytes: Vec<u8>,
}

/// The spans read from bytes a transform decoded, until
/// [`note_decoded`] puts them under the span of the encoded bytes.
#[derive(Debug, Default)]
pub struct DecodedSpans(Vec<Noted>);

impl ByteMap {
    /// Every span, in the order read.
    pub fn spans(&self) -> &[Noted] {
        &self.spans
    }

    /// Sorts the spans by their first unit, then their end (a text's
    /// line before its tokens, the tokens by column).
    pub fn sort_by_place(&mut self) {
        self.spans
            .sort_by_key(|span| (span.start, span.end, span.columns));
    }

    /// The value of `span` as text.
    pub fn value(&self, span: &Noted) -> &str {
        self.text.get(span.value.clone()).unwrap_or_default()
    }

    /// The segments of `path`, innermost first.
    pub fn segments(&self, path: Option<PathId>) -> impl Iterator<Item = &Segment> {
        let mut at = path;
        std::iter::from_fn(move || {
            let node = self.nodes.get(at?.0 as usize)?;
            at = node.parent;
            Some(&node.segment)
        })
    }

    /// `path` as a [`FieldPath`].
    pub fn path(&self, path: Option<PathId>) -> FieldPath {
        let mut written = FieldPath::default();
        for segment in self.segments(path) {
            written.push_outer(segment.clone());
        }
        written
    }

    /// The bit fields of a word's span (none for other spans).
    pub fn bits(&self, span: &Noted) -> &[BitSpan] {
        self.extra(span).map_or(&[], |extra| &extra.bits)
    }

    /// The spans read from the bytes `span` decodes to, and those bytes
    /// (none for a span of bytes no transform decodes).
    pub fn decoded(&self, span: &Noted) -> (&[Noted], &[u8]) {
        self.extra(span)
            .map_or((&[], &[]), |extra| (&extra.decoded, &extra.decoded_bytes))
    }

    fn extra(&self, span: &Noted) -> Option<&Extra> {
        self.extras.get(span.extra? as usize)
    }

    /// `span` on its own, owning its path and text.
    pub fn span(&self, span: &Noted) -> Span {
        let (decoded, decoded_bytes) = self.decoded(span);
        Span {
            path: self.path(span.path),
            type_name: span.type_name,
            start: span.start,
            end: span.end,
            columns: span.columns,
            value: self.value(span).to_owned(),
            kind: span.kind,
            bits: self.bits(span).to_vec(),
            decoded: decoded.iter().map(|inner| self.span(inner)).collect(),
            decoded_bytes: decoded_bytes.to_vec(),
        }
    }
}

/// How many threads are recording: 0 lets every reader skip the map with
/// one load.
static RECORDING: AtomicUsize = AtomicUsize::new(0);

struct Recorder {
    /// The segments entered, each with its node once a span needed it.
    path: Vec<(Segment, Option<PathId>)>,
    map: ByteMap,
    /// Inside a value recorded as one span (a string, a kept chunk), the
    /// values it reads are not spans of their own.
    muted: usize,
}

impl Recorder {
    /// The node of the path entered, made (with its parents) if no span
    /// has needed it yet.
    fn current_node(&mut self) -> Option<PathId> {
        let mut parent = None;
        for (segment, node) in &mut self.path {
            let id = match *node {
                Some(id) => id,
                None => {
                    let id = PathId(u32::try_from(self.map.nodes.len()).ok()?);
                    self.map.nodes.push(PathNode {
                        parent,
                        segment: segment.clone(),
                    });
                    *node = Some(id);
                    id
                }
            };
            parent = Some(id);
        }
        parent
    }
}

thread_local! {
    static RECORDER: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

/// Whether this thread records spans (one relaxed load when no thread
/// does).
#[inline]
pub fn recording() -> bool {
    RECORDING.load(Ordering::Relaxed) != 0 && recording_here()
}

/// [`recording`] for values read from an `I`: always `false` for an
/// input that is never recorded ([`Input::RECORDS`]), so that its readers
/// compile without any of the map's checks.
#[inline(always)]
pub fn recording_in<I: Input + ?Sized>() -> bool {
    I::RECORDS && recording()
}

/// Whether this thread is the one recording (another one may be).
#[cold]
#[inline(never)]
fn recording_here() -> bool {
    RECORDER.with(|recorder| {
        recorder
            .try_borrow()
            .is_ok_and(|recorder| recorder.is_some())
    })
}

/// Runs `read` recording the spans of what it reads, in the order read.
/// Fast paths that decode runs of values at once are off meanwhile, so
/// every value is seen (a list of numbers is one span).
pub fn record_map<T>(read: impl FnOnce() -> T) -> (T, ByteMap) {
    /// Ends the recording however `read` ends, a panic included.
    struct Stop(Option<Recorder>);
    impl Drop for Stop {
        fn drop(&mut self) {
            let previous = self.0.take();
            RECORDER.with(|recorder| *recorder.borrow_mut() = previous);
            RECORDING.fetch_sub(1, Ordering::Relaxed);
        }
    }
    let fresh = Recorder {
        path: Vec::new(),
        map: ByteMap::default(),
        muted: 0,
    };
    let previous = RECORDER.with(|recorder| recorder.borrow_mut().replace(fresh));
    RECORDING.fetch_add(1, Ordering::Relaxed);
    let stop = Stop(previous);
    let value = read();
    let map = RECORDER
        .with(|recorder| {
            recorder
                .borrow_mut()
                .as_mut()
                .map(|r| std::mem::take(&mut r.map))
        })
        .unwrap_or_default();
    drop(stop);
    (value, map)
}

/// [`record_map`] with each span on its own, owning its path and text:
/// simpler to look at, several times larger.
pub fn record_spans<T>(read: impl FnOnce() -> T) -> (T, Vec<Span>) {
    let (value, map) = record_map(read);
    let spans = map.spans().iter().map(|span| map.span(span)).collect();
    (value, spans)
}

fn with_recorder(act: impl FnOnce(&mut Recorder)) {
    RECORDER.with(|recorder| {
        if let Ok(mut recorder) = recorder.try_borrow_mut() {
            if let Some(recorder) = recorder.as_mut() {
                act(recorder);
            }
        }
    });
}

/// While it lives, what is read lies inside `segment` (a field, an
/// element, a chunk). Dropping it leaves the segment.
#[must_use = "the segment is left when the guard is dropped"]
pub struct Entered(bool);

impl Drop for Entered {
    #[inline]
    fn drop(&mut self) {
        if self.0 {
            leave();
        }
    }
}

#[cold]
#[inline(never)]
fn leave() {
    with_recorder(|recorder| {
        recorder.path.pop();
    });
}

/// Enters `segment` when recording; a no-op guard otherwise.
#[inline]
pub fn enter(segment: Segment) -> Entered {
    if !recording() {
        return Entered(false);
    }
    enter_recording(segment)
}

/// [`enter`] for a value read from an `I` (see [`recording_in`]).
#[inline(always)]
pub fn enter_in<I: Input + ?Sized>(segment: Segment) -> Entered {
    enter_if(recording_in::<I>(), segment)
}

/// [`enter`] for a loop that asked [`recording`] once, before it.
#[inline]
pub fn enter_if(recording: bool, segment: Segment) -> Entered {
    if !recording {
        return Entered(false);
    }
    enter_recording(segment)
}

#[cold]
#[inline(never)]
fn enter_recording(segment: Segment) -> Entered {
    let mut entered = false;
    with_recorder(|recorder| {
        recorder.path.push((segment, None));
        entered = true;
    });
    Entered(entered)
}

/// While it lives, values read are parts of one span, not spans.
#[must_use = "recording resumes when the guard is dropped"]
pub struct Muted(bool);

impl Drop for Muted {
    #[inline]
    fn drop(&mut self) {
        if self.0 {
            unmute();
        }
    }
}

#[cold]
#[inline(never)]
fn unmute() {
    with_recorder(|recorder| recorder.muted -= 1);
}

/// Mutes recording when recording; a no-op guard otherwise.
#[inline]
pub fn mute() -> Muted {
    if !recording() {
        return Muted(false);
    }
    mute_recording()
}

/// [`mute`] for a value read from an `I` (see [`recording_in`]).
#[inline(always)]
pub fn mute_in<I: Input + ?Sized>() -> Muted {
    if !recording_in::<I>() {
        return Muted(false);
    }
    mute_recording()
}

#[cold]
#[inline(never)]
fn mute_recording() -> Muted {
    let mut muted = false;
    with_recorder(|recorder| {
        recorder.muted += 1;
        muted = true;
    });
    Muted(muted)
}

/// Notes a value read from `start` to `end` at the current path. `value`
/// is formatted only when recording.
#[inline]
pub fn note(
    start: u64,
    end: u64,
    type_name: &'static str,
    kind: SpanKind,
    value: impl FnOnce() -> String,
) {
    if recording() {
        note_recording(start, end, type_name, kind, value());
    }
}

#[cold]
#[inline(never)]
fn note_recording(start: u64, end: u64, type_name: &'static str, kind: SpanKind, value: String) {
    note_span(
        (start, end, None),
        type_name,
        kind,
        &value,
        Extra::default(),
    );
}

/// Notes a token of a text's line `line` (from 1) at `columns` (its first
/// column and the one after its last, from 1). `value` is formatted only
/// when recording.
#[inline]
pub fn note_token(
    line: u64,
    columns: (u32, u32),
    type_name: &'static str,
    value: impl FnOnce() -> String,
) {
    if recording() {
        let value = value();
        note_span(
            (line, line + 1, Some(columns)),
            type_name,
            SpanKind::Field,
            &value,
            Extra::default(),
        );
    }
}

/// Notes a word of bit fields read from `start` to `end`, with each
/// field's bits (`bits`, asked for only when recording).
pub fn note_word(
    start: u64,
    end: u64,
    type_name: &'static str,
    word: u64,
    bits: impl FnOnce() -> Vec<BitSpan>,
) {
    if recording() {
        let extra = Extra {
            bits: bits(),
            ..Extra::default()
        };
        note_span(
            (start, end, None),
            type_name,
            SpanKind::Field,
            &format!("{word:#x}"),
            extra,
        );
    }
}

fn note_span(
    (start, end, columns): (u64, u64, Option<(u32, u32)>),
    type_name: &'static str,
    kind: SpanKind,
    value: &str,
    extra: Extra,
) {
    with_recorder(|recorder| {
        if recorder.muted > 0 {
            return;
        }
        let path = recorder.current_node();
        let map = &mut recorder.map;
        let at = map.text.len();
        map.text.push_str(value);
        let extra = match extra.bits.is_empty()
            && extra.decoded.is_empty()
            && extra.decoded_bytes.is_empty()
        {
            true => None,
            false => {
                map.extras.push(extra);
                u32::try_from(map.extras.len() - 1).ok()
            }
        };
        map.spans.push(Noted {
            path,
            type_name,
            start,
            end,
            columns,
            kind,
            value: at..map.text.len(),
            extra,
        });
    });
}

/// Runs `read` over bytes a transform decoded: the spans it notes (their
/// offsets in those bytes) are kept apart and returned, for the span of
/// the encoded bytes to show ([`note_decoded`]).
pub fn record_decoded<T>(read: impl FnOnce() -> T) -> (T, DecodedSpans) {
    if !recording() {
        return (read(), DecodedSpans::default());
    }
    let mut outer = Vec::new();
    with_recorder(|recorder| outer = std::mem::take(&mut recorder.map.spans));
    let value = read();
    let mut decoded = Vec::new();
    with_recorder(|recorder| decoded = std::mem::replace(&mut recorder.map.spans, outer));
    (value, DecodedSpans(decoded))
}

/// Notes encoded bytes read from `start` to `end` as one span holding
/// the bytes they decode to and the spans of what was read from those.
pub fn note_decoded(
    (start, end): (u64, u64),
    type_name: &'static str,
    value: String,
    (bytes, spans): (&[u8], DecodedSpans),
) {
    if !recording() {
        return;
    }
    let extra = Extra {
        bits: Vec::new(),
        decoded: spans.0,
        decoded_bytes: bytes.to_vec(),
    };
    note_span(
        (start, end, None),
        type_name,
        SpanKind::Field,
        &value,
        extra,
    );
}

/// A value a hand-written codec reads (`with = module`), noted in the byte
/// map as one span of `type_name`, whatever it reads inside.
pub fn read_custom<I: Input, T>(
    input: &mut I,
    type_name: &'static str,
    read: impl FnOnce(&mut I) -> Result<T, Error>,
) -> Result<T, Error> {
    if !recording() {
        return read(input);
    }
    let start = input.position()?;
    let muted = mute();
    let value = read(input)?;
    drop(muted);
    let end = input.position()?;
    note(start, end, type_name, SpanKind::Field, || {
        format!("({} bytes read by a custom codec)", end - start)
    });
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_noted_only_while_recording_with_the_path_entered() {
        note(0, 1, "u8", SpanKind::Field, || "1".to_owned());
        let ((), spans) = record_spans(|| {
            let _field = enter(Segment::Field("bones"));
            let _element = enter(Segment::Index(2));
            note(4, 6, "u16", SpanKind::Field, || "7".to_owned());
            let _muted = mute();
            note(6, 8, "u16", SpanKind::Field, || "8".to_owned());
        });
        assert_eq!(spans.len(), 1);
        assert_eq!(spans[0].path.to_string(), "bones[2]");
        assert_eq!((spans[0].start, spans[0].end), (4, 6));
        assert!(!recording());
        assert!(!enter(Segment::Field("x")).0);
    }

    #[test]
    fn an_unrecorded_input_is_not_recorded_while_recording() {
        use crate::{Decode, Endian, SliceInput};
        let ((), spans) = record_spans(|| {
            let mut input = SliceInput::unrecorded(&[7, 0]);
            assert!(!recording_in::<SliceInput<'_, false>>());
            assert!(!enter_in::<SliceInput<'_, false>>(Segment::Field("x")).0);
            assert_eq!(
                u16::decode_input(&mut input, Endian::Little, &()).ok(),
                Some(7)
            );
        });
        assert!(spans.is_empty());
        let ((), spans) = record_spans(|| {
            let mut input = SliceInput::new(&[7, 0]);
            assert_eq!(
                u16::decode_input(&mut input, Endian::Little, &()).ok(),
                Some(7)
            );
        });
        assert_eq!(spans.len(), 1);
    }

    #[test]
    fn a_map_keeps_one_node_for_each_path_a_span_is_at() {
        let ((), map) = record_map(|| {
            let _field = enter(Segment::Field("bones"));
            for index in 0..3 {
                let _element = enter(Segment::Index(index));
                // A field entered and left with no span makes no node.
                drop(enter(Segment::Field("unread")));
                let _name = enter(Segment::Field("name"));
                note(
                    index as u64,
                    index as u64 + 1,
                    "u8",
                    SpanKind::Field,
                    || format!("{index}"),
                );
                note(9, 10, "u8", SpanKind::Field, || "9".to_owned());
            }
        });
        // bones, then [i] and [i].name for each element.
        assert_eq!(map.nodes.len(), 7);
        let spans = map.spans();
        assert_eq!(spans.len(), 6);
        assert_eq!(spans[0].path, spans[1].path);
        assert_eq!(map.path(spans[2].path).to_string(), "bones[1].name");
        assert_eq!(map.value(&spans[4]), "2");
        assert_eq!(map.span(&spans[5]).value, "9");
    }
}
