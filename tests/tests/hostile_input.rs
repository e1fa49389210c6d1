//! A bounded random-input pass over every registered reader: random bytes and
//! damaged sample files must give a value or an error, never a panic, and
//! whatever decodes must encode back to exactly the bytes it came from
//! (`tests::round_trip`, which the fuzz targets run too).

use std::sync::OnceLock;

use formats::catalogue::FORMATS;
use formats::format::{Encoding, Format};
use proptest::prelude::*;
use tests::round_trip::fails_or_round_trips;

/// Every format's samples.
fn sample_bytes() -> Vec<(&'static Format, Vec<u8>)> {
    FORMATS
        .iter()
        .flat_map(|format| {
            (format.samples)()
                .into_iter()
                .map(move |sample| (*format, sample.document.encode().expect("sample encodes")))
        })
        .collect()
}

/// The samples, and the real corpus files when `OSSUARY_CORPUS` is set;
/// loaded once, not once per generated case.
fn files_to_damage() -> &'static [(&'static Format, Vec<u8>)] {
    static FILES: OnceLock<Vec<(&'static Format, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(load_files_to_damage)
}

fn load_files_to_damage() -> Vec<(&'static Format, Vec<u8>)> {
    let mut files = sample_bytes();
    if let Some(corpus) = tests::corpus_dir() {
        for family in ["sims1", "swg"] {
            for format in FORMATS {
                for extension in format.extensions {
                    for path in tests::files_with_extension(&corpus.join(family), extension) {
                        files.push((*format, std::fs::read(&path).expect("corpus file")));
                    }
                }
            }
        }
    }
    files
}

/// One way of damaging a file.
#[derive(Debug, Clone)]
enum Damage {
    Truncate(usize),
    Overwrite(usize, u8),
    Insert(usize, u8),
    Remove(usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        any::<usize>().prop_map(Damage::Truncate),
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Damage::Overwrite(at, byte)),
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Damage::Insert(at, byte)),
        any::<usize>().prop_map(Damage::Remove),
    ]
}

fn apply(bytes: &mut Vec<u8>, damage: &Damage) {
    let at = |position: usize, len: usize| if len == 0 { 0 } else { position % len };
    match *damage {
        Damage::Truncate(position) => bytes.truncate(at(position, bytes.len() + 1)),
        Damage::Overwrite(position, byte) => {
            let index = at(position, bytes.len());
            if let Some(slot) = bytes.get_mut(index) {
                *slot = byte;
            }
        }
        Damage::Insert(position, byte) => bytes.insert(at(position, bytes.len() + 1), byte),
        Damage::Remove(position) => {
            if !bytes.is_empty() {
                bytes.remove(at(position, bytes.len()));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        for format in FORMATS {
            fails_or_round_trips(format, &bytes);
        }
    }

    #[test]
    fn damaged_samples_never_panic(damages in proptest::collection::vec(damage(), 1..8)) {
        for (format, original) in files_to_damage() {
            let mut bytes = original.clone();
            for damage in &damages {
                apply(&mut bytes, damage);
            }
            fails_or_round_trips(format, &bytes);
        }
    }
}

/// Binary layouts fix every length, so any cut is an error, unless the
/// layout ends in a list that runs to the end of the input (the tokens of a
/// `.cfp`): a cut between two elements is then another valid file. Such a
/// file, and a text file cut inside its last value, must come back as
/// exactly the cut bytes.
#[test]
fn every_truncation_of_every_sample_fails_or_round_trips() {
    for (format, bytes) in sample_bytes() {
        for len in 0..bytes.len() {
            let truncated = bytes.get(..len).unwrap_or_default();
            match format.encoding {
                Encoding::Binary if !reads_to_the_end(format) => assert!(
                    (format.decode)(truncated).is_err(),
                    "{}: a file cut to {len} bytes decoded",
                    format.name
                ),
                Encoding::Binary | Encoding::Text => fails_or_round_trips(format, truncated),
            }
        }
    }
}

/// Whether the format's last field is a list that runs to the end of the input.
fn reads_to_the_end(format: &Format) -> bool {
    format
        .layout
        .fields
        .last()
        .is_some_and(|field| field.count == Some("the end of the input"))
}

/// Nesting is input-controlled in IFF files; no reader recurses on it (a
/// form the layout does not name is kept as bytes), so forms nested 10,000
/// deep are an error or a file like any other, never a stack overflow.
#[test]
fn iff_forms_nested_10000_deep_fail_or_round_trip() {
    for (format, sample) in sample_bytes() {
        // SWG's files are IFF but for its palettes (RIFF, which does not nest).
        if !format.name.starts_with("swg-") || !sample.starts_with(b"FORM") {
            continue;
        }
        for bytes in tests::deeply_nested_variants(&sample) {
            fails_or_round_trips(format, &bytes);
        }
    }
}
