//! No count a file claims makes a reader allocate out of proportion to the
//! file: decoding N bytes, and taking the value's summary and rig data,
//! keeps at most `BYTES_PER_INPUT_BYTE * N + CONSTANT_BYTES` live at its
//! peak, whatever the counts say; `explain`'s map and tree, a larger
//! multiple. Measured by a counting global allocator,
//! which is why this is a test binary of its own.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use formats::catalogue::FORMATS;
use formats::files::Files;
use formats::format::{Encoding, Format};
use formats::rig::RigOptions;
use tests::{deeply_nested_variants, iff_chunk, iff_form};

/// What a decoded value may hold per input byte: a list's elements are
/// larger in memory than on disk (a one-byte empty name becomes a 24-byte
/// `Vec`). The samples' worst today is 18 (a `.skel` with a huge count
/// inside a bone).
const BYTES_PER_INPUT_BYTE: usize = 32;

/// Allowed whatever the size: the schema runtime lets a list hold up to
/// 65,536 elements that take no input (`EMPTY_ELEMENTS_ALLOWED`): an
/// Outcast animation claiming 2^32 - 1 frames of no records holds 1.5 MiB
/// of empty frames before it fails.
const CONSTANT_BYTES: usize = 2 << 20;

/// Counts the bytes the measuring thread has live, and their peak. Other
/// threads (the test harness's) are not counted.
struct Counting;

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(change: isize) {
    if MEASURING.with(Cell::get) {
        let live = LIVE.with(|live| {
            live.set(live.get() + change);
            live.get()
        });
        PEAK.with(|peak| peak.set(peak.get().max(live)));
    }
}

fn signed(size: usize) -> isize {
    isize::try_from(size).unwrap_or(isize::MAX)
}

// SAFETY: every call is passed to `System` unchanged; the counting touches
// only const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(signed(layout.size()));
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(signed(layout.size()));
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-signed(layout.size()));
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(signed(new_size) - signed(layout.size()));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes live at once while `format` decodes `bytes` (the value
/// or error included, until it is dropped) and gives the value's summary
/// and rig data, as `ossuary info`, `joints` and `render` ask.
fn peak_while_reading(format: &Format, bytes: &[u8]) -> usize {
    LIVE.with(|live| live.set(0));
    PEAK.with(|peak| peak.set(0));
    MEASURING.with(|measuring| measuring.set(true));
    if let Ok(document) = (format.decode)(bytes) {
        document.describe();
        let files = Files::nowhere();
        let rig = document.rig();
        rig.skeleton(&files, RigOptions::default());
        rig.skins(&files, RigOptions::default());
        rig.animations(&files);
    }
    MEASURING.with(|measuring| measuring.set(false));
    usize::try_from(PEAK.with(Cell::get)).unwrap_or(0)
}

fn assert_bounded(format: &Format, what: &str, bytes: &[u8]) {
    let peak = peak_while_reading(format, bytes);
    let bound = BYTES_PER_INPUT_BYTE * bytes.len() + CONSTANT_BYTES;
    assert!(
        peak <= bound,
        "{} ({what}): {} input bytes made the reader hold {peak} bytes, more than {bound}",
        format.name,
        bytes.len()
    );
}

fn format(name: &str) -> &'static Format {
    FORMATS
        .iter()
        .copied()
        .find(|format| format.name == name)
        .unwrap_or_else(|| panic!("no format {name}"))
}

fn sample(name: &str) -> Vec<u8> {
    let format = format(name);
    let samples = (format.samples)();
    let first = samples.first().expect("every format has a sample");
    first.document.encode().expect("a sample encodes")
}

#[test]
fn a_20_byte_skel_claiming_65535_bones() {
    let mut bytes = vec![0, 0, 0, 1, 0, 0xFF, 0xFF];
    bytes.resize(20, 0);
    assert_bounded(format("tso-skel"), "65,535 bones", &bytes);
}

