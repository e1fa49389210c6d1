//! `convert IN.glb --to swg-sat [--skeleton FILE] -o DIR`: glTF back into
//! Star Wars Galaxies' files. The SWG humanoid sample and (with
//! OSSUARY_CORPUS) the real Twi'lek, exported and brought back unchanged:
//! every file byte for byte (the glTF carries the files it was made of);
//! edited: exactly the edit; without the carried files: the same position
//! lists, weights, shader groups, triangles, texture coordinates and
//! blend targets, and one warning saying what could not come back.

mod support;

use std::path::{Path, PathBuf};

use formats::schema::BinarySchema;
use formats::swg::mgn::{Mesh, MeshBody};
use support::{
    add_to, assert_status, attribute_offset, files_below, fixture, gltf_parts, ossuary, stderr,
    text, truncated_glb, unholdable_variants, without_extras, write_gltf,
};

fn body(path: &Path) -> MeshBody {
    Mesh::from_bytes(&std::fs::read(path).unwrap())
        .unwrap()
        .body()
        .clone()
}

/// Each position's weights as (joint name, weight), sorted.
fn named_weights(body: &MeshBody) -> Vec<Vec<(String, i64)>> {
    let mut weights = body.weights.iter();
    body.weights_per_position
        .iter()
        .map(|&count| {
            let mut own: Vec<(String, i64)> = weights
                .by_ref()
                .take(count as usize)
                .map(|weight| {
                    let joint = body.joints[weight.joint as usize].to_text().to_lowercase();
                    (joint, (weight.weight * 1e5).round() as i64)
                })
                .collect();
            own.sort();
            own
        })
        .collect()
}

/// The back mesh against the original: everything glTF carries.
fn assert_same_geometry(back: &MeshBody, original: &MeshBody, name: &str) {
    assert_eq!(back.skeletons, original.skeletons, "{name}");
    assert_eq!(back.positions.len(), original.positions.len(), "{name}");
    for (a, b) in back.positions.iter().zip(&original.positions) {
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() <= 1e-5, "{name}: {a:?} against {b:?}");
        }
    }
    assert_eq!(named_weights(back), named_weights(original), "{name}");
    assert_eq!(
        back.shader_groups.len(),
        original.shader_groups.len(),
        "{name}"
    );
    for (a, b) in back.shader_groups.iter().zip(&original.shader_groups) {
        assert_eq!(a.shader, b.shader, "{name}");
        assert_eq!(a.position_indices, b.position_indices, "{name}");
        assert_eq!(
            a.triangles().collect::<Vec<_>>(),
            b.triangles().collect::<Vec<_>>(),
            "{name}"
        );
        // Texture coordinates go through glTF untouched: bit for bit.
        assert_eq!(a.uvs(), b.uvs(), "{name}");
        let normal = |body: &MeshBody, group: &formats::swg::mgn::ShaderGroup, vertex: usize| {
            let index = group.normal_indices.as_ref().unwrap()[vertex] as usize;
            body.normals.as_ref().unwrap()[index]
        };
        for vertex in 0..a.position_indices.len() {
            let (x, y) = (normal(back, a, vertex), normal(original, b, vertex));
            let length = y.iter().map(|c| c * c).sum::<f32>().sqrt();
            for (p, q) in x.iter().zip(&y) {
                assert!(
                    (p - q / length).abs() <= 1e-5,
                    "{name}: {x:?} against {y:?}"
                );
            }
        }
    }
    let targets = |body: &MeshBody| -> Vec<(String, Offsets)> {
        body.blend_targets
            .iter()
            .flatten()
            .map(|target| {
                let mut offsets: Vec<(i32, [f32; 3])> = target
                    .positions
                    .iter()
                    .flatten()
                    .filter(|offset| offset.offset != [0.0; 3])
                    .map(|offset| (offset.index, offset.offset))
                    .collect();
                offsets.sort_by_key(|(index, _)| *index);
                (target.name.to_text(), offsets)
            })
            .collect()
    };
    let (back_targets, original_targets) = (targets(back), targets(original));
    assert_eq!(back_targets.len(), original_targets.len(), "{name}");
    for ((back_name, back), (original_name, original)) in back_targets.iter().zip(&original_targets)
    {
        assert_eq!(back_name, original_name, "{name}");
        assert_eq!(
            back.iter().map(|(index, _)| index).collect::<Vec<_>>(),
            original.iter().map(|(index, _)| index).collect::<Vec<_>>(),
            "{name}: {back_name}"
        );
        for ((_, a), (_, b)) in back.iter().zip(original) {
            for (x, y) in a.iter().zip(b) {
                assert!(
                    (x - y).abs() <= 1e-5,
                    "{name}: {back_name}: {a:?} against {b:?}"
                );
            }
        }
    }
}

