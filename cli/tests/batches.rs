//! Many files at once (`check`, `info`, `convert` over files and folders),
//! output for scripts (`--json`), and pipes: standard input and output, and
//! a reader that stops reading.

mod support;

use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::Stdio;

use formats::schema::{BinarySchema, RawString};
use formats::sims::skel::{humanoid, Bone};
use serde_json::Value;
use support::{
    assert_status, command, files_below, fixture, fixture_bytes, json_lines, ossuary, ossuary_fed,
    stderr, stdout, write,
};

/// A folder as people have them: two good files, a truncated one, a file
/// of no known format, a hidden file, in two levels.
fn mixed_folder(dir: &Path) -> String {
    let folder = dir.join("assets");
    let skel = humanoid().to_bytes().unwrap();
    write(&folder, "a.skel", &skel);
    write(&folder, "notes.txt", b"notes, not a skeleton\n");
    write(&folder, ".hidden.skel", b"passed over");
    write(
        &folder,
        "deeper/arm.skn",
        &fixture_bytes("xskin-humanoid-L_ARM-ARM.skn"),
    );
    write(&folder, "deeper/broken.skel", &skel[..skel.len() - 3]);
    folder.to_string_lossy().into_owned()
}

#[test]
fn check_goes_on_past_files_it_cannot_identify_and_sums_up() {
    let dir = tempfile::tempdir().unwrap();
    let cmx = fixture("humanoid.cmx");
    let unknown = write(dir.path(), "b.form", b"FORM\x00\x00\x00\x04ABCD");
    let skn = fixture("xskin-humanoid-L_ARM-ARM.skn");
    let output = ossuary(&["check", &cmx, &unknown, &skn]);
    // A file named on the command line that cannot be identified failed.
    assert_status(&output, 1);
    assert_eq!(
        stdout(&output),
        format!(
            "{cmx}: ok\n\
             {unknown}: cannot tell the format from the name or the content; `ossuary formats` lists the formats ossuary reads\n\
             {skn}: ok\n\
             2 ok, 0 differ, 1 failed, 0 not supported\n"
        )
    );
    assert_eq!(stderr(&output), "");
}

#[test]
fn check_reports_every_file_of_a_folder_tree() {
    let dir = tempfile::tempdir().unwrap();
    let folder = mixed_folder(dir.path());
    let output = ossuary(&["check", &folder]);
    assert_status(&output, 1);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(lines[0], format!("{folder}/a.skel: ok"));
    assert_eq!(lines[1], format!("{folder}/deeper/arm.skn: ok"));
    assert!(
        lines[2].starts_with(&format!("{folder}/deeper/broken.skel: byte ")),
        "{text}"
    );
    // Found in a folder, an unknown file is not supported and fails nothing.
    assert!(
        lines[3].starts_with(&format!(
            "{folder}/notes.txt: not supported: cannot tell the format"
        )),
        "{text}"
    );
    assert_eq!(lines[4], "2 ok, 0 differ, 1 failed, 1 not supported");
    assert!(!text.contains("hidden"), "{text}");

    std::fs::remove_file(Path::new(&folder).join("deeper/broken.skel")).unwrap();
    let output = ossuary(&["check", &folder]);
    assert_status(&output, 0);
    assert!(stdout(&output).ends_with("\n2 ok, 0 differ, 0 failed, 1 not supported\n"));
}

#[test]
fn check_takes_files_and_folders_together_in_input_order() {
    let dir = tempfile::tempdir().unwrap();
    // Enough files that the parallel work finishes out of order.
    let folder = dir.path().join("many");
    let mut expected = Vec::new();
    for index in 0..60 {
        let mut skeleton = humanoid();
        skeleton.bones.truncate(1 + index % 12);
        let name = format!("{index:03}.skel");
        write(&folder, &name, &skeleton.to_bytes().unwrap());
        expected.push(format!("{}: ok", folder.join(name).display()));
    }
    let single = fixture("humanoid.skt");
    let output = ossuary(&["check", &single, &folder.to_string_lossy(), &single]);
    assert_status(&output, 0);
    let mut all = vec![format!("{single}: ok")];
    all.extend(expected);
    all.push(format!("{single}: ok"));
    all.push("62 ok, 0 differ, 0 failed, 0 not supported".to_owned());
    assert_eq!(stdout(&output).lines().collect::<Vec<_>>(), all);
    // Without a terminal there is no progress bar.
    assert_eq!(stderr(&output), "");
}

