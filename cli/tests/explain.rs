//! `ossuary explain`: the byte map of a file as people read it (annotated
//! hex, annotated lines), the value holding one byte, the spans as JSON,
//! and the coverage of a folder's files.

mod support;

use support::{assert_status, fixture, fixture_bytes, ossuary, stderr, stdout, write};

/// The JSON spans of a binary fixture hold every byte once, in order.
#[test]
fn every_byte_of_a_binary_file_is_in_exactly_one_value() {
    for name in [
        "humanoid.skel",
        "humanoid.mgn",
        "humanoid.bcf",
        "humanoid.sat",
    ] {
        let output = ossuary(&["explain", &fixture(name), "--json"]);
        assert_status(&output, 0);
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["encoding"], "binary", "{name}");
        let length = fixture_bytes(name).len() as u64;
        assert_eq!(json["len"], length, "{name}");
        let mut covered_to = 0;
        for span in json["spans"].as_array().unwrap() {
            assert_eq!(span["start"], covered_to, "{name}: {span}");
            assert!(span["path"].as_str().is_some_and(|path| !path.is_empty()));
            covered_to = span["end"].as_u64().unwrap();
        }
        assert_eq!(covered_to, length, "{name}");
    }
}

#[test]
fn a_binary_file_reads_as_annotated_hex() {
    let output = ossuary(&["explain", &fixture("humanoid.skel")]);
    assert_status(&output, 0);
    let said = stdout(&output);
    let lines: Vec<&str> = said.lines().take(2).collect();
    // The skeleton's version (u32 1), then its name with its length byte.
    assert_eq!(
        lines,
        [
            "00000000  00 00 00 01                                       version  u32  1",
            "00000004  08 68 75 6d 61 6e 6f 69 64                        name  \
             RawString (u8 length, then bytes)  \"humanoid\"",
        ]
    );
}

#[test]
fn the_value_holding_a_byte_is_named_with_its_bytes() {
    // Bytes 15 to 18 of humanoid.skel: the first bone's unknown u32.
    for at in ["16", "0x10"] {
        let output = ossuary(&["explain", &fixture("humanoid.skel"), "--at", at]);
        assert_status(&output, 0);
        assert_eq!(
            stdout(&output),
            "byte 16 is in bones[0].unknown (u32, bytes 15 to 18): 1\n"
        );
    }
    let past = ossuary(&["explain", &fixture("humanoid.skel"), "--at", "100000"]);
    assert_status(&past, 2);
    assert!(
        stderr(&past).contains("no value holds byte 100000"),
        "{}",
        stderr(&past)
    );
}

#[test]
fn a_text_file_reads_as_annotated_lines() {
    let output = ossuary(&["explain", &fixture("humanoid.cmx"), "--at", "2"]);
    assert_status(&output, 0);
    assert_eq!(
        stdout(&output),
        "line 2 is in version_keyword (`version`, line 2): version 300\n"
    );
    let whole = stdout(&ossuary(&["explain", &fixture("humanoid.cmx")]));
    assert!(whole
        .starts_with("     1  // Character File. Copyright 1997, Maxis Inc.\n        ^ comment"));
}

/// A value is shown at most about a line long, however long the file's.
#[test]
fn a_long_value_is_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let cmx = String::from_utf8(fixture_bytes("humanoid.cmx")).unwrap();
    let (_, rest) = cmx.split_once('\n').unwrap();
    let long = format!("// {}\r\n{rest}", "x".repeat(10_000));
    let path = write(dir.path(), "long.cmx", long.as_bytes());
    let output = ossuary(&["explain", &path, "--at", "1"]);
    assert_status(&output, 0);
    let said = stdout(&output);
    assert!(said.starts_with("line 1 is in comment"), "{said}");
    assert!(said.len() < 200 && said.ends_with("...\n"), "{said}");
}

/// A file that does not decode: its error, at its byte, and the bytes
/// around it.
#[test]
fn a_broken_file_shows_the_bytes_around_its_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = fixture_bytes("humanoid.skel");
    bytes.truncate(20);
    let path = write(dir.path(), "cut.skel", &bytes);
    let output = ossuary(&["explain", &path]);
    assert_status(&output, 1);
    let said = stderr(&output);
    assert!(
        said.contains("does not decode; the bytes around its error:"),
        "{said}"
    );
    // The first bone's u32 at byte 15 runs past the cut.
    assert!(said.contains("^^ byte 15"), "{said}");
    assert!(said.contains("00000010  00 00 01 04"), "{said}");
}