/// A blend target's offsets: (position index, offset), by index.
type Offsets = Vec<(i32, [f32; 3])>;

/// `convert INPUTS... -o DIR/NAME`, which must succeed: the glTF to bring back.
fn exported(dir: &Path, name: &str, inputs: &[&str]) -> PathBuf {
    let glb = dir.join(name);
    let mut args = vec!["convert"];
    args.extend_from_slice(inputs);
    let out = text(&glb);
    args.extend(["-o", &out]);
    assert_status(&ossuary(&args), 0);
    glb
}

/// `convert GLTF --to swg-sat OPTIONS -o OUT`: the glTF back into the game's files.
fn import(gltf: &Path, options: &[&str], out: &Path) -> std::process::Output {
    let gltf = text(gltf);
    let out = text(out);
    let mut args = vec!["convert", gltf.as_str(), "--to", "swg-sat"];
    args.extend(options);
    args.extend(["-o", out.as_str()]);
    ossuary(&args)
}

#[test]
fn the_swg_humanoid_comes_back_from_its_own_gltf() {
    let dir = tempfile::tempdir().unwrap();
    let glb = exported(dir.path(), "humanoid.glb", &[&fixture("humanoid.sat")]);
    let out = dir.path().join("out");
    let output = import(&glb, &["--skeleton", &fixture("humanoid.skt")], &out);
    assert_status(&output, 0);
    assert_eq!(
        files_below(&out),
        placed_all(&["humanoid.lmg", "humanoid.mgn", "humanoid.sat"])
    );
    assert_status(&ossuary(&["check", &text(&out)]), 0);
    let original = body(Path::new(&fixture("humanoid.mgn")));
    assert_same_geometry(
        &body(&placed(&out, "humanoid.mgn")),
        &original,
        "humanoid.mgn",
    );
    // The appearance names the list, the list the mesh, as the game finds
    // them; ossuary poses the new character on the skeleton.
    let joints = ossuary(&["joints", &text(&placed(&out, "humanoid.sat"))]);
    assert!(
        stderr(&joints).contains("humanoid.skt"),
        "{}",
        stderr(&joints)
    );
    let render = dir.path().join("back.png");
    // The skeleton named with --skeleton is the game's: put where it looks.
    std::fs::create_dir_all(placed(&out, "humanoid.skt").parent().unwrap()).unwrap();
    std::fs::copy(fixture("humanoid.skt"), placed(&out, "humanoid.skt")).unwrap();
    assert_status(
        &ossuary(&[
            "render",
            &text(&placed(&out, "humanoid.sat")),
            "-o",
            &text(&render),
        ]),
        0,
    );
}

/// A skeleton named without the mesh's joints is refused, leaving no folder.
#[test]
fn a_skeleton_without_the_mesh_s_joints_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let glb = exported(dir.path(), "humanoid.glb", &[&fixture("humanoid.sat")]);
    let out = dir.path().join("out");
    let output = import(&glb, &["--skeleton", &fixture("humanoid.cmx")], &out);
    assert_status(&output, 1);
    assert!(
        stderr(&output).contains("the skeleton has no joint"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists());
}

#[test]
fn the_real_twilek_comes_back() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let appearance = corpus.join("swg/appearance");
    let dir = tempfile::tempdir().unwrap();
    let glb = exported(
        dir.path(),
        "twk_f.glb",
        &[&text(&appearance.join("twk_f.sat"))],
    );
    let out = dir.path().join("out");
    // The appearance gives the skeletons: the face's under the body's head.
    assert_status(
        &import(
            &glb,
            &["--skeleton", &text(&appearance.join("twk_f.sat"))],
            &out,
        ),
        0,
    );
    assert_status(&ossuary(&["check", &text(&out)]), 0);
    for mesh in ["twk_f_body_l0", "twk_f_head_l0"] {
        let original = body(&appearance.join(format!("mesh/{mesh}.mgn")));
        assert_same_geometry(&body(&placed(&out, format!("{mesh}.mgn"))), &original, mesh);
    }
}

