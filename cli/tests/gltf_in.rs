//! `convert IN.glb|IN.gltf --to sims-cmx -o DIR`: glTF back into The Sims'
//! files. A character exported by ossuary comes back with the same skins
//! and suits (structure exactly, positions within float noise); edits come
//! back as edits; a glTF without what the game needs is refused in one
//! sentence, leaving no folder behind.

mod support;

use std::path::{Path, PathBuf};

use formats::sims::skn::Skn;
use support::{
    add_to, assert_status, attribute_offset, files_below, fixture, fixture_bytes, gltf_parts,
    ossuary, stderr, text, without_extras, write_gltf,
};

const SKIN: &str = "xskin-humanoid-L_ARM-ARM";

/// The humanoid (skeleton, suit, the suit's skin beside it) exported as
/// `name` (`.glb` or `.gltf`) into `dir`.
fn exported(dir: &Path, name: &str) -> PathBuf {
    let out = dir.join(name);
    assert_status(
        &ossuary(&["convert", &fixture("humanoid.cmx"), "-o", &text(&out)]),
        0,
    );
    out
}

fn import(input: &Path, folder: &Path) -> std::process::Output {
    ossuary(&[
        "convert",
        &text(input),
        "--to",
        "sims-cmx",
        "--skeleton",
        &fixture("humanoid.cmx"),
        "-o",
        &text(folder),
    ])
}

fn skn(path: &Path) -> Skn {
    Skn::from_text(&std::fs::read(path).unwrap()).unwrap()
}

fn assert_near(a: [f32; 3], b: [f32; 3], what: &str) {
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() <= 1e-5, "{what}: {a:?} against {b:?}");
    }
}

#[test]
fn the_humanoid_comes_back_from_its_own_gltf() {
    let dir = tempfile::tempdir().unwrap();
    let glb = exported(dir.path(), "h.glb");
    let out = dir.path().join("out");
    let output = import(&glb, &out);
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    assert_eq!(
        files_below(&out),
        [
            PathBuf::from("humanoid.cmx"),
            PathBuf::from(format!("{SKIN}.skn"))
        ]
    );
    let original = Skn::from_text(&fixture_bytes(&format!("{SKIN}.skn"))).unwrap();
    let back = skn(&out.join(format!("{SKIN}.skn")));
    assert_eq!(back.name, original.name);
    assert_eq!(back.texture, original.texture);
    assert_eq!(back.bones, original.bones);
    assert_eq!(back.faces, original.faces);
    assert_eq!(back.bindings, original.bindings);
    assert_eq!(back.blends, original.blends);
    // Texture coordinates go through glTF untouched: bit for bit.
    assert_eq!(back.uvs, original.uvs);
    // The skin the glTF carries gives back the numbers glTF cannot hold
    // exactly: the blend vertices' stored points, the stored normals off
    // unit length ((-1, 0, -1)) and the last bits of positions.
    assert_eq!(back.vertices, original.vertices);
    assert_eq!(
        std::fs::read(out.join(format!("{SKIN}.skn"))).unwrap(),
        fixture_bytes(&format!("{SKIN}.skn"))
    );
    // The humanoid file holds its skeleton, suit and skill (the glTF has
    // no animation, so the carried skill stays as it was): it comes back
    // as that one file, byte for byte.
    assert_eq!(
        std::fs::read(out.join("humanoid.cmx")).unwrap(),
        fixture_bytes("humanoid.cmx")
    );
    let suit =
        formats::sims::cmx::Cmx::from_text(&std::fs::read(out.join("humanoid.cmx")).unwrap())
            .unwrap();
    assert_eq!(suit.suits[0].name.to_text(), "humanoid-arm");
    assert_eq!(suit.suits[0].skins[0].bone.to_text(), "L_ARM");
    assert_eq!(suit.suits[0].skins[0].name.to_text(), SKIN);
    assert_status(&ossuary(&["check", &text(&out)]), 0);
}

/// Where vertex `vertex`'s position starts in the buffer.
fn position_offset(json: &serde_json::Value, vertex: usize) -> usize {
    attribute_offset(json, 0, "POSITION", vertex)
}

#[test]
fn a_moved_vertex_comes_back_moved_and_a_pulled_one_moves_both_its_points() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = exported(dir.path(), "h.gltf");
    let (json, mut buffer) = gltf_parts(&gltf);
    // glTF x is the file's -x. Vertex 0 follows L_ARM alone; vertex 2 is
    // pulled half way by a blend vertex on L_HAND.
    add_to(&mut buffer, position_offset(&json, 0), 0.5);
    add_to(&mut buffer, position_offset(&json, 2), 0.25);
    let edited = dir.path().join("edited.gltf");
    write_gltf(&edited, json, &buffer);
    let out = dir.path().join("out");
    assert_status(&import(&edited, &out), 0);
    let original = Skn::from_text(&fixture_bytes(&format!("{SKIN}.skn"))).unwrap();
    let back = skn(&out.join(format!("{SKIN}.skn")));
    assert_eq!(back.bindings, original.bindings);
    assert_eq!(back.blends, original.blends);
    let moved = |vertex: usize, delta: f32| {
        let [x, y, z] = original.vertices[vertex].position;
        [x - delta, y, z]
    };
    // The humanoid's bones are not turned, so a move in the model is the
    // same move in each bone's space.
    assert_near(back.vertices[0].position, moved(0, 0.5), "vertex 0");
    assert_near(back.vertices[1].position, moved(1, 0.0), "vertex 1");
    assert_near(back.vertices[2].position, moved(2, 0.25), "vertex 2");
    // Blend vertex 0 (vertex 8 of the list) pulls vertex 2.
    assert_near(
        back.vertices[8].position,
        moved(8, 0.25),
        "its blend vertex",
    );
    assert_near(
        back.vertices[9].position,
        moved(9, 0.0),
        "the other blend vertex",
    );
}

