//! Input that nests as deep as it likes: `ossuary check`, `info` and
//! `encode` give a clean result or one error sentence, never a stack
//! overflow.

mod support;

use std::process::Output;

use support::{assert_status, ossuary, stderr, stdout, write};

/// Asserts exit 0, or exit 1 with one sentence naming `path` (on stdout
/// for `check`, stderr otherwise), the bytes around a decoding error below
/// it; returns whether the command succeeded.
fn succeeded_or_failed_cleanly(what: &str, path: &str, output: &Output) -> bool {
    let said = format!("{}{}", stdout(output), stderr(output));
    let sentence = said
        .split_once("\nthe bytes around its error:\n")
        .map_or(said.as_str(), |(sentence, _)| sentence);
    match output.status.code() {
        Some(0) => true,
        Some(1) => {
            assert!(
                sentence.trim().lines().count() == 1 && sentence.contains(path),
                "{what} {path}: a failure is one sentence naming the file: {said}"
            );
            false
        }
        _ => panic!("{what} {path}: neither a result nor a clean error: {said}"),
    }
}

#[test]
fn forms_nested_10000_deep_are_checked_and_described_without_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let samples = [
        "humanoid.skt",
        "humanoid.mgn",
        "humanoid.lmg",
        "humanoid.sat",
    ];
    // Their layouts keep unknown children as bytes: the sample with a deep
    // chain inside (the last variant) is a good file.
    let keeping_unknown_children = ["humanoid.mgn", "humanoid.sat"];
    for sample in samples {
        let bytes = std::fs::read(support::fixture(sample)).unwrap();
        let variants = tests::deeply_nested_variants(&bytes);
        for (index, nested) in variants.iter().enumerate() {
            let path = write(dir.path(), &format!("{index}-{sample}"), nested);
            let good = index + 1 == variants.len() && keeping_unknown_children.contains(&sample);
            for command in ["check", "info"] {
                let succeeded =
                    succeeded_or_failed_cleanly(command, &path, &ossuary(&[command, &path]));
                assert!(succeeded || !good, "{command} {path}: a good file failed");
            }
        }
    }
}

/// JSON is read with serde_json's own nesting limit (128), and a value a
/// layout does not name is skipped without recursing.
#[test]
fn json_nested_10000_deep_is_encoded_or_refused_without_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let depth = tests::NESTING_DEPTH;
    let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let dumped = ossuary(&["dump", &support::fixture("humanoid.sat")]);
    assert_status(&dumped, 0);
    let dumped = stdout(&dumped);
    let with_unknown_key = dumped
        .trim_end()
        .strip_suffix('}')
        .map(|open| format!("{open}, \"unknown\": {arrays}}}"))
        .expect("a JSON object");
    let value_nested = dumped.replacen(
        "\"animation_controller\": 1",
        &format!("\"animation_controller\": {arrays}"),
        1,
    );
    assert_ne!(
        value_nested, dumped,
        "the sample has an animation controller"
    );
    for (name, json) in [
        ("arrays.json", arrays.clone()),
        ("unknown-key.json", with_unknown_key),
        ("value-nested.json", value_nested),
    ] {
        let path = write(dir.path(), name, json.as_bytes());
        let out = dir.path().join(format!("{name}.sat"));
        let output = ossuary(&[
            "encode",
            &path,
            "--format",
            "swg-sat",
            "-o",
            &out.to_string_lossy(),
        ]);
        succeeded_or_failed_cleanly("encode", &path, &output);
    }
}

/// An endless input is refused at the size limit, naming it: bad input,
/// exit 1, with memory bounded by the limit. (The default is 1 GiB; the
/// test sets a small one so as not to read a gigabyte.)
#[test]
fn an_endless_input_is_refused_at_the_limit() {
    let output = ossuary(&[
        "info",
        "--format",
        "tso-skel",
        "/dev/zero",
        "--max-input",
        "1MiB",
    ]);
    assert_status(&output, 1);
    assert!(
        stderr(&output).contains("/dev/zero: the input holds more than 1048576 bytes (the limit"),
        "{}",
        stderr(&output)
    );
    // A file the limit holds reads as before; one a byte past it does not.
    let dir = tempfile::tempdir().unwrap();
    let fixture = support::fixture_bytes("humanoid.skel");
    let path = write(dir.path(), "humanoid.skel", &fixture);
    let size = fixture.len().to_string();
    assert_status(&ossuary(&["info", &path, "--max-input", &size]), 0);
    let short = (fixture.len() - 1).to_string();
    let output = ossuary(&["info", &path, "--max-input", &short]);
    assert_status(&output, 1);
    assert!(stderr(&output).contains(&format!("more than {short} bytes")));
    // A file another refers to (a suit's skin) is held to the same limit.
    let character = support::fixture_bytes("humanoid.cmx");
    let cmx = write(dir.path(), "humanoid.cmx", &character);
    // Refused for its size before anything reads it.
    write(
        dir.path(),
        "xskin-humanoid-L_ARM-ARM.skn",
        &vec![b'0'; character.len() + 1],
    );
    let obj = dir.path().join("arm.obj").to_string_lossy().into_owned();
    let between = character.len().to_string();
    let output = ossuary(&["skin", &cmx, "-o", &obj, "--max-input", &between]);
    assert_status(&output, 1);
    assert!(
        stderr(&output).contains("xskin-humanoid-L_ARM-ARM.skn: the input holds more than"),
        "{}",
        stderr(&output)
    );
    assert_status(&ossuary(&["info", &path, "--max-input", "nonsense"]), 2);
}
