//! The byte map (`formats::explain`) on the sample files and, with
//! `OSSUARY_CORPUS`, on every real file: in a binary file every byte
//! belongs to exactly one span, IFF headers included; in a text file every
//! line.

use std::path::Path;

use formats::catalogue::Catalogue;
use formats::explain::{explain, files_below, CoverageReport};
use formats::format::Encoding;

/// Explains every file of a known format below `dir`: each byte (text:
/// each line) in exactly one span. Returns the coverage report and how
/// many files were explained.
fn explain_all(dir: &Path) -> (CoverageReport, usize) {
    let catalogue = Catalogue::default();
    let mut report = CoverageReport::default();
    let mut explained = 0;
    for path in files_below(dir).unwrap() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let Some(format) = catalogue.detect(&name, &bytes) else {
            continue;
        };
        let explanation =
            explain(format, &bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let misses = explanation.misses();
        assert!(misses.is_empty(), "{}: {misses:?}", path.display());
        report.add_file(&name, format, &bytes);
        explained += 1;
    }
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    (report, explained)
}

#[test]
fn every_byte_of_every_sample_file_is_in_exactly_one_span() {
    let (report, explained) = explain_all(&tests::fixtures_dir());
    assert!(explained > 30, "{explained} files");
    assert!(report.formats.len() > 20, "{:?}", report.formats.keys());
}

#[test]
fn every_byte_of_every_real_file_is_in_exactly_one_span() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let (report, explained) = explain_all(&corpus);
    assert!(explained > 70, "{explained} files");
    eprintln!("{}", report.render());
}

/// In a text file, each line is read once: every line is in exactly one
/// span (comment lines kept as found included).
#[test]
fn every_line_of_every_text_sample_is_in_exactly_one_span() {
    let catalogue = Catalogue::default();
    let mut explained = 0;
    for path in files_below(&tests::fixtures_dir()).unwrap() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let Some(format) = catalogue.detect(&name, &bytes) else {
            continue;
        };
        if format.encoding != Encoding::Text {
            continue;
        }
        let explanation = explain(format, &bytes).unwrap();
        let misses = explanation.misses();
        assert!(misses.is_empty(), "{name}: {misses:?}");
        explained += 1;
    }
    assert!(explained > 10, "{explained} text files");
}