#[test]
fn without_its_extras_a_skin_is_derived_from_the_weights() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = exported(dir.path(), "h.gltf");
    let (mut json, buffer) = gltf_parts(&gltf);
    json["meshes"][0].as_object_mut().unwrap().remove("extras");
    json["nodes"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .for_each(|node| {
            node.as_object_mut().unwrap().remove("extras");
        });
    json["scenes"][0].as_object_mut().unwrap().remove("extras");
    let bare = dir.path().join("bare.gltf");
    write_gltf(&bare, json, &buffer);
    let out = dir.path().join("out");
    let output = import(&bare, &out);
    assert_status(&output, 0);
    // One warning says what was derived.
    let warnings = stderr(&output);
    assert_eq!(warnings.lines().count(), 1, "{warnings}");
    assert!(
        warnings.contains("carries none of the Sims' own data"),
        "{warnings}"
    );
    // The suit is named from the skin's name, `xskin-<suit>-<BONE>-<part>`.
    assert_eq!(
        files_below(&out),
        [
            PathBuf::from("humanoid.cmx"),
            PathBuf::from(format!("{SKIN}.skn"))
        ]
    );
    let back = skn(&out.join(format!("{SKIN}.skn")));
    assert_eq!(back.name.to_text(), SKIN);
    assert_eq!(back.texture.to_text(), "x");
    assert_eq!(back.faces.len(), 8);
    // Vertices 2 and 3 blend L_ARM and L_HAND by (1/2, 1/2) and (3/4, 1/4):
    // the heavier (the first, in a tie) carries the vertex, the other a
    // blend vertex pulling it by the lighter weight.
    let bones: Vec<String> = back.bones.iter().map(|bone| bone.to_text()).collect();
    assert_eq!(bones, ["L_ARM", "L_HAND"]);
    let blends: Vec<(i32, i32)> = back
        .blends
        .iter()
        .map(|blend| (blend.vertex, blend.raw_weight))
        .collect();
    assert_eq!(blends, [(2, 16384), (3, 8192)]);
    // Vertices 4..8 follow L_HAND alone: they come after L_ARM's.
    let ranges: Vec<(i32, i32, i32, i32, i32)> = back
        .bindings
        .iter()
        .map(|b| {
            (
                b.bone,
                b.first_vertex,
                b.vertex_count,
                b.first_blend,
                b.blend_count,
            )
        })
        .collect();
    assert_eq!(ranges, [(0, 0, 4, -1, 0), (1, 4, 4, 0, 2)]);
    assert_status(&ossuary(&["check", &text(&out)]), 0);
}

/// Runs the import of `input` and asserts one sentence, status 1, and no
/// output folder.
fn refused(input: &Path, expected: &str) {
    let out = input.with_extension("out");
    let output = import(input, &out);
    support::assert_refused(&output, &out, expected);
}

#[test]
fn a_gltf_the_game_cannot_hold_is_refused_in_one_sentence_with_no_folder_left() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = exported(dir.path(), "h.gltf");
    let (json, buffer) = gltf_parts(&gltf);
    let edited = |name: &str, change: &dyn Fn(&mut serde_json::Value)| {
        support::edited_gltf(&dir.path().join(name), &json, &buffer, change)
    };
    for (variant, says) in support::unholdable_variants(dir.path(), &gltf) {
        refused(&variant, says);
    }
    let no_uvs = edited("no-uvs.gltf", &|json| {
        json["meshes"][0]["primitives"][0]["attributes"]
            .as_object_mut()
            .unwrap()
            .remove("TEXCOORD_0");
    });
    refused(&no_uvs, "has no texture coordinates (uvs)");
    // Joint 200 of a skin of 12: the JOINTS_0 accessor read as floats would
    // be wrong, so its first vertex's first joint byte is set directly.
    let mut far_joint = buffer.clone();
    let joints_accessor = json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"]
        .as_u64()
        .unwrap() as usize;
    let accessor = &json["accessors"][joints_accessor];
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let at = view["byteOffset"].as_u64().unwrap_or(0) as usize
        + accessor["byteOffset"].as_u64().unwrap_or(0) as usize;
    far_joint[at] = 200;
    let far = dir.path().join("far-joint.gltf");
    write_gltf(&far, json.clone(), &far_joint);
    refused(
        &far,
        "vertex 0 of primitive 0 follows joint 200, and the skin has 12",
    );
    let scaled = edited("scaled.gltf", &|json| {
        json["nodes"][2]["scale"] = serde_json::json!([1.0, 2.0, 1.0]);
    });
    refused(
        &scaled,
        "is scaled by [1.0, 2.0, 1.0]; a Sims bone has no scale",
    );
    let unknown = edited("unknown.gltf", &|json| {
        json["nodes"][1]["name"] = "TAIL".into();
    });
    refused(&unknown, "the skeleton has no joint \"TAIL\"");
    let glb = exported(dir.path(), "h.glb");
    refused(
        &support::truncated_glb(dir.path(), &glb),
        "not a glTF asset that can be read",
    );
    // A skeleton alone has no mesh to become a skin.
    let bare = dir.path().join("skeleton.glb");
    let skeleton_only = formats::sims::cmx::Cmx {
        suits: Vec::new(),
        skills: Vec::new(),
        ..formats::sims::cmx::humanoid()
    };
    let skeleton_file = support::write(
        dir.path(),
        "skeleton.cmx",
        &skeleton_only.to_text().unwrap(),
    );
    assert_status(
        &ossuary(&["convert", &skeleton_file, "-o", &text(&bare)]),
        0,
    );
    refused(&bare, "the asset has neither a mesh nor an animation");
}