/// The SWG humanoid imported into Blender, the first vertex of its body
/// group moved 0.5 along Blender's x (glTF's x, SWG's -x) in every shape
/// key, exported by Blender with its custom properties (its blend targets
/// as sparse accessors): the mesh comes back as it was but for exactly
/// that edit, and its other files byte for byte.
#[test]
fn an_swg_character_edited_in_blender_comes_back_with_its_edit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let glb =
        tests::workspace_root().join("export/tests/fixtures/swg-humanoid-edited-in-blender.glb");
    // The skeleton travels in the glTF: none need be named.
    let output = import(&glb, &[], &out);
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    assert_status(&ossuary(&["check", &text(&out)]), 0);
    let mut expected = body(Path::new(&fixture("humanoid.mgn")));
    let back = body(&placed(&out, "humanoid.mgn"));
    // Position 0 is where the body group's first vertex stands.
    assert_eq!(expected.shader_groups[0].position_indices[0], 0);
    assert!((back.positions[0][0] - (expected.positions[0][0] - 0.5)).abs() <= 1e-5);
    expected.positions[0][0] = back.positions[0][0];
    assert_eq!(back, expected);
    for name in ["humanoid.lmg", "humanoid.skt"] {
        assert_eq!(
            std::fs::read(placed(&out, name)).unwrap(),
            std::fs::read(fixture(name)).unwrap(),
            "{name}"
        );
    }
}

/// The `joints` of a file: (name, position, rotation).
fn joints(file: &Path) -> Vec<(String, Vec<f64>, Vec<f64>)> {
    let output = ossuary(&["joints", &text(file)]);
    assert_status(&output, 0);
    let joints: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    let numbers = |value: &serde_json::Value| -> Vec<f64> {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_f64().unwrap())
            .collect()
    };
    joints
        .iter()
        .map(|joint| {
            (
                joint["name"].as_str().unwrap().to_owned(),
                numbers(&joint["position"]),
                numbers(&joint["rotation"]),
            )
        })
        .collect()
}

/// Two files' joints at rest: the same names, positions and turns within
/// 1e-5 (a rotation and its negation are one turn).
fn assert_same_joints(back: &Path, original: &Path) {
    let (back, original) = (joints(back), joints(original));
    assert_eq!(
        back.iter().map(|joint| &joint.0).collect::<Vec<_>>(),
        original.iter().map(|joint| &joint.0).collect::<Vec<_>>()
    );
    for ((name, p, r), (_, q, s)) in back.iter().zip(&original) {
        for (a, b) in p.iter().zip(q) {
            assert!((a - b).abs() <= 1e-5, "{name}: {p:?} against {q:?}");
        }
        let dot: f64 = r.iter().zip(s).map(|(a, b)| a * b).sum();
        assert!(
            (dot.abs() - 1.0).abs() <= 1e-5,
            "{name}: {r:?} against {s:?}"
        );
    }
}

/// `--write-skeleton` writes the glTF's own skeleton as a new `.skt`, each
/// joint's rest turn stored whole in `BPRO`: it poses as the original.
#[test]
fn with_write_skeleton_the_gltf_s_own_skeleton_is_a_new_skt() {
    let dir = tempfile::tempdir().unwrap();
    let glb = exported(dir.path(), "humanoid.glb", &[&fixture("humanoid.sat")]);
    let out = dir.path().join("out");
    let output = import(&glb, &["--write-skeleton"], &out);
    assert_status(&output, 0);
    assert_eq!(
        files_below(&out),
        placed_all(&[
            "humanoid.lmg",
            "humanoid.mgn",
            "humanoid.sat",
            "humanoid.skt"
        ])
    );
    assert_status(&ossuary(&["check", &text(&out)]), 0);
    assert_same_joints(
        &placed(&out, "humanoid.skt"),
        Path::new(&fixture("humanoid.skt")),
    );
    let skt = formats::swg::skt::Skeleton::from_bytes(
        &std::fs::read(placed(&out, "humanoid.skt")).unwrap(),
    )
    .unwrap();
    // One level in a FORM SLOD, as all_b.skt: io_scene_swg_msh reads no other.
    assert!(matches!(
        skt,
        formats::swg::skt::Skeleton::LevelsOfDetail(_)
    ));
    assert_eq!(skt.levels().len(), 1);
    let level = &skt.levels()[0];
    let formats::swg::skt::SkeletonVersion::V2(columns) = &level.version;
    let identity = |q: &formats::swg::skt::Quaternion| (q.w, q.x, q.y, q.z) == (1.0, 0.0, 0.0, 0.0);
    assert!(columns.pre_rotations.iter().all(identity));
    assert!(columns.post_rotations.iter().all(identity));
    // The mesh names the new skeleton.
    assert_eq!(
        body(&placed(&out, "humanoid.mgn")).skeletons[0].to_text(),
        "appearance/skeleton/humanoid.skt"
    );
}

/// The real Twi'lek's two skeletons (the face's under the body's head),
/// exported as one, come back as one new `.skt` posing as they did.
#[test]
fn the_real_twilek_s_skeleton_comes_back_as_one_skt() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let appearance = corpus.join("swg/appearance/twk_f.sat");
    let dir = tempfile::tempdir().unwrap();
    let glb = exported(dir.path(), "twk_f.glb", &[&text(&appearance)]);
    let out = dir.path().join("out");
    assert_status(&import(&glb, &["--write-skeleton"], &out), 0);
    assert_same_joints(&placed(&out, "twk_f.skt"), &appearance);
}

