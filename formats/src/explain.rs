//! The byte map of a file: which field each byte (for text, each line)
//! was read into, its type and value, as the generated readers report it
//! ([`crate::schema::map`]). [`explain`] decodes a file recording its
//! spans; an [`Explanation`] renders them as annotated hex, finds the field
//! holding a byte, and measures how much of the file the layout describes
//! (its [`Coverage`]). For a file that does not decode,
//! [`explain_until_error`] keeps the values read before the error, and
//! [`bytes_around`] shows the bytes around the error's offset.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::catalogue::Catalogue;
use crate::format::{Decoded, Encoding, Format};
use crate::schema::map::{self, ByteMap, Noted, PathId};
use crate::schema::{Error, FieldPath, Position, Segment};

/// What a span holds, as the JSON names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SpanKind {
    /// A value the layout names (an unknown integer kept as data included).
    Field,
    /// An IFF tag, size or form type.
    Header,
    /// Bytes kept as found because the layout does not describe them.
    Opaque,
}

impl From<map::SpanKind> for SpanKind {
    fn from(kind: map::SpanKind) -> Self {
        match kind {
            map::SpanKind::Field => SpanKind::Field,
            map::SpanKind::Header => SpanKind::Header,
            map::SpanKind::Opaque => SpanKind::Opaque,
        }
    }
}

/// One value of the file: where it is, what it is, what it holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldSpan {
    /// The field path, as errors name it (`SKMG/0004/INFO/position_count`).
    pub path: String,
    /// The value's type (`u32`, `RawString (null-terminated)`, `chunk tag`).
    #[serde(rename = "type")]
    pub type_name: &'static str,
    /// Binary: the first byte and the byte after the last. Text: the first
    /// line and the line after the last, from 1.
    pub start: u64,
    pub end: u64,
    /// Text: a token's first column and the column after its last, from
    /// 1 (none for a whole line, or bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub columns: Option<(u32, u32)>,
    pub value: String,
    pub kind: SpanKind,
}

impl FieldSpan {
    /// The value as a line shows it: at most about a line's worth.
    pub fn short_value(&self) -> String {
        shortened(&self.value)
    }
}

/// The segments of `path` as errors write them, outermost first: the map
/// names every field, an error does not name a field whose chunk or form
/// names it (`SKMG/0004/POSN`, not `SKMG/version/0004/POSN`;
/// `.../shader_groups[2]/SPS`'s list of forms as `SPS[2]`). A field
/// followed by a chunk, or by an element index followed by a chunk, is
/// left out.
fn as_errors_name(map: &ByteMap, path: Option<PathId>) -> Vec<&Segment> {
    let mut segments: Vec<&Segment> = map.segments(path).collect();
    segments.reverse();
    let named_by_chunk = |index: usize| {
        matches!(
            segments.get(index + 1..),
            Some([Segment::Chunk(_), ..] | [Segment::Index(_), Segment::Chunk(_), ..])
        )
    };
    segments
        .iter()
        .enumerate()
        .filter(|&(index, segment)| {
            !(matches!(segment, Segment::Field(_)) && named_by_chunk(index))
        })
        .map(|(_, &segment)| segment)
        .collect()
}

/// `segments` (outermost first) as a path's text.
fn path_text(segments: &[&Segment]) -> String {
    let mut path = FieldPath::default();
    for segment in segments.iter().rev() {
        path.push_outer((*segment).clone());
    }
    path.to_string()
}

/// A file's byte map.
#[derive(Debug, Clone)]
pub struct Explanation {
    /// The format's `--format` name.
    pub format: &'static str,
    /// Binary spans count bytes; text spans count lines.
    pub encoding: Encoding,
    /// The file's length: bytes, or lines for text.
    pub len: u64,
    /// Every value, in file order, compact: a span's path and text are
    /// written out only when asked for ([`Explanation::spans`]).
    map: ByteMap,
}

