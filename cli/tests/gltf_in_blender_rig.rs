//! A rig built in Blender 4.2 with the Sims humanoid's bone names and joint
//! places, its bones pointing from head to child as anyone builds one (the
//! game's are turned otherwise), a hat on HEAD and a sleeve blending two
//! bones, keyed, exported with Blender's defaults
//! (`export/tests/blender/make_fixtures.py`): converted with `--skeleton`,
//! every joint and vertex lands where Blender had it, at rest and at each
//! keyed frame, within 1e-3 of the figure's height. (peers/ts1_rig.py
//! checks the same files in ts1-blender-io.)

mod support;

use std::path::{Path, PathBuf};

use formats::sims::cmx::Cmx;
use support::{assert_status, fixture, ossuary, stderr, text};

fn blender_fixture(name: &str) -> PathBuf {
    tests::workspace_root()
        .join("export/tests/fixtures")
        .join(name)
}

type Point = [f64; 3];

fn point(value: &serde_json::Value) -> Point {
    let numbers: Vec<f64> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_f64().unwrap())
        .collect();
    [numbers[0], numbers[1], numbers[2]]
}

fn distance(a: Point, b: Point) -> f64 {
    a.iter()
        .zip(&b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}

/// The skin's vertices as `ossuary skin` poses them (the file's axes).
fn skinned(dir: &Path, skin: &Path, skeleton: &Path, frame: Option<(&Path, &str)>) -> Vec<Point> {
    let obj = dir.join("posed.obj");
    let mut args = vec![
        "skin".to_owned(),
        text(skin),
        "--skeleton".to_owned(),
        text(skeleton),
    ];
    if let Some((anim, frame)) = frame {
        args.extend([
            "--anim".to_owned(),
            text(anim),
            "--frame".to_owned(),
            frame.to_owned(),
        ]);
    }
    args.extend(["-o".to_owned(), text(&obj)]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_status(&ossuary(&args), 0);
    std::fs::read_to_string(&obj)
        .unwrap()
        .lines()
        .filter_map(|line| line.strip_prefix("v "))
        .map(|numbers| {
            let numbers: Vec<f64> = numbers
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
            [numbers[0], numbers[1], numbers[2]]
        })
        .collect()
}

/// Each joint's place as `ossuary joints` poses it.
fn joints(skeleton: &Path, frame: Option<(&Path, &str)>) -> Vec<(String, Point)> {
    let mut args = vec!["joints".to_owned(), text(skeleton)];
    if let Some((anim, frame)) = frame {
        args.extend([
            "--anim".to_owned(),
            text(anim),
            "--frame".to_owned(),
            frame.to_owned(),
        ]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = ossuary(&args);
    assert_status(&output, 0);
    let joints: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    joints
        .iter()
        .map(|joint| {
            (
                joint["name"].as_str().unwrap().to_owned(),
                point(&joint["position"]),
            )
        })
        .collect()
}

/// The furthest any joint and any vertex (from the nearest vertex shown)
/// lies from where Blender showed it, at rest and at each recorded frame,
/// for the files `convert` wrote in `out` posed on `skeleton`.
fn furthest(dir: &Path, out: &Path, skeleton: &Path, poses: &serde_json::Value) -> (f64, f64) {
    let anim = out.join("adult-wave2.cmx");
    let mut cases: Vec<(&serde_json::Value, Option<(&Path, &str)>)> = vec![(&poses["rest"], None)];
    for (frame, pose) in poses["frames"].as_object().unwrap() {
        cases.push((pose, Some((anim.as_path(), frame.as_str()))));
    }
    let (mut joint_worst, mut vertex_worst) = (0.0f64, 0.0f64);
    for (pose, frame) in cases {
        for (name, place) in joints(skeleton, frame) {
            joint_worst = joint_worst.max(distance(place, point(&pose["joints"][&name])));
        }
        for (mesh, skin) in [
            ("hat", "xskin-hat-HEAD-HAT"),
            ("sleeve", "xskin-sleeve-L_ARM-SLEEVE"),
        ] {
            let shown = skinned(dir, &out.join(format!("{skin}.skn")), skeleton, frame);
            vertex_worst = vertex_worst.max(furthest_vertex(&shown, &pose["vertices"][mesh]));
        }
    }
    (joint_worst, vertex_worst)
}

/// How far the furthest of the `expected` vertices lies from the nearest
/// of those `shown`.
fn furthest_vertex(shown: &[Point], expected: &serde_json::Value) -> f64 {
    expected
        .as_array()
        .unwrap()
        .iter()
        .map(|vertex| {
            shown
                .iter()
                .map(|candidate| distance(*candidate, point(vertex)))
                .fold(f64::INFINITY, f64::min)
        })
        .fold(0.0, f64::max)
}

fn poses(name: &str) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(blender_fixture(&format!("{name}.poses.json"))).unwrap())
        .unwrap()
}

/// The figure's height: the span of its joints at rest.
fn height(poses: &serde_json::Value) -> f64 {
    let heights: Vec<f64> = poses["rest"]["joints"]
        .as_object()
        .unwrap()
        .values()
        .map(|place| point(place)[1])
        .collect();
    heights.iter().copied().fold(f64::MIN, f64::max)
        - heights.iter().copied().fold(f64::MAX, f64::min)
}

fn convert(glb: &Path, skeleton: &[&str], out: &Path) -> std::process::Output {
    let mut args = vec!["convert", glb.to_str().unwrap(), "--to", "sims-cmx"];
    args.extend_from_slice(skeleton);
    let out = text(out);
    args.extend(["-o", &out]);
    ossuary(&args)
}

#[test]
fn a_rig_built_in_blender_comes_back_where_blender_had_it() {
    let dir = tempfile::tempdir().unwrap();
    assert_rig_lands_where_blender_had_it(dir.path(), Path::new(&fixture("humanoid.cmx")));
}

/// The rig converted with `--skeleton skeleton` (whose joints rest where
/// the rig's do): no joint said to rest elsewhere, and every joint and
/// vertex within 1e-3 of the figure's height of where Blender had them.
fn assert_rig_lands_where_blender_had_it(dir: &Path, skeleton: &Path) {
    let out = dir.join("out");
    let glb = blender_fixture("humanoid-rig-made-in-blender.glb");
    let output = convert(&glb, &["--skeleton", &text(skeleton)], &out);
    assert_status(&output, 0);
    assert!(
        !stderr(&output).contains("do not rest"),
        "{}",
        stderr(&output)
    );
    assert_lands_where_blender_had_it(
        dir,
        &out,
        skeleton,
        &poses("humanoid-rig-made-in-blender.glb"),
    );
}

/// Every joint and vertex of the files in `out`, posed on `skeleton`,
/// within 1e-3 of the figure's height of where Blender had them.
fn assert_lands_where_blender_had_it(
    dir: &Path,
    out: &Path,
    skeleton: &Path,
    poses: &serde_json::Value,
) {
    let (joint, vertex) = furthest(dir, out, skeleton, poses);
    let within = 1e-3 * height(poses);
    assert!(
        joint <= within && vertex <= within,
        "joints {joint}, vertices {vertex}"
    );
}

/// The humanoid's skeleton with every joint turned in place (its frames
/// turned, its joints where they were), as the game's are turned unlike
/// the humanoid's: the rig's meshes and action still land where Blender
/// had them, through the difference of the two rests.
#[test]
fn a_rig_comes_back_onto_a_skeleton_whose_joints_are_turned_otherwise() {
    use glam::{Quat, Vec3};
    let dir = tempfile::tempdir().unwrap();
    let mut file = Cmx::from_text(&std::fs::read(fixture("humanoid.cmx")).unwrap()).unwrap();
    file.suits.clear();
    file.skills.clear();
    let bones = &mut file.skeletons[0].bones;
    // Model turns and places at rest (the humanoid's stored turns are the
    // identity: its places are its translations summed).
    let mut places: Vec<Vec3> = Vec::new();
    let mut turns: Vec<Quat> = Vec::new();
    for (index, bone) in bones.iter().enumerate() {
        let parent = bones[..index]
            .iter()
            .position(|other| other.name == bone.parent);
        let place =
            parent.map_or(Vec3::ZERO, |parent| places[parent]) + Vec3::from_array(bone.translation);
        places.push(place);
        // A turn of its own for each joint.
        turns.push(Quat::from_euler(
            glam::EulerRot::XYZ,
            0.3 * index as f32,
            0.7,
            -0.2 * index as f32,
        ));
    }
    for (index, bone) in bones.iter_mut().enumerate() {
        let parent = file_parent(&places, &turns, index, &bone.parent.to_text());
        let (parent_place, parent_turn) = parent;
        let local_turn = parent_turn.inverse() * turns[index];
        bone.translation = (parent_turn.inverse() * (places[index] - parent_place)).to_array();
        // Stored as the Sims store a turn: its conjugate.
        bone.rotation = local_turn.conjugate().to_array();
    }
    fn file_parent(places: &[Vec3], turns: &[Quat], index: usize, parent: &str) -> (Vec3, Quat) {
        let names = [
            "ROOT", "PELVIS", "SPINE", "HEAD", "L_ARM", "L_HAND", "R_ARM", "R_HAND", "L_LEG",
            "L_FOOT", "R_LEG", "R_FOOT",
        ];
        match names[..index].iter().position(|name| *name == parent) {
            Some(parent) => (places[parent], turns[parent]),
            None => (Vec3::ZERO, Quat::IDENTITY),
        }
    }
    let skeleton = dir.path().join("turned.cmx");
    std::fs::write(&skeleton, file.to_text().unwrap()).unwrap();
    // Its joints are the humanoid's.
    let humanoid = joints(Path::new(&fixture("humanoid.cmx")), None);
    for ((name, a), (_, b)) in humanoid.iter().zip(joints(&skeleton, None)) {
        assert!(distance(*a, b) < 1e-5, "{name}");
    }
    assert_rig_lands_where_blender_had_it(dir.path(), &skeleton);
}

/// The armature object scaled by 1.2 and the hat's object moved, neither
/// applied: both are applied as glTF gives them. On the humanoid's
/// skeleton every joint rests elsewhere: one warning names the first few;
/// the meshes stand where Blender showed them. With `--write-skeleton` the
/// new skeleton is the rig's: everything lands where Blender had it.
#[test]
fn an_unapplied_armature_scale_is_applied_never_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let glb = blender_fixture("humanoid-rig-scaled-in-blender.glb");
    let poses = poses("humanoid-rig-scaled-in-blender.glb");
    let within = 1e-3 * height(&poses);
    let out = dir.path().join("on-humanoid");
    let output = convert(&glb, &["--skeleton", &fixture("humanoid.cmx")], &out);
    assert_status(&output, 0);
    let warnings = stderr(&output);
    assert_eq!(
        warnings
            .matches("do not rest where the skeleton has them")
            .count(),
        1,
        "{warnings}"
    );
    assert!(
        warnings
            .contains("12 of its joints (\"ROOT\", \"PELVIS\", \"SPINE\", \"HEAD\", and 8 more)"),
        "{warnings}"
    );
    for (mesh, skin) in [
        ("hat", "xskin-hat-HEAD-HAT"),
        ("sleeve", "xskin-sleeve-L_ARM-SLEEVE"),
    ] {
        let shown = skinned(
            dir.path(),
            &out.join(format!("{skin}.skn")),
            Path::new(&fixture("humanoid.cmx")),
            None,
        );
        let furthest = furthest_vertex(&shown, &poses["rest"]["vertices"][mesh]);
        assert!(furthest <= within, "{mesh}: {furthest}");
    }
    let out = dir.path().join("own");
    let output = convert(&glb, &["--write-skeleton"], &out);
    assert_status(&output, 0);
    assert_lands_where_blender_had_it(dir.path(), &out, &out.join("adult-skeleton.cmx"), &poses);
}

/// A rig whose one joint rests elsewhere than the skeleton's gets one
/// warning naming it and the distance.
#[test]
fn a_joint_resting_elsewhere_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let glb = std::fs::read(blender_fixture("humanoid-rig-made-in-blender.glb")).unwrap();
    let json_length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let mut json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_length]).unwrap();
    let head = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .position(|node| node["name"] == "HEAD")
        .unwrap();
    let translation = json["nodes"][head]["translation"].clone();
    let mut moved: Vec<f64> = translation
        .as_array()
        .map(|t| t.iter().map(|n| n.as_f64().unwrap()).collect())
        .unwrap_or(vec![0.0; 3]);
    moved[1] += 0.25;
    json["nodes"][head]["translation"] = serde_json::json!(moved);
    let mut text_json = serde_json::to_vec(&json).unwrap();
    while text_json.len() % 4 != 0 {
        text_json.push(b' ');
    }
    let rest = &glb[20 + json_length..];
    let mut out_glb = Vec::new();
    out_glb.extend_from_slice(&glb[..8]);
    out_glb.extend_from_slice(&((12 + 8 + text_json.len() + rest.len()) as u32).to_le_bytes());
    out_glb.extend_from_slice(&(text_json.len() as u32).to_le_bytes());
    out_glb.extend_from_slice(b"JSON");
    out_glb.extend_from_slice(&text_json);
    out_glb.extend_from_slice(rest);
    let path = dir.path().join("moved.glb");
    std::fs::write(&path, out_glb).unwrap();
    let output = convert(
        &path,
        &["--skeleton", &fixture("humanoid.cmx")],
        &dir.path().join("out"),
    );
    assert_status(&output, 0);
    let warnings = stderr(&output);
    assert_eq!(
        warnings
            .matches("do not rest where the skeleton has them")
            .count(),
        1,
        "{warnings}"
    );
    assert!(
        warnings.contains("1 of its joints (\"HEAD\")"),
        "{warnings}"
    );
    assert!(warnings.contains("up to 0.25"), "{warnings}");
}

/// The same dress and action on the armature ts1-blender-io's importer
/// makes of the humanoid's skeleton (a third of the game's size, its axes
/// turned half a turn about the vertical from glTF's): its joints rest
/// where the skeleton's do once scaled and turned, so the rig is brought
/// onto the skeleton, one warning saying so, and lands where Blender had it.
#[test]
fn a_rig_of_ts1_blender_io_is_brought_onto_the_skeleton() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let glb = blender_fixture("humanoid-rig-of-ts1-blender-io.glb");
    let skeleton = PathBuf::from(fixture("humanoid.cmx"));
    let output = convert(&glb, &["--skeleton", &text(&skeleton)], &out);
    assert_status(&output, 0);
    let warnings = stderr(&output);
    assert!(
        warnings.contains(
            "its joints rest where the skeleton's do once scaled by 3 and turned by 180 degrees"
        ),
        "{warnings}"
    );
    assert!(!warnings.contains("do not rest"), "{warnings}");
    assert_lands_where_blender_had_it(
        dir.path(),
        &out,
        &skeleton,
        &poses("humanoid-rig-of-ts1-blender-io.glb"),
    );
}