#[test]
fn with_write_skeleton_the_gltf_s_own_skeleton_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let glb = exported(dir.path(), "h.glb");
    let out = dir.path().join("out");
    let output = ossuary(&[
        "convert",
        &text(&glb),
        "--to",
        "sims-cmx",
        "--write-skeleton",
        "-o",
        &text(&out),
    ]);
    assert_status(&output, 0);
    let written =
        formats::sims::cmx::Cmx::from_text(&std::fs::read(out.join("adult-skeleton.cmx")).unwrap())
            .unwrap();
    let original = formats::sims::cmx::humanoid();
    let (written, original) = (&written.skeletons[0], &original.skeletons[0]);
    assert_eq!(written.name.to_text(), "adult");
    assert_eq!(written.bones.len(), original.bones.len());
    for (back, bone) in written.bones.iter().zip(&original.bones) {
        assert_eq!((&back.name, &back.parent), (&bone.name, &bone.parent));
        assert_near(back.translation, bone.translation, "translation");
        let [x, y, z, w] = back.rotation;
        let [a, b, c, d] = bone.rotation;
        // q and -q are one rotation.
        let dot = x * a + y * b + z * c + w * d;
        assert!(
            (dot.abs() - 1.0).abs() <= 1e-5,
            "{:?} against {:?}",
            back.rotation,
            bone.rotation
        );
    }
    // The skins written with it pose as with the original skeleton.
    assert_status(&ossuary(&["check", &text(&out)]), 0);
    let posed = |skeleton: &str| {
        let obj = dir.path().join("posed.obj");
        assert_status(
            &ossuary(&[
                "skin",
                &text(&out.join(format!("{SKIN}.skn"))),
                "--skeleton",
                skeleton,
                "-o",
                &text(&obj),
            ]),
            0,
        );
        std::fs::read_to_string(&obj).unwrap()
    };
    let numbers = |obj: String| -> Vec<f32> {
        obj.lines()
            .filter(|line| line.starts_with("v "))
            .flat_map(|line| {
                line.split_whitespace()
                    .skip(1)
                    .map(|n| n.parse::<f32>().unwrap())
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let with_written = numbers(posed(&text(&out.join("adult-skeleton.cmx"))));
    let with_original = numbers(posed(&fixture("humanoid.cmx")));
    assert_eq!(with_written.len(), with_original.len());
    for (a, b) in with_written.iter().zip(&with_original) {
        assert!((a - b).abs() <= 1e-5, "{a} against {b}");
    }
}

/// Every real retail skin and suit, exported with the adult skeleton and
/// brought back: suits and skins byte for byte, also from the glTF as
/// Blender's defaults write it (no extras).
#[test]
fn every_real_retail_skin_and_suit_comes_back() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let sims = corpus.join("sims1");
    let skins = tests::files_with_extension(&sims, "skn");
    let suits = ["B001FAFat_01.cmx", "C002FC_Lisa.cmx"];
    // Skins a suit names are given by the suit.
    let loose: Vec<&PathBuf> = skins
        .iter()
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy().to_lowercase();
            !name.contains("b001fafat_01") && !name.contains("c002fc_lisa")
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let gltf = dir.path().join("all.gltf");
    let mut args = vec!["convert".to_owned(), text(&sims.join("adult-skeleton.cmx"))];
    args.extend(suits.iter().map(|suit| text(&sims.join(suit))));
    args.extend(loose.iter().map(|path| text(path)));
    args.extend(["-o".to_owned(), text(&gltf)]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_status(&ossuary(&args), 0);
    // Also as Blender's defaults write it, without any extras: the carried
    // files ride in the first texture, and give the skins their structure
    // and the suits their places.
    let (mut json, buffer) = gltf_parts(&gltf);
    without_extras(&mut json);
    let without = dir.path().join("without-extras.gltf");
    write_gltf(&without, json, &buffer);
    assert_eq!(skins.len(), 10);
    for (input, out) in [(&gltf, "out"), (&without, "out-without-extras")] {
        let out = dir.path().join(out);
        let output = ossuary(&[
            "convert",
            &text(input),
            "--to",
            "sims-cmx",
            "--skeleton",
            &text(&sims.join("adult-skeleton.cmx")),
            "-o",
            &text(&out),
        ]);
        assert_status(&output, 0);
        assert_status(&ossuary(&["check", &text(&out)]), 0);
        for suit in suits {
            assert_eq!(
                std::fs::read(out.join(suit)).unwrap(),
                std::fs::read(sims.join(suit)).unwrap(),
                "{}: {suit}",
                input.display()
            );
        }
        for path in &skins {
            let original = skn(path);
            let back = skn(&out.join(format!("{}.skn", original.name)));
            let name = format!("{}: {}", input.display(), path.display());
            assert_eq!(back.name, original.name, "{name}");
            assert_eq!(back.texture, original.texture, "{name}");
            assert_eq!(back.bones, original.bones, "{name}");
            assert_eq!(back.faces, original.faces, "{name}");
            assert_eq!(back.bindings, original.bindings, "{name}");
            assert_eq!(back.blends, original.blends, "{name}");
            assert_eq!(back.uvs, original.uvs, "{name}");
            assert_eq!(back.vertices.len(), original.vertices.len(), "{name}");
            // The skin the glTF carries gives back the last bits of
            // positions and the stored normals off unit length (by up to
            // 3.9e-4).
            assert_eq!(back.vertices, original.vertices, "{name}");
            assert_eq!(
                std::fs::read(out.join(format!("{}.skn", original.name))).unwrap(),
                std::fs::read(path).unwrap(),
                "{name}"
            );
        }
    }
}

/// The keys of a `.cfp` of `skill`'s counts.
fn cfp_values(bytes: &[u8], skill: &formats::sims::cmx::Skill) -> formats::sims::cfp::Values {
    use formats::sims::cfp::{Streams, StreamsContext, ValueCount};
    let counts = StreamsContext {
        position_count: ValueCount(skill.position_count as u32),
        rotation_count: ValueCount(skill.rotation_count as u32),
    };
    Streams::split(bytes, &counts).unwrap().values().unwrap()
}

/// The humanoid's character file and its wave's keys in `out`, byte for
/// byte.
fn assert_the_humanoid_file_and_keys_come_back(out: &Path) {
    assert_eq!(
        std::fs::read(out.join("humanoid.cmx")).unwrap(),
        fixture_bytes("humanoid.cmx")
    );
    assert_eq!(
        std::fs::read(out.join("xskill-humanoid-wave.cfp")).unwrap(),
        fixture_bytes("xskill-humanoid-wave.cfp")
    );
}

#[test]
fn an_animation_comes_back_as_its_skill_with_the_same_keys() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = dir.path().join("wave.gltf");
    // The humanoid file holds the skill; its keys are the .cfp sample.
    let folder = dir.path().join("in");
    std::fs::create_dir(&folder).unwrap();
    for name in [
        "humanoid.cmx",
        "xskin-humanoid-L_ARM-ARM.skn",
        "xskill-humanoid-wave.cfp",
    ] {
        support::write(&folder, name, &fixture_bytes(name));
    }
    let character = text(&folder.join("humanoid.cmx"));
    assert_status(
        &ossuary(&[
            "convert",
            &character,
            "--anim",
            &character,
            "-o",
            &text(&gltf),
        ]),
        0,
    );
    let out = dir.path().join("out");
    assert_status(&import(&gltf, &out), 0);
    let original = formats::sims::cmx::humanoid().skills.remove(0);
    // The record travels in the animation's extras: a name the game would
    // not give is kept. The humanoid file holds its skeleton, suit and
    // skill: it comes back as that one file, byte for byte, and the keys
    // as their .cfp was.
    assert!(!out.join("humanoid-wave.cmx").exists());
    let back =
        formats::sims::cmx::Cmx::from_text(&std::fs::read(out.join("humanoid.cmx")).unwrap())
            .unwrap();
    assert_eq!(back.skills, std::slice::from_ref(&original));
    assert_the_humanoid_file_and_keys_come_back(&out);
    let keys = |path: &Path| cfp_values(&std::fs::read(path).unwrap(), &original);
    let back_keys = keys(&out.join("xskill-humanoid-wave.cfp"));
    let original_keys = keys(&folder.join("xskill-humanoid-wave.cfp"));
    assert_eq!(
        back_keys.translations.len(),
        original_keys.translations.len()
    );
    for (back, original) in back_keys.rotations.iter().zip(&original_keys.rotations) {
        // A rotation and its negation are one turn.
        let dot: f32 = back.iter().zip(original).map(|(a, b)| a * b).sum();
        assert!(
            (dot.abs() - 1.0).abs() <= 1e-6,
            "{back:?} against {original:?}"
        );
    }
    // Without the record in the animation's extras (Blender keeps none),
    // the carried character file's skill of its name is its record: the
    // same files come back.
    let (mut json, buffer) = gltf_parts(&gltf);
    json["animations"][0]
        .as_object_mut()
        .unwrap()
        .remove("extras");
    let unrecorded = dir.path().join("unrecorded.gltf");
    write_gltf(&unrecorded, json.clone(), &buffer);
    let out = dir.path().join("unrecorded-out");
    assert_status(&import(&unrecorded, &out), 0);
    assert!(!out.join("adult-humanoid-wave.cmx").exists());
    assert_the_humanoid_file_and_keys_come_back(&out);
    // Without the carried files either, the animation gets a released name
    // and file name.
    json["scenes"][0].as_object_mut().unwrap().remove("extras");
    let bare = dir.path().join("bare.gltf");
    write_gltf(&bare, json, &buffer);
    let out = dir.path().join("bare-out");
    assert_status(&import(&bare, &out), 0);
    let back = formats::sims::cmx::Cmx::from_text(
        &std::fs::read(out.join("adult-humanoid-wave.cmx")).unwrap(),
    )
    .unwrap();
    let skill = &back.skills[0];
    assert_eq!(skill.name.to_text(), "a2o-humanoid-wave");
    assert_eq!(skill.animation.to_text(), "xskill-A2O-humanoid-wave");
    // Two keys and the closing one, evenly spaced: three frames.
    assert_eq!(skill.frame_count(), 3);
    assert!(out.join("xskill-A2O-humanoid-wave.cfp").is_file());
    assert_status(&ossuary(&["check", &text(&out)]), 0);
}

/// The real skills, exported on the adult and brought back: each skill file
/// and its keys byte for byte, and every frame posing the skeleton as the
/// original's keys do, within 1e-5.
#[test]
fn every_real_skill_comes_back() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let sims = corpus.join("sims1");
    let skeleton = text(&sims.join("adult-skeleton.cmx"));
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("skills.glb");
    let skills = ["adult-idle1.cmx", "adult-walking-frantic-loop.cmx"];
    let mut args = vec!["convert", &skeleton, "--anim"];
    let paths: Vec<String> = skills.iter().map(|skill| text(&sims.join(skill))).collect();
    args.extend(paths.iter().map(String::as_str));
    let glb_text = text(&glb);
    args.extend(["-o", &glb_text]);
    assert_status(&ossuary(&args), 0);
    let out = dir.path().join("out");
    assert_status(
        &ossuary(&[
            "convert",
            &glb_text,
            "--to",
            "sims-cmx",
            "--skeleton",
            &skeleton,
            "-o",
            &text(&out),
        ]),
        0,
    );
    assert_status(&ossuary(&["check", &text(&out)]), 0);
    // The keys come back as their compressed .cfp was: glTF holds unit
    // rotations, and the stored ones are a little off unit length.
    for keys in [
        "xskill-A2O-idle1.cfp",
        "xskill-A2O-walking-frantic-loop.cfp",
    ] {
        assert!(
            std::fs::read(out.join(keys)).unwrap() == std::fs::read(sims.join(keys)).unwrap(),
            "{keys}"
        );
    }
    for (skill, original) in skills.iter().zip(&paths) {
        assert_eq!(
            std::fs::read(out.join(skill)).unwrap(),
            std::fs::read(original).unwrap(),
            "{skill}"
        );
        let frames = formats::sims::cmx::Cmx::from_text(&std::fs::read(original).unwrap())
            .unwrap()
            .skills[0]
            .frame_count();
        for frame in 0..frames {
            let joints = |anim: &str| -> Vec<serde_json::Value> {
                let output = ossuary(&[
                    "joints",
                    &skeleton,
                    "--anim",
                    anim,
                    "--frame",
                    &frame.to_string(),
                ]);
                assert_status(&output, 0);
                serde_json::from_slice(&output.stdout).unwrap()
            };
            let (back, original) = (joints(&text(&out.join(skill))), joints(original));
            for (back, original) in back.iter().zip(&original) {
                for (a, b) in back["position"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .zip(original["position"].as_array().unwrap())
                {
                    let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
                    assert!(
                        (a - b).abs() <= 1e-5,
                        "{skill} frame {frame}: {a} against {b}"
                    );
                }
            }
        }
    }
}

#[test]
fn sims_bcf_writes_the_binary_twins_of_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let glb = exported(dir.path(), "h.glb");
    let (text_out, binary_out) = (dir.path().join("text"), dir.path().join("binary"));
    assert_status(&import(&glb, &text_out), 0);
    let output = ossuary(&[
        "convert",
        &text(&glb),
        "--to",
        "sims-bcf",
        "--skeleton",
        &fixture("humanoid.cmx"),
        "-o",
        &text(&binary_out),
    ]);
    assert_status(&output, 0);
    assert_eq!(
        files_below(&binary_out),
        [
            PathBuf::from("humanoid.bcf"),
            PathBuf::from(format!("{SKIN}.bmf"))
        ]
    );
    use formats::schema::BinarySchema;
    let bmf = formats::sims::bmf::Bmf::from_bytes(
        &std::fs::read(binary_out.join(format!("{SKIN}.bmf"))).unwrap(),
    )
    .unwrap();
    let from_binary = bmf.to_skn();
    let from_text = skn(&text_out.join(format!("{SKIN}.skn")));
    assert_eq!(
        (
            &from_binary.name,
            &from_binary.bindings,
            &from_binary.blends,
            &from_binary.vertices
        ),
        (
            &from_text.name,
            &from_text.bindings,
            &from_text.blends,
            &from_text.vertices
        )
    );
    let bcf = formats::sims::bcf::Bcf::from_bytes(
        &std::fs::read(binary_out.join("humanoid.bcf")).unwrap(),
    )
    .unwrap();
    let suit = bcf.to_cmx();
    let text_suit =
        formats::sims::cmx::Cmx::from_text(&std::fs::read(text_out.join("humanoid.cmx")).unwrap())
            .unwrap();
    assert_eq!(suit.suits, text_suit.suits);
    assert_status(&ossuary(&["check", &text(&binary_out)]), 0);
}

