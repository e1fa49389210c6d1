//! A bounded random-input pass over every registered reader: random bytes and
//! damaged sample files must give a value or an error, never a panic, and a
//! value that decodes must encode again.

use formats::registry::{Format, FORMATS};
use proptest::prelude::*;

fn decode_never_panics(format: &Format, bytes: &[u8]) {
    if let Ok(document) = (format.decode)(bytes) {
        // Whatever decoded is a value the writer can express.
        let encoded = document.encode().expect("a decoded value re-encodes");
        (format.decode)(&encoded).expect("a re-encoded value decodes");
    }
}

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
            decode_never_panics(format, &bytes);
        }
    }

    #[test]
    fn damaged_samples_never_panic(damages in proptest::collection::vec(damage(), 1..8)) {
        for (format, original) in sample_bytes() {
            let mut bytes = original;
            for damage in &damages {
                apply(&mut bytes, damage);
            }
            decode_never_panics(format, &bytes);
        }
    }
}

#[test]
fn every_truncation_of_every_sample_is_an_error() {
    for (format, bytes) in sample_bytes() {
        for len in 0..bytes.len() {
            let truncated = bytes.get(..len).unwrap_or_default();
            assert!(
                (format.decode)(truncated).is_err(),
                "{}: a file cut to {len} bytes decoded",
                format.name
            );
        }
    }
}