/// `said` is the one-sentence error starting `sentence_start`, then the
/// bytes around byte 15 of the cut `humanoid.skel`, that byte marked.
fn assert_bytes_of_cut_skel_shown(said: &str, sentence_start: &str) {
    let mut lines = said.lines();
    assert!(lines.next().unwrap().starts_with(sentence_start), "{said}");
    assert_eq!(lines.next(), Some("the bytes around its error:"), "{said}");
    assert!(said.contains("00000010  00 00 01 04"), "{said}");
    assert!(said.contains("^^ byte 15"), "{said}");
}

/// `check` and `dump` show the same bytes below their one-sentence error:
/// `check` on standard output after the file's line, `dump` on standard
/// error after the error.
#[test]
fn check_and_dump_show_the_bytes_around_a_broken_file_s_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = fixture_bytes("humanoid.skel");
    bytes.truncate(20);
    let path = write(dir.path(), "cut.skel", &bytes);
    let check = ossuary(&["check", &path]);
    assert_status(&check, 1);
    assert_bytes_of_cut_skel_shown(&stdout(&check), &format!("{path}: byte 15: "));
    let dump = ossuary(&["dump", &path]);
    assert_status(&dump, 1);
    assert_bytes_of_cut_skel_shown(&stderr(&dump), &format!("ossuary: {path}: byte 15: "));
    // A text file's error has a line, not a byte: no bytes are shown.
    let text = write(dir.path(), "cut.cmx", b"version 300\r\nnot a number\r\n");
    let said = stderr(&ossuary(&["dump", &text]));
    assert!(!said.contains("the bytes around"), "{said}");
    assert_eq!(said.lines().count(), 1, "{said}");
}

#[test]
fn coverage_is_reported_per_format() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["humanoid.skel", "humanoid.cmx", "humanoid.mgn"] {
        write(dir.path(), name, &fixture_bytes(name));
    }
    write(dir.path(), "notes.txt", b"not a game file");
    let output = ossuary(&[
        "explain",
        "--coverage",
        &support::text(dir.path()),
        "--json",
    ]);
    assert_status(&output, 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let formats = json["formats"].as_object().unwrap();
    assert_eq!(
        formats.keys().collect::<Vec<_>>(),
        ["sims-cmx", "swg-mgn", "tso-skel"]
    );
    for (name, coverage) in formats {
        assert_eq!(coverage["files"], 1, "{name}");
        assert_eq!(coverage["opaque"], 0, "{name}");
        let parts = ["typed", "headers"].map(|part| coverage[part].as_u64().unwrap());
        assert_eq!(
            parts.iter().sum::<u64>(),
            coverage["total"].as_u64().unwrap(),
            "{name}"
        );
    }
    let table = stdout(&ossuary(&[
        "explain",
        "--coverage",
        &support::text(dir.path()),
    ]));
    assert!(table.contains("| tso-skel | 1 |"), "{table}");
}

/// `--depth` folds the tree: a node at the last level shown is one row
/// with its offset, size and count of children.
#[test]
fn depth_folds_the_tree_below_it() {
    let output = ossuary(&["explain", &fixture("humanoid.skel"), "--depth", "1"]);
    assert_status(&output, 0);
    assert_eq!(
        stdout(&output),
        "00000000        4  version  u32  1\n\
         00000004        9  name  RawString (u8 length, then bytes)  \"humanoid\"\n\
         0000000d      808  bones  ... 12 children\n"
    );
    let json = ossuary(&[
        "explain",
        &fixture("humanoid.skel"),
        "--depth",
        "1",
        "--json",
    ]);
    assert_status(&json, 0);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let bones = &json["tree"]["children"][2];
    assert_eq!(bones["path"], "bones");
    assert_eq!(bones["folded_children"], 12);
    assert_eq!(
        (bones["start"].as_u64(), bones["end"].as_u64()),
        (Some(13), Some(821))
    );
}

/// A file that does not decode: what was read before the error, then the
/// failing field marked `!!` with its message, and a failing exit.
#[test]
fn a_broken_file_shows_its_partial_map_and_the_failing_field() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = fixture_bytes("humanoid.skel");
    bytes.truncate(20);
    let path = write(dir.path(), "cut.skel", &bytes);
    for depth in [None, Some("1")] {
        let mut args = vec!["explain", path.as_str()];
        args.extend(depth.iter().flat_map(|depth| ["--depth", depth]));
        let output = ossuary(&args);
        assert_status(&output, 1);
        let said = stdout(&output);
        assert!(said.contains("name  RawString"), "{said}");
        let last = said.lines().last().unwrap();
        assert!(
            last.starts_with("0000000f") && last.contains("bones  !! count 12"),
            "{said}"
        );
    }
    let json = ossuary(&["explain", &path, "--depth", "1", "--json"]);
    assert_status(&json, 1);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(json["error"]
        .as_str()
        .unwrap()
        .starts_with("byte 15: bones: count 12"));
    assert_eq!(json["tree"]["children"][2]["error_below"], true);
}