#[test]
fn a_single_file_gets_its_line_without_a_summary() {
    let output = ossuary(&["check", &fixture("humanoid.skel")]);
    assert_status(&output, 0);
    assert_eq!(
        stdout(&output),
        format!("{}: ok\n", fixture("humanoid.skel"))
    );
}

#[test]
fn check_json_gives_one_object_per_file_then_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let folder = mixed_folder(dir.path());
    let text_error = write(dir.path(), "bad.skn", b"name\r\nx\r\nnot a count\r\n");
    let output = ossuary(&["check", "--json", &folder, &text_error]);
    assert_status(&output, 1);
    assert_eq!(stderr(&output), "");
    let lines = json_lines(&output);
    let results: Vec<(&str, &str, &Value)> = lines
        .iter()
        .take(5)
        .map(|line| {
            (
                line["path"].as_str().unwrap(),
                line["result"].as_str().unwrap(),
                &line["format"],
            )
        })
        .collect();
    assert_eq!(
        results,
        vec![
            (&*format!("{folder}/a.skel"), "ok", &Value::from("tso-skel")),
            (
                &*format!("{folder}/deeper/arm.skn"),
                "ok",
                &Value::from("sims-skn")
            ),
            (
                &*format!("{folder}/deeper/broken.skel"),
                "failed",
                &Value::from("tso-skel")
            ),
            (
                &*format!("{folder}/notes.txt"),
                "not_supported",
                &Value::Null
            ),
            (&*text_error, "failed", &Value::from("sims-skn")),
        ]
    );
    assert!(lines[0].get("error").is_none());
    let skel_length = humanoid().to_bytes().unwrap().len();
    let binary = &lines[2]["error"];
    assert_eq!(binary["offset"], skel_length as u64 - 4);
    assert_eq!(binary["field"], "bones[11].wiggle_power");
    assert_eq!(
        binary["message"],
        "the input ends 1 byte(s) into a 4-byte value"
    );
    let text = &lines[4]["error"];
    assert_eq!(
        (&text["line"], &text["column"]),
        (&Value::from(3), &Value::from(1))
    );
    assert!(text["field"].is_string(), "{text}");
    assert!(text.get("offset").is_none());
    assert!(lines[3]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("ossuary formats"));
    assert_eq!(
        lines[5],
        serde_json::json!({"summary": {"ok": 2, "differs": 0, "failed": 2, "not_supported": 1}})
    );
    assert_eq!(lines.len(), 6);
}

#[test]
fn info_json_describes_each_file() {
    let output = ossuary(&["info", "--json", &fixture("humanoid.skel")]);
    assert_status(&output, 0);
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 2);
    let file = &lines[0];
    assert_eq!(file["result"], "ok");
    assert_eq!(file["format"], "tso-skel");
    assert_eq!(file["title"], "The Sims Online skeleton");
    assert!(file["facts"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!({"label": "bones", "value": "12"})));
    assert_eq!(
        file["joints"][0],
        serde_json::json!({"name": "ROOT", "parent": null})
    );
    assert_eq!(
        file["joints"][1],
        serde_json::json!({"name": "PELVIS", "parent": 0})
    );
    assert_eq!(
        lines[1],
        serde_json::json!({"summary": {"ok": 1, "differs": 0, "failed": 0, "not_supported": 0}})
    );
}

#[test]
fn info_over_a_folder_summarises_each_file_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let folder = mixed_folder(dir.path());
    let output = ossuary(&["info", &folder]);
    assert_status(&output, 1);
    let text = stdout(&output);
    assert!(
        text.starts_with(&format!(
            "{folder}/a.skel: The Sims Online skeleton (tso-skel)\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "\n\n{folder}/deeper/arm.skn: The Sims skin (sims-skn)\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("\n\n{folder}/deeper/broken.skel: byte ")),
        "{text}"
    );
    assert!(text.contains(&format!("\n{folder}/notes.txt: not supported: ")));
    assert!(
        text.ends_with("\n2 ok, 1 failed, 1 not supported\n"),
        "{text}"
    );
}