#[test]
fn an_skt_info_claiming_2_to_the_31_joints() {
    let info = iff_chunk(b"INFO", &(1u32 << 31).to_le_bytes());
    let bytes = iff_form(b"SKTM", &iff_form(b"0002", &info));
    assert_bounded(format("swg-skt"), "2^31 joints", &bytes);
}

#[test]
fn an_skn_claiming_10_to_the_12_vertices() {
    for counted in 0..6 {
        // Each of the six counted lists in turn claims 10^12 entries.
        let mut lines = vec!["name", "texture"];
        lines.extend(std::iter::repeat_n("0", counted));
        lines.push("1000000000000");
        let text = lines.join("\r\n") + "\r\n";
        assert_bounded(
            format("sims-skn"),
            &format!("list {counted} claims 10^12"),
            text.as_bytes(),
        );
    }
}

#[test]
fn an_mgn_claiming_huge_counts() {
    // The mesh's INFO holds its counts; each in turn claims 2^31 - 1.
    let original = sample("swg-mgn");
    let info_at = original
        .windows(4)
        .position(|window| window == b"INFO")
        .expect("the sample mesh has an INFO");
    let info_len = usize::try_from(u32::from_be_bytes(
        original[info_at + 4..info_at + 8]
            .try_into()
            .expect("a size"),
    ))
    .expect("a size");
    for at in (info_at + 8..info_at + 8 + info_len).step_by(4) {
        let bytes = tests::patched(original.clone(), at, 0x7FFF_FFFFu32.to_le_bytes());
        assert_bounded(format("swg-mgn"), &format!("INFO byte {at}"), &bytes);
    }
}

#[test]
fn bonespro_claiming_huge_counts() {
    let huge = "4294967295";
    let structure = format!("{huge}\n{huge}\n");
    assert_bounded(format("bonespro-structure"), "bones", structure.as_bytes());
    let structure = format!("0\n{huge}\n");
    assert_bounded(
        format("bonespro-structure"),
        "vertices",
        structure.as_bytes(),
    );
    // An animation's header counts, every number in turn made huge.
    text_numbers_made_huge(format("bonespro-animation"));
}

#[test]
fn outcast_files_claiming_huge_counts() {
    let skeleton = u32::MAX.to_le_bytes();
    assert_bounded(format("outcast-skeleton"), "2^32 - 1 joints", &skeleton);
    for (frames, records) in [
        (u32::MAX, 0),
        (0, u32::MAX),
        (u32::MAX, u32::MAX),
        (1, u32::MAX),
    ] {
        let animation = [frames.to_le_bytes(), records.to_le_bytes()].concat();
        assert_bounded(
            format("outcast-animation"),
            &format!("{frames} frames of {records} records"),
            &animation,
        );
    }
}

#[test]
fn a_cfp_of_long_repeats() {
    // Three bytes a token, each standing for 65,536 values.
    let bytes: Vec<u8> = std::iter::repeat_n([0xFE, 0xFF, 0xFF], 1000)
        .flatten()
        .collect();
    assert_bounded(format("sims-cfp"), "1,000 repeats of 65,536", &bytes);
}

#[test]
fn iff_forms_nested_10000_deep() {
    // SWG's files are IFF but for its palettes (RIFF, which does not nest).
    for format in FORMATS
        .iter()
        .filter(|format| format.name.starts_with("swg-"))
    {
        let sample = sample(format.name);
        if !sample.starts_with(b"FORM") {
            continue;
        }
        for bytes in deeply_nested_variants(&sample) {
            assert_bounded(format, "forms nested 10,000 deep", &bytes);
        }
    }
}

/// Every format's sample with each count-sized field made huge in turn:
/// each aligned u32 as 2^31 - 1 and 2^32 - 1 in either byte order, each u16
/// as 65,535, or for text each number as 10^12.
#[test]
fn every_sample_with_any_field_made_huge() {
    for format in FORMATS {
        match format.encoding {
            Encoding::Binary => binary_fields_made_huge(format),
            Encoding::Text => text_numbers_made_huge(format),
        }
    }
}

