//! `ossuary joints` against an independent implementation of the families'
//! posing conventions, written here with plain f64 matrices.

mod independent;

use std::process::Command;

use independent::{rotation, sims_world_matrices, skel_bones, swg_world_matrices, Mat4};

use formats::schema::{BinarySchema, RawString};
use formats::sims::skel::{Bone, Skeleton};
use formats::swg::skt;

/// Deterministic pseudo-random numbers in [-1, 1) (xorshift), so failures reproduce.
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 2_000_000) as f32 / 1_000_000.0 - 1.0
    }

    /// Four numbers scaled to unit length.
    fn unit_quaternion(&mut self) -> [f32; 4] {
        let q = [self.next(), self.next(), self.next(), self.next()];
        let norm = q.iter().map(|c| c * c).sum::<f32>().sqrt().max(1e-3);
        q.map(|c| c / norm)
    }
}

/// A skeleton with random parents (each an earlier bone), offsets and unit rotations.
fn random_skeleton(seed: u64, bones: usize) -> Skeleton {
    let mut numbers = Numbers(seed);
    let bones = (0..bones)
        .map(|index| {
            let parent = if index == 0 {
                "NULL".to_owned()
            } else {
                format!(
                    "B{}",
                    (numbers.next().abs() * index as f32) as usize % index
                )
            };
            Bone {
                unknown: 1,
                name: RawString::from(format!("B{index}").as_str()),
                parent: RawString::from(parent.as_str()),
                has_properties: 0,
                property_lists: None,
                translation: [
                    numbers.next() * 3.0,
                    numbers.next() * 3.0,
                    numbers.next() * 3.0,
                ],
                rotation: numbers.unit_quaternion(),
                can_translate: 1,
                can_rotate: 1,
                can_blend: 1,
                wiggle_value: 0.0,
                wiggle_power: 0.0,
            }
        })
        .collect();
    Skeleton {
        version: 1,
        name: RawString::from("random"),
        bones,
    }
}

fn joints_output(path: &std::path::Path) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_ossuary"))
        .args(["joints", &path.to_string_lossy()])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

fn component(value: &serde_json::Value, index: usize) -> f64 {
    value[index].as_f64().unwrap()
}

#[test]
fn joints_agree_with_an_independent_implementation_on_random_skeletons() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 1..=12u64 {
        let skeleton = random_skeleton(seed * 7919, 1 + (seed as usize * 5) % 40);
        let path = dir.path().join(format!("random-{seed}.skel"));
        std::fs::write(&path, skeleton.to_bytes().unwrap()).unwrap();
        let joints = joints_output(&path);
        assert_joints_match(
            &joints,
            &sims_world_matrices(&skel_bones(&skeleton)),
            &format!("seed {seed}"),
        );
        for (index, joint) in joints.as_array().unwrap().iter().enumerate() {
            assert_eq!(joint["name"], format!("B{index}"));
            match index {
                0 => assert!(joint["parent"].is_null()),
                _ => assert_eq!(joint["parent"], skeleton.bones[index].parent.to_text()),
            }
        }
    }
}

fn random_unit_quaternion(numbers: &mut Numbers) -> skt::Quaternion {
    let [w, x, y, z] = numbers.unit_quaternion();
    skt::Quaternion { w, x, y, z }
}

fn random_swg_joints(seed: u64, count: usize) -> Vec<skt::Joint> {
    let mut numbers = Numbers(seed);
    (0..count)
        .map(|index| skt::Joint {
            name: RawString::from(format!("j{index}").as_str()),
            parent: if index == 0 {
                -1
            } else {
                ((numbers.next().abs() * index as f32) as usize % index) as i32
            },
            pre_rotation: random_unit_quaternion(&mut numbers),
            post_rotation: random_unit_quaternion(&mut numbers),
            bind_translation: [numbers.next(), numbers.next(), numbers.next()],
            bind_rotation: random_unit_quaternion(&mut numbers),
            rotation_order: 0,
        })
        .collect()
}

/// Asserts each joint's position and rotation match the world matrices;
/// rotations compare as matrices, which is free of the q / -q sign.
fn assert_joints_match(joints: &serde_json::Value, expected: &[Mat4], what: &str) {
    let joints = joints.as_array().unwrap();
    assert_eq!(joints.len(), expected.len(), "{what}");
    for (index, (joint, world)) in joints.iter().zip(expected).enumerate() {
        for (axis, row) in world.iter().take(3).enumerate() {
            let got = component(&joint["position"], axis);
            assert!((got - row[3]).abs() < 1e-4, "{what} joint {index}: {joint}");
        }
        let q = [0, 1, 2, 3].map(|i| component(&joint["rotation"], i));
        for (got_row, world_row) in rotation(q).iter().zip(world).take(3) {
            for (got_cell, world_cell) in got_row.iter().zip(world_row).take(3) {
                assert!(
                    (got_cell - world_cell).abs() < 1e-4,
                    "{what} joint {index}: {joint}"
                );
            }
        }
    }
}

#[test]
fn swg_joints_agree_with_an_independent_implementation_on_random_skeletons() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 1..=12u64 {
        let joints = random_swg_joints(seed * 104_729, 1 + (seed as usize * 7) % 50);
        let file = skt::Skeleton::Single(skt::SkeletonForm::from_joints(&joints));
        let path = dir.path().join(format!("random-{seed}.skt"));
        std::fs::write(&path, file.to_bytes().unwrap()).unwrap();
        assert_joints_match(
            &joints_output(&path),
            &swg_world_matrices(&joints),
            &format!("seed {seed}"),
        );
    }
}

#[test]
fn swg_joints_agree_with_an_independent_implementation_on_real_files() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let files = tests::files_with_extension(&corpus.join("swg"), "skt");
    assert!(!files.is_empty());
    for path in files {
        let file = skt::Skeleton::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let joints = file.levels()[0].joints().unwrap();
        assert_joints_match(
            &joints_output(&path),
            &swg_world_matrices(&joints),
            &path.display().to_string(),
        );
    }
}