/// `explain --json`'s document: the file's format, encoding and length,
/// then its spans or its tree, and the error where it stopped decoding.
/// Spans are written out as they are serialized, so a big file's are
/// never all in memory as text at once.
#[derive(Serialize)]
pub struct Listing<'a> {
    format: &'static str,
    #[serde(serialize_with = "encoding_name")]
    encoding: Encoding,
    len: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    spans: Option<Spans<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tree: Option<tree::Node>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// The spans of an explanation as a JSON list.
struct Spans<'a>(&'a Explanation);

impl Serialize for Spans<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.spans())
    }
}

fn encoding_name<S: serde::Serializer>(
    encoding: &Encoding,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(match encoding {
        Encoding::Binary => "binary",
        Encoding::Text => "text",
    })
}

/// Decodes `bytes` as `format`, recording where each value came from.
/// Fails as decoding does.
pub fn explain(format: &'static Format, bytes: &[u8]) -> Result<Explanation, Error> {
    match explain_until_error(format, bytes) {
        (explanation, None) => Ok(explanation),
        (_, Some(error)) => Err(error),
    }
}

/// [`explain`] of a file that may not decode: the values read before the
/// error (what a message can show beside the failing byte), and the error.
pub fn explain_until_error(format: &'static Format, bytes: &[u8]) -> (Explanation, Option<Error>) {
    let (explanation, decoded) = explain_decoded(format, bytes);
    (explanation, decoded.err())
}

/// [`explain_until_error`] keeping the value decoded, for a caller that
/// shows more of it than the map (a sprite's frames as pictures).
pub fn explain_decoded(format: &'static Format, bytes: &[u8]) -> (Explanation, Decoded) {
    let (decoded, mut map) = map::record_map(|| (format.decode)(bytes));
    map.sort_by_place();
    let len = match format.encoding {
        Encoding::Binary => bytes.len() as u64,
        Encoding::Text => line_count(bytes),
    };
    let explanation = Explanation {
        format: format.name,
        encoding: format.encoding,
        len,
        map,
    };
    (explanation, decoded)
}

/// How many lines a text has, a last one without an ending included.
fn line_count(text: &[u8]) -> u64 {
    let breaks = text.iter().filter(|&&b| b == b'\n').count() as u64;
    breaks + u64::from(!text.is_empty() && !text.ends_with(b"\n"))
}

