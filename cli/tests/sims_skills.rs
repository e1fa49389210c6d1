//! The Sims skills and suits through the CLI: the real idle and walk (when
//! `OSSUARY_CORPUS` is set) against the independent implementation and
//! against what a standing, walking figure must look like; the samples for
//! finding files by name and for the errors.

mod independent;
mod support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use formats::sims::cmx::{self, Cmx};
use independent::{
    cfp_components, cmx_bones, rotation, sims_skill_pose, sims_world_matrices, transform_point,
};
use support::{assert_status, fixture, ossuary, stderr, stdout, text};

const IDLE: &str = "adult-idle1.cmx";
const WALK: &str = "adult-walking-frantic-loop.cmx";

fn sims1() -> Option<PathBuf> {
    tests::corpus_dir().map(|corpus| corpus.join("sims1"))
}

/// One joint of `ossuary joints`.
struct Joint {
    parent: Option<String>,
    position: [f64; 3],
    rotation: [f64; 4],
}

/// `ossuary joints` of the adult skeleton at a frame of a skill, by name.
fn joints(sims1: &Path, skill: Option<&str>, frame: usize) -> HashMap<String, Joint> {
    let skeleton = text(&sims1.join("adult-skeleton.cmx"));
    let frame = frame.to_string();
    let mut args = vec!["joints", &skeleton];
    let anim = skill.map(|skill| text(&sims1.join(skill)));
    if let Some(anim) = &anim {
        args.extend(["--anim", anim, "--frame", &frame]);
    }
    let output = ossuary(&args);
    assert_status(&output, 0);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|joint| {
            let numbers = |key: &str, len| -> Vec<f64> {
                (0..len).map(|i| joint[key][i].as_f64().unwrap()).collect()
            };
            let position = numbers("position", 3);
            let rotation = numbers("rotation", 4);
            (
                joint["name"].as_str().unwrap().to_owned(),
                Joint {
                    parent: joint["parent"].as_str().map(str::to_owned),
                    position: [position[0], position[1], position[2]],
                    rotation: [rotation[0], rotation[1], rotation[2], rotation[3]],
                },
            )
        })
        .collect()
}

fn cmx(path: &Path) -> Cmx {
    Cmx::from_text(&std::fs::read(path).unwrap()).unwrap()
}

fn skill_of(sims1: &Path, file: &str) -> cmx::Skill {
    cmx(&sims1.join(file)).skills.remove(0)
}

fn frames(sims1: &Path, file: &str) -> usize {
    skill_of(sims1, file).motions[0].frame_count as usize
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3)
        .map(|axis| (a[axis] - b[axis]).powi(2))
        .sum::<f64>()
        .sqrt()
}

#[test]
fn every_real_cfp_round_trips_through_check() {
    let Some(files) = tests::corpus_files("sims1", "cfp") else {
        return;
    };
    let mut args = vec!["check".to_owned()];
    args.extend(files.iter().map(|path| text(path)));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = ossuary(&args);
    assert_status(&output, 0);
    for path in &files {
        assert!(
            stdout(&output).contains(&format!("{}: ok\n", path.display())),
            "{}",
            stdout(&output)
        );
    }
}

/// The joints `ossuary joints` gives at several frames of each real skill
/// equal the independent evaluation of the conventions (its own `.cfp`
/// decoder and delta formula, f64 matrices) within 2e-3, positions and
/// rotations alike.
#[test]
fn real_skill_joints_agree_with_the_independent_evaluation() {
    let Some(sims1) = sims1() else {
        return;
    };
    let bones = cmx_bones(&cmx(&sims1.join("adult-skeleton.cmx")).skeletons[0]);
    for (file, frames) in [(IDLE, [0, 17, 33, 59]), (WALK, [0, 5, 10, 17])] {
        let skill = skill_of(&sims1, file);
        let cfp = std::fs::read(sims1.join(format!("{}.cfp", skill.animation))).unwrap();
        let components = cfp_components(
            &cfp,
            skill.position_count as usize,
            skill.rotation_count as usize,
        );
        for frame in frames {
            let posed = sims_skill_pose(&bones, &skill, &components, frame);
            let world = sims_world_matrices(&posed);
            let joints = joints(&sims1, Some(file), frame);
            assert_eq!(joints.len(), posed.len());
            for (bone, matrix) in posed.iter().zip(&world) {
                let name = String::from_utf8_lossy(&bone.name);
                let joint = &joints[name.as_ref()];
                let want = transform_point(matrix, [0.0; 3]);
                assert!(
                    distance(joint.position, want) < 2e-3,
                    "{file} frame {frame} {name}: {:?} vs {want:?}",
                    joint.position
                );
                let turn = rotation(joint.rotation);
                for row in 0..3 {
                    for column in 0..3 {
                        let (got, want) = (turn[row][column], matrix[row][column]);
                        assert!(
                            (got - want).abs() < 2e-3,
                            "{file} frame {frame} {name}: rotation [{row}][{column}] {got} vs {want}"
                        );
                    }
                }
            }
        }
    }
}

