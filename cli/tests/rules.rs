//! The rules every command follows (`--format`, `--frame`, `--lod`, `-o`,
//! inputs of the wrong kind), what `--help` and `ossuary formats` tell a
//! newcomer, and the details of `skin` and `render` output.

mod support;

use std::path::Path;

use formats::catalogue::Catalogue;
use support::{assert_status, files_below, fixture, fixture_bytes, ossuary, stderr, stdout, write};

const ARM: &str = "xskin-humanoid-L_ARM-ARM.skn";

/// Runs a command expected to fail with `code`, saying `says`, and to leave
/// nothing in `dir` (where its output would have gone).
fn fails(dir: &Path, args: &[&str], code: i32, says: &str) {
    let output = ossuary(args);
    assert_status(&output, code);
    assert!(
        stderr(&output).contains(says),
        "{args:?}: expected {says:?} in {}",
        stderr(&output)
    );
    assert_eq!(stdout(&output), "", "{args:?}");
    assert!(
        files_below(dir).is_empty(),
        "{args:?} left {:?}",
        files_below(dir)
    );
}

#[test]
fn help_describes_every_option_and_shows_examples() {
    let top = ossuary(&["--help"]);
    assert_status(&top, 0);
    let top = stdout(&top);
    assert!(top.contains("Examples:\n  ossuary "), "{top}");
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .map(|line| line.split_whitespace().next().unwrap())
        .filter(|command| *command != "help")
        .collect();
    assert_eq!(
        commands,
        [
            "info", "dump", "encode", "convert", "joints", "skin", "render", "check", "explain",
            "view", "sprites", "formats"
        ]
    );
    for command in commands {
        let help = ossuary(&[command, "--help"]);
        assert_status(&help, 0);
        let help = stdout(&help);
        assert!(help.contains("Example"), "{command}: {help}");
        // Each argument and option line: its name, two spaces, a description.
        let entries: Vec<&str> = help
            .lines()
            .filter(|line| line.starts_with("  "))
            .filter(|line| line.trim_start().starts_with(['-', '<']))
            .collect();
        assert!(!entries.is_empty(), "{command}: {help}");
        for entry in entries {
            let described = entry
                .trim_start()
                .split_once("  ")
                .is_some_and(|(_, description)| !description.trim().is_empty());
            assert!(described, "{command}: no description in {entry:?}");
        }
    }
}

#[test]
fn formats_lists_every_format_with_what_it_can_do() {
    let output = ossuary(&["formats"]);
    assert_status(&output, 0);
    let text = stdout(&output);
    let rows: Vec<Vec<&str>> = text
        .lines()
        .take_while(|line| !line.is_empty())
        .map(|line| {
            line.split("  ")
                .map(str::trim)
                .filter(|cell| !cell.is_empty())
                .collect()
        })
        .collect();
    assert_eq!(
        rows[0],
        [
            "NAME",
            "TITLE",
            "EXTENSIONS",
            "CONVERTS TO",
            "POSE",
            "SKIN",
            "ANIMATE",
            "RENDER"
        ]
    );
    let catalogue = Catalogue::default();
    assert_eq!(rows.len(), catalogue.formats().len() + 1);
    for format in catalogue.formats() {
        assert!(
            rows.iter()
                .any(|row| row[0] == format.name && row[1] == format.title),
            "{} missing from\n{text}",
            format.name
        );
    }
    let row = |name: &str| rows.iter().find(|row| row[0] == name).unwrap().clone();
    assert_eq!(
        row("sims-skn"),
        [
            "sims-skn",
            "The Sims skin",
            ".skn",
            "sims-bmf",
            "-",
            "yes",
            "-",
            "yes"
        ]
    );
    assert_eq!(
        row("tso-skel"),
        [
            "tso-skel",
            "The Sims Online skeleton",
            ".skel",
            "-",
            "yes",
            "-",
            "-",
            "yes"
        ]
    );
    assert!(text.contains("\nPOSE: has a skeleton"), "{text}");
}