/// The binary character (`.bcf` with its skeleton, suit and skill, the
/// `.bmf` skin and the `.cfp` keys beside it) exported with its animation
/// and written back as `sims-bcf` with no skeleton named: the asset carries
/// the binary files as it carries text ones, so the skeleton is found in
/// them and every file comes back byte for byte; also when the animation's
/// own extras are gone (Blender's importer drops them), the skill then
/// found by name in the carried `.bcf`.
#[test]
fn the_binary_character_comes_back_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let exported = dir.path().join("h.gltf");
    let bcf = fixture("humanoid.bcf");
    assert_status(
        &ossuary(&["convert", &bcf, "--anim", &bcf, "-o", &text(&exported)]),
        0,
    );
    let (mut json, buffer) = gltf_parts(&exported);
    for animation in json["animations"].as_array_mut().unwrap() {
        animation.as_object_mut().unwrap().remove("extras");
    }
    let stripped = dir.path().join("stripped.gltf");
    write_gltf(&stripped, json, &buffer);
    for (asset, folder) in [(&exported, "out"), (&stripped, "out-stripped")] {
        let out = dir.path().join(folder);
        let output = ossuary(&[
            "convert",
            &text(asset),
            "--to",
            "sims-bcf",
            "-o",
            &text(&out),
        ]);
        assert_status(&output, 0);
        assert_eq!(stderr(&output), "");
        let written = files_below(&out);
        assert_eq!(
            written,
            [
                PathBuf::from("humanoid.bcf"),
                PathBuf::from("xskill-humanoid-wave.cfp"),
                PathBuf::from(format!("{SKIN}.bmf")),
            ],
            "{folder}"
        );
        for file in written {
            let name = text(&file);
            assert!(
                std::fs::read(out.join(&file)).unwrap() == fixture_bytes(&name),
                "{folder}: {name} differs from the fixture"
            );
        }
    }
}

