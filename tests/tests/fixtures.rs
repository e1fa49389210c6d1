//! Every registered format's sample fixtures: decoded value snapshots and
//! byte-exact round trips, picked up from the catalogue alone.

use formats::catalogue::FORMATS;

#[test]
fn every_sample_fixture_round_trips_byte_for_byte() {
    let mut checked = 0;
    for format in FORMATS {
        for sample in (format.samples)() {
            let path = tests::fixtures_dir().join(sample.file_name);
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (run `cargo xtask regen`)", path.display()));
            let document =
                (format.decode)(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(document.encode().unwrap(), bytes, "{}", path.display());

            let json = document.to_json().unwrap();
            let from_json = (format.from_json)(&json).unwrap();
            assert_eq!(
                from_json.encode().unwrap(),
                bytes,
                "{} via JSON",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no fixtures registered");
}

#[test]
fn sample_fixture_snapshots() {
    for format in FORMATS {
        for sample in (format.samples)() {
            let path = tests::fixtures_dir().join(sample.file_name);
            let bytes = std::fs::read(&path).unwrap();
            let document = (format.decode)(&bytes).unwrap();
            insta::assert_snapshot!(sample.file_name, document.to_json().unwrap());
        }
    }
}
