//! The Sims Online's avatar files (`.mesh`, `.anim`, `.apr`, `.bnd`) through
//! the CLI: the samples and, when `OSSUARY_CORPUS` is set, the real files in
//! `tso/`, posed and skinned against the independent implementation, which
//! here also reads the files itself (by hand, from the layouts).

mod independent;
mod support;

use std::path::{Path, PathBuf};

use formats::schema::{BinarySchema, RawString};
use formats::sims::skel::{Bone, Skeleton};
use formats::sims::{mesh, skn};
use independent::{sims_skin, sims_world_matrices, transform_point, SimsBone};
use support::{assert_status, fixture, fixture_bytes, ossuary, stderr, stdout, write};

const MESH: &str = "humanoid-arm.0000100000000009.mesh";
const ANIM: &str = "a2o-humanoid-wave.anim";
const APR: &str = "humanoid-arm.000010020000000c.apr";
const BND: &str = "humanoid-arm.000010010000000b.bnd";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ossuary-tso-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn be_u32(bytes: &[u8], at: &mut usize) -> u32 {
    let value = u32::from_be_bytes(bytes[*at..*at + 4].try_into().unwrap());
    *at += 4;
    value
}

fn le_f32(bytes: &[u8], at: &mut usize) -> f32 {
    let value = f32::from_le_bytes(bytes[*at..*at + 4].try_into().unwrap());
    *at += 4;
    value
}

fn pascal(bytes: &[u8], at: &mut usize) -> Vec<u8> {
    let len = bytes[*at] as usize;
    let value = bytes[*at + 1..*at + 1 + len].to_vec();
    *at += 1 + len;
    value
}

/// A motion as the independent reader sees it.
struct Motion {
    bone: Vec<u8>,
    frames: usize,
    translations: Option<usize>,
    rotations: Option<usize>,
}

/// An `.anim` read by hand: big-endian integers, little-endian floats.
struct Anim {
    translations: Vec<[f32; 3]>,
    rotations: Vec<[f32; 4]>,
    motions: Vec<Motion>,
}

fn property_lists(bytes: &[u8], at: &mut usize) {
    for _ in 0..be_u32(bytes, at) {
        for _ in 0..be_u32(bytes, at) {
            pascal(bytes, at);
            pascal(bytes, at);
        }
    }
}

fn read_anim(bytes: &[u8]) -> Anim {
    let mut at = 4;
    let name_len = u16::from_be_bytes([bytes[at], bytes[at + 1]]) as usize;
    at += 2 + name_len + 4 + 4 + 1;
    let translations = (0..be_u32(bytes, &mut at))
        .map(|_| [0; 3].map(|_| le_f32(bytes, &mut at)))
        .collect();
    let rotations = (0..be_u32(bytes, &mut at))
        .map(|_| [0; 4].map(|_| le_f32(bytes, &mut at)))
        .collect();
    let motions = (0..be_u32(bytes, &mut at))
        .map(|_| {
            at += 4;
            let bone = pascal(bytes, &mut at);
            let frames = be_u32(bytes, &mut at) as usize;
            at += 4;
            let (uses_translations, uses_rotations) = (bytes[at], bytes[at + 1]);
            at += 2;
            let first_translation = be_u32(bytes, &mut at) as usize;
            let first_rotation = be_u32(bytes, &mut at) as usize;
            if bytes[at] != 0 {
                at += 1;
                property_lists(bytes, &mut at);
            } else {
                at += 1;
            }
            if bytes[at] != 0 {
                at += 1;
                for _ in 0..be_u32(bytes, &mut at) {
                    for _ in 0..be_u32(bytes, &mut at) {
                        at += 4;
                        property_lists(bytes, &mut at);
                    }
                }
            } else {
                at += 1;
            }
            Motion {
                bone,
                frames,
                translations: (uses_translations != 0).then_some(first_translation),
                rotations: (uses_rotations != 0).then_some(first_rotation),
            }
        })
        .collect();
    assert_eq!(at, bytes.len(), "the whole .anim is read");
    Anim {
        translations,
        rotations,
        motions,
    }
}

