//! The glTF import on damaged input: every byte flip, truncation and bad
//! JSON value of a real asset gives a result or an error, never a panic,
//! and never an allocation the input's size does not allow.

use std::path::PathBuf;

use export::import::{carried, sims, swg, Asset};
use formats::rig;

fn fixture(name: &str) -> Vec<u8> {
    let path: PathBuf = tests::workspace_root()
        .join("export/tests/fixtures")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `names` as a skeleton of identity rests.
fn skeleton(names: &[&str]) -> rig::Skeleton {
    rig::Skeleton {
        joints: names
            .iter()
            .map(|name| rig::Joint {
                name: (*name).to_owned(),
                parent: None,
                rest: rig::Transform::IDENTITY,
            })
            .collect(),
        axes: rig::Axes::LeftHandedYUp,
    }
}

/// The Sims humanoid's joints, and the made-in-Blender figure's.
const SIMS_JOINTS: [&str; 12] = [
    "ROOT", "PELVIS", "SPINE", "HEAD", "L_ARM", "L_HAND", "R_ARM", "R_HAND", "L_LEG", "L_FOOT",
    "R_LEG", "R_FOOT",
];

/// The SWG humanoid's joints.
const SWG_JOINTS: [&str; 12] = [
    "root",
    "spine1",
    "spine3",
    "head",
    "lUpperArm",
    "lHand",
    "rUpperArm",
    "rHand",
    "lThigh",
    "lFoot",
    "rThigh",
    "rFoot",
];

/// The asset through the Sims import (its own skeleton as
/// `--write-skeleton` reads it too) and the SWG import; the results of
/// each, for the fixtures to check.
fn import(bytes: &[u8]) -> Result<[bool; 2], export::import::ImportError> {
    let asset = Asset::read(bytes, &|_| None)?;
    let originals = carried::originals(&asset);
    let own = sims::skeleton_of(&asset, "adult", &originals).is_ok();
    let _ = swg::skeleton_of(&asset);
    let sims = sims::import(&asset, &skeleton(&SIMS_JOINTS), &originals, &|_| None).is_ok();
    let files = [swg::SkeletonFile {
        attachment: swg::skeleton_at_root("humanoid.skt"),
        joints: SWG_JOINTS.map(str::to_owned).to_vec(),
    }];
    let originals = carried::originals(&asset);
    let _ = swg::carried_skeletons(&asset, &originals);
    let swg = swg::import(&asset, &files, &originals).is_ok();
    Ok([sims && own, swg])
}

/// Each fixture, and which imports take it (Sims, SWG).
const FIXTURES: [(&str, [bool; 2]); 3] = [
    ("humanoid-edited-in-blender.glb", [true, false]),
    ("made-in-blender.glb", [true, false]),
    ("swg-humanoid-edited-in-blender.glb", [false, true]),
];

#[test]
fn the_fixtures_import() {
    for (name, taken) in FIXTURES {
        assert_eq!(import(&fixture(name)).unwrap(), taken, "{name}");
    }
}

/// xorshift: deterministic, so a failure reproduces.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn damaged_assets_are_errors_or_results_never_panics() {
    for (name, _) in FIXTURES {
        damaged(&fixture(name));
    }
}

fn damaged(original: &[u8]) {
    let mut state = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..2000 {
        let mut bytes = original.to_vec();
        for _ in 0..1 + next(&mut state) % 4 {
            let at = (next(&mut state) as usize) % bytes.len();
            bytes[at] = next(&mut state) as u8;
        }
        let _ = import(&bytes);
    }
    for cut in (0..original.len()).step_by(97) {
        assert!(import(&original[..cut]).is_err(), "cut at {cut}");
    }
}

/// Numbers in the JSON chunk set to extremes: counts, offsets, strides and
/// indices of every kind, one at a time.
#[test]
fn extreme_numbers_in_the_json_are_errors_not_panics() {
    for (name, _) in FIXTURES {
        extremes(&fixture(name));
    }
}

fn extremes(original: &[u8]) {
    let json_length = u32::from_le_bytes(original[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&original[20..20 + json_length]).unwrap();
    let binary = &original[20 + json_length..];
    let mut paths = Vec::new();
    collect_numbers(&json, &mut Vec::new(), &mut paths);
    assert!(paths.len() > 100, "{}", paths.len());
    for path in paths {
        for extreme in [0u64, 1, 3, 255, 65_535, u32::MAX as u64, 1 << 40] {
            let mut damaged = json.clone();
            *pointer(&mut damaged, &path) = extreme.into();
            let _ = import(&glb(&damaged, binary));
        }
    }
}

fn collect_numbers(value: &serde_json::Value, at: &mut Vec<String>, found: &mut Vec<Vec<String>>) {
    match value {
        serde_json::Value::Number(_) => found.push(at.clone()),
        serde_json::Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                at.push(index.to_string());
                collect_numbers(item, at, found);
                at.pop();
            }
        }
        serde_json::Value::Object(fields) => {
            for (key, item) in fields {
                at.push(key.clone());
                collect_numbers(item, at, found);
                at.pop();
            }
        }
        _ => {}
    }
}

fn pointer<'a>(value: &'a mut serde_json::Value, path: &[String]) -> &'a mut serde_json::Value {
    let pointer: String = path.iter().map(|part| format!("/{part}")).collect();
    value.pointer_mut(&pointer).unwrap()
}

/// A GLB of `json` and `binary` (the binary chunk with its header, as cut
/// from the original).
fn glb(json: &serde_json::Value, binary: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(json).unwrap();
    text.resize(text.len().next_multiple_of(4), b' ');
    let length = 12 + 8 + text.len() + binary.len();
    let mut bytes = Vec::with_capacity(length);
    bytes.extend_from_slice(b"glTF");
    bytes.extend_from_slice(&2u32.to_le_bytes());
    bytes.extend_from_slice(&(length as u32).to_le_bytes());
    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
    bytes.extend_from_slice(b"JSON");
    bytes.extend_from_slice(&text);
    bytes.extend_from_slice(binary);
    bytes
}
