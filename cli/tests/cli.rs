//! The `ossuary` binary as a person uses it: outputs and exit codes.

mod support;

use formats::schema::{BinarySchema, RawString};
use formats::sims::skel::{humanoid, Property, PropertyList, Skeleton};
use support::{ossuary, stderr, stdout, write};

/// Valid files at the edges of the layout, each of which must come back intact.
fn edge_case_skeletons() -> Vec<(&'static str, Skeleton)> {
    let mut no_bones = humanoid();
    no_bones.bones.clear();

    let mut long_names = humanoid();
    long_names.name = RawString(vec![b'n'; 255]);
    long_names.bones[1].name = RawString(vec![b'b'; 255]);

    let mut high_bytes = humanoid();
    high_bytes.name = RawString((0x80..=0xFF).collect());
    high_bytes.bones[2].parent = RawString(vec![0x81, 0x8D, 0x00, 0xFF]);

    let mut nan_floats = humanoid();
    nan_floats.bones[0].translation = [f32::NAN, f32::from_bits(0xFF80_0001), -0.0];
    nan_floats.bones[3].wiggle_power = f32::INFINITY;

    let mut odd_flags = humanoid();
    odd_flags.bones[4].has_properties = 2;
    odd_flags.bones[4].property_lists = Some(vec![PropertyList {
        properties: vec![Property {
            key: RawString::from("k"),
            value: RawString::from("v"),
        }],
    }]);
    odd_flags.bones[5].has_properties = 255;
    odd_flags.bones[5].property_lists = Some(Vec::new());
    odd_flags.bones[6].can_translate = 7;
    odd_flags.bones[6].can_rotate = -1;
    odd_flags.bones[6].can_blend = i32::MIN;
    odd_flags.bones[7].unknown = 0xDEAD_BEEF;
    odd_flags.version = 9;

    vec![
        ("no-bones.skel", no_bones),
        ("long-names.skel", long_names),
        ("high-bytes.skel", high_bytes),
        ("nan-floats.skel", nan_floats),
        ("odd-flags.skel", odd_flags),
    ]
}

#[test]
fn check_says_ok_for_valid_files_at_the_edges_of_the_layout() {
    let dir = tempfile::tempdir().unwrap();
    for (name, skeleton) in edge_case_skeletons() {
        write(dir.path(), name, &skeleton.to_bytes().unwrap());
    }
    let output = ossuary(&["check", &dir.path().to_string_lossy()]);
    assert!(
        output.status.success(),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    assert_eq!(
        stdout(&output)
            .lines()
            .filter(|line| line.ends_with(": ok"))
            .count(),
        5
    );
}

/// `ossuary encode` of a JSON file as a `.skel`, into `out`.
fn encode_skel(json: &str, out: &std::path::Path) -> std::process::Output {
    ossuary(&[
        "encode",
        json,
        "--format",
        "tso-skel",
        "-o",
        &out.to_string_lossy(),
    ])
}

#[test]
fn dump_then_encode_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for (name, skeleton) in edge_case_skeletons() {
        let original = skeleton.to_bytes().unwrap();
        let file = write(dir.path(), name, &original);
        let dumped = ossuary(&["dump", &file]);
        assert!(dumped.status.success(), "{}", stderr(&dumped));
        let json = write(dir.path(), &format!("{name}.json"), &dumped.stdout);
        let out = dir.path().join(format!("{name}.again"));
        let encoded = encode_skel(&json, &out);
        assert!(encoded.status.success(), "{name}: {}", stderr(&encoded));
        assert_eq!(std::fs::read(&out).unwrap(), original, "{name}");
    }
}

#[test]
fn corrupted_files_fail_with_offset_and_field_path() {
    let dir = tempfile::tempdir().unwrap();
    let good = humanoid().to_bytes().unwrap();
    let good_file = write(dir.path(), "good.skel", &good);
    let truncated = write(dir.path(), "truncated.skel", &good[..good.len() - 3]);
    let mut huge_count = good.clone();
    huge_count[4 + 1 + 8] = 0xFF; // high byte of the u16 bone count after "humanoid"
    let huge = write(dir.path(), "huge.skel", &huge_count);

    let output = ossuary(&["check", &good_file, &truncated, &huge]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(text.contains("good.skel: ok"), "{text}");
    let wiggle_power_at = good.len() - 4;
    assert!(
        text.contains(&format!(
            "truncated.skel: byte {wiggle_power_at}: bones[11].wiggle_power: the input ends 1 byte(s) into a 4-byte value"
        )),
        "{text}"
    );
    assert!(
        text.contains("huge.skel: byte 15: bones: count 65292 needs at least"),
        "{text}"
    );

    let info = ossuary(&["info", &truncated]);
    assert_eq!(info.status.code(), Some(1));
    assert!(stderr(&info).starts_with("ossuary: "), "{}", stderr(&info));
    assert!(stderr(&info).contains(&format!(
        "truncated.skel: byte {wiggle_power_at}: bones[11].wiggle_power"
    )));
}

#[test]
fn info_prints_the_bone_tree() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "humanoid.skel", &humanoid().to_bytes().unwrap());
    let output = ossuary(&["info", &file]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(
        text.contains("The Sims Online skeleton (tso-skel)"),
        "{text}"
    );
    assert!(text.contains("  bones: 12\n"), "{text}");
    assert!(
        text.contains("    ROOT\n    └─ PELVIS\n       ├─ SPINE\n"),
        "{text}"
    );
}