/// Every frame of the real idle and walk: every bone no motion moves
/// keeps its distance from its parent, the head stays well above the
/// pelvis and the lowest foot or toe joint touches the floor.
#[test]
fn every_frame_of_the_real_skills_keeps_the_figure_standing() {
    let Some(sims1) = sims1() else {
        return;
    };
    let rest = joints(&sims1, None, 0);
    let length = |joints: &HashMap<String, Joint>, name: &str| {
        let joint = &joints[name];
        joint
            .parent
            .as_ref()
            .map(|parent| distance(joint.position, joints[parent].position))
    };
    for file in [IDLE, WALK] {
        let translated: Vec<String> = skill_of(&sims1, file)
            .motions
            .iter()
            .filter(|motion| motion.positions_used != 0)
            .map(|motion| motion.bone.to_text())
            .collect();
        assert_eq!(translated, ["ROOT", "PELVIS"], "{file}");
        for frame in 0..frames(&sims1, file) {
            let posed = joints(&sims1, Some(file), frame);
            for name in rest.keys().filter(|name| !translated.contains(name)) {
                if let (Some(at_rest), Some(now)) = (length(&rest, name), length(&posed, name)) {
                    assert!(
                        (at_rest - now).abs() < 1e-4,
                        "{file} frame {frame}: {name} is {now} from its parent, {at_rest} at rest"
                    );
                }
            }
            let height = |name: &str| posed[name].position[1];
            assert!(
                height("HEAD") > height("PELVIS") + 1.5,
                "{file} frame {frame}: head at {}, pelvis at {}",
                height("HEAD"),
                height("PELVIS")
            );
            let lowest = posed
                .iter()
                .filter(|(name, _)| name.contains("FOOT") || name.contains("TOE"))
                .map(|(_, joint)| joint.position[1])
                .fold(f64::INFINITY, f64::min);
            assert!(
                lowest.abs() < 0.05,
                "{file} frame {frame}: the lowest foot joint is at {lowest}"
            );
        }
    }
}

#[test]
fn the_first_frame_of_the_real_idle_is_close_to_the_rest_pose() {
    let Some(sims1) = sims1() else {
        return;
    };
    let rest = joints(&sims1, None, 0);
    let first = joints(&sims1, Some(IDLE), 0);
    for (name, joint) in &rest {
        let moved = distance(joint.position, first[name].position);
        // The figure is 5.3 units tall.
        assert!(moved < 0.1, "{name} moved {moved}");
    }
}

/// Half the loop (9 of its 18 frames) apart, the feet have swapped places:
/// the one ahead is behind, each a unit or more from where it was (the
/// figure is 5.3 units tall).
#[test]
fn the_real_walk_moves_its_legs() {
    let Some(sims1) = sims1() else {
        return;
    };
    let feet = |frame| {
        let joints = joints(&sims1, Some(WALK), frame);
        (joints["L_FOOT"].position, joints["R_FOOT"].position)
    };
    let ahead = |(left, right): ([f64; 3], [f64; 3])| left[2] - right[2];
    for (first, second) in [(1, 10), (3, 12), (5, 14)] {
        let (one, other) = (feet(first), feet(second));
        assert!(
            distance(one.0, other.0) > 1.0 && distance(one.1, other.1) > 1.0,
            "frames {first} and {second}: {one:?} vs {other:?}"
        );
        assert!(
            ahead(one) * ahead(other) < 0.0 && ahead(one).abs() > 1.0 && ahead(other).abs() > 1.0,
            "frames {first} and {second}: {one:?} vs {other:?}"
        );
    }
}

