//! `ossuary joints` on Outcast skeletons and animations against an
//! independent implementation of the source document's traversal (plain
//! f64 row-vector matrices), in both composition orders; and the command
//! line's handling of damaged and mismatched Outcast files.

mod independent;
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use independent::{outcast_angles, outcast_joints, rotation, Mat3, OutcastJoint};
use support::Numbers;

use formats::outcast::animation::{Animation, Frame, Record};
use formats::outcast::skeleton::{Joint, Skeleton};
use formats::schema::{BinarySchema, Count, RawString};

/// A stored row-vector rotation matrix, row by row, of a random unit
/// quaternion (computed here, not by the crates under test).
fn random_rotation(numbers: &mut Numbers) -> [f32; 9] {
    let q = [
        numbers.unit() as f32,
        numbers.unit() as f32,
        numbers.unit() as f32,
        numbers.unit() as f32,
    ];
    let norm = q.iter().map(|c| c * c).sum::<f32>().sqrt().max(1e-3);
    let q = q.map(|c| f64::from(c / norm));
    // `rotation` is the column-vector matrix; the row-vector one is its transpose.
    let column = rotation(q);
    let mut stored = [0.0f32; 9];
    for row in 0..3 {
        for col in 0..3 {
            stored[row * 3 + col] = column[col][row] as f32;
        }
    }
    stored
}

/// Depths starting at 1, each at most one deeper than the one before.
fn random_skeleton(numbers: &mut Numbers, count: usize) -> Skeleton {
    let mut depth = 0;
    let joints = (0..count)
        .map(|index| {
            depth = 1 + numbers.below(depth as usize + 1) as i32;
            Joint {
                depth,
                name: RawString::from(format!("J{index}").as_str()),
                position: [
                    numbers.unit() as f32 * 2.0,
                    numbers.unit() as f32 * 2.0,
                    numbers.unit() as f32 * 2.0,
                ],
                rotation: random_rotation(numbers),
            }
        })
        .collect();
    Skeleton { joints }
}