fn binary_fields_made_huge(format: &Format) {
    let original = sample(format.name);
    for at in 0..original.len() {
        let mut variants: Vec<Vec<u8>> = Vec::new();
        if at + 4 <= original.len() {
            for value in [0x7FFF_FFFFu32, u32::MAX] {
                variants.push(tests::patched(original.clone(), at, value.to_le_bytes()));
                variants.push(tests::patched(original.clone(), at, value.to_be_bytes()));
            }
        }
        if at + 2 <= original.len() {
            let mut bytes = original.clone();
            bytes[at..at + 2].copy_from_slice(&[0xFF, 0xFF]);
            variants.push(bytes);
        }
        for bytes in variants {
            assert_bounded(format, &format!("byte {at} made huge"), &bytes);
        }
    }
}

fn text_numbers_made_huge(format: &Format) {
    let text = String::from_utf8(sample(format.name)).expect("a text sample is UTF-8");
    let tokens: Vec<&str> = text.split_inclusive(char::is_whitespace).collect();
    for (index, token) in tokens.iter().enumerate() {
        let number = token.trim_end();
        if number.is_empty() || number.parse::<i64>().is_err() {
            continue;
        }
        for huge in ["4294967295", "1000000000000"] {
            let mut changed = tokens.clone();
            let replaced = token.replacen(number, huge, 1);
            changed[index] = &replaced;
            assert_bounded(
                format,
                &format!("number {index} made {huge}"),
                changed.concat().as_bytes(),
            );
        }
    }
}

/// The most bytes live at once while `explain` maps `bytes` as `format`
/// and builds its tree, as `ossuary explain --depth` and the byte
/// explorer do (the decoded value and the map both held).
fn peak_while_explaining(format: &'static Format, bytes: &[u8]) -> usize {
    LIVE.with(|live| live.set(0));
    PEAK.with(|peak| peak.set(0));
    MEASURING.with(|measuring| measuring.set(true));
    let (explanation, decoded) = formats::explain::explain_decoded(format, bytes);
    let tree = formats::explain::tree::Node::of(&explanation, decoded.as_ref().err());
    drop((tree, explanation, decoded));
    MEASURING.with(|measuring| measuring.set(false));
    usize::try_from(PEAK.with(Cell::get)).unwrap_or(0)
}

/// What `explain`'s map and tree may hold per input byte, the decoded
/// value included: a value of a few bytes (a float of a vertex) is a span
/// and a node of the tree. Measured when this was written: 42 to 191 per
/// byte on the samples and the corpus (the 2.7 MB `fso_game_door.iff` 163,
/// `twk_f_head_l0.mgn` 92; the map alone 32 of that mesh's 92), where a
/// span for each byte of a picture once made it over a thousand.
const EXPLAIN_BYTES_PER_INPUT_BYTE: usize = 224;

#[test]
fn explaining_a_file_holds_a_bounded_multiple_of_it() {
    let mut files: Vec<(String, &'static Format, Vec<u8>)> = FORMATS
        .iter()
        .map(|format| (format.name.to_owned(), *format, sample(format.name)))
        .collect();
    for (family, extension) in [("objects", "iff"), ("swg", "mgn"), ("sims1", "cmx")] {
        for path in tests::corpus_files(family, extension).unwrap_or_default() {
            let bytes = std::fs::read(&path).unwrap();
            let name = path.to_string_lossy().into_owned();
            let format = formats::catalogue::Catalogue::default()
                .detect(&name, &bytes)
                .unwrap();
            files.push((name, format, bytes));
        }
    }
    for (name, format, bytes) in files {
        let peak = peak_while_explaining(format, &bytes);
        let bound = EXPLAIN_BYTES_PER_INPUT_BYTE * bytes.len() + CONSTANT_BYTES / 2;
        assert!(
            peak <= bound,
            "{name}: explaining {} bytes held {peak} bytes, more than {bound}",
            bytes.len()
        );
    }
}
