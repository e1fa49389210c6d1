//! `ossuary convert` to glTF as a person uses it: files, standard output,
//! and the errors for inputs it cannot use. What the assets hold is checked
//! in the export crate's tests.

use std::path::PathBuf;
use std::process::{Command, Output};

fn ossuary(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ossuary"))
        .args(args)
        .output()
        .expect("run ossuary")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn fixture(name: &str) -> String {
    tests::fixtures_dir()
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The node names of a `.gltf` file's JSON.
fn node_names(json: &[u8]) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_slice(json).unwrap();
    value["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|node| node["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_skeleton_and_a_skin_make_one_gltf_or_glb_file() {
    let dir = tempfile::tempdir().unwrap();
    let gltf: PathBuf = dir.path().join("arm.gltf");
    let glb: PathBuf = dir.path().join("arm.GLB");
    for out in [&gltf, &glb] {
        let output = ossuary(&[
            "convert",
            &fixture("humanoid.cmx"),
            &fixture("xskin-humanoid-L_ARM-ARM.skn"),
            "-o",
            &out.to_string_lossy(),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let names = node_names(&std::fs::read(&gltf).unwrap());
    assert_eq!(names.first().map(String::as_str), Some("ROOT"));
    assert_eq!(
        names.last().map(String::as_str),
        Some("xskin-humanoid-L_ARM-ARM")
    );
    assert!(std::fs::read(&glb).unwrap().starts_with(b"glTF"));
}

#[test]
fn to_names_the_container_for_standard_output() {
    let output = ossuary(&[
        "convert",
        &fixture("humanoid.skt"),
        "-o",
        "-",
        "--to",
        "glb",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(output.stdout.starts_with(b"glTF"));
    let output = ossuary(&[
        "convert",
        &fixture("humanoid-lods.skt"),
        "--lod",
        "1",
        "-o",
        "-",
        "--to",
        "gltf",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!node_names(&output.stdout).is_empty());
}

/// Runs `ossuary`, which must fail with `code` and say `message`.
fn assert_fails(args: &[&str], code: i32, message: &str) {
    let output = ossuary(args);
    assert_eq!(output.status.code(), Some(code), "{args:?}");
    assert!(stderr(&output).contains(message), "{}", stderr(&output));
}

#[test]
fn inputs_convert_cannot_use_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.glb");
    let out = out.to_string_lossy();
    let skin = fixture("xskin-humanoid-L_ARM-ARM.skn");
    let skeleton = fixture("humanoid.cmx");
    assert_fails(
        &["convert", &skin, "-o", &out],
        1,
        "L_ARM-ARM.skn is a Sims skin, which has no skeleton to pose",
    );
    assert_fails(
        &["convert", &skeleton, &fixture("humanoid.skel"), "-o", &out],
        1,
        "humanoid.skel is a Sims Online skeleton, which has no mesh",
    );
    assert_fails(
        &["convert", &skeleton, "--anim", &skin, "-o", &out],
        1,
        "L_ARM-ARM.skn is a Sims skin, which has no animation",
    );
    assert_fails(
        &[
            "convert",
            &fixture("humanoid.skt"),
            "--lod",
            "3",
            "-o",
            &out,
        ],
        1,
        "there is no level of detail 3",
    );
    assert!(!dir.path().join("out.glb").exists());
}

#[test]
fn several_inputs_or_gltf_options_need_gltf_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.bcf");
    let out = out.to_string_lossy();
    let skeleton = fixture("humanoid.cmx");
    let skin = fixture("xskin-humanoid-L_ARM-ARM.skn");
    assert_fails(
        &["convert", &skeleton, &skin, "-o", &out],
        2,
        "2 inputs make one file each: -o must name a folder",
    );
    assert_fails(
        &["convert", &skeleton, "--lod", "1", "-o", &out],
        2,
        "--anim, --skill, --blend, --outcast-order and --lod apply to glTF output only",
    );
}

/// A BonesPro structure holds its skeleton and its vertices (no faces): both
/// export, the vertices as points, and a `Mesh (absolute)` animation as
/// morph targets of them.
#[test]
fn a_bonespro_structure_exports_its_points_and_a_mesh_animation() {
    let output = ossuary(&[
        "convert",
        &fixture("bonespro-biped.txt"),
        "--anim",
        &fixture("bonespro-walk-mesh-absolute.txt"),
        "-o",
        "-",
        "--to",
        "gltf",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let asset: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let primitive = &asset["meshes"][0]["primitives"][0];
    assert_eq!(primitive["mode"], 0, "POINTS");
    assert!(!primitive["targets"].as_array().unwrap().is_empty());
    assert_eq!(asset["animations"].as_array().unwrap().len(), 1);
}
