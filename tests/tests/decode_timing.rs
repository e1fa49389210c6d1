//! How long decoding the largest real files takes, release build, to see
//! what the byte map's hooks cost when nothing records (run by hand:
//! `OSSUARY_CORPUS=... cargo test --release -p tests --test decode_timing
//! -- --ignored --nocapture`).

use std::time::Instant;

use formats::catalogue::Catalogue;

#[test]
#[ignore = "a measurement, run by hand"]
fn decode_times_of_the_largest_real_files() {
    if tests::corpus_dir().is_none() {
        return;
    }
    let catalogue = Catalogue::default();
    for (family, extension) in [
        ("swg", "mgn"),
        ("tso", "anim"),
        ("sims1-prototype", "msh"),
        ("sims1", "cmx"),
    ] {
        let files = tests::corpus_files(family, extension).unwrap_or_default();
        let inputs: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|path| {
                (
                    path.to_string_lossy().into_owned(),
                    std::fs::read(path).unwrap(),
                )
            })
            .collect();
        let bytes: usize = inputs.iter().map(|(_, bytes)| bytes.len()).sum();
        let mut best = f64::MAX;
        for _ in 0..15 {
            let started = Instant::now();
            for _ in 0..20 {
                for (name, input) in &inputs {
                    let format = catalogue.detect(name, input).unwrap();
                    assert!((format.decode)(input).is_ok());
                }
            }
            best = best.min(started.elapsed().as_secs_f64() / 20.0);
        }
        println!(
            "{extension}: {bytes} bytes in {:.3} ms ({:.2} ns/byte)",
            best * 1e3,
            best * 1e9 / bytes as f64
        );
    }
}
