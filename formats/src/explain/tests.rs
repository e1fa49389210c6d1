use super::*;
use crate::catalogue::FORMATS;

/// Every registered binary format's samples, written out.
fn binary_samples() -> Vec<(&'static Format, &'static str, Vec<u8>)> {
    FORMATS
        .iter()
        .filter(|format| format.encoding == Encoding::Binary)
        .flat_map(|format| {
            (format.samples)().into_iter().map(move |sample| {
                let bytes = sample.document.encode().unwrap();
                (*format, sample.file_name, bytes)
            })
        })
        .collect()
}

#[test]
fn every_byte_of_every_binary_sample_is_in_exactly_one_span() {
    let samples = binary_samples();
    assert!(samples.len() > 10);
    for (format, name, bytes) in samples {
        let explanation = explain(format, &bytes).unwrap();
        let misses = explanation.misses();
        assert!(
            misses.is_empty(),
            "{name}: {misses:?}\n{}",
            explanation
                .render(&bytes)
                .lines()
                .take(12)
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert_eq!(explanation.len, bytes.len() as u64);
    }
}
