//! The Sims 1998 prototype through the CLI: a character file holding a
//! skeleton and a suit poses on its own; its suit's meshes are `.msh` files,
//! its skills' keys `.bin` files, its textures in a `Textures` folder. On a
//! synthetic character (the humanoid sample, its suit naming the `.msh`
//! sample) and, when `OSSUARY_CORPUS` is set, on the real prototype files,
//! against the independent implementation.

mod independent;
mod support;

use std::path::Path;

use formats::sims::cmx::Cmx;
use independent::{
    bin_components, cmx_bones, posed_msh, read_msh, sims_skill_pose, sims_world_matrices,
    transform_point, Mat4,
};
use support::{assert_status, fixture_bytes, ossuary, stderr, stdout, write};

const MESH: &str = "xskin-humanoid_proto-L_ARM-ARM";

/// The humanoid's prototype sample (a `version 200` file) with its suit
/// naming the `.msh` sample, and its skill's keys the `.bin` sample (no
/// `.cfp` beside it). With `texture`, the mesh's texture is in
/// `Textures/`, named in another case.
fn prototype_humanoid(texture: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let cmx = String::from_utf8(fixture_bytes("humanoid-prototype.cmx"))
        .unwrap()
        .replace("xskin-humanoid-L_ARM-ARM", MESH);
    assert!(cmx.contains(MESH) && cmx.contains("version 200\r\n"));
    write(dir.path(), "proto.cmx", cmx.as_bytes());
    let mesh = format!("{MESH}.msh");
    write(dir.path(), &mesh, &fixture_bytes(&mesh));
    write(
        dir.path(),
        "xskill-humanoid-wave.bin",
        &fixture_bytes("xskill-humanoid-wave.bin"),
    );
    if texture {
        std::fs::create_dir(dir.path().join("TEXTURES")).unwrap();
        let png = tiny_skia::Pixmap::new(2, 2).unwrap().encode_png().unwrap();
        write(&dir.path().join("TEXTURES"), "Humanoid-Arm.PNG", &png);
    }
    dir
}

fn path_in(dir: &Path, name: &str) -> String {
    dir.join(name).to_string_lossy().into_owned()
}

fn json(output: &std::process::Output) -> serde_json::Value {
    assert_status(output, 0);
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The `v` lines and the `vt` lines of an OBJ.
fn obj_vertices(path: &Path) -> (Vec<[f64; 3]>, Vec<[f64; 2]>, usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let numbers = |line: &str| -> Vec<f64> {
        line.split_whitespace()
            .map(|token| token.parse().unwrap())
            .collect()
    };
    let positions = text
        .lines()
        .filter_map(|line| line.strip_prefix("v "))
        .map(|rest| <[f64; 3]>::try_from(numbers(rest)).unwrap())
        .collect();
    let uvs = text
        .lines()
        .filter_map(|line| line.strip_prefix("vt "))
        .map(|rest| <[f64; 2]>::try_from(numbers(rest)).unwrap())
        .collect();
    let faces = text.lines().filter(|line| line.starts_with("f ")).count();
    (positions, uvs, faces)
}

/// Keeps an exported asset in `OSSUARY_GLTF_OUT` when it names a folder,
/// for CI's glTF validator.
fn keep_for_validation(asset: &Path, name: &str) {
    if let Some(folder) = std::env::var_os("OSSUARY_GLTF_OUT") {
        let folder = Path::new(&folder);
        std::fs::create_dir_all(folder).unwrap();
        std::fs::copy(asset, folder.join(name)).unwrap();
    }
}

/// The JSON chunk of a `.glb`.
fn glb_json(path: &Path) -> serde_json::Value {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..4], b"glTF");
    let length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&bytes[20..20 + length]).unwrap()
}

