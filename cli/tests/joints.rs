//! `ossuary joints` against an independent implementation of the posing
//! conventions of DESIGN.md section 3, written here with plain f64 matrices.

use std::process::Command;

use formats::schema::{BinarySchema, RawString};
use formats::sims::skel::{Bone, Skeleton};

type Mat4 = [[f64; 4]; 4];

fn multiply(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [[0.0; 4]; 4];
    for (row, out_row) in out.iter_mut().enumerate() {
        for (column, cell) in out_row.iter_mut().enumerate() {
            *cell = (0..4).map(|k| a[row][k] * b[k][column]).sum();
        }
    }
    out
}

/// Column-vector rotation matrix of the unit quaternion (x, y, z, w).
fn rotation(q: [f64; 4]) -> Mat4 {
    let [x, y, z, w] = q;
    [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
            0.0,
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
            0.0,
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
            0.0,
        ],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

fn translation(t: [f64; 3]) -> Mat4 {
    [
        [1.0, 0.0, 0.0, t[0]],
        [0.0, 1.0, 0.0, t[1]],
        [0.0, 0.0, 1.0, t[2]],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// world = parent * T(translation) * R(conjugate(stored rotation)).
fn sims_world_matrices(skeleton: &Skeleton) -> Vec<Mat4> {
    let mut world: Vec<Mat4> = Vec::new();
    for bone in &skeleton.bones {
        let [x, y, z, w] = bone.rotation.map(f64::from);
        let local = multiply(
            &translation(bone.translation.map(f64::from)),
            &rotation([-x, -y, -z, w]),
        );
        let parent = skeleton
            .bones
            .iter()
            .position(|candidate| candidate.name == bone.parent);
        world.push(match parent {
            Some(index) => multiply(&world[index], &local),
            None => local,
        });
    }
    world
}

/// Deterministic pseudo-random numbers in [-1, 1) (xorshift), so failures reproduce.
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 2_000_000) as f32 / 1_000_000.0 - 1.0
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
            let q = [
                numbers.next(),
                numbers.next(),
                numbers.next(),
                numbers.next(),
            ];
            let norm = q.iter().map(|c| c * c).sum::<f32>().sqrt().max(1e-3);
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
                rotation: q.map(|c| c / norm),
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
        let expected = sims_world_matrices(&skeleton);
        assert_eq!(joints.as_array().unwrap().len(), skeleton.bones.len());
        for (index, (joint, world)) in joints.as_array().unwrap().iter().zip(&expected).enumerate()
        {
            assert_eq!(joint["name"], format!("B{index}"));
            for (axis, row) in world.iter().take(3).enumerate() {
                let got = component(&joint["position"], axis);
                assert!(
                    (got - row[3]).abs() < 1e-4,
                    "seed {seed} joint {index}: {joint}"
                );
            }
            // Compare rotations as matrices, which is free of the q / -q sign.
            let q = [0, 1, 2, 3].map(|i| component(&joint["rotation"], i));
            let got = rotation(q);
            for (got_row, world_row) in got.iter().zip(world).take(3) {
                for (got_cell, world_cell) in got_row.iter().zip(world_row).take(3) {
                    assert!(
                        (got_cell - world_cell).abs() < 1e-4,
                        "seed {seed} joint {index}: {joint}"
                    );
                }
            }
            if index > 0 {
                let parent = skeleton.bones[index].parent.to_text();
                assert_eq!(joint["parent"], parent);
            } else {
                assert!(joint["parent"].is_null());
            }
        }
    }
}