/// A glTF Blender wrote (`export/tests/blender/make_fixtures.py`).
fn blender_fixture(name: &str) -> PathBuf {
    tests::workspace_root()
        .join("export/tests/fixtures")
        .join(name)
}

/// Where each vertex of `skin` shows with the humanoid at rest, as the
/// game poses it (ossuary's posing, in the Sims' axes).
fn shown_at_rest(skin: &Skn) -> Vec<[f32; 3]> {
    use formats::rig::Rig;
    let cmx = formats::sims::cmx::Cmx::from_text(&fixture_bytes("humanoid.cmx")).unwrap();
    let rig_skeleton = cmx
        .skeleton(
            &formats::files::Files::nowhere(),
            formats::rig::RigOptions::default(),
        )
        .unwrap()
        .unwrap();
    let skeleton = skinning::Skeleton::new(&rig_skeleton).unwrap();
    let rest = skinning::Pose::rest(&skeleton)
        .model_matrices_by(&skeleton, skinning::Composition::Hierarchy)
        .unwrap();
    skinning::BoundSkin::bind(&skin.skin().unwrap(), &skeleton)
        .unwrap()
        .deform(&rest, skinning::BlendRule::Game)
        .unwrap()
        .positions
        .iter()
        .map(|position| position.to_array())
        .collect()
}