impl Explanation {
    /// The JSON document of this map: its `tree` (folded as the caller
    /// wants) in place of the spans when there is one, and the `error`
    /// that stopped decoding.
    pub fn listing(&self, tree: Option<tree::Node>, error: Option<String>) -> Listing<'_> {
        Listing {
            format: self.format,
            encoding: self.encoding,
            len: self.len,
            spans: tree.is_none().then_some(Spans(self)),
            tree,
            error,
        }
    }

    /// Every value, in file order, each with its path and text written
    /// out.
    pub fn spans(&self) -> impl ExactSizeIterator<Item = FieldSpan> + '_ {
        self.map.spans().iter().map(|span| self.field_span(span))
    }

    /// The spans as the map keeps them, in file order, for a reader that
    /// writes out only some of their paths and values
    /// ([`Explanation::segments`], [`Explanation::value`]).
    pub fn noted(&self) -> &[Noted] {
        self.map.spans()
    }

    /// The segments of a span's path as errors write them, outermost
    /// first.
    pub fn segments(&self, span: &Noted) -> Vec<&Segment> {
        as_errors_name(&self.map, span.path)
    }

    /// A span's value as text.
    pub fn value(&self, span: &Noted) -> &str {
        self.map.value(span)
    }

    fn field_span(&self, span: &Noted) -> FieldSpan {
        FieldSpan {
            path: path_text(&self.segments(span)),
            type_name: span.type_name,
            start: span.start,
            end: span.end,
            columns: span.columns,
            value: self.value(span).to_owned(),
            kind: span.kind.into(),
        }
    }

    /// The span holding byte (or, for text, line) `at`, if any (for text,
    /// the line's, not one of its tokens').
    pub fn at(&self, at: u64) -> Option<FieldSpan> {
        let spans = self.map.spans();
        let after = spans.partition_point(|span| span.start <= at);
        spans
            .get(..after)
            .and_then(|before| {
                before
                    .iter()
                    .rev()
                    .find(|span| at < span.end && span.columns.is_none())
            })
            .map(|span| self.field_span(span))
    }

    /// The spans that cover the file: bytes, or whole lines (a token lies
    /// within its line's span).
    fn covering(&self) -> impl Iterator<Item = &Noted> {
        self.map
            .spans()
            .iter()
            .filter(|span| span.columns.is_none())
    }

    /// Where the spans fail to cover the file once: the units (bytes or
    /// lines) no span holds and those two or more hold, as ranges.
    pub fn misses(&self) -> Misses {
        let mut misses = Misses::default();
        // Bytes count from 0, lines from 1.
        let (first, end) = match self.encoding {
            Encoding::Binary => (0, self.len),
            Encoding::Text => (1, self.len + 1),
        };
        let mut covered_to = first;
        for span in self.covering() {
            if span.start > covered_to {
                misses.uncovered.push((covered_to, span.start));
            }
            if span.start < covered_to {
                misses
                    .overlapping
                    .push((span.start, covered_to.min(span.end)));
            }
            covered_to = covered_to.max(span.end);
        }
        if covered_to < end {
            misses.uncovered.push((covered_to, end));
        }
        misses
    }

    /// How much of the file typed fields, headers and opaque blocks hold.
    pub fn coverage(&self) -> Coverage {
        let mut coverage = Coverage {
            files: 1,
            total: self.len,
            ..Coverage::default()
        };
        for span in self.covering() {
            let len = span.end.saturating_sub(span.start);
            match span.kind {
                map::SpanKind::Field => coverage.typed += len,
                map::SpanKind::Header => coverage.headers += len,
                map::SpanKind::Opaque => coverage.opaque += len,
            }
        }
        coverage
    }

    /// The file as annotated hex (binary: offset, bytes, field path, type,
    /// value; a long value's bytes over several lines) or annotated lines
    /// (text: line numbers, the line, then the fields read from it).
    pub fn render(&self, bytes: &[u8]) -> String {
        let mut all = String::new();
        let written: Result<(), std::convert::Infallible> = self.render_in_parts(bytes, |part| {
            all.push_str(part);
            Ok(())
        });
        let Ok(()) = written;
        all
    }

    /// [`Explanation::render`] handed to `emit` in parts of about 64 KiB
    /// (whole rows), for a caller that writes them out as they come: a
    /// big file's listing is many times the file.
    pub fn render_in_parts<E>(
        &self,
        bytes: &[u8],
        mut emit: impl FnMut(&str) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut out = String::new();
        let mut row_written = |out: &mut String| match out.len() >= PART {
            true => {
                let emitted = emit(out);
                out.clear();
                emitted
            }
            false => Ok(()),
        };
        match self.encoding {
            Encoding::Binary => self.render_hex(bytes, &mut out, &mut row_written)?,
            Encoding::Text => self.render_lines(bytes, &mut out, &mut row_written)?,
        }
        emit(&out)
    }

    fn render_hex<E>(
        &self,
        bytes: &[u8],
        out: &mut String,
        row_written: &mut impl FnMut(&mut String) -> Result<(), E>,
    ) -> Result<(), E> {
        const PER_LINE: usize = 16;
        for span in self.map.spans() {
            let start = usize::try_from(span.start).unwrap_or(usize::MAX);
            let end = usize::try_from(span.end).unwrap_or(usize::MAX);
            let held = bytes.get(start..end.min(bytes.len())).unwrap_or_default();
            let mut rows = held.chunks(PER_LINE);
            let first = rows.next().unwrap_or_default();
            let _ = writeln!(
                out,
                "{:08x}  {:<48}  {}  {}  {}",
                span.start,
                hex(first),
                path_text(&self.segments(span)),
                span.type_name,
                shortened(self.value(span))
            );
            for (row, rest) in rows.enumerate() {
                let offset = span.start + ((row + 1) * PER_LINE) as u64;
                let _ = writeln!(out, "{offset:08x}  {}", hex(rest));
            }
            row_written(out)?;
        }
        Ok(())
    }

    fn render_lines<E>(
        &self,
        text: &[u8],
        out: &mut String,
        row_written: &mut impl FnMut(&mut String) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut fields: BTreeMap<u64, Vec<&Noted>> = BTreeMap::new();
        for span in self.map.spans() {
            fields.entry(span.start).or_default().push(span);
        }
        for (index, line) in text.split_inclusive(|&b| b == b'\n').enumerate() {
            let number = index as u64 + 1;
            let line = String::from_utf8_lossy(line);
            let _ = writeln!(out, "{number:>6}  {}", line.trim_end_matches(['\r', '\n']));
            for span in fields.get(&number).into_iter().flatten() {
                let path = path_text(&self.segments(span));
                if let Some((first, after)) = span.columns {
                    // A token: under its columns, with its value.
                    let _ = writeln!(
                        out,
                        "        {}{} {path}  {}  {}",
                        " ".repeat(first.saturating_sub(1) as usize),
                        "^".repeat(after.saturating_sub(first).max(1) as usize),
                        span.type_name,
                        shortened(self.value(span))
                    );
                    continue;
                }
                let lines = match span.end.saturating_sub(span.start) {
                    0 | 1 => String::new(),
                    more => format!(" (lines {} to {})", span.start, span.start + more - 1),
                };
                let _ = writeln!(out, "        ^ {path}  {}{lines}", span.type_name);
            }
            row_written(out)?;
        }
        Ok(())
    }
}