fn assert_close(got: &[[f64; 3]], want: &[[f64; 3]], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: vertex count");
    for (index, (got, want)) in got.iter().zip(want).enumerate() {
        for axis in 0..3 {
            assert!(
                (got[axis] - want[axis]).abs() < 1e-4,
                "{what}: vertex {index}: {got:?} vs {want:?}"
            );
        }
    }
}

/// The bone world matrices of a character's first skeleton, at rest or
/// posed by its (or an animation file's) first skill at `frame`, the keys
/// in `bin`.
fn independent_world(
    character: &Cmx,
    animation: Option<(&Cmx, &[u8], usize)>,
) -> (Vec<Vec<u8>>, Vec<Mat4>) {
    let mut bones = cmx_bones(&character.skeletons[0]);
    if let Some((animation, bin, frame)) = animation {
        let skill = &animation.skills[0];
        let components = bin_components(
            bin,
            skill.position_count as usize,
            skill.rotation_count as usize,
        );
        bones = sims_skill_pose(&bones, skill, &components, frame);
    }
    let names = bones.iter().map(|bone| bone.name.clone()).collect();
    (names, sims_world_matrices(&bones))
}

/// Every mesh of the character's suits posed by the independent
/// implementation, in suit order, read from `dir`.
fn independent_meshes(
    dir: &Path,
    character: &Cmx,
    names: &[Vec<u8>],
    world: &[Mat4],
) -> Vec<[f64; 3]> {
    let mut positions = Vec::new();
    for suit in &character.suits {
        for skin in &suit.skins {
            let bone = names
                .iter()
                .position(|name| name == &skin.bone.0)
                .expect("the suit's bone is in the skeleton");
            let mesh = read_msh(&std::fs::read(dir.join(format!("{}.msh", skin.name))).unwrap());
            positions.extend(posed_msh(&mesh, &world[bone]));
        }
    }
    positions
}

#[test]
fn a_character_in_one_file_needs_no_skeleton_option_and_its_bin_keys_pose_it() {
    let dir = prototype_humanoid(false);
    let proto = path_in(dir.path(), "proto.cmx");
    let humanoid = support::fixture("humanoid.cmx");
    // The same skeleton, and the same keys from the `.bin` as from the
    // `.cfp` the sample's skill has beside it.
    assert_eq!(
        json(&ossuary(&["joints", &proto])),
        json(&ossuary(&["joints", &humanoid]))
    );
    let animated = |file: &str| json(&ossuary(&["joints", file, "--anim", file, "--frame", "1"]));
    let waving = animated(&proto);
    assert_eq!(waving, animated(&humanoid));
    assert_ne!(waving, json(&ossuary(&["joints", &proto])));
}

#[test]
fn skin_writes_each_msh_posed_by_its_suits_bone_with_its_uvs_and_faces() {
    let dir = prototype_humanoid(false);
    let proto = path_in(dir.path(), "proto.cmx");
    let character = Cmx::from_text(&std::fs::read(dir.path().join("proto.cmx")).unwrap()).unwrap();
    let bin = std::fs::read(dir.path().join("xskill-humanoid-wave.bin")).unwrap();
    let mesh = read_msh(&std::fs::read(dir.path().join(format!("{MESH}.msh"))).unwrap());
    for frame in [None, Some(1)] {
        let out = dir.path().join("out.obj");
        let mut args = vec!["skin", proto.as_str(), "-o"];
        let out_text = out.to_string_lossy().into_owned();
        args.push(&out_text);
        let frame_text = frame.map(|frame: usize| frame.to_string());
        if let Some(frame_text) = &frame_text {
            args.extend(["--anim", proto.as_str(), "--frame", frame_text]);
        }
        assert_status(&ossuary(&args), 0);
        let (names, world) =
            independent_world(&character, frame.map(|frame| (&character, &bin[..], frame)));
        let (positions, uvs, faces) = obj_vertices(&out);
        assert_close(
            &positions,
            &independent_meshes(dir.path(), &character, &names, &world),
            &format!("frame {frame:?}"),
        );
        let want_uvs: Vec<[f64; 2]> = mesh
            .vertices
            .iter()
            .map(|&(_, uv, _)| mesh.uvs[uv])
            .collect();
        assert_eq!(uvs.len(), want_uvs.len());
        assert_eq!(faces, mesh.faces.len());
    }
    // Raised by the wave: the arm's far end moves.
    let (rest, _, _) = {
        assert_status(
            &ossuary(&["skin", &proto, "-o", &path_in(dir.path(), "rest.obj")]),
            0,
        );
        obj_vertices(&dir.path().join("rest.obj"))
    };
    let (waving, _, _) = obj_vertices(&dir.path().join("out.obj"));
    let moved = rest
        .iter()
        .zip(&waving)
        .map(|(a, b)| {
            (0..3)
                .map(|axis| (a[axis] - b[axis]).powi(2))
                .sum::<f64>()
                .sqrt()
        })
        .fold(0.0, f64::max);
    assert!(moved > 0.2, "the arm's far end moved {moved}");
}