/// `out` holds exactly the files `originals` names, each where the game's
/// tree puts it, byte for byte.
fn assert_written_as(out: &Path, originals: &[PathBuf]) {
    let mut names: Vec<PathBuf> = originals
        .iter()
        .map(|path| placed(Path::new(""), path.file_name().unwrap()))
        .collect();
    names.sort();
    assert_eq!(files_below(out), names);
    for original in originals {
        let back = placed(out, original.file_name().unwrap());
        assert!(
            std::fs::read(&back).unwrap() == std::fs::read(original).unwrap(),
            "{} differs from {}",
            back.display(),
            original.display()
        );
    }
}

/// How the glTF goes back: as ossuary wrote it, or as Blender 4.2's
/// exporter writes it with its defaults (no `extras` but morph target
/// names; textures as the bytes it read).
#[derive(Clone, Copy, PartialEq)]
enum Written {
    ByOssuary,
    ByBlenderDefaults,
}

/// Exports the appearance `sat` to glTF and brings it back with no
/// option into `out`: every file it was made of (`originals`, by name)
/// comes back byte for byte, and nothing else.
fn assert_comes_back_byte_for_byte(
    sat: &Path,
    originals: &[PathBuf],
    dir: &Path,
    written: Written,
) {
    let gltf = dir.join(sat.with_extension("gltf").file_name().unwrap());
    assert_status(&ossuary(&["convert", &text(sat), "-o", &text(&gltf)]), 0);
    let input = match written {
        Written::ByOssuary => gltf,
        Written::ByBlenderDefaults => {
            let (mut json, buffer) = gltf_parts(&gltf);
            without_extras(&mut json);
            let bare = dir.join("without-extras.gltf");
            write_gltf(&bare, json, &buffer);
            bare
        }
    };
    let out = dir.join("out");
    let output = import(&input, &[], &out);
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    assert_written_as(&out, originals);
    assert_status(&ossuary(&["check", &text(&out)]), 0);
}

#[test]
fn the_swg_humanoid_comes_back_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let originals = [
        "humanoid.sat",
        "humanoid.lmg",
        "humanoid.mgn",
        "humanoid.skt",
    ]
    .map(|name| PathBuf::from(fixture(name)));
    assert_comes_back_byte_for_byte(
        Path::new(&fixture("humanoid.sat")),
        &originals,
        dir.path(),
        Written::ByOssuary,
    );
}

/// The real Twi'lek: her appearance, both mesh lists with their four
/// levels each (occlusion zones, lighting vectors, texture renderers,
/// blend targets), and both skeletons (their stored RPRE, BPRO and RPST);
/// also from the glTF as Blender's defaults write it, which keeps none of
/// the `extras` carrying her files: they ride in her first texture.
#[test]
fn the_real_twilek_comes_back_byte_for_byte() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let appearance = corpus.join("swg/appearance");
    let mut originals = vec![
        appearance.join("twk_f.sat"),
        appearance.join("skeleton/all_b.skt"),
        appearance.join("skeleton/hum_f_face.skt"),
    ];
    for list in ["twk_f_body", "twk_f_head"] {
        originals.push(appearance.join(format!("mesh/{list}.lmg")));
        for level in 0..4 {
            originals.push(appearance.join(format!("mesh/{list}_l{level}.mgn")));
        }
    }
    for written in [Written::ByOssuary, Written::ByBlenderDefaults] {
        let dir = tempfile::tempdir().unwrap();
        assert_comes_back_byte_for_byte(
            &appearance.join("twk_f.sat"),
            &originals,
            dir.path(),
            written,
        );
    }
}