/// The humanoid imported into Blender and edited there
/// (`export/tests/blender/make_fixtures.py`): vertex 0 moved 0.5 along
/// Blender's x (glTF's x, the Sims' -x), a quarter of vertex 1 painted onto
/// L_HAND, a new action "shrug" keyed; exported by Blender with its custom
/// properties. The skin shows every vertex where it was but vertex 0,
/// moved by exactly that; vertex 1 blends L_ARM and L_HAND by 3/4 and 1/4;
/// the shrug is a new skill whose every frame poses the joints where
/// Blender showed them.
#[test]
fn a_character_edited_in_blender_comes_back_with_its_edits() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = import(&blender_fixture("humanoid-edited-in-blender.glb"), &out);
    assert_status(&output, 0);
    // The painted weight changes the skin's structure: said once.
    assert!(
        stderr(&output).contains("no longer fits its vertices and weights"),
        "{}",
        stderr(&output)
    );
    assert_status(&ossuary(&["check", &text(&out)]), 0);
    let original = Skn::from_text(&fixture_bytes(&format!("{SKIN}.skn"))).unwrap();
    let back = skn(&out.join(format!("{SKIN}.skn")));
    assert_eq!(
        (&back.bones, &back.faces, &back.uvs),
        (&original.bones, &original.faces, &original.uvs)
    );
    let (shown, was) = (shown_at_rest(&back), shown_at_rest(&original));
    assert_eq!(shown.len(), was.len());
    for (vertex, (shown, was)) in shown.iter().zip(&was).enumerate() {
        let [x, y, z] = *was;
        let expected = if vertex == 0 { [x - 0.5, y, z] } else { *was };
        assert_near(*shown, expected, &format!("vertex {vertex}"));
    }
    // Vertices Blender left alone (5 to 7: away from the moved one, whose
    // faces' normals Blender recomputes) come back as stored, bit for bit,
    // the structure changed though it has.
    assert_eq!(back.vertices[5..8], original.vertices[5..8]);
    // Vertex 1 is carried by L_ARM and pulled by a blend vertex of L_HAND
    // by a quarter (8192 / 32768).
    let l_hand = back
        .bones
        .iter()
        .position(|bone| bone.to_text() == "L_HAND")
        .unwrap() as i32;
    let pulls: Vec<(i32, i32)> = back
        .blends
        .iter()
        .map(|blend| (blend.vertex, blend.raw_weight))
        .collect();
    assert!(pulls.contains(&(1, 8192)), "{pulls:?}");
    let binding = back.bindings.iter().find(|b| b.bone == l_hand).unwrap();
    let blend = pulls.iter().position(|pull| *pull == (1, 8192)).unwrap() as i32;
    assert!((binding.first_blend..binding.first_blend + binding.blend_count).contains(&blend));
    // The new action: a skill of its own, under a released name.
    let shrug =
        formats::sims::cmx::Cmx::from_text(&std::fs::read(out.join("adult-shrug.cmx")).unwrap())
            .unwrap();
    assert_eq!(shrug.skills[0].name.to_text(), "a2o-shrug");
    assert_eq!(shrug.skills[0].frame_count(), 25);
    assert!(out.join("xskill-A2O-shrug.cfp").is_file());
    let poses: serde_json::Value = serde_json::from_slice(
        &std::fs::read(blender_fixture("humanoid-edited-in-blender.glb.poses.json")).unwrap(),
    )
    .unwrap();
    let frames = poses["frames"].as_object().unwrap();
    assert!(frames.len() >= 5);
    for (frame, blender) in frames {
        let output = ossuary(&[
            "joints",
            &fixture("humanoid.cmx"),
            "--anim",
            &text(&out.join("adult-shrug.cmx")),
            "--frame",
            frame,
        ]);
        assert_status(&output, 0);
        let joints: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(joints.len(), blender.as_object().unwrap().len());
        for joint in &joints {
            let name = joint["name"].as_str().unwrap();
            let place = |value: &serde_json::Value| -> [f32; 3] {
                let numbers: Vec<f32> = value
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_f64().unwrap() as f32)
                    .collect();
                [numbers[0], numbers[1], numbers[2]]
            };
            assert_near(
                place(&joint["position"]),
                place(&blender[name]),
                &format!("{name} at frame {frame}"),
            );
        }
    }
    // Blender keeps no animation extras, but the scene's carried files: the
    // wave comes back as the character file's skill of its name, with its
    // own name and frames (Blender sampled it at 24 a second), in that file.
    assert!(!out.join("adult-humanoid-wave.cmx").exists());
    let file =
        formats::sims::cmx::Cmx::from_text(&std::fs::read(out.join("humanoid.cmx")).unwrap())
            .unwrap();
    let original = formats::sims::cmx::humanoid().skills.remove(0);
    assert_eq!(file.skills[0].name, original.name);
    assert_eq!(file.skills[0].animation, original.animation);
    assert_eq!(file.skills[0].frame_count(), original.frame_count());
}