/// The bones at `frame`: a motion's keys replace its bone's rest
/// translation and rotation (normalized), as the game plays them.
fn posed(bones: &[SimsBone], anim: &Anim, frame: usize) -> Vec<SimsBone> {
    let mut posed: Vec<SimsBone> = bones
        .iter()
        .map(|bone| SimsBone {
            name: bone.name.clone(),
            parent: bone.parent.clone(),
            translation: bone.translation,
            rotation: bone.rotation,
        })
        .collect();
    for motion in &anim.motions {
        let bone = posed
            .iter_mut()
            .find(|bone| bone.name == motion.bone)
            .expect("motion bone in skeleton");
        let frame = frame.min(motion.frames - 1);
        if let Some(first) = motion.translations {
            bone.translation = anim.translations[first + frame];
        }
        if let Some(first) = motion.rotations {
            let q = anim.rotations[first + frame].map(f64::from);
            let length = q.iter().map(|c| c * c).sum::<f64>().sqrt();
            bone.rotation = q.map(|c| (c / length) as f32);
        }
    }
    posed
}

fn bones_of(skeleton: &Skeleton) -> Vec<SimsBone> {
    skeleton
        .bones
        .iter()
        .map(|bone| SimsBone {
            name: bone.name.0.clone(),
            parent: bone.parent.0.clone(),
            translation: bone.translation,
            rotation: bone.rotation,
        })
        .collect()
}

/// `position` of every joint `ossuary joints` prints.
fn joint_positions(args: &[&str]) -> Vec<(String, [f64; 3])> {
    let output = ossuary(args);
    assert_status(&output, 0);
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

/// The `v` lines of an OBJ.
fn obj_positions(path: &Path) -> Vec<[f64; 3]> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|line| line.strip_prefix("v "))
        .map(|rest| {
            let numbers: Vec<f64> = rest
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
            <[f64; 3]>::try_from(numbers).unwrap()
        })
        .collect()
}

fn assert_close(got: &[[f64; 3]], want: &[[f64; 3]], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: count");
    for (index, (got, want)) in got.iter().zip(want).enumerate() {
        for axis in 0..3 {
            assert!(
                (got[axis] - want[axis]).abs() < 1e-4,
                "{what} {index}: {got:?}, expected {want:?}"
            );
        }
    }
}

/// A mesh's body as the `.skn` the independent skinning reads.
fn mesh_as_skn(bytes: &[u8]) -> skn::Skn {
    let mesh = mesh::Mesh::from_bytes(bytes).unwrap();
    mesh.body
        .to_skn(RawString::from("mesh"), RawString::from("x"))
}