/// `convert DIR -o OUT --to sims-bcf`: the folder's tree again under OUT.
#[test]
fn convert_mirrors_folders_into_an_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("in");
    let cmx = fixture_bytes("humanoid.cmx");
    write(&folder, "top.cmx", &cmx);
    write(&folder, "sub/inner.cmx", &cmx);
    write(
        &folder,
        "sub/arm.skn",
        &fixture_bytes("xskin-humanoid-L_ARM-ARM.skn"),
    );
    write(&folder, "readme.txt", b"not a character file\n");
    let out = dir.path().join("out");
    let output = ossuary(&[
        "convert",
        &folder.to_string_lossy(),
        "-o",
        &out.to_string_lossy(),
        "--to",
        "sims-bcf",
    ]);
    assert_status(&output, 0);
    let text = stdout(&output);
    assert!(
        text.contains(&format!(
            "{}: ok, wrote {}\n",
            folder.join("sub/inner.cmx").display(),
            out.join("sub/inner.bcf").display()
        )),
        "{text}"
    );
    // The skin is a file ossuary reads, but not one that becomes a .bcf.
    assert!(
        text.contains("sub/arm.skn: not supported: cannot convert The Sims skin (sims-skn) to"),
        "{text}"
    );
    assert!(
        text.ends_with("2 ok, 0 failed, 2 not supported\n"),
        "{text}"
    );
    assert_eq!(
        files_below(&out),
        vec![Path::new("sub/inner.bcf"), Path::new("top.bcf")]
    );

    // And back: the tree of .bcf files becomes the original text again.
    let back = dir.path().join("back");
    let output = ossuary(&[
        "convert",
        &out.to_string_lossy(),
        "-o",
        &back.to_string_lossy(),
        "--to",
        "sims-cmx",
    ]);
    assert_status(&output, 0);
    assert_eq!(std::fs::read(back.join("sub/inner.cmx")).unwrap(), cmx);
}

#[test]
fn convert_into_a_folder_goes_on_past_failures_and_leaves_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.cmx", &fixture_bytes("humanoid.cmx"));
    let bad = write(dir.path(), "bad.cmx", b"// not really\r\nversion 300\r\n");
    let skin = fixture("xskin-humanoid-L_ARM-ARM.skn");
    let out = dir.path().join("out/");
    let output = ossuary(&[
        "convert",
        &bad,
        &good,
        &skin,
        "-o",
        &out.to_string_lossy(),
        "--to",
        "sims-bcf",
    ]);
    // Named on the command line, the skin that does not convert has failed.
    assert_status(&output, 1);
    let text = stdout(&output);
    assert!(text.starts_with(&format!("{bad}: line ")), "{text}");
    assert!(
        text.ends_with("1 ok, 2 failed, 0 not supported\n"),
        "{text}"
    );
    assert_eq!(files_below(&out), vec![Path::new("good.bcf")]);
}

#[test]
fn convert_refuses_batches_it_cannot_place() {
    let dir = tempfile::tempdir().unwrap();
    let cmx = fixture("humanoid.cmx");
    let out = dir.path().join("out.bcf");
    let several = ossuary(&["convert", &cmx, &cmx, "-o", &out.to_string_lossy()]);
    assert_status(&several, 2);
    assert!(stderr(&several).contains("-o must name a folder"));
    let folder = tests::fixtures_dir().to_string_lossy().into_owned();
    let no_target = ossuary(&["convert", &folder, "-o", &dir.path().to_string_lossy()]);
    assert_status(&no_target, 2);
    assert!(stderr(&no_target).contains("needs --to NAME"));
    assert!(files_below(dir.path()).is_empty());
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    // Enough output to fill a pipe: the command must meet the closed end.
    let many = dir.path().join("many");
    let skel = humanoid().to_bytes().unwrap();
    for index in 0..1500 {
        write(&many, &format!("{index:04}.skel"), &skel);
    }
    let mut big = humanoid();
    big.bones = (0..20_000)
        .map(|index| Bone {
            name: RawString::from(format!("B{index}").as_str()),
            ..humanoid().bones[1].clone()
        })
        .collect();
    let big = write(dir.path(), "big.skel", &big.to_bytes().unwrap());
    for args in [
        vec!["check", many.to_str().unwrap()],
        vec!["dump", &big],
        vec!["check", "--json", many.to_str().unwrap()],
    ] {
        let mut child = command(dir.path())
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first_line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first_line)
            .unwrap();
        // `| head -1`: one line read, then the pipe closes.
        assert!(!first_line.is_empty());
        let output = child.wait_with_output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(141),
            "{args:?}: {}",
            stderr(&output)
        );
        assert_eq!(stderr(&output), "", "{args:?}");
    }
}