#[test]
fn a_texture_in_the_textures_folder_is_embedded_and_a_missing_one_warns_once() {
    for texture in [true, false] {
        let dir = prototype_humanoid(texture);
        let proto = path_in(dir.path(), "proto.cmx");
        let glb = dir.path().join("proto.glb");
        let output = ossuary(&[
            "convert",
            &proto,
            "--anim",
            &proto,
            "-o",
            &glb.to_string_lossy(),
        ]);
        assert_status(&output, 0);
        keep_for_validation(&glb, &format!("prototype-humanoid-texture-{texture}.glb"));
        let gltf = glb_json(&glb);
        let images = gltf["images"].as_array().map_or(0, Vec::len);
        assert_eq!(gltf["animations"].as_array().unwrap().len(), 1);
        let warnings = stderr(&output);
        if texture {
            assert_eq!(images, 1);
            assert_eq!(warnings, "");
        } else {
            assert_eq!(images, 0);
            assert_eq!(warnings.lines().count(), 1, "{warnings}");
            assert!(
                warnings.starts_with("ossuary: warning: ")
                    && warnings.contains("\"humanoid-arm\"")
                    && warnings.contains(MESH),
                "{warnings}"
            );
        }
    }
}

#[test]
fn render_draws_a_character_from_one_file() {
    let dir = prototype_humanoid(true);
    let proto = path_in(dir.path(), "proto.cmx");
    let png = path_in(dir.path(), "proto.png");
    let output = ossuary(&[
        "render", &proto, "--anim", &proto, "--frame", "1", "-o", &png,
    ]);
    assert_status(&output, 0);
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    assert_eq!(stdout(&output), "");
}

/// The real prototype's files, when `OSSUARY_CORPUS` is set.
fn prototype_corpus() -> Option<std::path::PathBuf> {
    Some(tests::corpus_dir()?.join("sims1-prototype"))
}