/// A character made in Blender alone: its skeleton written with
/// `--write-skeleton`, its box a skin whose lower half blends two bones,
/// its texture an 8-bit BMP named by skin tone, its action a skill.
#[test]
fn a_character_made_in_blender_becomes_a_sims_suit_with_an_animation() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = ossuary(&[
        "convert",
        &text(&blender_fixture("made-in-blender.glb")),
        "--to",
        "sims-cmx",
        "--write-skeleton",
        "-o",
        &text(&out),
    ]);
    assert_status(&output, 0);
    let skin_name = "xskin-Cube-SPINE-CUBE";
    assert_eq!(
        files_below(&out),
        [
            "Cube.cmx",
            "Cubelgt.bmp",
            "adult-nod.cmx",
            "adult-skeleton.cmx",
            "xskill-A2O-nod.cfp",
            "xskin-Cube-SPINE-CUBE.skn",
        ]
        .map(PathBuf::from)
    );
    let box_skin = skn(&out.join(format!("{skin_name}.skn")));
    let bones: Vec<String> = box_skin.bones.iter().map(|bone| bone.to_text()).collect();
    assert_eq!(bones, ["ROOT", "SPINE"]);
    assert_eq!(box_skin.texture.to_text(), "Cubelgt");
    // Blender splits the box's 8 corners by face: 24 vertices, the lower
    // 12 carried by ROOT (0.7) and pulled by SPINE (0.3 = 9830/32768).
    assert_eq!(box_skin.uvs.len(), 24);
    assert_eq!(box_skin.blends.len(), 12);
    assert!(box_skin
        .blends
        .iter()
        .all(|blend| (blend.raw_weight - 9830).abs() <= 1));
    let bmp = std::fs::read(out.join("Cubelgt.bmp")).unwrap();
    assert_eq!((&bmp[..2], bmp[28]), (b"BM".as_slice(), 8));
    let nod =
        formats::sims::cmx::Cmx::from_text(&std::fs::read(out.join("adult-nod.cmx")).unwrap())
            .unwrap();
    assert_eq!(nod.skills[0].name.to_text(), "a2o-nod");
    assert!(nod.skills[0]
        .motions
        .iter()
        .any(|motion| motion.bone.to_text() == "SPINE" && motion.rotations_used == 1));
    assert_status(&ossuary(&["check", &text(&out)]), 0);
    // The skin poses on the written skeleton, through the nod.
    let obj = dir.path().join("nod.obj");
    assert_status(
        &ossuary(&[
            "skin",
            &text(&out.join(format!("{skin_name}.skn"))),
            "--skeleton",
            &text(&out.join("adult-skeleton.cmx")),
            "--anim",
            &text(&out.join("adult-nod.cmx")),
            "--frame",
            "12",
            "-o",
            &text(&obj),
        ]),
        0,
    );
}

