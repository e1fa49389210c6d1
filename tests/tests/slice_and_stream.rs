//! The two ways through a generated codec give the same answer:
//! `from_bytes` then `to_bytes` (a byte slice and a byte vector, the fast
//! paths) and `read_from` then `write_to` (any `Read + Seek` and
//! `Write + Seek`, the paths binrw and streams take). Over every binary
//! format's samples, the real corpus files when `OSSUARY_CORPUS` is set,
//! and damaged copies of them: the same value (compared by its bytes, so
//! NaN floats compare), or the same error (byte offset, field path and
//! message).

use formats::catalogue::FORMATS;
use formats::format::{Document, Encoding, Format};

/// What one path made of a file: the value written back, or the error.
type Outcome = Result<Vec<u8>, String>;

/// Both paths of the format's top-level schema type, through a document
/// of that type (`Document::codec_paths`): every registered binary format
/// takes part, with nothing to add here.
fn both_paths(document: &dyn Document, bytes: &[u8]) -> (Outcome, Outcome) {
    let paths = document
        .codec_paths(bytes)
        .expect("a binary format's document gives both codec paths");
    let outcome =
        |result: Result<Vec<u8>, formats::schema::Error>| result.map_err(|error| error.to_string());
    (outcome(paths.through_slice), outcome(paths.through_stream))
}

/// The file, cut short and overwritten at up to `steps` places each,
/// spread over its length.
fn damaged(bytes: &[u8], steps: usize) -> Vec<Vec<u8>> {
    let stride = (bytes.len() / steps).max(1);
    let mut copies = Vec::new();
    for at in (0..bytes.len()).step_by(stride) {
        copies.push(bytes[..at].to_vec());
        for byte in [0x00, 0xFF, bytes[at].wrapping_add(1)] {
            let mut copy = bytes.to_vec();
            copy[at] = byte;
            copies.push(copy);
        }
    }
    copies
}

fn binary_files() -> Vec<(&'static Format, Vec<u8>)> {
    let binary = || {
        FORMATS
            .iter()
            .copied()
            .filter(|format| matches!(format.encoding, Encoding::Binary))
    };
    let mut files: Vec<(&'static Format, Vec<u8>)> = binary()
        .flat_map(|format| {
            (format.samples)()
                .into_iter()
                .map(move |sample| (format, sample.document.encode().expect("sample encodes")))
        })
        .collect();
    if let Some(corpus) = tests::corpus_dir() {
        for family in ["sims1", "sims1-prototype", "swg"] {
            for format in binary() {
                for extension in format.extensions {
                    for path in tests::files_with_extension(&corpus.join(family), extension) {
                        files.push((format, std::fs::read(&path).expect("corpus file")));
                    }
                }
            }
        }
    }
    files
}

#[test]
fn slice_and_stream_give_the_same_values_and_errors() {
    let mut compared = 0;
    for (format, bytes) in binary_files() {
        let sample = (format.samples)()
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("{}: a registered format has a sample", format.name));
        let paths = |bytes: &[u8]| both_paths(sample.document.as_ref(), bytes);
        let (slice, stream) = paths(&bytes);
        assert!(slice.is_ok(), "{}: {slice:?}", format.name);
        assert_eq!(slice, stream, "{}: the whole file", format.name);
        for copy in damaged(&bytes, 64) {
            let (slice, stream) = paths(&copy);
            assert_eq!(
                slice,
                stream,
                "{}: a damaged copy of {} bytes",
                format.name,
                copy.len()
            );
            compared += 1;
        }
    }
    assert!(compared > 1000, "only {compared} damaged files compared");
}