/// The command of the "done when": the suit's body found by name
/// beside it, posed at frame 10 of the walk.
#[test]
fn a_dressed_sim_walks_in_a_render() {
    let Some(sims1) = sims1() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("walk.png");
    let output = ossuary(&[
        "render",
        &text(&sims1.join("adult-skeleton.cmx")),
        &text(&sims1.join("B001FAFat_01.cmx")),
        "--anim",
        &text(&sims1.join(WALK)),
        "--frame",
        "10",
        "-o",
        &text(&png),
    ]);
    assert_status(&output, 0);
    let image = tiny_skia::Pixmap::load_png(&png).unwrap();
    assert!(image.width() > 0 && image.height() > 0);
}

#[test]
fn info_shows_a_skills_motions_frames_and_duration_and_a_suits_skins() {
    let output = ossuary(&["info", &fixture("humanoid.cmx")]);
    assert_status(&output, 0);
    let summary = stdout(&output);
    assert!(
        summary.contains("  suit: humanoid-arm: xskin-humanoid-L_ARM-ARM (on L_ARM)\n"),
        "{summary}"
    );
    assert!(
        summary.contains(
            "  skill: humanoid-wave: 2 frames over 1000 ms, data xskill-humanoid-wave.cfp, \
             1 motions: L_ARM (rotation)\n"
        ),
        "{summary}"
    );
    let output = ossuary(&["info", &fixture("xskill-humanoid-wave.cfp")]);
    assert_status(&output, 0);
    assert!(
        stdout(&output).contains("  values: 8\n"),
        "{}",
        stdout(&output)
    );
}

/// The sample humanoid in a folder of its own, with its skill's data and
/// its suit's skin under names in another case.
fn humanoid_elsewhere(dir: &Path, skin: Option<&str>, cfp: Option<&str>) -> String {
    let copy = |from: &str, to: &str| {
        std::fs::copy(tests::fixtures_dir().join(from), dir.join(to)).unwrap();
    };
    copy("humanoid.cmx", "humanoid.cmx");
    if let Some(name) = skin {
        copy("xskin-humanoid-L_ARM-ARM.skn", name);
    }
    if let Some(name) = cfp {
        copy("xskill-humanoid-wave.cfp", name);
    }
    text(&dir.join("humanoid.cmx"))
}

#[test]
fn skills_and_suits_find_their_files_without_regard_to_case() {
    let dir = tempfile::tempdir().unwrap();
    let humanoid = humanoid_elsewhere(
        dir.path(),
        Some("XSKIN-Humanoid-l_arm-arm.SKN"),
        Some("XSKILL-HUMANOID-WAVE.Cfp"),
    );
    let hand = |frame: &str| {
        let output = ossuary(&["joints", &humanoid, "--anim", &humanoid, "--frame", frame]);
        assert_status(&output, 0);
        let joints: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let hand = joints
            .as_array()
            .unwrap()
            .iter()
            .find(|joint| joint["name"] == "L_HAND")
            .unwrap()
            .clone();
        [0, 1, 2].map(|axis| hand["position"][axis].as_f64().unwrap())
    };
    // At rest the hand hangs 1.2 below the shoulder (0.45, 4.7, 0); the
    // wave raises the arm a quarter turn, out to +x.
    let (down, raised) = (hand("0"), hand("1"));
    assert!(distance(down, [0.45, 3.5, 0.0]) < 1e-5, "{down:?}");
    assert!(distance(raised, [1.65, 4.7, 0.0]) < 1e-5, "{raised:?}");
    let obj = text(&dir.path().join("arm.obj"));
    let output = ossuary(&[
        "skin", &humanoid, "--anim", &humanoid, "--frame", "1", "-o", &obj,
    ]);
    assert_status(&output, 0);
}