#[test]
fn every_sample_has_info_and_comes_back_through_dump_and_encode() {
    let dir = scratch("dump");
    for (name, format) in [
        (MESH, "tso-mesh"),
        (ANIM, "tso-anim"),
        (APR, "tso-apr"),
        (BND, "tso-bnd"),
    ] {
        let info = ossuary(&["info", &fixture(name)]);
        assert_status(&info, 0);
        assert!(
            stdout(&info).contains(&format!("({format})")),
            "{}",
            stdout(&info)
        );
        let dump = ossuary(&["dump", &fixture(name)]);
        assert_status(&dump, 0);
        let json = write(&dir, &format!("{name}.json"), &dump.stdout);
        let out = dir.join(name);
        let encode = ossuary(&[
            "encode",
            &json,
            "--format",
            format,
            "-o",
            &out.to_string_lossy(),
        ]);
        assert_status(&encode, 0);
        assert_eq!(std::fs::read(&out).unwrap(), fixture_bytes(name), "{name}");
    }
    let info = ossuary(&["info", &fixture(ANIM)]);
    assert!(stdout(&info).contains("events: 2"), "{}", stdout(&info));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The sample appearance finds its binding, the binding its mesh, by the
/// ids that end their names; posed by the sample animation's last frame
/// (the arm raised), the mesh's vertices are where the independent
/// implementation puts them.
#[test]
fn the_sample_appearance_posed_by_the_sample_animation_matches_the_independent_skinning() {
    let dir = scratch("sample-pose");
    let skeleton = Skeleton::from_bytes(&fixture_bytes("humanoid.skel")).unwrap();
    let anim = read_anim(&fixture_bytes(ANIM));
    let bones = posed(&bones_of(&skeleton), &anim, 3);

    let joints = joint_positions(&[
        "joints",
        &fixture("humanoid.skel"),
        "--anim",
        &fixture(ANIM),
        "--frame",
        "3",
    ]);
    let world = sims_world_matrices(&bones);
    let expected: Vec<[f64; 3]> = world
        .iter()
        .map(|matrix| transform_point(matrix, [0.0; 3]))
        .collect();
    let got: Vec<[f64; 3]> = joints.iter().map(|(_, position)| *position).collect();
    assert_close(&got, &expected, "joint");
    // The raised arm points along +x.
    let hand = joints.iter().find(|(name, _)| name == "L_HAND").unwrap().1;
    assert!(
        (hand[0] - 1.65).abs() < 1e-4 && (hand[1] - 4.7).abs() < 1e-4,
        "{hand:?}"
    );

    let out = dir.join("arm.obj");
    let skin = ossuary(&[
        "skin",
        &fixture(APR),
        "--skeleton",
        &fixture("humanoid.skel"),
        "--anim",
        &fixture(ANIM),
        "--frame",
        "3",
        "-o",
        &out.to_string_lossy(),
    ]);
    assert_status(&skin, 0);
    let (positions, _) = sims_skin(&mesh_as_skn(&fixture_bytes(MESH)), &bones);
    assert_close(&obj_positions(&out), &positions, "vertex");
    // The sample texture is not among the fixtures: the material names its
    // id, and glTF export warns once, naming it.
    let mtl = std::fs::read_to_string(dir.join("arm.mtl")).unwrap();
    assert!(mtl.contains("map_Kd 0000100300000014"), "{mtl}");
    let glb = dir.join("arm.glb");
    let convert = ossuary(&[
        "convert",
        &fixture("humanoid.skel"),
        &fixture(APR),
        "--anim",
        &fixture(ANIM),
        "-o",
        &glb.to_string_lossy(),
    ]);
    assert_status(&convert, 0);
    let warnings = stderr(&convert);
    assert_eq!(warnings.lines().count(), 1, "{warnings}");
    assert!(warnings.contains("0000100300000014"), "{warnings}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_appearance_whose_binding_is_nowhere_is_one_error_naming_the_id_and_the_folders() {
    let dir = scratch("missing");
    let appearances = dir.join("Appearances");
    let apr = write(&appearances, APR, &fixture_bytes(APR));
    std::fs::create_dir_all(dir.join("Bindings")).unwrap();
    let output = ossuary(&[
        "skin",
        &apr,
        "--skeleton",
        &fixture("humanoid.skel"),
        "-o",
        &dir.join("out.obj").to_string_lossy(),
    ]);
    assert_status(&output, 1);
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.contains("cannot find the binding 000010010000000b")
            && message.contains("*.000010010000000b.bnd")
            && message.contains("Bindings"),
        "{message}"
    );
    assert!(!dir.join("out.obj").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_motion_past_the_shared_keys_is_an_error_at_its_offset_with_its_path() {
    let dir = scratch("offset");
    let mut bytes = fixture_bytes(ANIM);
    let anim = formats::sims::anim::Anim::from_bytes(&bytes).unwrap();
    // The first motion's first_translation: after the header (4 + 2 +
    // name + 4 + 4 + 1), the translations (4 + 12 each), the rotations
    // (4 + 16 each), the motion count (4), then the motion's unknown (4),
    // bone (1 + name), frame count, duration (4 each) and flags (2).
    let motion = anim.motions.first().unwrap();
    let at = 4
        + 2
        + anim.name.0.len()
        + 9
        + 4
        + 12 * anim.translations.len()
        + 4
        + 16 * anim.rotations.len()
        + 4
        + 4
        + 1
        + motion.bone.0.len()
        + 4
        + 4
        + 2
        + 4;
    bytes.splice(at..at + 4, 7u32.to_be_bytes());
    let path = write(&dir, "bad.anim", &bytes);
    let output = ossuary(&["check", &path]);
    assert_status(&output, 1);
    let message = stdout(&output) + &stderr(&output);
    assert!(
        message.contains(&format!("byte {at}")) && message.contains("motions[0].first_rotation"),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_mesh_binding_naming_no_bone_of_the_mesh_is_an_error_with_its_path() {
    let dir = scratch("bone");
    let mut bytes = fixture_bytes(MESH);
    // version (4), bone count (4), "L_ARM" (6), "L_HAND" (7), face count
    // (4), 8 faces (12 each), binding count (4): binding 0's bone.
    let at = 4 + 4 + 6 + 7 + 4 + 8 * 12 + 4;
    bytes.splice(at..at + 4, 5u32.to_be_bytes());
    let path = write(&dir, "bad.mesh", &bytes);
    let output = ossuary(&["info", &path]);
    assert_status(&output, 1);
    let message = stderr(&output);
    assert!(
        message.contains(&format!("byte {at}"))
            && message.contains("body.bindings[0].bone")
            && message.contains("bone 5 is not one of the 2 bones"),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The real files, when `OSSUARY_CORPUS` names the corpus.
fn corpus() -> Option<PathBuf> {
    Some(tests::corpus_dir()?.join("tso"))
}

fn only_file(folder: &Path, extension: &str, containing: &str) -> PathBuf {
    let files: Vec<PathBuf> = tests::files_with_extension(folder, extension)
        .into_iter()
        .filter(|path| path.to_string_lossy().contains(containing))
        .collect();
    assert_eq!(files.len(), 1, "{containing} in {}", folder.display());
    files.into_iter().next().unwrap()
}

#[test]
fn every_real_file_comes_back_byte_for_byte() {
    let Some(tso) = corpus() else {
        return;
    };
    let output = ossuary(&["check", &tso.to_string_lossy()]);
    let text = stdout(&output);
    // The texture (a PNG) is no format of ossuary's.
    assert!(
        text.contains("6 ok, 0 differ, 0 failed, 1 not supported"),
        "{text}{}",
        stderr(&output)
    );
}

/// A skeleton holding the bones the real files name, in an adult's
/// hierarchy (the game's own skeleton is not public): each bone's rest
/// translation a small step from its parent, which the animation's keys
/// replace.
fn adult() -> Skeleton {
    let chain: [(&str, &str); 29] = [
        ("ROOT", "NULL"),
        ("PELVIS", "ROOT"),
        ("SPINE", "PELVIS"),
        ("SPINE1", "SPINE"),
        ("SPINE2", "SPINE1"),
        ("NECK", "SPINE2"),
        ("HEAD", "NECK"),
        ("L_ARM", "SPINE2"),
        ("L_ARM1", "L_ARM"),
        ("L_ARM2", "L_ARM1"),
        ("L_HAND", "L_ARM2"),
        ("L_FINGER0", "L_HAND"),
        ("R_ARM", "SPINE2"),
        ("R_ARM1", "R_ARM"),
        ("R_ARM2", "R_ARM1"),
        ("R_HAND", "R_ARM2"),
        ("R_FINGER0", "R_HAND"),
        ("L_LEG", "PELVIS"),
        ("L_LEG1", "L_LEG"),
        ("L_FOOT", "L_LEG1"),
        ("L_TOE0", "L_FOOT"),
        ("L_TOE01", "L_TOE0"),
        ("L_TOE02", "L_TOE01"),
        ("R_LEG", "PELVIS"),
        ("R_LEG1", "R_LEG"),
        ("R_FOOT", "R_LEG1"),
        ("R_TOE0", "R_FOOT"),
        ("R_TOE01", "R_TOE0"),
        ("R_TOE02", "R_TOE01"),
    ];
    Skeleton {
        version: 1,
        name: RawString::from("adult"),
        bones: chain
            .iter()
            .map(|(name, parent)| Bone {
                unknown: 1,
                name: RawString::from(*name),
                parent: RawString::from(*parent),
                has_properties: 0,
                property_lists: None,
                translation: [0.0, 0.5, 0.0],
                rotation: [0.0, 0.0, 0.0, 1.0],
                can_translate: 1,
                can_rotate: 1,
                can_blend: 1,
                wiggle_value: 0.0,
                wiggle_power: 0.0,
            })
            .collect(),
    }
}

/// The cape, found from its appearance through its binding, on a skeleton
/// with the bones it names, posed by the real kart ride: joints and
/// vertices as the independent implementation gives them, and a glTF
/// asset holding its texture.
#[test]
fn the_real_cape_on_an_adult_skeleton_ridden_by_a_real_animation_matches_the_independent_implementation(
) {
    let Some(tso) = corpus() else {
        return;
    };
    let dir = scratch("cape");
    let animations = tests::files_with_extension(&tso.join("Animations"), "anim");
    assert_eq!(animations.len(), 3);
    // The adult's bones, and the other bones the real animations move (IK
    // targets and handles) as children of the root.
    let mut skeleton = adult();
    for path in &animations {
        for motion in read_anim(&std::fs::read(path).unwrap()).motions {
            if skeleton.bones.iter().all(|bone| bone.name.0 != motion.bone) {
                let mut bone = skeleton.bones[1].clone();
                bone.name = RawString(motion.bone);
                bone.parent = RawString::from("ROOT");
                skeleton.bones.push(bone);
            }
        }
    }
    let skel = write(&dir, "adult.skel", &skeleton.to_bytes().unwrap());
    let apr = only_file(&tso.join("Appearances"), "apr", "CapeBlack");
    let mesh_file = only_file(&tso.join("Meshes"), "mesh", "CapeBlack");

    // The trap fall's frame 60 (of 124), joint by joint.
    let trapfall = only_file(&tso.join("Animations"), "anim", "trapfall");
    let anim = read_anim(&std::fs::read(&trapfall).unwrap());
    let bones = posed(&bones_of(&skeleton), &anim, 60);
    let joints = joint_positions(&[
        "joints",
        &skel,
        "--anim",
        &trapfall.to_string_lossy(),
        "--frame",
        "60",
    ]);
    let expected: Vec<[f64; 3]> = sims_world_matrices(&bones)
        .iter()
        .map(|matrix| transform_point(matrix, [0.0; 3]))
        .collect();
    let got: Vec<[f64; 3]> = joints.iter().map(|(_, position)| *position).collect();
    assert_close(&got, &expected, "trap fall joint");

    let anim_file = only_file(&tso.join("Animations"), "anim", "kart-ride");
    let anim = read_anim(&std::fs::read(&anim_file).unwrap());
    let bones = posed(&bones_of(&skeleton), &anim, 0);

    let anim_path = anim_file.to_string_lossy();
    let joints = joint_positions(&["joints", &skel, "--anim", &anim_path]);
    let expected: Vec<[f64; 3]> = sims_world_matrices(&bones)
        .iter()
        .map(|matrix| transform_point(matrix, [0.0; 3]))
        .collect();
    let got: Vec<[f64; 3]> = joints.iter().map(|(_, position)| *position).collect();
    assert_close(&got, &expected, "joint");

    let out = dir.join("cape.obj");
    let apr_path = apr.to_string_lossy();
    let skin = ossuary(&[
        "skin",
        &apr_path,
        "--skeleton",
        &skel,
        "--anim",
        &anim_path,
        "-o",
        &out.to_string_lossy(),
    ]);
    assert_status(&skin, 0);
    assert_eq!(stderr(&skin), "");
    // The texture is found by its id, in the sibling Textures folder.
    let mtl = std::fs::read_to_string(dir.join("cape.mtl")).unwrap();
    assert!(
        mtl.contains("Textures/FSO-Accessory-CapeBlack.a0ccab8e00000014.png"),
        "{mtl}"
    );
    let (positions, _) = sims_skin(&mesh_as_skn(&std::fs::read(&mesh_file).unwrap()), &bones);
    assert_eq!(positions.len(), 288);
    assert_close(&obj_positions(&out), &positions, "vertex");

    let glb = dir.join("cape.glb");
    let mut args = vec!["convert".to_owned(), skel.clone(), apr_path.to_string()];
    for path in &animations {
        args.extend(["--anim".to_owned(), path.to_string_lossy().into_owned()]);
    }
    args.extend(["-o".to_owned(), glb.to_string_lossy().into_owned()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let convert = ossuary(&args);
    assert_status(&convert, 0);
    assert_eq!(stderr(&convert), "");
    let bytes = std::fs::read(&glb).unwrap();
    let length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&bytes[20..20 + length]).unwrap();
    assert_eq!(json["images"].as_array().map(Vec::len), Some(1), "{json}");
    assert_eq!(json["animations"].as_array().map(Vec::len), Some(3));
    // The broom flight's events travel in its animation's extras, each
    // with its bone, its time as stored and its pairs; the others have none.
    let events: Vec<usize> = json["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|animation| {
            animation["extras"]["ossuary_events"]
                .as_array()
                .map_or(0, Vec::len)
        })
        .collect();
    assert_eq!(events.iter().sum::<usize>(), 108, "{events:?}");
    let broom = json["animations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|animation| animation["name"] == "a2o-broom-fly-leftside")
        .unwrap();
    let first = &broom["extras"]["ossuary_events"][0];
    assert_eq!(first["time"], 1, "{first}");
    assert!(first["joint"].is_string(), "{first}");
    assert_eq!(first["properties"][0][0], "dress", "{first}");
    if let Some(folder) = std::env::var_os("OSSUARY_GLTF_OUT") {
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(&glb, Path::new(&folder).join("tso-cape-animated.glb")).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every real animation's events are kept: the broom flight dresses and
/// undresses the broom on each of its 54 motions.
#[test]
fn the_real_animations_keep_their_events() {
    let Some(tso) = corpus() else {
        return;
    };
    let broom = only_file(&tso.join("Animations"), "anim", "broom");
    let info = ossuary(&["info", &broom.to_string_lossy()]);
    assert_status(&info, 0);
    assert!(
        stdout(&info).contains("motions: 54") && stdout(&info).contains("events: 108"),
        "{}",
        stdout(&info)
    );
    let dump = ossuary(&["dump", &broom.to_string_lossy()]);
    assert!(stdout(&dump).contains("fso-broom-handr"));
}

/// In FreeSO's folders (`Appearances`, `Bindings`, `Meshes`, and a
/// `Skeletons` folder beside them), an appearance needs no `--skeleton`:
/// the one beside its folder poses it, as the same skeleton named does.
#[test]
fn an_appearance_in_freeso_s_folders_is_posed_on_the_skeleton_beside_them() {
    let dir = scratch("folders");
    let apr = write(&dir.join("Appearances"), APR, &fixture_bytes(APR));
    write(&dir.join("Bindings"), BND, &fixture_bytes(BND));
    write(&dir.join("Meshes"), MESH, &fixture_bytes(MESH));
    let skel = write(
        &dir.join("Skeletons"),
        "humanoid.skel",
        &fixture_bytes("humanoid.skel"),
    );
    let beside = dir.join("beside.obj");
    let found = ossuary(&[
        "skin",
        &apr,
        "--anim",
        &fixture(ANIM),
        "-o",
        &beside.to_string_lossy(),
    ]);
    assert_status(&found, 0);
    let named = dir.join("named.obj");
    let given = ossuary(&[
        "skin",
        &apr,
        "--skeleton",
        &skel,
        "--anim",
        &fixture(ANIM),
        "-o",
        &named.to_string_lossy(),
    ]);
    assert_status(&given, 0);
    assert_eq!(obj_positions(&beside), obj_positions(&named));
    assert_eq!(obj_positions(&beside).len(), 8);
    let glb = dir.join("arm.glb");
    let convert = ossuary(&["convert", &apr, "-o", &glb.to_string_lossy()]);
    assert_status(&convert, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}