/// About how much of a listing [`Explanation::render_in_parts`] hands over
/// at once.
const PART: usize = 64 * 1024;

/// A value as a line shows it: at most about a line's worth.
pub fn shortened(value: &str) -> String {
    const LIMIT: usize = 60;
    match value.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}...", &value[..cut]),
        None => value.to_owned(),
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len() * 3);
    for (index, byte) in bytes.iter().enumerate() {
        if index > 0 {
            text.push(' ');
        }
        let _ = write!(text, "{byte:02x}");
    }
    text
}

/// Where a byte map fails to cover its file once, as `[start, end)` ranges.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Misses {
    pub uncovered: Vec<(u64, u64)>,
    pub overlapping: Vec<(u64, u64)>,
}

impl Misses {
    pub fn is_empty(&self) -> bool {
        self.uncovered.is_empty() && self.overlapping.is_empty()
    }
}

/// How much of one or more files the layout describes: bytes (or, for
/// text, lines) in typed fields, in IFF headers, and in blocks kept as
/// found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Coverage {
    pub files: u64,
    pub total: u64,
    pub typed: u64,
    pub headers: u64,
    pub opaque: u64,
}

impl Coverage {
    /// The share of the units in typed fields or headers: what the layout
    /// describes, as a fraction from 0 to 1 (1 for nothing at all).
    pub fn described(&self) -> f64 {
        if self.total == 0 {
            return 1.0;
        }
        (self.typed + self.headers) as f64 / self.total as f64
    }

    /// The two coverages together.
    pub fn add(&mut self, other: &Coverage) {
        self.files += other.files;
        self.total += other.total;
        self.typed += other.typed;
        self.headers += other.headers;
        self.opaque += other.opaque;
    }
}

/// Coverage per format over many files: what `explain --coverage` reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CoverageReport {
    /// By format name.
    pub formats: BTreeMap<&'static str, Coverage>,
    /// Files that did not decode, with the error.
    pub failed: Vec<(String, String)>,
}

