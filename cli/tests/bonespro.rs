//! BonesPro through the binary. One random motion of a random bone tree is
//! written by this test (plain f64 math and format strings, nothing from
//! the crates under test) as every export the specification allows; every
//! `Bones` version must give the same joints and every version the same
//! deformed mesh, equal to the independent implementation's. Then damaged
//! files, animations that cannot pose alone, and dump/encode.

mod independent;
mod support;

use std::fmt::Write as _;
use std::path::Path;

use independent::bonespro::{
    euler_angles, quaternion_rotation, skin, worlds_from_relative, Rotation, Row4,
};
use support::{assert_status, ossuary, stderr, stdout, Numbers};

impl Numbers {
    fn rotation(&mut self) -> Rotation {
        let q = [self.unit(), self.unit(), self.unit(), self.unit()];
        let norm = q.iter().map(|c| c * c).sum::<f64>().sqrt().max(1e-3);
        quaternion_rotation(q.map(|c| c / norm))
    }

    fn transform(&mut self) -> Row4 {
        Row4 {
            rotation: self.rotation(),
            translation: [self.unit(), self.unit(), self.unit()],
        }
    }
}

/// A bone tree with a mesh on it, and a motion: each bone's relative
/// transform at each frame.
struct Scene {
    names: Vec<String>,
    parents: Vec<Option<usize>>,
    /// Bone transforms (world) when the mesh was attached.
    rest: Vec<Row4>,
    positions: Vec<[f64; 3]>,
    influences: Vec<Vec<(usize, f64)>>,
    frames: Vec<Vec<Row4>>,
}

const BONES: usize = 9;
const VERTICES: usize = 24;
const FRAMES: usize = 3;
const FIRST_FRAME: i32 = 10;
const STEP: i32 = 5;

/// Bones made one at a time, each under a random earlier one (two roots),
/// then listed in a random order, so parents may come after children.
fn random_scene(seed: u64) -> Scene {
    let mut numbers = Numbers(seed);
    let made_parents: Vec<Option<usize>> = (0..BONES)
        .map(|made| match made {
            0 | 1 => None,
            _ => Some(numbers.below(made)),
        })
        .collect();
    let mut order: Vec<usize> = (0..BONES).collect();
    for last in (1..BONES).rev() {
        order.swap(last, numbers.below(last + 1));
    }
    let listed_at = |made: usize| order.iter().position(|&listed| listed == made).unwrap();
    let parents = order
        .iter()
        .map(|&made| made_parents[made].map(listed_at))
        .collect();
    let influences = (0..VERTICES)
        .map(|_| {
            let count = 1 + numbers.below(4);
            let mut bones: Vec<usize> = Vec::new();
            while bones.len() < count {
                let bone = numbers.below(BONES);
                if !bones.contains(&bone) {
                    bones.push(bone);
                }
            }
            let raw: Vec<f64> = bones.iter().map(|_| 0.1 + numbers.unit().abs()).collect();
            let total: f64 = raw.iter().sum();
            bones
                .into_iter()
                .zip(raw)
                .map(|(bone, weight)| (bone, weight / total))
                .collect()
        })
        .collect();
    Scene {
        names: (0..BONES)
            .map(|bone| format!("Bip01 Bone {bone}"))
            .collect(),
        parents,
        rest: (0..BONES).map(|_| numbers.transform()).collect(),
        positions: (0..VERTICES)
            .map(|_| [numbers.unit(), numbers.unit(), numbers.unit()])
            .collect(),
        influences,
        frames: (0..FRAMES)
            .map(|_| (0..BONES).map(|_| numbers.transform()).collect())
            .collect(),
    }
}

impl Scene {
    fn worlds(&self, frame: usize) -> Vec<Row4> {
        worlds_from_relative(&self.frames[frame], &self.parents)
    }
}

fn numbers_line(values: [f64; 3]) -> String {
    format!("{} {} {}", values[0], values[1], values[2])
}

fn matrix_lines(transform: &Row4) -> String {
    let rows = transform.rotation.iter().chain([&transform.translation]);
    rows.map(|row| numbers_line(*row) + "\n").collect()
}