#[test]
fn a_dash_reads_standard_input_by_content_or_with_format() {
    let dir = tempfile::tempdir().unwrap();
    let skel = fixture_bytes("humanoid.skel");
    // The TSO skeleton shows itself by content.
    let by_content = ossuary_fed(dir.path(), &["info", "-"], &skel);
    assert_status(&by_content, 0);
    assert!(
        stdout(&by_content).starts_with("standard input: The Sims Online skeleton (tso-skel)\n")
    );
    // A binary character file does not: it needs --format.
    let bcf = fixture_bytes("humanoid.bcf");
    let unnamed = ossuary_fed(dir.path(), &["dump", "-"], &bcf);
    assert_status(&unnamed, 1);
    assert!(
        stderr(&unnamed).contains("standard input: cannot tell the format")
            && stderr(&unnamed).contains("pass --format sims-bcf"),
        "{}",
        stderr(&unnamed)
    );
    let named = ossuary_fed(dir.path(), &["dump", "-", "--format", "sims-bcf"], &bcf);
    assert_status(&named, 0);
    assert_eq!(
        named.stdout,
        ossuary(&["dump", &fixture("humanoid.bcf")]).stdout
    );
    let checked = ossuary_fed(dir.path(), &["check", "-", "--format", "sims-bcf"], &bcf);
    assert_status(&checked, 0);
    assert_eq!(stdout(&checked), "standard input: ok\n");
    let twice = ossuary_fed(dir.path(), &["check", "-", "-"], &skel);
    assert_status(&twice, 2);
    assert!(stderr(&twice).contains("named more than once"));
    assert!(files_below(dir.path()).is_empty());
}

#[test]
fn dash_o_writes_to_standard_output_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let cmx = fixture("humanoid.cmx");
    let converted = ossuary_fed(
        dir.path(),
        &["convert", &cmx, "-o", "-", "--to", "sims-bcf"],
        b"",
    );
    assert_status(&converted, 0);
    assert_eq!(converted.stdout, fixture_bytes("humanoid.bcf"));

    let json = ossuary(&["dump", &fixture("humanoid.skel")]).stdout;
    let encoded = ossuary_fed(
        dir.path(),
        &["encode", "-", "--format", "tso-skel", "-o", "-"],
        &json,
    );
    assert_status(&encoded, 0);
    assert_eq!(encoded.stdout, fixture_bytes("humanoid.skel"));

    let png = ossuary_fed(dir.path(), &["render", &cmx, "-o", "-"], b"");
    assert_status(&png, 0);
    assert!(png.stdout.starts_with(b"\x89PNG\r\n\x1a\n"));

    let obj = ossuary_fed(
        dir.path(),
        &[
            "skin",
            &fixture("xskin-humanoid-L_ARM-ARM.skn"),
            "--skeleton",
            &cmx,
            "-o",
            "-",
        ],
        b"",
    );
    assert_status(&obj, 0);
    // On standard output the OBJ stands alone: no materials to refer to.
    let text = stdout(&obj);
    assert!(text.contains("\nv ") && !text.contains("mtllib") && !text.contains("usemtl"));
    assert!(
        files_below(dir.path()).is_empty(),
        "{:?}",
        files_below(dir.path())
    );
}

#[test]
fn a_picture_too_large_to_draw_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.png");
    for (size, says) in [
        ("100000x100000", "too large; each side can be at most 16384"),
        ("16385x600", "too large"),
        ("20x20", "too small"),
        ("99999999999x2", "is not WIDTHxHEIGHT"),
    ] {
        let output = ossuary(&[
            "render",
            &fixture("humanoid.skel"),
            "-o",
            &out.to_string_lossy(),
            "--size",
            size,
        ]);
        assert_status(&output, 2);
        assert!(
            stderr(&output).contains(says),
            "{size}: {}",
            stderr(&output)
        );
    }
    assert!(files_below(dir.path()).is_empty());
}

#[test]
fn files_found_in_folders_are_not_forced_into_another_format() {
    let dir = tempfile::tempdir().unwrap();
    let folder = mixed_folder(dir.path());
    let output = ossuary(&["check", &folder, "--format", "sims-skn"]);
    assert_status(&output, 0);
    let text = stdout(&output);
    assert!(text.contains("/deeper/arm.skn: ok\n"), "{text}");
    assert!(
        text.contains("/a.skel: not supported: --format sims-skn reads files named .skn\n"),
        "{text}"
    );
    assert!(
        text.ends_with("1 ok, 0 differ, 0 failed, 3 not supported\n"),
        "{text}"
    );
    // Named on the command line, a file is read as --format says.
    let named = write(dir.path(), "skeleton.bin", &humanoid().to_bytes().unwrap());
    let output = ossuary(&["check", &named, "--format", "tso-skel"]);
    assert_status(&output, 0);
    assert_eq!(stdout(&output), format!("{named}: ok\n"));
}
