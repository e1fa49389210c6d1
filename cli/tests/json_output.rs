//! Every output that is JSON (`dump`, `joints`, `--json` on `info`, `check`
//! and `explain`, `explain --coverage --json`) parses as JSON with a real
//! JSON reader, whatever bytes the files' names hold: control bytes, DEL,
//! bytes that are not UTF-8. A name in JSON is its bytes read as
//! Windows-1252, one character each, as `dump` writes it and `encode`
//! reads it back.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use support::{assert_status, json_lines, ossuary, stdout, text};

/// The names of the hostile skeleton's bones: every byte value once, 32 to
/// a name, in order.
fn hostile_names() -> Vec<Vec<u8>> {
    (0..=255u8)
        .collect::<Vec<u8>>()
        .chunks(32)
        .map(<[u8]>::to_vec)
        .collect()
}

/// A The Sims Online skeleton (`.skel`, big-endian integers,
/// little-endian floats, Pascal strings) whose bones are named by
/// [`hostile_names`], each the child of the one before.
fn hostile_skeleton() -> Vec<u8> {
    fn pascal(bytes: &mut Vec<u8>, text: &[u8]) {
        bytes.push(u8::try_from(text.len()).unwrap());
        bytes.extend_from_slice(text);
    }
    let names = hostile_names();
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&1u32.to_be_bytes()); // version
    pascal(&mut bytes, b"hostile\x7f\x1b[31m");
    bytes.extend_from_slice(&u16::try_from(names.len()).unwrap().to_be_bytes());
    for (index, name) in names.iter().enumerate() {
        bytes.extend_from_slice(&1u32.to_be_bytes()); // the bone's constant 1
        pascal(&mut bytes, name);
        match index.checked_sub(1) {
            Some(parent) => pascal(&mut bytes, &names[parent]),
            None => pascal(&mut bytes, b"NULL"),
        }
        bytes.push(0); // no property lists
        for value in [0.0f32, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0] {
            bytes.extend_from_slice(&value.to_le_bytes()); // translation, rotation
        }
        for flag in [1i32, 1, 1] {
            bytes.extend_from_slice(&flag.to_be_bytes()); // can translate, rotate, blend
        }
        for wiggle in [0.0f32, 0.0] {
            bytes.extend_from_slice(&wiggle.to_le_bytes());
        }
    }
    bytes
}

/// Each byte as its Windows-1252 character, as `dump` shows a name.
fn windows_1252(bytes: &[u8]) -> String {
    formats::schema::RawString(bytes.to_vec()).to_text()
}

/// A folder holding the hostile skeleton under a plain name and, where
/// file names are bytes, under a name that is not UTF-8 and holds a
/// terminal escape.
fn hostile_folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("hostile.skel");
    std::fs::write(&plain, hostile_skeleton()).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let name = std::ffi::OsStr::from_bytes(b"hostile-\xff\x1b[31m\x7f.skel");
        std::fs::write(dir.path().join(name), hostile_skeleton()).unwrap();
    }
    (dir, plain)
}

/// Standard output parsed as one JSON value.
fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!("not JSON ({error}):\n{}", stdout(output));
    })
}

/// The files of a folder, sorted.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn the_joints_of_a_skeleton_named_with_every_byte_are_json_named_as_dump_names_them() {
    let (_dir, plain) = hostile_folder();
    let joints = ossuary(&["joints", &text(&plain)]);
    assert_status(&joints, 0);
    let joints = json(&joints);
    let dumped = ossuary(&["dump", &text(&plain)]);
    assert_status(&dumped, 0);
    let dumped = json(&dumped);
    let names = hostile_names();
    let joints = joints.as_array().unwrap();
    assert_eq!(joints.len(), names.len());
    for (index, (joint, name)) in joints.iter().zip(&names).enumerate() {
        let expected = windows_1252(name);
        assert_eq!(
            joint["name"],
            Value::from(expected.clone()),
            "joint {index}"
        );
        assert_eq!(
            dumped["bones"][index]["name"],
            Value::from(expected),
            "bone {index}"
        );
    }
    // DEL is escaped as JSON escapes it, not as a message would (`\x7f`).
    let raw = stdout(&ossuary(&["joints", &text(&plain)]));
    assert!(raw.contains("\\u007f") && !raw.contains("\\x"), "{raw}");
}

#[test]
fn every_json_output_of_the_fixtures_and_hostile_files_is_json() {
    let (dir, _) = hostile_folder();
    let fixtures = tests::fixtures_dir();
    let mut files = files_in(&fixtures);
    files.extend(files_in(dir.path()));
    for file in &files {
        let file = text(file);
        let dumped = ossuary(&["dump", &file]);
        if dumped.status.success() {
            json(&dumped);
        }
        for args in [
            vec!["explain", &file, "--json"],
            vec!["explain", &file, "--at", "0", "--json"],
        ] {
            let explained = ossuary(&args);
            if explained.status.success() {
                json(&explained);
            }
        }
        let joints = ossuary(&["joints", &file]);
        if joints.status.success() {
            json(&joints);
        }
        for command in ["info", "check"] {
            let lines = json_lines(&ossuary(&[command, &file, "--json"]));
            assert!(lines.last().unwrap().get("summary").is_some(), "{file}");
        }
    }
    for folder in [fixtures.as_path(), dir.path()] {
        let folder = text(folder);
        for command in ["info", "check"] {
            let lines = json_lines(&ossuary(&[command, &folder, "--json"]));
            assert!(lines.len() > 1, "{command} {folder}");
        }
        let coverage = ossuary(&["explain", "--coverage", &folder, "--json"]);
        assert_status(&coverage, 0);
        json(&coverage);
    }
}