#[test]
fn usage_errors_exit_2_and_bad_input_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let unknown = write(dir.path(), "mystery.dat", b"\x12\x34");
    let output = ossuary(&["info", &unknown]);
    // A file that cannot be identified is bad input (exit 1), like any
    // other file ossuary cannot read; it used to be a usage error (2).
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("cannot tell the format"),
        "{}",
        stderr(&output)
    );

    let output = ossuary(&["dump", &unknown, "--format", "no-such-format"]);
    assert_eq!(output.status.code(), Some(2));

    let forced = ossuary(&["dump", &unknown, "--format", "tso-skel"]);
    assert_eq!(forced.status.code(), Some(1));

    // JSON that is no `.skel` value: exit 1, an error naming the line,
    // the column and the field, and no output file.
    let out = dir.path().join("out.skel");
    let refused = [
        (
            &br#"{"version": 1, "name": "x", "bones": [{"unknown": "one"}]}"#[..],
            "line 1 column 55: bones[0].unknown: invalid type: string \"one\", expected u32",
        ),
        // A key the format does not have would otherwise vanish unnoticed.
        (
            br#"{"version": 1, "name": "x", "bones": [], "bone_count": 0}"#,
            "line 1 column 55: bone_count: no such field",
        ),
    ];
    for (json, expected) in refused {
        let json = write(dir.path(), "bad.json", json);
        let output = encode_skel(&json, &out);
        assert_eq!(output.status.code(), Some(1));
        assert!(stderr(&output).contains(expected), "{}", stderr(&output));
        assert!(!out.exists(), "a failed encode must leave no output file");
    }

    let missing = ossuary(&["check", "/no/such/file.skel"]);
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(ossuary(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn render_writes_a_png_of_the_requested_size() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "humanoid.skel", &humanoid().to_bytes().unwrap());
    let out = dir.path().join("figure.png");
    let output = ossuary(&[
        "render",
        &file,
        "-o",
        &out.to_string_lossy(),
        "--size",
        "320x240",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let png = std::fs::read(&out).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height as big-endian u32 at bytes 16 and 20.
    assert_eq!(&png[16..24], &[0, 0, 1, 64, 0, 0, 0, 240]);

    let bad_size = ossuary(&[
        "render",
        &file,
        "-o",
        &out.to_string_lossy(),
        "--size",
        "big",
    ]);
    assert_eq!(bad_size.status.code(), Some(2));
}

#[test]
fn convert_to_the_binary_twin_and_back_gives_the_original_text() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = tests::fixtures_dir();
    let mut originals: Vec<std::path::PathBuf> = ["humanoid.cmx", "xskin-humanoid-L_ARM-ARM.skn"]
        .iter()
        .map(|name| fixtures.join(name))
        .collect();
    if let Some(corpus) = tests::corpus_dir() {
        originals.extend(tests::files_with_extension(&corpus.join("sims1"), "cmx"));
        originals.extend(tests::files_with_extension(&corpus.join("sims1"), "skn"));
    }
    for original in originals {
        let name = original.file_name().unwrap().to_string_lossy().into_owned();
        let twin_extension = if name.ends_with(".cmx") { "bcf" } else { "bmf" };
        let twin = dir.path().join(format!("{name}.{twin_extension}"));
        let back = dir.path().join(&name);
        let there = ossuary(&[
            "convert",
            &original.to_string_lossy(),
            "-o",
            &twin.to_string_lossy(),
        ]);
        assert!(there.status.success(), "{name}: {}", stderr(&there));
        let again = ossuary(&[
            "convert",
            &twin.to_string_lossy(),
            "-o",
            &back.to_string_lossy(),
        ]);
        assert!(again.status.success(), "{name}: {}", stderr(&again));
        assert_eq!(
            std::fs::read(&back).unwrap(),
            std::fs::read(&original).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn convert_refuses_formats_that_carry_other_data() {
    let dir = tempfile::tempdir().unwrap();
    let skel = tests::fixtures_dir().join("humanoid.skel");
    let out = dir.path().join("out.skn");
    let output = ossuary(&[
        "convert",
        &skel.to_string_lossy(),
        "-o",
        &out.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(
            "cannot convert The Sims Online skeleton (tso-skel) to The Sims skin (sims-skn)"
        ),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists());
}