/// The structure file, with comments where BonesPro's examples put them.
fn structure_text(scene: &Scene) -> String {
    let mut text =
        format!("// BonesPro structure export\n{BONES}\t// bones\n{VERTICES}\t// vertices\n");
    for (bone, name) in scene.names.iter().enumerate() {
        let parent = scene.parents[bone].map_or("*".to_owned(), |parent| parent.to_string());
        let _ = write!(text, "<{name}>   // bone {bone}\n{parent}\n0.1 0.2 0.3\n");
        // The node transform is data: the bone's again.
        text += &matrix_lines(&scene.rest[bone]);
        text += &matrix_lines(&scene.rest[bone]);
    }
    for (position, influences) in scene.positions.iter().zip(&scene.influences) {
        let _ = writeln!(text, "{}\n{}", numbers_line(*position), influences.len());
        for (bone, weight) in influences {
            let _ = writeln!(text, "{bone} {weight}");
        }
    }
    text
}

const ORDERS: [(&str, [usize; 3]); 9] = [
    ("XYZ", [0, 1, 2]),
    ("XZY", [0, 2, 1]),
    ("YZX", [1, 2, 0]),
    ("YXZ", [1, 0, 2]),
    ("ZXY", [2, 0, 1]),
    ("ZYX", [2, 1, 0]),
    ("XYX", [0, 1, 0]),
    ("YZY", [1, 2, 1]),
    ("ZXZ", [2, 0, 2]),
];