/// The humanoid's glTF with its first vertex moved and its second
/// vertex's texture coordinates changed: the mesh comes back as it was but
/// for exactly those two values.
#[test]
fn an_edit_to_a_carried_swg_mesh_changes_exactly_the_values_edited() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = dir.path().join("humanoid.gltf");
    assert_status(
        &ossuary(&["convert", &fixture("humanoid.sat"), "-o", &text(&gltf)]),
        0,
    );
    let (json, mut buffer) = gltf_parts(&gltf);
    add_to(&mut buffer, attribute_offset(&json, 0, "POSITION", 0), 0.25);
    add_to(
        &mut buffer,
        attribute_offset(&json, 0, "TEXCOORD_0", 1),
        0.125,
    );
    std::fs::create_dir(dir.path().join("edited")).unwrap();
    let edited = dir.path().join("edited/humanoid.gltf");
    write_gltf(&edited, json, &buffer);
    let out = dir.path().join("out");
    let output = import(&edited, &[], &out);
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    let back = body(&placed(&out, "humanoid.mgn"));
    let mut expected = body(Path::new(&fixture("humanoid.mgn")));
    // glTF's x is SWG's -x.
    let entry = expected.shader_groups[0].position_indices[0] as usize;
    let moved = back.positions[entry][0];
    assert!((moved - (expected.positions[entry][0] - 0.25)).abs() <= 1e-5);
    expected.positions[entry][0] = moved;
    let uvs = &mut expected.shader_groups[0].coordinate_sets.as_mut().unwrap()[0].values;
    let u = back.shader_groups[0].uvs()[1][0];
    assert!((u - (uvs[2] + 0.125)).abs() <= 1e-6);
    uvs[2] = u;
    assert_eq!(back, expected);
    for name in ["humanoid.sat", "humanoid.lmg", "humanoid.skt"] {
        assert_eq!(
            std::fs::read(placed(&out, name)).unwrap(),
            std::fs::read(fixture(name)).unwrap(),
            "{name}"
        );
    }
}

/// The carried files' PNG chunk renamed to a kind ossuary does not read
/// (as in a texture another tool wrote anew): the same length, so the
/// buffer's views stay where they are.
fn without_png_carrier(buffer: &mut [u8]) {
    let kind = b"osSf";
    let at: Vec<usize> = buffer
        .windows(kind.len())
        .enumerate()
        .filter(|(_, window)| window == kind)
        .map(|(at, _)| at)
        .collect();
    assert_eq!(at.len(), 1, "one texture carries the files");
    buffer[at[0]..at[0] + kind.len()].copy_from_slice(b"elSe");
}

/// The real Twi'lek's glTF made elsewhere (no extras, no carried files in
/// its textures, no groups' places): with `--skeleton` naming her `.sat`
/// in the game's tree, the files it names are read from the tree and
/// every one comes back byte for byte, under its own name; the `.sat`
/// alone, outside the tree, is refused naming the file not found.
#[test]
fn without_its_carried_files_the_twilek_comes_back_from_the_game_s_tree() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let appearance = corpus.join("swg/appearance");
    let dir = tempfile::tempdir().unwrap();
    let gltf = dir.path().join("twk_f.gltf");
    assert_status(
        &ossuary(&[
            "convert",
            &text(&appearance.join("twk_f.sat")),
            "-o",
            &text(&gltf),
        ]),
        0,
    );
    let (mut json, mut buffer) = gltf_parts(&gltf);
    without_extras(&mut json);
    without_png_carrier(&mut buffer);
    let bare = dir.path().join("bare.gltf");
    write_gltf(&bare, json, &buffer);
    let out = dir.path().join("out");
    // Nothing carried: the skeleton must be named.
    let output = import(&bare, &[], &out);
    assert_status(&output, 2);
    assert!(!out.exists());
    let output = import(
        &bare,
        &["--skeleton", &text(&appearance.join("twk_f.sat"))],
        &out,
    );
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    let mut originals = vec![appearance.join("twk_f.sat")];
    for list in ["twk_f_body", "twk_f_head"] {
        originals.push(appearance.join(format!("mesh/{list}.lmg")));
        for level in 0..4 {
            originals.push(appearance.join(format!("mesh/{list}_l{level}.mgn")));
        }
    }
    assert_written_as(&out, &originals);
    let alone = dir.path().join("alone");
    std::fs::create_dir(&alone).unwrap();
    std::fs::copy(appearance.join("twk_f.sat"), alone.join("twk_f.sat")).unwrap();
    let refused_out = dir.path().join("refused");
    let output = import(
        &bare,
        &["--skeleton", &text(&alone.join("twk_f.sat"))],
        &refused_out,
    );
    assert_status(&output, 1);
    let error = stderr(&output);
    assert_eq!(error.lines().count(), 1, "{error}");
    assert!(error.contains("all_b.skt"), "{error}");
    assert!(!refused_out.exists());
}

/// Runs the SWG import of `input` (the skeleton carried in it) and asserts
/// one sentence, status 1, and no folder left.
fn refused(input: &Path, expected: &str) {
    let out = input.with_extension("out");
    let output = import(input, &[], &out);
    support::assert_refused(&output, &out, expected);
}

#[test]
fn an_swg_gltf_the_game_cannot_hold_is_refused_in_one_sentence_with_no_folder_left() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = dir.path().join("humanoid.gltf");
    assert_status(
        &ossuary(&["convert", &fixture("humanoid.sat"), "-o", &text(&gltf)]),
        0,
    );
    for (variant, says) in unholdable_variants(dir.path(), &gltf) {
        refused(&variant, says);
    }
    let glb = exported(dir.path(), "humanoid.glb", &[&fixture("humanoid.sat")]);
    refused(
        &truncated_glb(dir.path(), &glb),
        "not a glTF asset that can be read",
    );
}

