//! The two ways through a generated codec give the same answer:
//! `from_bytes` then `to_bytes` (a byte slice and a byte vector, the fast
//! paths) and `read_from` then `write_to` (any `Read + Seek` and
//! `Write + Seek`, the paths binrw and streams take). Over every binary
//! format's samples, the real corpus files when `OSSUARY_CORPUS` is set,
//! and damaged copies of them: the same value (compared by its bytes, so
//! NaN floats compare), or the same error (byte offset, field path and
//! message).

use std::io::Cursor;

use formats::catalogue::FORMATS;
use formats::format::{Encoding, Format};
use formats::schema::{BinarySchema, Endian, HasContext, SizeOutput};
use formats::{outcast, sims, swg};

/// What one path made of a file: the value written back, or the error.
type Outcome = Result<Vec<u8>, String>;

/// `to_bytes` counts the bytes first ([`SizeOutput`]) to allocate its
/// vector once: the count must be what it then writes.
fn through_slice<T: BinarySchema + HasContext<Context = ()>>(bytes: &[u8]) -> Outcome {
    let value = T::from_bytes(bytes).map_err(|e| e.to_string())?;
    let written = value.to_bytes().map_err(|e| e.to_string())?;
    let mut size = SizeOutput::default();
    value
        .encode_output(&mut size, Endian::Little, &())
        .map_err(|e| e.to_string())?;
    assert_eq!(size.counted(), written.len() as u64, "counted bytes");
    Ok(written)
}

/// `read_from` reads one value and leaves the rest; `from_bytes` calls
/// bytes after the value an error, which this spells the same way.
fn through_stream<T: BinarySchema + HasContext<Context = ()>>(bytes: &[u8]) -> Outcome {
    let mut cursor = Cursor::new(bytes);
    let value = T::read_from(&mut cursor).map_err(|e| e.to_string())?;
    let end = cursor.position();
    let len = bytes.len() as u64;
    if end != len {
        return Err(format!(
            "byte {end}: {} byte(s) follow the end of the data",
            len - end
        ));
    }
    let mut written = Cursor::new(Vec::new());
    value.write_to(&mut written).map_err(|e| e.to_string())?;
    Ok(written.into_inner())
}

fn both<T: BinarySchema + HasContext<Context = ()>>(bytes: &[u8]) -> (Outcome, Outcome) {
    (through_slice::<T>(bytes), through_stream::<T>(bytes))
}

/// Both paths of the format's top-level schema type.
fn both_paths(format: &Format) -> fn(&[u8]) -> (Outcome, Outcome) {
    match format.name {
        "sims-bmf" => both::<sims::bmf::Bmf>,
        "sims-bcf" => both::<sims::bcf::Bcf>,
        "tso-skel" => both::<sims::skel::Skeleton>,
        "sims-cfp" => both::<sims::cfp::Cfp>,
        "swg-skt" => both::<swg::skt::Skeleton>,
        "swg-mgn" => both::<swg::mgn::Mesh>,
        "swg-lmg" => both::<swg::lmg::MeshLevels>,
        "swg-sat" => both::<swg::sat::Appearance>,
        "outcast-skeleton" => both::<outcast::skeleton::Skeleton>,
        "outcast-animation" => both::<outcast::animation::Animation>,
        other => panic!("binary format {other} has no entry here: add its type"),
    }
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
        for family in ["sims1", "swg"] {
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
        let paths = both_paths(format);
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