/// How a `Bones` export writes its transforms.
#[derive(Debug, Clone, Copy)]
enum Written {
    Matrix,
    /// An order's name and axes, and whether in degrees.
    Euler(&'static str, [usize; 3], bool),
}

/// An animation header, quoted as BonesPro writes it, with CRLF endings.
fn header(mode: &str, system: &str, written: Written) -> String {
    let (representation, order, units) = match written {
        Written::Matrix => ("Matrix", "XYZ", "Degrees"),
        Written::Euler(order, _, true) => ("Euler Angles", order, "Degrees"),
        Written::Euler(order, _, false) => ("Euler Angles", order, "Radians"),
    };
    let last = FIRST_FRAME + (FRAMES as i32 - 1) * STEP;
    [
        BONES.to_string(),
        VERTICES.to_string(),
        FRAMES.to_string(),
        format!("\"{mode}\""),
        format!("\"{system}\""),
        format!("\"{representation}\""),
        format!("\"{order}\""),
        format!("\"{units}\""),
        FIRST_FRAME.to_string(),
        last.to_string(),
        STEP.to_string(),
    ]
    .iter()
    .map(|line| format!("{line}\r\n"))
    .collect()
}

fn transform_lines(transform: &Row4, written: Written) -> String {
    match written {
        Written::Matrix => matrix_lines(transform),
        Written::Euler(_, order, degrees) => {
            let angles = euler_angles(order, &transform.rotation).map(|angle| {
                if degrees {
                    angle.to_degrees()
                } else {
                    angle
                }
            });
            format!(
                "{}\n{}\n",
                numbers_line(angles),
                numbers_line(transform.translation)
            )
        }
    }
}

/// A `Bones` export of the scene's motion, absolute or relative.
fn bones_text(scene: &Scene, absolute: bool, written: Written) -> String {
    let system = if absolute {
        "Absolute"
    } else {
        "Relative to parent"
    };
    let mut text = header("Bones", system, written).replace("\r\n", "\n");
    for frame in 0..FRAMES {
        let transforms = if absolute {
            scene.worlds(frame)
        } else {
            scene.frames[frame].clone()
        };
        for transform in &transforms {
            text += "0.1 0.2 0.3\n";
            text += &transform_lines(transform, written);
            text += &transform_lines(transform, written);
        }
    }
    text
}

/// The deformed mesh at each frame, by the independent implementation.
fn deformed(scene: &Scene, frame: usize) -> Vec<[f64; 3]> {
    skin(
        &scene.positions,
        &scene.influences,
        &scene.rest,
        &scene.worlds(frame),
    )
}

/// The `Mesh (absolute)` export: the deformed positions themselves.
fn mesh_text(scene: &Scene) -> String {
    let mut text = header("Mesh (absolute)", "Absolute", Written::Matrix);
    for frame in 0..FRAMES {
        for position in deformed(scene, frame) {
            text += &numbers_line(position);
            text += "\r\n";
        }
    }
    text
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn run(args: &[&str]) -> String {
    let output = ossuary(args);
    assert_status(&output, 0);
    stdout(&output)
}

fn assert_near(what: &str, found: &[[f64; 3]], expected: &[[f64; 3]]) {
    assert_eq!(found.len(), expected.len(), "{what}");
    for (index, (found, expected)) in found.iter().zip(expected).enumerate() {
        let off = (0..3)
            .map(|c| (found[c] - expected[c]).abs())
            .fold(0.0, f64::max);
        assert!(
            off < 1e-3,
            "{what}: point {index} is {found:?}, expected {expected:?}"
        );
    }
}

/// The `v` lines of an OBJ.
fn obj_vertices(obj: &str) -> Vec<[f64; 3]> {
    obj.lines()
        .filter_map(|line| line.strip_prefix("v "))
        .map(|rest| {
            let values: Vec<f64> = rest
                .split(' ')
                .map(|value| value.parse().unwrap())
                .collect();
            [values[0], values[1], values[2]]
        })
        .collect()
}

fn joint_positions(json: &str) -> Vec<[f64; 3]> {
    let joints: serde_json::Value = serde_json::from_str(json).unwrap();
    joints
        .as_array()
        .unwrap()
        .iter()
        .map(|joint| {
            let position = &joint["position"];
            [0, 1, 2].map(|c| position[c].as_f64().unwrap())
        })
        .collect()
}

#[test]
fn every_export_of_one_motion_poses_and_deforms_alike() {
    let dir = tempfile::tempdir().unwrap();
    let scene = random_scene(0x0B0E_5BE0);
    let structure = write(dir.path(), "structure.txt", &structure_text(&scene));

    let mut bones_exports = Vec::new();
    for absolute in [false, true] {
        let name = format!("matrix-{absolute}.txt");
        let text = bones_text(&scene, absolute, Written::Matrix);
        bones_exports.push(write(dir.path(), &name, &text));
        for (order_name, order) in ORDERS {
            for degrees in [true, false] {
                let name = format!("euler-{order_name}-{degrees}-{absolute}.txt");
                let written = Written::Euler(order_name, order, degrees);
                bones_exports.push(write(
                    dir.path(),
                    &name,
                    &bones_text(&scene, absolute, written),
                ));
            }
        }
    }
    let mesh = write(dir.path(), "mesh.txt", &mesh_text(&scene));

    for frame in 0..FRAMES {
        let frame_arg = frame.to_string();
        let joints: Vec<[f64; 3]> = scene
            .worlds(frame)
            .iter()
            .map(|world| world.translation)
            .collect();
        let positions = deformed(&scene, frame);
        for animation in &bones_exports {
            let posing = ["--anim", animation.as_str(), "--frame", &frame_arg];
            let found = joint_positions(&run(&[&["joints", &structure], &posing[..]].concat()));
            assert_near(
                &format!("joints of {animation} frame {frame}"),
                &found,
                &joints,
            );
            let obj = run(&[&["skin", &structure, "-o", "-"], &posing[..]].concat());
            assert_near(
                &format!("skin by {animation} frame {frame}"),
                &obj_vertices(&obj),
                &positions,
            );
        }
        let obj = run(&[
            "skin", &structure, "--anim", &mesh, "--frame", &frame_arg, "-o", "-",
        ]);
        assert_near(
            &format!("skin by {mesh} frame {frame}"),
            &obj_vertices(&obj),
            &positions,
        );
    }

    // At rest, the joints are where the bone transforms put them, and the
    // mesh is where the file put it.
    let rest: Vec<[f64; 3]> = scene.rest.iter().map(|bone| bone.translation).collect();
    assert_near(
        "joints at rest",
        &joint_positions(&run(&["joints", &structure])),
        &rest,
    );
    let obj = run(&["skin", &structure, "-o", "-"]);
    assert_near("skin at rest", &obj_vertices(&obj), &scene.positions);
}

fn fixture(name: &str) -> String {
    tests::fixtures_dir()
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The fixture with `from` replaced by `to` once, written to `dir`.
fn damaged(dir: &Path, name: &str, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    assert!(text.contains(from), "{name}: {from:?}");
    write(dir, name, &text.replacen(from, to, 1))
}

/// `ossuary info` on a damaged copy fails with exit 1 and this one sentence.
fn assert_refused(dir: &Path, name: &str, from: &str, to: &str, expected: &str) {
    let path = damaged(dir, name, from, to);
    let output = ossuary(&["info", &path]);
    assert_status(&output, 1);
    assert_eq!(
        stderr(&output),
        format!("ossuary: {path}: {expected}\n"),
        "{from:?} -> {to:?}"
    );
}

#[test]
fn malformed_structures_fail_with_line_column_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let structure = "bonespro-biped.txt";
    for (from, to, expected) in [
        (
            "<Bip01 Spine>\r\n0\r\n",
            "<Bip01 Spine>\r\n9\r\n",
            "line 15:1: bones[1]: parent 9 is not one of the 7 bones (0 to 6)",
        ),
        (
            "<Bip01 Pelvis>\r\n*\r\n",
            "<Bip01 Pelvis>\r\n2\r\n",
            "line 4:1: bones[0]: its parents loop back to it: bones 0 -> 2 -> 1 -> 0",
        ),
        (
            "8\t// vertices",
            "80\t// vertices",
            "line 81:1: vertices: count 80 needs at least 160 more lines but only 30 remain",
        ),
        (
            "2\r\n0 0.5\r\n3 0.5\r\n",
            "2\r\n0 0.5\r\n30 0.5\r\n",
            "line 81:1: vertices[0]: influence 1 names bone 30, but there are 7 bones",
        ),
        (
            "2\r\n0 0.5\r\n3 0.5\r\n",
            "2\r\n0 1.#QNAN\r\n3 0.5\r\n",
            "line 83:3: vertices[0].influences[0].weight: weight NaN is not a finite number",
        ),
        (
            "2\r\n0 0.5\r\n3 0.5\r\n",
            "2\r\n0 0.5\r\n3 -1.#INF\r\n",
            "line 84:3: vertices[0].influences[1].weight: weight -inf is not a finite number",
        ),
        (
            "<Bip01 L Thigh>",
            "<Bip01 L Thigh",
            "line 37:1: bones[3].name: the `<` has no closing `>` on its line",
        ),
    ] {
        assert_refused(dir.path(), structure, from, to, expected);
    }
}

#[test]
fn malformed_animations_fail_with_line_column_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let animation = "bonespro-walk-relative-matrix.txt";
    for (from, to, expected) in [
        (
            "\"Bones\"",
            "\"Skin\"",
            "line 5:1: mode: expected one of `Bones`, `Mesh (absolute)`, `Mesh (bones c.s)`, \
             found `\"Skin\"`",
        ),
        (
            "\"Relative to parent\"",
            "Relative",
            "line 6:1: system: expected one of `Absolute`, `Relative to parent`, found `Relative`",
        ),
        (
            "\"Matrix\"",
            "\"Quaternion\"",
            "line 7:1: representation: expected one of `Matrix`, `Euler Angles`, found \
             `\"Quaternion\"`",
        ),
        (
            "\"XYZ\"",
            "\"XXZ\"",
            "line 8:1: order: expected one of `XYZ`, `XZY`, `YZX`, `YXZ`, `ZXY`, `ZYX`, `XYX`, \
             `YZY`, `ZXZ`, found `\"XXZ\"`",
        ),
        (
            "\"Degrees\"",
            "\"Gradians\"",
            "line 9:1: units: expected one of `Degrees`, `Radians`, found `\"Gradians\"`",
        ),
        (
            "\r\n8\r\n3\r\n",
            "\r\n8\r\n4\r\n",
            "line 12:1: step: frames 0 to 20 by 10 make 3, but the frame count is 4",
        ),
        (
            "\r\n0\r\n20\r\n10\r\n",
            "\r\n0\r\n20\r\n0\r\n",
            "line 12:1: step: step 0 is not at least 1",
        ),
        (
            "\r\n7\r\n8\r\n3\r\n",
            "\r\n70\r\n8\r\n3\r\n",
            "line 13:1: frames[0].Bones.bones: count 70 needs at least 350 more lines but only \
             189 remain",
        ),
    ] {
        assert_refused(dir.path(), animation, from, to, expected);
    }
}

#[test]
fn animations_that_cannot_give_what_is_asked_are_refused() {
    let structure = fixture("bonespro-biped.txt");
    let bone_space = fixture("bonespro-walk-mesh-bones-cs.txt");
    for command in ["joints", "skin", "render"] {
        let mut args = vec![command, structure.as_str(), "--anim", bone_space.as_str()];
        if command != "joints" {
            args.extend(["-o", "-"]);
        }
        let output = ossuary(&args);
        assert_status(&output, 1);
        assert_eq!(
            stderr(&output),
            format!(
                "ossuary: {bone_space}: its frames pose nothing on their own: a `Bones` animation \
                 of the same frames (the bone transforms its vertices are given in) is needed\n"
            ),
            "{command}"
        );
    }

    let mesh = fixture("bonespro-walk-mesh-absolute.txt");
    let output = ossuary(&["joints", &structure, "--anim", &mesh]);
    assert_status(&output, 1);
    assert_eq!(
        stderr(&output),
        format!(
            "ossuary: {mesh}: the animation moves vertices, not bones, so it gives no joint \
             positions\n"
        )
    );

    let walk = fixture("bonespro-walk-relative-matrix.txt");
    let output = ossuary(&["joints", &structure, "--anim", &walk, "--frame", "3"]);
    assert_status(&output, 2);
    assert!(
        stderr(&output).contains("its animation has 3 frame(s), counted from 0"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn text_files_are_told_apart_by_content_and_format_forces() {
    let output = ossuary(&[
        "info",
        "--json",
        &fixture("bonespro-biped.txt"),
        &fixture("bonespro-walk-mesh-bones-cs.txt"),
    ]);
    assert_status(&output, 0);
    let formats: Vec<String> = stdout(&output)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|value| value["format"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(formats, ["bonespro-structure", "bonespro-animation"]);

    // Without content that shows it, `--format` says which it is.
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.txt", "0\r\n0\r\n");
    let output = ossuary(&["info", &empty]);
    assert_status(&output, 1);
    let output = ossuary(&["info", &empty, "--format", "bonespro-structure"]);
    assert_status(&output, 0);
    assert!(stdout(&output).contains("bones: 0"), "{}", stdout(&output));
}

#[test]
fn info_shows_the_bone_tree_and_the_animation_header() {
    let output = ossuary(&["info", &fixture("bonespro-biped.txt")]);
    assert_status(&output, 0);
    let text = stdout(&output);
    for expected in [
        "bones: 7",
        "vertices: 8",
        "Bip01 Pelvis",
        "├─ Bip01 L Thigh",
        "│  └─ Bip01 L Calf",
    ] {
        assert!(text.contains(expected), "{expected}:\n{text}");
    }
    let output = ossuary(&["info", &fixture("bonespro-walk-euler-yzy.txt")]);
    assert_status(&output, 0);
    let text = stdout(&output);
    for expected in [
        "frames: 3",
        "mode: Bones",
        "system: Relative to parent",
        "representation: Euler Angles",
        "order: YZY",
        "units: Radians",
        "first frame: 0",
        "last frame: 20",
        "step: 10",
    ] {
        assert!(text.contains(expected), "{expected}:\n{text}");
    }
}

#[test]
fn dump_then_encode_gives_every_fixture_back_and_dumps_alike() {
    let dir = tempfile::tempdir().unwrap();
    let names = std::fs::read_dir(tests::fixtures_dir())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("bonespro-"));
    let mut checked = 0;
    for name in names {
        let path = fixture(&name);
        let dump = run(&["dump", &path]);
        let format = if name == "bonespro-biped.txt" {
            "bonespro-structure"
        } else {
            "bonespro-animation"
        };
        let json = write(dir.path(), "dump.json", &dump);
        let encoded = dir.path().join(&name).to_string_lossy().into_owned();
        run(&["encode", &json, "--format", format, "-o", &encoded]);
        assert_eq!(
            std::fs::read(&encoded).unwrap(),
            std::fs::read(&path).unwrap(),
            "{name}"
        );
        assert_eq!(run(&["dump", &encoded]), dump, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 14);
    // Names with spaces come through JSON as they are.
    let dump = run(&["dump", &fixture("bonespro-biped.txt")]);
    assert!(dump.contains("\"Bip01 L Thigh\""), "{dump}");
}
