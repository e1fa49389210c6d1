//! The fuzzer's findings, replayed on every test run: each file in
//! `fuzz/regressions/<format>/` (minimized by `cargo xtask fuzz`) must fail
//! cleanly or round-trip exactly through its format's reader.

use formats::catalogue::Catalogue;
use tests::round_trip::fails_or_round_trips;

#[test]
fn every_kept_finding_fails_cleanly_or_round_trips() {
    let regressions = tests::workspace_root().join("fuzz/regressions");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&regressions).expect("fuzz/regressions exists") {
        let folder = entry.expect("a directory entry").path();
        if !folder.is_dir() {
            continue;
        }
        let name = folder
            .file_name()
            .and_then(|name| name.to_str())
            .expect("a folder name");
        let format = Catalogue::default()
            .by_name(name)
            .unwrap_or_else(|| panic!("{}: no format is named {name}", folder.display()));
        let mut inputs: Vec<_> = std::fs::read_dir(&folder)
            .expect("a regressions folder")
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        inputs.sort();
        for input in inputs {
            let bytes = std::fs::read(&input).expect("a kept finding");
            eprintln!("replaying {}", input.display());
            fails_or_round_trips(format, &bytes);
            replayed += 1;
        }
    }
    // The folder holds findings (the Outcast animation OOM at least): none
    // replayed means the test looked in the wrong place.
    assert!(replayed > 0, "no finding under {}", regressions.display());
    eprintln!("replayed {replayed} findings");
}