/// Carried files that are not what they claim (a mesh's bytes replaced by
/// the appearance's, or not base64 at all) are not used: the mesh is
/// derived from the glTF, as without them.
#[test]
fn damaged_carried_files_are_not_used() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = dir.path().join("humanoid.gltf");
    assert_status(
        &ossuary(&["convert", &fixture("humanoid.sat"), "-o", &text(&gltf)]),
        0,
    );
    let (mut json, buffer) = gltf_parts(&gltf);
    let files = json["scenes"][0]["extras"]["ossuary_files"]
        .as_array_mut()
        .unwrap();
    let sat = files
        .iter()
        .find(|file| file["path"] == "humanoid.sat")
        .unwrap()["bytes"]
        .clone();
    for file in files.iter_mut() {
        if file["path"].as_str().unwrap().ends_with(".mgn") {
            file["bytes"] = sat.clone();
        }
        if file["path"].as_str().unwrap().ends_with(".lmg") {
            file["bytes"] = "not base64!".into();
        }
    }
    std::fs::create_dir(dir.path().join("damaged")).unwrap();
    let damaged = dir.path().join("damaged/humanoid.gltf");
    write_gltf(&damaged, json, &buffer);
    let out = dir.path().join("out");
    assert_status(&import(&damaged, &[], &out), 0);
    assert_status(&ossuary(&["check", &text(&out)]), 0);
    let original = body(Path::new(&fixture("humanoid.mgn")));
    assert_same_geometry(
        &body(&placed(&out, "humanoid.mgn")),
        &original,
        "humanoid.mgn",
    );
}

/// An appearance naming its `.mgn` itself (no mesh list) comes back so:
/// its `.sat`, `.mgn` and `.skt` byte for byte, and no `.lmg`.
#[test]
fn an_appearance_naming_its_mesh_itself_comes_back_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let character = dir.path().join("in");
    std::fs::create_dir(&character).unwrap();
    for name in ["humanoid.mgn", "humanoid.skt"] {
        std::fs::copy(fixture(name), character.join(name)).unwrap();
    }
    let dumped = ossuary(&["dump", &fixture("humanoid.sat")]);
    assert_status(&dumped, 0);
    let json = String::from_utf8(dumped.stdout).unwrap().replace(
        "appearance/mesh/humanoid.lmg",
        "appearance/mesh/humanoid.mgn",
    );
    let json_path = support::write(dir.path(), "direct.json", json.as_bytes());
    let sat = character.join("direct.sat");
    assert_status(
        &ossuary(&[
            "encode",
            "--format",
            "swg-sat",
            "--output",
            &text(&sat),
            &json_path,
        ]),
        0,
    );
    let originals = [
        sat.clone(),
        character.join("humanoid.mgn"),
        character.join("humanoid.skt"),
    ];
    assert_comes_back_byte_for_byte(&sat, &originals, dir.path(), Written::ByOssuary);
}

/// A character made in Blender alone (`made-in-blender.glb`: two bones and
/// a box bound to both) becomes a Star Wars Galaxies body with its own
/// skeleton: a `.mgn` whose one shader group is named by its material, a
/// `.lmg`, a `.sat` and a `.skt` of its two joints; one warning says what
/// a glTF made elsewhere cannot give; ossuary poses it.
#[test]
fn a_character_made_in_blender_becomes_an_swg_body() {
    let dir = tempfile::tempdir().unwrap();
    let glb = tests::workspace_root().join("export/tests/fixtures/made-in-blender.glb");
    let out = dir.path().join("out");
    let output = import(&glb, &["--write-skeleton"], &out);
    assert_status(&output, 0);
    assert_eq!(stderr(&output).lines().count(), 1, "{}", stderr(&output));
    assert_eq!(
        files_below(&out),
        placed_all(&[
            "Cube.lmg",
            "Cube.mgn",
            "made-in-blender.sat",
            "made-in-blender.skt"
        ])
    );
    assert_status(&ossuary(&["check", &text(&out)]), 0);
    let mesh = body(&placed(&out, "Cube.mgn"));
    assert_eq!(mesh.shader_groups.len(), 1);
    assert_eq!(mesh.shader_groups[0].shader.to_text(), "shader/box.sht");
    // Blender splits the box's 8 corners by face: 24 vertices, 12 triangles.
    assert_eq!(mesh.positions.len(), 24);
    assert_eq!(mesh.shader_groups[0].triangles().count(), 12);
    let mut followed: Vec<String> = mesh.joints.iter().map(|joint| joint.to_text()).collect();
    followed.sort();
    assert_eq!(followed, ["ROOT", "SPINE"]);
    let skeleton = joints(&placed(&out, "made-in-blender.skt"));
    assert_eq!(
        skeleton
            .iter()
            .map(|joint| joint.0.as_str())
            .collect::<Vec<_>>(),
        ["ROOT", "SPINE"]
    );
    // Written where the game looks it up, under appearance/skeleton/.
    assert!(out
        .join("appearance/skeleton/made-in-blender.skt")
        .is_file());
    let render = dir.path().join("box.png");
    assert_status(
        &ossuary(&[
            "render",
            &text(&placed(&out, "made-in-blender.sat")),
            "-o",
            &text(&render),
        ]),
        0,
    );
}