#[test]
fn an_unknown_file_says_so_and_suggests_format_only_when_one_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let noise = write(dir.path(), "noise.dat", b"\x01\x02 nothing known");
    let output = ossuary(&["joints", &noise]);
    assert_status(&output, 1);
    assert_eq!(
        stderr(&output),
        format!(
            "ossuary: {noise}: cannot tell the format from the name or the content; \
             `ossuary formats` lists the formats ossuary reads\n"
        )
    );
    let renamed = write(dir.path(), "skeleton.dat", &fixture_bytes("humanoid.bcf"));
    let output = ossuary(&["info", &renamed]);
    assert_status(&output, 1);
    assert_eq!(
        stderr(&output),
        format!(
            "ossuary: {renamed}: cannot tell the format from the name or the content, \
             but it reads as sims-bcf: pass --format sims-bcf\n"
        )
    );
    let output = ossuary(&["info", &renamed, "--format", "sims-bcf"]);
    assert_status(&output, 0);
}

#[test]
fn inputs_of_the_wrong_kind_exit_1_with_one_sentence_and_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let obj = out.with_extension("obj");
    let png = out.with_extension("png");
    let (obj, png) = (obj.to_str().unwrap(), png.to_str().unwrap());
    let arm = fixture(ARM);
    let skel = fixture("humanoid.skel");
    let cmx = fixture("humanoid.cmx");
    fails(
        dir.path(),
        &["joints", &arm],
        1,
        &format!("{arm} is a Sims skin, which has no skeleton to pose\n"),
    );
    fails(
        dir.path(),
        &["skin", &skel, "-o", obj],
        1,
        &format!("{skel} is a Sims Online skeleton, which has no mesh\n"),
    );
    fails(
        dir.path(),
        &["skin", &arm, "-o", obj],
        1,
        &format!("{arm} is a Sims skin, which has no skeleton to pose\n"),
    );
    fails(
        dir.path(),
        &["skin", &arm, "--skeleton", &arm, "-o", obj],
        1,
        "which has no skeleton to pose",
    );
    fails(
        dir.path(),
        &["render", &arm, "-o", png],
        1,
        "which has no skeleton to pose",
    );
    fails(
        dir.path(),
        &["joints", &cmx, "--anim", &skel],
        1,
        &format!("{skel} is a Sims Online skeleton, which has no animation\n"),
    );
    fails(
        dir.path(),
        &[
            "skin",
            &arm,
            "--skeleton",
            "/no/such/skeleton.cmx",
            "-o",
            obj,
        ],
        1,
        "/no/such/skeleton.cmx: cannot read: ",
    );
    fails(
        dir.path(),
        &["render", &cmx, "--anim", "/no/such/walk.cmx", "-o", png],
        1,
        "/no/such/walk.cmx: cannot read: ",
    );
}