#[test]
fn the_real_prototype_sam_stands_and_greets_as_the_independent_implementation_poses_him() {
    let Some(corpus) = prototype_corpus() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let read = |name: &str| Cmx::from_text(&std::fs::read(corpus.join(name)).unwrap()).unwrap();
    let sam = read("samnud.cmx");
    let greet = read("adult-greet01.cmx");
    let bin = std::fs::read(corpus.join("xskill-adult-greet01.bin")).unwrap();
    let samnud = path_in(&corpus, "samnud.cmx");
    let greeting = path_in(&corpus, "adult-greet01.cmx");

    // Joints at rest.
    let (names, world) = independent_world(&sam, None);
    let joints = json(&ossuary(&["joints", &samnud]));
    for (joint, matrix) in joints.as_array().unwrap().iter().zip(&world) {
        let position: Vec<f64> = (0..3)
            .map(|axis| joint["position"][axis].as_f64().unwrap())
            .collect();
        let want = transform_point(matrix, [0.0; 3]);
        for axis in 0..3 {
            assert!((position[axis] - want[axis]).abs() < 1e-4, "{joint}");
        }
    }

    // Every mesh, at rest and at frames of the greeting.
    let mut hands_at = Vec::new();
    for frame in [None, Some(0), Some(40), Some(90)] {
        let out = dir.path().join("sam.obj");
        let out_text = out.to_string_lossy().into_owned();
        let frame_text = frame.map(|frame: usize| frame.to_string());
        let mut args = vec!["skin", samnud.as_str(), "-o", &out_text];
        if let Some(frame_text) = &frame_text {
            args.extend(["--anim", greeting.as_str(), "--frame", frame_text]);
        }
        assert_status(&ossuary(&args), 0);
        let (names, world) = independent_world(&sam, frame.map(|frame| (&greet, &bin[..], frame)));
        let want = independent_meshes(&corpus, &sam, &names, &world);
        let (positions, _, _) = obj_vertices(&out);
        assert_close(&positions, &want, &format!("samnud at frame {frame:?}"));
        let hand = |name: &[u8]| {
            let index = names.iter().position(|bone| bone == name).unwrap();
            transform_point(&world[index], [0.0; 3])
        };
        hands_at.push((hand(b"L_HAND"), hand(b"R_HAND")));
    }
    // A greeting moves a hand well away from where it rests.
    let moved = |a: [f64; 3], b: [f64; 3]| {
        (0..3)
            .map(|axis| (a[axis] - b[axis]).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    let (rest_left, rest_right) = hands_at[0];
    let farthest = hands_at[1..]
        .iter()
        .map(|&(left, right)| moved(left, rest_left).max(moved(right, rest_right)))
        .fold(0.0, f64::max);
    assert!(farthest > 0.3, "the hands moved at most {farthest}");
    assert_eq!(names.len(), sam.skeletons[0].bones.len());

    // One glTF asset, every texture embedded, animated.
    let glb = dir.path().join("sam.glb");
    let output = ossuary(&[
        "convert",
        &samnud,
        "--anim",
        &greeting,
        "-o",
        &glb.to_string_lossy(),
    ]);
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    keep_for_validation(&glb, "prototype-samnud-greet01.glb");
    let gltf = glb_json(&glb);
    assert_eq!(gltf["meshes"].as_array().unwrap().len(), 20);
    assert_eq!(gltf["images"].as_array().unwrap().len(), 13);
    assert_eq!(gltf["animations"].as_array().unwrap().len(), 1);

    // The mug names a texture the set lacks: one warning, the asset made.
    let mug = dir.path().join("mug.glb");
    let output = ossuary(&[
        "convert",
        &samnud,
        &path_in(&corpus, "xskin-suit-coffeemug.cmx"),
        "-o",
        &mug.to_string_lossy(),
    ]);
    assert_status(&output, 0);
    let warnings = stderr(&output);
    assert_eq!(warnings.lines().count(), 1, "{warnings}");
    assert!(warnings.contains("\"cup\""), "{warnings}");

    // An animation whose keys are not in the set names both files.
    let output = ossuary(&[
        "joints",
        &samnud,
        "--anim",
        &path_in(&corpus, "Ross-idle1.cmx"),
        "--skill",
        "ross-idle1-start",
    ]);
    assert_status(&output, 1);
    let error = stderr(&output);
    assert!(
        error.contains("xskill-ross-idle1-start.cfp")
            && error.contains("xskill-ross-idle1-start.bin"),
        "{error}"
    );
}

/// `convert --to sims-cmx -o DIR` writes the prototype character in the
/// released game's formats: a version 300 `.cmx`, its mesh as a `.skn`, its
/// `.bin` keys as a `.cfp` named as released skills name theirs, its PNG
/// texture as an 8-bit BMP beside the skin; the converted files pose and
/// animate exactly as the prototype's did.
#[test]
fn a_prototype_character_converts_to_the_released_formats_and_poses_the_same() {
    let dir = prototype_humanoid(true);
    let proto = path_in(dir.path(), "proto.cmx");
    let out = dir.path().join("retail");
    let out_text = out.to_string_lossy().into_owned();
    let output = ossuary(&["convert", &proto, "--to", "sims-cmx", "-o", &out_text]);
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    let retail = Cmx::from_text(&std::fs::read(out.join("proto.cmx")).unwrap()).unwrap();
    assert_eq!(retail.version, 300);
    assert!(out.join(format!("{MESH}.skn")).is_file());
    assert!(out.join("xskill-A2O-humanoid-wave.cfp").is_file());
    assert_eq!(retail.skills[0].name.to_text(), "a2o-humanoid-wave");
    // The texture the mesh names, as the BMP the game and its tools read.
    let bmp = std::fs::read(out.join("humanoid-arm.bmp")).unwrap();
    assert_eq!((&bmp[..2], bmp[28]), (b"BM".as_slice(), 8));
    assert!(!out.join(format!("{MESH}.msh")).exists());
    let converted = path_in(&out, "proto.cmx");
    for args in [vec![], vec!["--anim", "FILE", "--frame", "1"]] {
        let with = |file: &str| -> Vec<String> {
            args.iter()
                .map(|&arg| if arg == "FILE" { file } else { arg }.to_owned())
                .collect()
        };
        let joints = |file: &str| {
            let mut all = vec!["joints".to_owned(), file.to_owned()];
            all.extend(with(file));
            let all: Vec<&str> = all.iter().map(String::as_str).collect();
            json(&ossuary(&all))
        };
        assert_eq!(joints(&converted), joints(&proto), "{args:?}");
        let skinned = |file: &str, obj: &str| {
            let obj = path_in(dir.path(), obj);
            let mut all = vec![
                "skin".to_owned(),
                file.to_owned(),
                "-o".to_owned(),
                obj.clone(),
            ];
            all.extend(with(file));
            let all: Vec<&str> = all.iter().map(String::as_str).collect();
            assert_status(&ossuary(&all), 0);
            obj_vertices(Path::new(&obj))
        };
        let (proto_positions, proto_uvs, _) = skinned(&proto, "proto.obj");
        let (retail_positions, retail_uvs, _) = skinned(&converted, "retail.obj");
        assert_eq!(retail_positions, proto_positions, "{args:?}");
        assert_eq!(retail_uvs, proto_uvs, "{args:?}");
    }
}

/// `skin`'s MTL names the image found for a mesh's texture (here in the
/// `Textures` folder, in another case) by its path, so OBJ viewers find it;
/// a texture without an image keeps the name the mesh gives.
#[test]
fn the_objs_materials_name_the_texture_images_found() {
    let dir = prototype_humanoid(true);
    let proto = path_in(dir.path(), "proto.cmx");
    let obj = dir.path().join("proto.obj");
    let output = ossuary(&["skin", &proto, "-o", &obj.to_string_lossy()]);
    assert_status(&output, 0);
    let mtl = std::fs::read_to_string(dir.path().join("proto.mtl")).unwrap();
    let image = std::path::absolute(dir.path().join("TEXTURES").join("Humanoid-Arm.PNG")).unwrap();
    assert!(
        mtl.contains(&format!("map_Kd {}\n", image.display())),
        "{mtl}"
    );

    let bare = prototype_humanoid(false);
    let proto = path_in(bare.path(), "proto.cmx");
    let obj = bare.path().join("proto.obj");
    assert_status(&ossuary(&["skin", &proto, "-o", &obj.to_string_lossy()]), 0);
    let mtl = std::fs::read_to_string(bare.path().join("proto.mtl")).unwrap();
    assert!(mtl.contains("map_Kd humanoid-arm\n"), "{mtl}");
}
