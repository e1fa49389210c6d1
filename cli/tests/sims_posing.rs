//! The Sims posing and skinning through the CLI, on the project's samples and
//! on the real files in `../shared/corpus` (when `OSSUARY_CORPUS` is set),
//! against values computed by hand or by the independent implementation.

mod independent;

use std::path::{Path, PathBuf};
use std::process::Command;

use formats::schema::text::TextSchema;
use formats::sims::cmx::Cmx;
use formats::sims::skn::Skn;
use independent::{cmx_bones, sims_skin, sims_world_matrices, transform_point};

fn ossuary(args: &[&str]) -> std::process::Output {
    let output = Command::new(env!("CARGO_BIN_EXE_ossuary"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn joints(skeleton: &Path) -> Vec<(String, [f64; 3])> {
    let output = ossuary(&["joints", &skeleton.to_string_lossy()]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|joint| {
            let position = [0, 1, 2].map(|axis| joint["position"][axis].as_f64().unwrap());
            (joint["name"].as_str().unwrap().to_owned(), position)
        })
        .collect()
}

/// `v` and `vn` lines of an OBJ written by `ossuary skin`.
fn skinned(mesh: &Path, skeleton: &Path, dir: &Path) -> (Vec<[f64; 3]>, Vec<[f64; 3]>, String) {
    let out = dir.join("out.obj");
    ossuary(&[
        "skin",
        &mesh.to_string_lossy(),
        "--skeleton",
        &skeleton.to_string_lossy(),
        "-o",
        &out.to_string_lossy(),
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let numbers = |prefix: &str| -> Vec<[f64; 3]> {
        text.lines()
            .filter_map(|line| line.strip_prefix(prefix))
            .map(|rest| {
                let values: Vec<f64> = rest
                    .split_whitespace()
                    .map(|token| token.parse().unwrap())
                    .collect();
                [values[0], values[1], values[2]]
            })
            .collect()
    };
    (numbers("v "), numbers("vn "), text)
}

fn adult_skeleton() -> Option<PathBuf> {
    tests::corpus_dir().map(|corpus| corpus.join("sims1/adult-skeleton.cmx"))
}

#[test]
fn the_real_adult_skeleton_stands_up() {
    let Some(skeleton) = adult_skeleton() else {
        return;
    };
    let joints = joints(&skeleton);
    let find = |name: &str| {
        joints
            .iter()
            .find(|(joint, _)| joint == name)
            .map(|(_, position)| *position)
            .unwrap()
    };
    for foot in ["L_FOOT", "R_FOOT"] {
        assert!(find(foot)[1].abs() < 0.5, "{foot} at {:?}", find(foot));
    }
    let head = find("HEAD");
    assert!((4.5..6.0).contains(&head[1]), "HEAD at {head:?}");
    assert!(joints
        .iter()
        .all(|(_, position)| position[1] > -0.5 && position[1] < 6.0));
    // Left and right joints mirror each other in x.
    let height = head[1];
    for (name, left) in joints.iter().filter(|(name, _)| name.starts_with("L_")) {
        let right = find(&name.replacen("L_", "R_", 1));
        assert!(
            (left[0] + right[0]).abs() < 0.03 * height,
            "{name}: {left:?} vs {right:?}"
        );
        assert!(
            (left[1] - right[1]).abs() < 0.03 * height,
            "{name}: {left:?} vs {right:?}"
        );
        assert!(
            (left[2] - right[2]).abs() < 0.03 * height,
            "{name}: {left:?} vs {right:?}"
        );
        assert!(
            left[0].abs() > 0.05,
            "{name} sits on the centre line: {left:?}"
        );
    }
}

#[test]
fn real_cmx_joints_agree_with_the_independent_implementation() {
    let Some(skeleton) = adult_skeleton() else {
        return;
    };
    let cmx = Cmx::from_text(&std::fs::read(&skeleton).unwrap()).unwrap();
    let expected = sims_world_matrices(&cmx_bones(&cmx.skeletons[0]));
    let joints = joints(&skeleton);
    assert_eq!(joints.len(), expected.len());
    for ((name, position), world) in joints.iter().zip(&expected) {
        let want = transform_point(world, [0.0; 3]);
        for axis in 0..3 {
            assert!(
                (position[axis] - want[axis]).abs() < 1e-4,
                "{name}: {position:?} vs {want:?}"
            );
        }
    }
}

/// Every real skin deformed with the adult skeleton, and the sample arm
/// (as `.skn` and as `.bmf`) with the sample humanoid.
#[test]
fn skin_agrees_with_the_independent_implementation() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = tests::fixtures_dir();
    let mut cases = vec![
        (
            fixtures.join("xskin-humanoid-L_ARM-ARM.skn"),
            fixtures.join("humanoid.cmx"),
            fixtures.join("xskin-humanoid-L_ARM-ARM.skn"),
        ),
        (
            fixtures.join("xskin-humanoid-L_ARM-ARM.bmf"),
            fixtures.join("humanoid.bcf"),
            fixtures.join("xskin-humanoid-L_ARM-ARM.skn"),
        ),
    ];
    if let Some(skeleton) = adult_skeleton() {
        let corpus = tests::corpus_dir().unwrap();
        for mesh in tests::files_with_extension(&corpus.join("sims1"), "skn") {
            cases.push((mesh.clone(), skeleton.clone(), mesh));
        }
    }
    for (mesh, skeleton, mesh_text) in cases {
        let skin = Skn::from_text(&std::fs::read(&mesh_text).unwrap()).unwrap();
        let skeleton_text = skeleton.with_extension("cmx");
        let cmx = Cmx::from_text(&std::fs::read(&skeleton_text).unwrap()).unwrap();
        let (want_positions, want_normals) = sims_skin(&skin, &cmx_bones(&cmx.skeletons[0]));
        let (positions, normals, obj) = skinned(&mesh, &skeleton, dir.path());
        assert_eq!(
            positions.len(),
            skin.uvs.len(),
            "{}: one v per real vertex",
            mesh.display()
        );
        for (index, (got, want)) in positions.iter().zip(&want_positions).enumerate() {
            for axis in 0..3 {
                assert!(
                    (got[axis] - want[axis]).abs() < 1e-4,
                    "{} vertex {index}: {got:?} vs {want:?}",
                    mesh.display()
                );
            }
        }
        for (index, (got, want)) in normals.iter().zip(&want_normals).enumerate() {
            for axis in 0..3 {
                assert!(
                    (got[axis] - want[axis]).abs() < 1e-4,
                    "{} normal {index}: {got:?} vs {want:?}",
                    mesh.display()
                );
            }
        }
        assert_eq!(
            obj.lines().filter(|line| line.starts_with("vt ")).count(),
            skin.uvs.len()
        );
        let faces: Vec<&str> = obj.lines().filter(|line| line.starts_with("f ")).collect();
        assert_eq!(faces.len(), skin.faces.len());
        let [a, b, c] = skin.faces[0].map(|index| index + 1);
        assert_eq!(faces[0], format!("f {a}/{a}/{a} {b}/{b}/{b} {c}/{c}/{c}"));
    }
}

#[test]
fn the_real_adult_body_stays_within_a_body_length_of_the_pelvis() {
    let Some(skeleton) = adult_skeleton() else {
        return;
    };
    let body = tests::corpus_dir()
        .unwrap()
        .join("sims1/xskin-b001mafit_01-PELVIS-BODY.skn");
    let dir = tempfile::tempdir().unwrap();
    let (positions, _, _) = skinned(&body, &skeleton, dir.path());
    let joints = joints(&skeleton);
    let pelvis = joints.iter().find(|(name, _)| name == "PELVIS").unwrap().1;
    let lowest = positions.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min);
    let highest = positions
        .iter()
        .map(|p| p[1])
        .fold(f64::NEG_INFINITY, f64::max);
    let body_length = 5.5;
    for position in &positions {
        let distance = (0..3)
            .map(|axis| (position[axis] - pelvis[axis]).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!(
            distance < body_length,
            "{position:?} is {distance} from the pelvis"
        );
    }
    // The body spans from the feet to the neck, standing.
    assert!(
        lowest < 0.5 && highest > 4.0,
        "body spans y {lowest}..{highest}"
    );
}

#[test]
fn a_mesh_bone_missing_from_the_skeleton_is_a_clear_error() {
    let fixtures = tests::fixtures_dir();
    let dir = tempfile::tempdir().unwrap();
    let mut skin =
        Skn::from_text(&std::fs::read(fixtures.join("xskin-humanoid-L_ARM-ARM.skn")).unwrap())
            .unwrap();
    skin.bones[1] = formats::schema::RawString::from("TAIL");
    let mesh = dir.path().join("tail.skn");
    std::fs::write(&mesh, TextSchema::to_text(&skin).unwrap()).unwrap();
    let out = dir.path().join("out.obj");
    let output = Command::new(env!("CARGO_BIN_EXE_ossuary"))
        .args([
            "skin",
            &mesh.to_string_lossy(),
            "--skeleton",
            &fixtures.join("humanoid.cmx").to_string_lossy(),
            "-o",
            &out.to_string_lossy(),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains(
            "tail.skn: the mesh is bound to bone \"TAIL\", which the skeleton does not have"
        ),
        "{message}"
    );
    assert!(!out.exists());
}