#[test]
fn a_missing_skin_or_skill_data_is_an_error_naming_the_files_looked_for() {
    let dir = tempfile::tempdir().unwrap();
    let humanoid = humanoid_elsewhere(dir.path(), None, None);
    let obj = text(&dir.path().join("arm.obj"));
    let output = ossuary(&["skin", &humanoid, "-o", &obj]);
    assert_status(&output, 1);
    let skin = dir.path().join("xskin-humanoid-L_ARM-ARM");
    assert_eq!(
        stderr(&output),
        format!(
            "ossuary: {humanoid}: cannot find the skin \"xskin-humanoid-L_ARM-ARM\" of suit \
             \"humanoid-arm\"; looked for {}.skn, {}.bmf, {}.msh\n",
            skin.display(),
            skin.display(),
            skin.display()
        )
    );
    let output = ossuary(&["joints", &humanoid, "--anim", &humanoid]);
    assert_status(&output, 1);
    assert_eq!(
        stderr(&output),
        format!(
            "ossuary: {humanoid}: cannot find the animation data of skill \"humanoid-wave\"; \
             looked for {}, {}\n",
            dir.path().join("xskill-humanoid-wave.cfp").display(),
            dir.path().join("xskill-humanoid-wave.bin").display()
        )
    );
}

#[test]
fn skill_data_that_disagrees_with_the_skills_counts_is_an_error_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let humanoid = humanoid_elsewhere(dir.path(), None, Some("xskill-humanoid-wave.cfp"));
    // One more full value at the end.
    let cfp = dir.path().join("xskill-humanoid-wave.cfp");
    let mut bytes = std::fs::read(&cfp).unwrap();
    bytes.extend([0xFF, 0, 0, 0, 0]);
    std::fs::write(&cfp, bytes).unwrap();
    let output = ossuary(&["joints", &humanoid, "--anim", &humanoid]);
    assert_status(&output, 1);
    assert_eq!(
        stderr(&output),
        format!(
            "ossuary: {humanoid}: {}: the tokens stand for 9 values, but the skill's counts \
             need 8 (3 × 0 translations + 4 × 2 rotations)\n",
            cfp.display()
        )
    );
}

#[test]
fn a_motion_naming_a_bone_the_skeleton_lacks_is_a_clear_error() {
    let Some(sims1) = sims1() else {
        return;
    };
    let walk = text(&sims1.join(WALK));
    let output = ossuary(&["joints", &fixture("humanoid.cmx"), "--anim", &walk]);
    assert_status(&output, 1);
    assert_eq!(
        stderr(&output),
        format!(
            "ossuary: {walk}: the animation moves joint \"R_LEG1\", which the skeleton does not have\n"
        )
    );
}

/// A `.cfp` has no header: under another name it needs `--format`, and
/// its reader, which takes almost any bytes, is not suggested for files
/// of unknown format.
#[test]
fn a_cfp_under_another_name_needs_its_format_named() {
    let dir = tempfile::tempdir().unwrap();
    let renamed = support::write(
        dir.path(),
        "wave.dat",
        &support::fixture_bytes("xskill-humanoid-wave.cfp"),
    );
    let output = ossuary(&["check", &renamed]);
    assert_status(&output, 1);
    assert!(!stderr(&output).contains("sims-cfp"), "{}", stderr(&output));
    let output = ossuary(&["check", &renamed, "--format", "sims-cfp"]);
    assert_status(&output, 0);
}

/// A `.bcf` holds the same skills and suits as its `.cmx` twin and finds
/// the same files.
#[test]
fn a_bcf_poses_and_dresses_as_its_cmx_twin_does() {
    let dir = tempfile::tempdir().unwrap();
    let mut results = Vec::new();
    for file in ["humanoid.cmx", "humanoid.bcf"] {
        let path = fixture(file);
        let output = ossuary(&["joints", &path, "--anim", &path, "--frame", "1"]);
        assert_status(&output, 0);
        let obj = text(&dir.path().join(format!("{file}.obj")));
        assert_status(&ossuary(&["skin", &path, "-o", &obj]), 0);
        let mesh = std::fs::read_to_string(&obj).unwrap();
        let vertices: Vec<&str> = mesh.lines().filter(|line| line.starts_with("v ")).collect();
        results.push((stdout(&output), vertices.join("\n")));
    }
    assert_eq!(results[0], results[1]);
    assert!(!results[0].1.is_empty());
}