#[test]
fn format_applies_to_the_positional_inputs_only() {
    let dir = tempfile::tempdir().unwrap();
    let skeleton = write(dir.path(), "skeleton.txt", &fixture_bytes("humanoid.cmx"));
    let mesh = write(dir.path(), "mesh.txt", &fixture_bytes(ARM));
    let skel = fixture("humanoid.skel");
    // The animation file is read as what its name says (and found to hold
    // no animation), not as --format's sims-cmx.
    let output = ossuary(&["joints", &skeleton, "--format", "sims-cmx", "--anim", &skel]);
    assert_status(&output, 1);
    assert!(
        stderr(&output).contains(&format!(
            "{skel} is a Sims Online skeleton, which has no animation"
        )),
        "{}",
        stderr(&output)
    );
    let obj = dir.path().join("mesh.obj");
    let output = ossuary(&[
        "skin",
        &mesh,
        "--format",
        "sims-skn",
        "--skeleton",
        &fixture("humanoid.cmx"),
        "-o",
        obj.to_str().unwrap(),
    ]);
    assert_status(&output, 0);
    let bcf = dir.path().join("skeleton.bcf");
    let output = ossuary(&[
        "convert",
        &skeleton,
        "--format",
        "sims-cmx",
        "-o",
        bcf.to_str().unwrap(),
    ]);
    assert_status(&output, 0);
    assert_eq!(std::fs::read(&bcf).unwrap(), fixture_bytes("humanoid.bcf"));
    // For `render` every positional file is read as --format says.
    let png = dir.path().join("both.png");
    let output = ossuary(&[
        "render",
        &skeleton,
        &mesh,
        "--format",
        "sims-cmx",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_status(&output, 1);
    assert!(
        stderr(&output).contains(&format!("{mesh}: line ")),
        "{}",
        stderr(&output)
    );
    assert!(!png.exists());
}

#[test]
fn frame_and_skill_need_an_animation() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("x.png");
    let obj = dir.path().join("x.obj");
    let cmx = fixture("humanoid.cmx");
    let arm = fixture(ARM);
    for args in [
        vec!["joints", &cmx, "--frame", "2"],
        vec![
            "skin",
            &arm,
            "--skeleton",
            &cmx,
            "--frame",
            "2",
            "-o",
            obj.to_str().unwrap(),
        ],
        vec!["render", &cmx, "--frame", "2", "-o", png.to_str().unwrap()],
        vec!["joints", &cmx, "--skill", "walk"],
    ] {
        fails(dir.path(), &args, 2, "--anim <FILE>");
    }
}

#[test]
fn lod_chooses_the_level_of_detail_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let lods = fixture("humanoid-lods.skt");
    let joints = |lod: &str| {
        let output = ossuary(&["joints", &lods, "--lod", lod]);
        assert_status(&output, 0);
        serde_json::from_slice::<serde_json::Value>(&output.stdout)
            .unwrap()
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(joints("0"), 12);
    assert_eq!(joints("1"), 4);
    let png = dir.path().join("x.png");
    let obj = dir.path().join("x.obj");
    let says = "there is no level of detail 2 (the file has 2, from 0)";
    fails(dir.path(), &["joints", &lods, "--lod", "2"], 1, says);
    fails(
        dir.path(),
        &["render", &lods, "--lod", "2", "-o", png.to_str().unwrap()],
        1,
        says,
    );
    // A mesh (or skeleton) with one level of detail has no level 1 either.
    fails(
        dir.path(),
        &[
            "skin",
            &fixture(ARM),
            "--skeleton",
            &lods,
            "--lod",
            "1",
            "-o",
            obj.to_str().unwrap(),
        ],
        1,
        "L_ARM-ARM.skn: there is no level of detail 1 (the file has 1, from 0)",
    );
    fails(
        dir.path(),
        &["joints", &fixture("humanoid.skel"), "--lod", "1"],
        1,
        "humanoid.skel: there is no level of detail 1 (the file has 1, from 0)",
    );
    let output = ossuary(&["render", &lods, "--lod", "1", "-o", png.to_str().unwrap()]);
    assert_status(&output, 0);
}

#[test]
fn commands_that_write_need_o() {
    let dir = tempfile::tempdir().unwrap();
    let json = write(dir.path(), "x.json", b"{}");
    let cmx = fixture("humanoid.cmx");
    let arm = fixture(ARM);
    for args in [
        vec!["encode", &json, "--format", "tso-skel"],
        vec!["convert", &cmx, "--to", "sims-bcf"],
        vec!["skin", &arm, "--skeleton", &cmx],
        vec!["render", &cmx],
    ] {
        let output = ossuary(&args);
        assert_status(&output, 2);
        assert!(
            stderr(&output).contains("--output <"),
            "{}",
            stderr(&output)
        );
    }
    assert_eq!(files_below(dir.path()), [Path::new("x.json")]);
}

#[test]
fn skin_writes_the_materials_beside_the_obj() {
    let dir = tempfile::tempdir().unwrap();
    let textured = String::from_utf8(fixture_bytes(ARM)).unwrap().replacen(
        "\r\nx\r\n",
        "\r\narm_texture\r\n",
        1,
    );
    let mesh = write(dir.path(), "arm.skn", textured.as_bytes());
    let obj = dir.path().join("posed/arm.obj");
    std::fs::create_dir(obj.parent().unwrap()).unwrap();
    let output = ossuary(&[
        "skin",
        &mesh,
        "--skeleton",
        &fixture("humanoid.cmx"),
        "-o",
        obj.to_str().unwrap(),
    ]);
    assert_status(&output, 0);
    let obj_text = std::fs::read_to_string(&obj).unwrap();
    let mtl_text = std::fs::read_to_string(obj.with_extension("mtl")).unwrap();
    assert!(obj_text.contains("\nmtllib arm.mtl\n"), "{obj_text}");
    assert!(
        obj_text.contains("\nusemtl xskin-humanoid-L_ARM-ARM\nf "),
        "{obj_text}"
    );
    assert!(
        mtl_text.contains("newmtl xskin-humanoid-L_ARM-ARM\nKd 1 1 1\nmap_Kd arm_texture\n"),
        "{mtl_text}"
    );
    assert_eq!(
        files_below(dir.path()),
        [
            Path::new("arm.skn"),
            Path::new("posed/arm.mtl"),
            Path::new("posed/arm.obj")
        ]
    );

    // A skin without a texture gets a plain material.
    let plain = dir.path().join("plain.obj");
    let output = ossuary(&[
        "skin",
        &fixture(ARM),
        "--skeleton",
        &fixture("humanoid.cmx"),
        "-o",
        plain.to_str().unwrap(),
    ]);
    assert_status(&output, 0);
    let mtl_text = std::fs::read_to_string(plain.with_extension("mtl")).unwrap();
    assert!(!mtl_text.contains("map_Kd"), "{mtl_text}");
}

/// The pixels of a PNG that have exactly this color.
fn count_color(png: &[u8], rgb: [u8; 3]) -> usize {
    let image = tiny_skia::Pixmap::decode_png(png).unwrap();
    image
        .pixels()
        .iter()
        .filter(|pixel| [pixel.red(), pixel.green(), pixel.blue()] == rgb)
        .count()
}

#[test]
fn render_draws_meshes_without_bones_and_a_ruler() {
    let dir = tempfile::tempdir().unwrap();
    let cmx = fixture("humanoid.cmx");
    let arm = fixture(ARM);
    let with_bones = dir.path().join("bones.png");
    let without = dir.path().join("meshes.png");
    for (png, extra) in [(&with_bones, None), (&without, Some("--no-bones"))] {
        let mut args = vec!["render", &cmx, &arm, "-o", png.to_str().unwrap()];
        args.extend(extra);
        assert_status(&ossuary(&args), 0);
    }
    let with_bones = std::fs::read(with_bones).unwrap();
    let without = std::fs::read(without).unwrap();
    assert!(count_color(&with_bones, render::BONE) > 100);
    assert_eq!(count_color(&without, render::BONE), 0);
    assert_eq!(count_color(&without, render::JOINT), 0);
    assert!(count_color(&without, render::RULER) > 100);

    let empty = tempfile::tempdir().unwrap();
    let png = empty.path().join("nothing.png");
    let skel = fixture("humanoid.skel");
    fails(
        empty.path(),
        &["render", &skel, "--no-bones", "-o", png.to_str().unwrap()],
        1,
        &format!("{skel} is a Sims Online skeleton, which has no mesh\n"),
    );
}

#[test]
fn render_stands_each_skeleton_as_a_figure_posing_the_meshes_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("figures.png");
    // The arm binds to the Sims skeleton before it; bound to the SWG one
    // (no L_ARM joint) it could not be posed.
    let output = ossuary(&[
        "render",
        &fixture("humanoid.skt"),
        &fixture("humanoid.cmx"),
        &fixture(ARM),
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_status(&output, 0);
    let output = ossuary(&[
        "render",
        &fixture("humanoid.cmx"),
        &fixture("humanoid.skt"),
        &fixture(ARM),
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_status(&output, 1);
    assert!(stderr(&output).contains(ARM), "{}", stderr(&output));
}