/// Without `--skeleton`, the skeleton of a character file the glTF
/// carries, else the game's `adult-skeleton.cmx` beside the glTF, is the
/// skeleton; with neither, the command says what to do.
#[test]
fn the_carried_or_the_game_s_skeleton_beside_the_gltf_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    let carrying = exported(dir.path(), "carrying.gltf");
    let out = dir.path().join("out");
    let convert = |gltf: &Path| {
        ossuary(&[
            "convert",
            &text(gltf),
            "--to",
            "sims-cmx",
            "-o",
            &text(&out),
        ])
    };
    // The humanoid file the glTF carries holds the skeleton.
    assert_status(&convert(&carrying), 0);
    assert_eq!(
        std::fs::read(out.join(format!("{SKIN}.skn"))).unwrap(),
        fixture_bytes(&format!("{SKIN}.skn"))
    );
    std::fs::remove_dir_all(&out).unwrap();
    // A glTF that carries none needs one named, or beside it.
    let (mut json, buffer) = gltf_parts(&carrying);
    json["scenes"][0].as_object_mut().unwrap().remove("extras");
    let glb = dir.path().join("bare.gltf");
    write_gltf(&glb, json, &buffer);
    let convert = || convert(&glb);
    let output = convert();
    assert_status(&output, 2);
    assert!(
        stderr(&output).contains("--skeleton FILE"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists());
    support::write(
        dir.path(),
        "adult-skeleton.cmx",
        &fixture_bytes("humanoid.cmx"),
    );
    assert_status(&convert(), 0);
    assert!(out.join(format!("{SKIN}.skn")).is_file());
}

/// A `.gltf` whose buffer is a file beside it (as Blender's "glTF
/// Separate" writes): read by its plain name; a name leading out of the
/// folder is not followed.
#[test]
fn a_buffer_beside_the_gltf_is_read_and_one_outside_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = exported(dir.path(), "h.gltf");
    let (mut json, buffer) = gltf_parts(&gltf);
    std::fs::write(dir.path().join("h.bin"), &buffer).unwrap();
    json["buffers"][0]["uri"] = "h.bin".into();
    let separate = dir.path().join("separate.gltf");
    std::fs::write(&separate, serde_json::to_vec(&json).unwrap()).unwrap();
    let out = dir.path().join("out");
    assert_status(&import(&separate, &out), 0);
    assert!(out.join(format!("{SKIN}.skn")).is_file());

    let inner = dir.path().join("inner");
    std::fs::create_dir(&inner).unwrap();
    json["buffers"][0]["uri"] = "../h.bin".into();
    let outside = inner.join("outside.gltf");
    std::fs::write(&outside, serde_json::to_vec(&json).unwrap()).unwrap();
    refused(
        &outside,
        "the file \"../h.bin\" it names cannot be read beside the asset",
    );
}

/// The prototype character and its greeting, through glTF and back: the
/// very files `convert --to sims-cmx` writes of them (the character file
/// with the skeleton named adult and its suit, every skin, the skill file
/// and its keys, every texture as an 8-bit BMP), byte for byte.
#[test]
fn the_prototype_through_gltf_gives_its_conversion_byte_for_byte() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let prototype = corpus.join("sims1-prototype");
    let (character, greeting) = (
        prototype.join("samnud.cmx"),
        prototype.join("adult-greet01.cmx"),
    );
    let dir = tempfile::tempdir().unwrap();
    let direct = dir.path().join("direct");
    for file in [&character, &greeting] {
        assert_status(
            &ossuary(&[
                "convert",
                &text(file),
                "--to",
                "sims-cmx",
                "-o",
                &text(&direct),
            ]),
            0,
        );
    }
    let gltf = dir.path().join("samnud.gltf");
    assert_status(
        &ossuary(&[
            "convert",
            &text(&character),
            "--anim",
            &text(&greeting),
            "-o",
            &text(&gltf),
        ]),
        0,
    );
    // As ossuary wrote it, and as Blender writes it back, which keeps no
    // animation's extras: the skill's record is then the carried character
    // file's, under the released name (`a2o-greet01`) the glTF's
    // `adult-greet01` is written as.
    let (mut json, buffer) = gltf_parts(&gltf);
    for animation in json["animations"].as_array_mut().unwrap() {
        animation.as_object_mut().unwrap().remove("extras").unwrap();
    }
    let without_extras = dir.path().join("without-animation-extras.gltf");
    write_gltf(&without_extras, json, &buffer);
    let written = files_below(&direct);
    assert!(written.len() > 30, "{written:?}");
    for (input, back) in [(&gltf, "back"), (&without_extras, "back-without")] {
        let back = dir.path().join(back);
        assert_status(
            &ossuary(&[
                "convert",
                &text(input),
                "--to",
                "sims-cmx",
                "--skeleton",
                &text(&character),
                "-o",
                &text(&back),
            ]),
            0,
        );
        assert_eq!(files_below(&back), written);
        for name in &written {
            assert!(
                std::fs::read(back.join(name)).unwrap()
                    == std::fs::read(direct.join(name)).unwrap(),
                "{}: {}",
                input.display(),
                name.display()
            );
        }
    }
}