/// The humanoid's character file with a second skill whose keys are in no
/// file, written into `dir` with its arm and the wave's keys beside it.
fn humanoid_with_a_skill_without_keys(dir: &Path) -> String {
    let mut humanoid = cmx(Path::new(&fixture("humanoid.cmx")));
    let mut lost = humanoid.skills[0].clone();
    lost.name = "humanoid-lost".into();
    lost.animation = "xskill-humanoid-lost".into();
    humanoid.skills.push(lost);
    for beside in ["xskill-humanoid-wave.cfp", "xskin-humanoid-L_ARM-ARM.skn"] {
        std::fs::write(dir.join(beside), std::fs::read(fixture(beside)).unwrap()).unwrap();
    }
    let path = dir.join("humanoid.cmx");
    std::fs::write(&path, humanoid.to_text().unwrap()).unwrap();
    text(&path)
}

/// glTF animations of an exported asset, by name.
fn gltf_animations(path: &Path) -> Vec<String> {
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    json["animations"]
        .as_array()
        .map(|animations| {
            animations
                .iter()
                .map(|animation| animation["name"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn convert_leaves_out_a_skill_without_keys_with_one_warning_or_takes_the_skills_named() {
    let dir = tempfile::tempdir().unwrap();
    let character = humanoid_with_a_skill_without_keys(dir.path());
    let out = dir.path().join("humanoid.gltf");
    let out_text = text(&out);

    // Every skill whose keys are found; the other named once, with the
    // files looked for.
    let output = ossuary(&["convert", &character, "--anim", &character, "-o", &out_text]);
    assert_status(&output, 0);
    let warnings = stderr(&output);
    assert_eq!(warnings.lines().count(), 1, "{warnings}");
    assert!(
        warnings.contains("\"humanoid-lost\" left out")
            && warnings.contains("xskill-humanoid-lost.cfp")
            && warnings.contains("xskill-humanoid-lost.bin"),
        "{warnings}"
    );
    assert_eq!(gltf_animations(&out), ["humanoid-wave"]);

    // --skill takes the skills named, and only their keys are needed.
    let output = ossuary(&[
        "convert",
        &character,
        "--anim",
        &character,
        "--skill",
        "humanoid-wave",
        "-o",
        &out_text,
    ]);
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    assert_eq!(gltf_animations(&out), ["humanoid-wave"]);

    // A skill named whose keys are missing is an error; so is a name no
    // file has, which lists the names there are.
    let output = ossuary(&[
        "convert",
        &character,
        "--anim",
        &character,
        "--skill",
        "humanoid-lost",
        "-o",
        &out_text,
    ]);
    assert_status(&output, 1);
    assert!(
        stderr(&output).contains("xskill-humanoid-lost.cfp"),
        "{}",
        stderr(&output)
    );
    let output = ossuary(&[
        "convert", &character, "--anim", &character, "--skill", "nothing", "-o", &out_text,
    ]);
    assert_status(&output, 2);
    assert!(
        stderr(&output).contains("humanoid-wave, humanoid-lost"),
        "{}",
        stderr(&output)
    );

    // joints needs only the chosen skill's keys.
    let output = ossuary(&[
        "joints",
        &character,
        "--anim",
        &character,
        "--skill",
        "humanoid-wave",
    ]);
    assert_status(&output, 0);
}

/// A suit named by its bare file name, from its own folder, is dressed as
/// when named by path: its tone's image beside it is found (the folder of
/// a bare name is the current one), with no warning.
#[test]
fn a_suit_named_from_its_own_folder_is_dressed() {
    let Some(sims1) = sims1() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let gltf = dir.path().join("fat.gltf");
    let output = support::command(&sims1)
        .args([
            "convert",
            "adult-skeleton.cmx",
            "B001FAFat_01.cmx",
            "-o",
            &text(&gltf),
        ])
        .output()
        .unwrap();
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    let (json, _) = support::gltf_parts(&gltf);
    assert_eq!(json["images"].as_array().map(Vec::len), Some(1));
}