/// A `.mgn` given alone with its skeleton (`convert SKELETON.skt MESH.mgn`)
/// comes back with no option: the mesh and the skeleton byte for byte,
/// with a new `.lmg` and `.sat` putting them together.
fn assert_loose_mesh_comes_back(skeleton: &Path, mesh: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let glb = exported(dir.path(), "loose.glb", &[&text(skeleton), &text(mesh)]);
    let out = dir.path().join("out");
    let output = import(&glb, &[], &out);
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    for original in [skeleton, mesh] {
        let name = original.file_name().unwrap();
        assert!(
            std::fs::read(placed(&out, name)).unwrap() == std::fs::read(original).unwrap(),
            "{}",
            name.to_string_lossy()
        );
    }
    assert_eq!(files_below(&out).len(), 4);
    assert_status(&ossuary(&["check", &text(&out)]), 0);
}

#[test]
fn a_mesh_given_alone_comes_back_byte_for_byte() {
    assert_loose_mesh_comes_back(
        Path::new(&fixture("humanoid.skt")),
        Path::new(&fixture("humanoid.mgn")),
    );
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    // The Twi'lek's hair piece, which no appearance names.
    let appearance = corpus.join("swg/appearance");
    assert_loose_mesh_comes_back(
        &appearance.join("skeleton/all_b.skt"),
        &appearance.join("mesh/twk_f_hair_s01_l0.mgn"),
    );
}

/// Where `convert --to swg-sat` writes a file under `out`: as the game
/// looks it up under the folder holding `appearance/`.
fn placed(out: &Path, name: impl AsRef<Path>) -> PathBuf {
    let name = name.as_ref();
    let folder = match name.extension().and_then(|e| e.to_str()) {
        Some("skt") => "appearance/skeleton",
        Some("lmg" | "mgn") => "appearance/mesh",
        _ => "appearance",
    };
    out.join(folder).join(name)
}

/// `placed` for each name, relative, in `files_below`'s order.
fn placed_all(names: &[&str]) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = names
        .iter()
        .map(|name| placed(Path::new(""), name))
        .collect();
    paths.sort();
    paths
}

/// The bytes of element `index` of accessor `accessor`.
fn element(json: &serde_json::Value, buffer: &[u8], accessor: usize, index: usize) -> Vec<u8> {
    let accessor = &json["accessors"][accessor];
    let components = match accessor["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        _ => 4,
    };
    let size = match accessor["componentType"].as_u64().unwrap() {
        5120 | 5121 => 1,
        5122 | 5123 => 2,
        _ => 4,
    } * components;
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let stride = view["byteStride"].as_u64().unwrap_or(size as u64) as usize;
    let at = view["byteOffset"].as_u64().unwrap_or(0) as usize
        + accessor["byteOffset"].as_u64().unwrap_or(0) as usize
        + index * stride;
    buffer[at..at + size].to_vec()
}