/// Frames for `skeleton`, whose index column is its depths plus `offset`.
fn random_animation(
    numbers: &mut Numbers,
    skeleton: &Skeleton,
    frames: usize,
    offset: i32,
) -> Animation {
    Animation {
        frame_count: Count::new(),
        records_per_frame: skeleton.joints.len() as u32,
        frames: (0..frames)
            .map(|_| Frame {
                records: skeleton
                    .joints
                    .iter()
                    .map(|joint| Record {
                        index: joint.depth + offset,
                        angles: [0; 3].map(|_: i16| numbers.next_u64() as i16),
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn ossuary(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ossuary"))
        .args(args)
        .output()
        .unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn joints_of(args: &[&str]) -> Vec<serde_json::Value> {
    let output = ossuary(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let joints: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    joints.as_array().unwrap().clone()
}

/// The stored joints, each rotation replaced by a frame's angles when given.
fn stored(skeleton: &Skeleton, frame: Option<&Frame>) -> Vec<OutcastJoint> {
    skeleton
        .joints
        .iter()
        .enumerate()
        .map(|(index, joint)| {
            let turn = match frame {
                Some(frame) => outcast_angles(frame.records[index].angles),
                None => {
                    let r = joint.rotation.map(f64::from);
                    [[r[0], r[1], r[2]], [r[3], r[4], r[5]], [r[6], r[7], r[8]]]
                }
            };
            OutcastJoint {
                depth: joint.depth,
                position: joint.position,
                turn,
            }
        })
        .collect()
}

/// Positions and rotations within 1e-3 of the independent ones. The
/// printed quaternion acts on column vectors; its matrix is the transpose
/// of the row-vector one.
fn assert_match(joints: &[serde_json::Value], expected: &[([f64; 3], Mat3)], what: &str) {
    assert_eq!(joints.len(), expected.len(), "{what}");
    for (index, (joint, (position, linear))) in joints.iter().zip(expected).enumerate() {
        for axis in 0..3 {
            let got = joint["position"][axis].as_f64().unwrap();
            assert!(
                (got - position[axis]).abs() < 1e-3,
                "{what} joint {index}: {joint} vs {position:?}"
            );
        }
        let q = [0, 1, 2, 3].map(|i| joint["rotation"][i].as_f64().unwrap());
        let column = rotation(q);
        for row in 0..3 {
            for col in 0..3 {
                assert!(
                    (column[row][col] - linear[col][row]).abs() < 1e-3,
                    "{what} joint {index}: {joint} vs {linear:?}"
                );
            }
        }
    }
}

#[test]
fn joints_agree_with_the_documents_traversal_at_rest_and_animated_in_both_orders() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 1..=10u64 {
        let mut numbers = Numbers(seed * 15_485_863);
        let skeleton = random_skeleton(&mut numbers, 1 + (seed as usize * 7) % 30);
        let offset = numbers.below(4) as i32 - 1;
        let animation = random_animation(&mut numbers, &skeleton, 3, offset);
        let skeleton_path = write(
            dir.path(),
            &format!("s{seed}.osk"),
            &skeleton.to_bytes().unwrap(),
        );
        let animation_path = write(
            dir.path(),
            &format!("a{seed}.oan"),
            &animation.to_bytes().unwrap(),
        );
        let skeleton_arg = skeleton_path.to_string_lossy().into_owned();
        let animation_arg = animation_path.to_string_lossy().into_owned();
        for (order, literal) in [("child-first", false), ("literal", true)] {
            let rest = joints_of(&["joints", &skeleton_arg, "--outcast-order", order]);
            assert_match(
                &rest,
                &outcast_joints(&stored(&skeleton, None), literal),
                &format!("seed {seed} {order} at rest"),
            );
            for (frame_index, frame) in animation.frames.iter().enumerate() {
                let frame_arg = frame_index.to_string();
                let posed = joints_of(&[
                    "joints",
                    &skeleton_arg,
                    "--anim",
                    &animation_arg,
                    "--frame",
                    &frame_arg,
                    "--outcast-order",
                    order,
                ]);
                assert_match(
                    &posed,
                    &outcast_joints(&stored(&skeleton, Some(frame)), literal),
                    &format!("seed {seed} {order} frame {frame_index}"),
                );
            }
        }
    }
}

#[test]
fn the_default_order_is_child_first_and_the_orders_differ_below_two_levels() {
    let dir = tempfile::tempdir().unwrap();
    let mut numbers = Numbers(99);
    let skeleton = Skeleton {
        joints: (0..4)
            .map(|index| Joint {
                depth: index + 1,
                name: RawString::from(format!("J{index}").as_str()),
                position: [index as f32, 0.0, 0.0],
                rotation: random_rotation(&mut numbers),
            })
            .collect(),
    };
    let path = write(dir.path(), "chain.osk", &skeleton.to_bytes().unwrap());
    let path = path.to_string_lossy();
    let default = joints_of(&["joints", &path]);
    let child_first = joints_of(&["joints", &path, "--outcast-order", "child-first"]);
    let literal = joints_of(&["joints", &path, "--outcast-order", "literal"]);
    assert_eq!(default, child_first);
    assert_eq!(default[1]["position"], literal[1]["position"]);
    let distance: f64 = (0..3)
        .map(|axis| {
            let a = default[3]["position"][axis].as_f64().unwrap();
            let b = literal[3]["position"][axis].as_f64().unwrap();
            (a - b).powi(2)
        })
        .sum::<f64>()
        .sqrt();
    assert!(distance > 0.1, "{default:?} vs {literal:?}");
}

#[test]
fn an_animation_option_is_found_by_its_extension_whatever_format_says() {
    let fixtures = tests::fixtures_dir();
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(fixtures.join("biped.osk")).unwrap();
    let skeleton = write(dir.path(), "biped.bin", &bytes);
    let joints = joints_of(&[
        "joints",
        "--format",
        "outcast-skeleton",
        &skeleton.to_string_lossy(),
        "--anim",
        &fixtures.join("biped-wave.oan").to_string_lossy(),
        "--frame",
        "2",
    ]);
    assert_eq!(joints.len(), 25);
    assert_eq!(joints[0]["name"], "BIPED");
}

#[test]
fn damaged_and_mismatched_files_exit_1_with_a_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = tests::fixtures_dir();
    let skeleton = std::fs::read(fixtures.join("biped.osk")).unwrap();
    let truncated = write(dir.path(), "cut.osk", &skeleton[..skeleton.len() - 3]);
    let output = ossuary(&["check", &truncated.to_string_lossy()]);
    assert_eq!(output.status.code(), Some(1));
    // `check` reports each file on standard output.
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        report.contains(
            "byte 1511: joints[24].rotation[8]: the input ends 1 byte(s) into a 4-byte value"
        ),
        "{report}"
    );

    // The second joint's depth turned to 3: it jumps two levels.
    let mut jumped = skeleton.clone();
    jumped[4 + 4 + 6 + 48] = 3;
    let jumped = write(dir.path(), "jump.osk", &jumped);
    let output = ossuary(&["joints", &jumped.to_string_lossy()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("byte 62: joints[1]: (\"LF_HIP\") depth 3 is more than one deeper"),
        "{stderr}"
    );

    // An animation for another skeleton: the shark's seven records.
    let shark = Skeleton {
        joints: [1, 2, 3, 4, 5, 2, 2]
            .iter()
            .enumerate()
            .map(|(index, &depth)| Joint {
                depth,
                name: RawString::from(format!("S{index}").as_str()),
                position: [0.0; 3],
                rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
            })
            .collect(),
    };
    let mut numbers = Numbers(5);
    let shark_anim = random_animation(&mut numbers, &shark, 1, 0);
    let shark_anim = write(dir.path(), "shark.oan", &shark_anim.to_bytes().unwrap());
    let output = ossuary(&[
        "joints",
        &fixtures.join("biped.osk").to_string_lossy(),
        "--anim",
        &shark_anim.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "the animation has 7 tracks for the joints in order, but the skeleton has 25 joints"
        ),
        "{stderr}"
    );
}

/// `convert --outcast-order` exports the order asked for: the two orders
/// give different assets for the waving biped (the export tests check the
/// joints of each against ossuary's own posing).
#[test]
fn convert_takes_the_outcast_order() {
    let dir = tempfile::tempdir().unwrap();
    let skeleton = support::fixture("biped.osk");
    let wave = support::fixture("biped-wave.oan");
    let export = |order: &str| {
        let out = dir.path().join(format!("{order}.gltf"));
        let out_text = out.to_string_lossy().into_owned();
        let output = ossuary(&[
            "convert",
            &skeleton,
            "--anim",
            &wave,
            "--outcast-order",
            order,
            "-o",
            &out_text,
        ]);
        support::assert_status(&output, 0);
        std::fs::read(out).unwrap()
    };
    assert_ne!(export("literal"), export("child-first"));
}