impl CoverageReport {
    /// The coverage of every file below `dir` (in subfolders too) whose
    /// format `catalogue` recognizes, named by their paths below `dir`.
    pub fn of_dir(dir: &Path, catalogue: &Catalogue) -> std::io::Result<CoverageReport> {
        let mut report = CoverageReport::default();
        for path in files_below(dir)? {
            let name = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy();
            let bytes = std::fs::read(&path)?;
            if let Some(format) = catalogue.detect(&name, &bytes) {
                report.add_file(&name, format, &bytes);
            }
        }
        Ok(report)
    }

    /// Adds a file, named `name`, of `format`.
    pub fn add_file(&mut self, name: &str, format: &'static Format, bytes: &[u8]) {
        match explain(format, bytes) {
            Ok(explanation) => self
                .formats
                .entry(format.name)
                .or_default()
                .add(&explanation.coverage()),
            Err(error) => self.failed.push((name.to_owned(), error.to_string())),
        }
    }

    /// A table: per format, files, units, and the shares described, in
    /// headers, and kept as found.
    pub fn render(&self) -> String {
        let mut out = String::from(
            "| format | files | bytes or lines | typed fields | IFF headers | kept as found | described |\n\
             |---|---|---|---|---|---|---|\n",
        );
        for (name, coverage) in &self.formats {
            let share = |part: u64| percent(part, coverage.total);
            let _ = writeln!(
                out,
                "| {name} | {} | {} | {} | {} | {} | {} |",
                coverage.files,
                coverage.total,
                share(coverage.typed),
                share(coverage.headers),
                share(coverage.opaque),
                percent(coverage.typed + coverage.headers, coverage.total),
            );
        }
        for (name, error) in &self.failed {
            let _ = writeln!(out, "\n{name}: {error}");
        }
        out
    }
}

/// Every file below `dir`, in subfolders too, sorted.
pub fn files_below(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

fn percent(part: u64, total: u64) -> String {
    if total == 0 {
        return "-".to_owned();
    }
    format!("{:.1}%", part as f64 * 100.0 / total as f64)
}

/// The row a listing ends with when the file stopped decoding: where,
/// the failing field's path, `!!` and the message.
pub fn failing_row(error: &Error) -> String {
    let place = match error.position {
        Some(Position::Byte(at)) => format!("{at:08x}"),
        Some(Position::Text { line, column }) => format!("{line:>6}:{column}"),
        None => String::new(),
    };
    format!("{place}  {}  !! {}\n", error.path, error.kind)
}

/// The bytes around a decode error's offset as hex lines of 16, the
/// failing byte marked, with two lines either side; `None` when the error
/// has no byte offset (a text error, a write error).
pub fn bytes_around(bytes: &[u8], error: &Error) -> Option<String> {
    const PER_LINE: u64 = 16;
    let Some(Position::Byte(at)) = error.position else {
        return None;
    };
    let line = at / PER_LINE;
    let first = line.saturating_sub(2) * PER_LINE;
    let last = (line + 3) * PER_LINE;
    let mut out = String::new();
    let mut offset = first;
    while offset < last && offset < bytes.len() as u64 {
        let end = (offset + PER_LINE).min(bytes.len() as u64);
        let row = bytes.get(offset as usize..end as usize).unwrap_or_default();
        let _ = writeln!(out, "{offset:08x}  {}", hex(row));
        if (offset..offset + PER_LINE).contains(&at) {
            let column = 10 + 3 * (at - offset) as usize;
            let _ = writeln!(out, "{}^^ byte {at}", " ".repeat(column));
        }
        offset += PER_LINE;
    }
    if at >= bytes.len() as u64 {
        let _ = writeln!(
            out,
            "(byte {at} is past the end: the input has {} bytes)",
            bytes.len()
        );
    }
    Some(out)
}

pub mod tree;

#[cfg(test)]
mod tests;