/// Mesh `mesh` of the `.gltf` with vertex `vertex` written twice, as
/// Blender's exporter splits a vertex along a seam: each attribute (and
/// morph target) gets a copy at its end, and the first triangle corner on
/// the vertex takes the copy.
fn split_vertex(json: &mut serde_json::Value, buffer: &mut Vec<u8>, mesh: usize, vertex: usize) {
    let primitive = json["meshes"][mesh]["primitives"][0].clone();
    let mut accessors: Vec<(Vec<String>, usize)> = primitive["attributes"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, index)| {
            (
                vec!["attributes".to_owned(), name.clone()],
                index.as_u64().unwrap() as usize,
            )
        })
        .collect();
    for (target, moves) in primitive["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        accessors.push((
            vec![
                "targets".to_owned(),
                target.to_string(),
                "POSITION".to_owned(),
            ],
            moves["POSITION"].as_u64().unwrap() as usize,
        ));
    }
    let count = json["accessors"][accessors[0].1]["count"].as_u64().unwrap() as usize;
    for (path, accessor) in accessors {
        // A sparse accessor (Blender's morph targets) is read whole by the
        // import; a dense copy of it with the vertex twice stands for it.
        let sparse = json["accessors"][accessor].get("sparse").is_some();
        assert!(!sparse, "the sample's accessors are dense");
        let mut bytes = Vec::new();
        for index in (0..count).chain([vertex]) {
            bytes.extend(element(json, buffer, accessor, index));
        }
        while buffer.len() % 4 != 0 {
            buffer.push(0);
        }
        let views = json["bufferViews"].as_array_mut().unwrap();
        views.push(
            serde_json::json!({"buffer": 0, "byteOffset": buffer.len(), "byteLength": bytes.len()}),
        );
        let view = views.len() - 1;
        buffer.extend(bytes);
        let mut copy = json["accessors"][accessor].clone();
        copy["bufferView"] = view.into();
        copy.as_object_mut().unwrap().remove("byteOffset");
        copy["count"] = (count + 1).into();
        let accessors = json["accessors"].as_array_mut().unwrap();
        accessors.push(copy);
        let index = accessors.len() - 1;
        let mut slot = &mut json["meshes"][mesh]["primitives"][0];
        for key in &path {
            slot = match key.parse::<usize>() {
                Ok(at) => &mut slot[at],
                Err(_) => &mut slot[key.as_str()],
            };
        }
        *slot = index.into();
    }
    json["buffers"][0]["byteLength"] = buffer.len().into();
    // The first corner on the vertex takes its copy.
    let indices = primitive["indices"].as_u64().unwrap() as usize;
    let accessor = &json["accessors"][indices];
    let corners = accessor["count"].as_u64().unwrap() as usize;
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize
        + accessor["byteOffset"].as_u64().unwrap_or(0) as usize;
    let size = match accessor["componentType"].as_u64().unwrap() {
        5121 => 1,
        5123 => 2,
        _ => 4,
    };
    let corner = (0..corners)
        .find(|&corner| {
            let at = start + corner * size;
            let mut value = [0u8; 4];
            value[..size].copy_from_slice(&buffer[at..at + size]);
            u32::from_le_bytes(value) as usize == vertex
        })
        .unwrap();
    let at = start + corner * size;
    buffer[at..at + size].copy_from_slice(&(count as u32).to_le_bytes()[..size]);
}

/// Blender's exporter adds a vertex where it splits a seam, and writes its
/// objects sorted by name: the mesh keeps its name, its list and its
/// original's every value (its vertices are those of the `.mgn`, but for
/// the split), with no warning.
#[test]
fn a_vertex_split_at_a_seam_and_meshes_in_another_order_come_back_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = dir.path().join("humanoid.gltf");
    assert_status(
        &ossuary(&["convert", &fixture("humanoid.sat"), "-o", &text(&gltf)]),
        0,
    );
    let (mut json, mut buffer) = gltf_parts(&gltf);
    split_vertex(&mut json, &mut buffer, 0, 0);
    // The two shader groups' nodes show each other's mesh: the asset's
    // node order now gives the second group first.
    let mesh_nodes: Vec<usize> = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, node)| node.get("mesh").is_some())
        .map(|(index, _)| index)
        .collect();
    assert_eq!(mesh_nodes.len(), 2);
    let (first, second) = (
        json["nodes"][mesh_nodes[0]]["mesh"].clone(),
        json["nodes"][mesh_nodes[1]]["mesh"].clone(),
    );
    json["nodes"][mesh_nodes[0]]["mesh"] = second;
    json["nodes"][mesh_nodes[1]]["mesh"] = first;
    let split = dir.path().join("split.gltf");
    write_gltf(&split, json, &buffer);
    let out = dir.path().join("out");
    let output = import(&split, &[], &out);
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    for name in ["humanoid.lmg", "humanoid.mgn", "humanoid.skt"] {
        assert!(
            std::fs::read(placed(&out, std::ffi::OsStr::new(name))).unwrap()
                == std::fs::read(fixture(name)).unwrap(),
            "{name}"
        );
    }
}

/// The appearance comes back under the name it was exported with (the
/// glTF carries it), not the name the glTF was given since.
#[test]
fn the_appearance_keeps_its_own_name_whatever_the_gltf_is_called() {
    let dir = tempfile::tempdir().unwrap();
    let glb = exported(dir.path(), "edited.glb", &[&fixture("humanoid.sat")]);
    let out = dir.path().join("out");
    let output = import(&glb, &[], &out);
    assert_status(&output, 0);
    let names = files_below(&out);
    assert!(
        names.contains(&placed(Path::new(""), "humanoid.sat")),
        "{names:?}"
    );
    assert!(
        !names.iter().any(|name| name.ends_with("edited.sat")),
        "{names:?}"
    );
}
