//! Star Wars Galaxies meshes and characters through the CLI, on the
//! project's samples and on the real files in `../shared/corpus/swg` (when
//! `OSSUARY_CORPUS` is set), against the files' own numbers read by the
//! independent implementation.

mod independent;
mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use independent::{swg_mesh, swg_skin, swg_world_matrices, SwgMesh};
use support::{assert_status, command, fixture, ossuary, stderr, stdout, text};

use formats::schema::BinarySchema;
use formats::swg::skt;

/// Runs the binary, which must succeed.
fn succeeded(args: &[&str]) -> Output {
    let output = ossuary(args);
    assert_status(&output, 0);
    output
}

/// The corpus's `appearance/` folder, when `OSSUARY_CORPUS` is set.
fn appearance() -> Option<PathBuf> {
    tests::corpus_dir().map(|corpus| corpus.join("swg/appearance"))
}

/// The lines of an OBJ starting with `prefix`, as numbers.
fn numbers(obj: &str, prefix: &str) -> Vec<Vec<f64>> {
    obj.lines()
        .filter_map(|line| line.strip_prefix(prefix))
        .map(|rest| {
            rest.split_whitespace()
                .map(|token| token.parse().unwrap())
                .collect()
        })
        .collect()
}

/// `ossuary skin` with these arguments after the mesh, as OBJ text.
fn skin(mesh: &Path, args: &[&str], dir: &Path) -> String {
    let out = dir.join("out.obj");
    let mut all = vec!["skin".to_owned(), text(mesh), "-o".to_owned(), text(&out)];
    all.extend(args.iter().map(|arg| (*arg).to_owned()));
    succeeded(&all.iter().map(String::as_str).collect::<Vec<_>>());
    std::fs::read_to_string(out).unwrap()
}

fn assert_close(got: &[f64], want: &[f64; 3], tolerance: f64, what: &str) {
    for axis in 0..3 {
        assert!(
            (got[axis] - want[axis]).abs() < tolerance,
            "{what}: {got:?} vs {want:?}"
        );
    }
}

/// Every real mesh skinned at the bind pose, as the check asks: one
/// `v` per POSN entry, in file order, back where the file puts it; then per
/// shader group its normals, texture coordinates and faces.
#[test]
fn real_meshes_at_the_bind_pose_give_back_their_positions() {
    let Some(appearance) = appearance() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let body = text(&appearance.join("skeleton/all_b.skt"));
    let face = text(&appearance.join("skeleton/hum_f_face.skt"));
    for path in tests::files_with_extension(&appearance.join("mesh"), "mgn") {
        let mesh = swg_mesh(&std::fs::read(&path).unwrap());
        let obj = skin(
            &path,
            &["--skeleton", &body, "--skeleton", &face],
            dir.path(),
        );
        let name = path.display();
        let positions = numbers(&obj, "v ");
        assert_eq!(positions.len(), mesh.positions.len(), "{name}");
        for (index, (got, want)) in positions.iter().zip(&mesh.positions).enumerate() {
            assert_close(got, want, 1e-4, &format!("{name} POSN[{index}]"));
        }
        let vertices: usize = mesh
            .groups
            .iter()
            .map(|group| group.position_indices.len())
            .sum();
        assert_eq!(numbers(&obj, "vn ").len(), vertices, "{name}");
        assert_eq!(numbers(&obj, "vt ").len(), vertices, "{name}");
        check_faces(&obj, &mesh, &name.to_string());
    }
}

/// Faces per shader group: `f p/t/n` with p the POSN entry (from 1) and t,
/// n the group's vertex, numbered on from the groups before it.
fn check_faces(obj: &str, mesh: &SwgMesh, name: &str) {
    let faces: Vec<&str> = obj.lines().filter(|line| line.starts_with("f ")).collect();
    let mut expected = Vec::new();
    let mut first_vertex = 1;
    for group in &mesh.groups {
        for triangle in &group.triangles {
            let corners = triangle.map(|vertex| {
                let attribute = first_vertex + vertex;
                let position = group.position_indices[vertex] + 1;
                format!("{position}/{attribute}/{attribute}")
            });
            expected.push(format!("f {}", corners.join(" ")));
        }
        first_vertex += group.position_indices.len();
    }
    assert_eq!(faces, expected, "{name}");
}

/// The Twi'lek's joints as `ossuary joints` gives them: name, parent, position.
fn joints(sat: &Path) -> Vec<(String, Option<String>, [f64; 3])> {
    let output = succeeded(&["joints", &text(sat)]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|joint| {
            (
                joint["name"].as_str().unwrap().to_owned(),
                joint["parent"].as_str().map(str::to_owned),
                [0, 1, 2].map(|axis| joint["position"][axis].as_f64().unwrap()),
            )
        })
        .collect()
}

/// The character's skeleton is the body's, with the face's root under
/// `head`, and agrees with the independent posing of both files.
#[test]
fn the_appearance_attaches_the_face_under_the_head() {
    let Some(appearance) = appearance() else {
        return;
    };
    let joints = joints(&appearance.join("twk_f.sat"));
    let read = |name: &str| {
        let bytes = std::fs::read(appearance.join("skeleton").join(name)).unwrap();
        let skeleton = skt::Skeleton::from_bytes(&bytes).unwrap();
        skeleton.levels()[0].joints().unwrap()
    };
    let (body, face) = (read("all_b.skt"), read("hum_f_face.skt"));
    assert_eq!(joints.len(), body.len() + face.len());
    let body_world = swg_world_matrices(&body);
    let head = body
        .iter()
        .position(|joint| joint.name.to_text().eq_ignore_ascii_case("head"))
        .unwrap();
    let face_world: Vec<_> = swg_world_matrices(&face)
        .iter()
        .map(|local| independent::multiply(&body_world[head], local))
        .collect();
    for ((name, parent, position), world) in joints.iter().zip(body_world.iter().chain(&face_world))
    {
        let want = independent::transform_point(world, [0.0; 3]);
        assert_close(position, &want, 1e-4, name);
        if name == "face_root" {
            assert_eq!(parent.as_deref(), Some("Head"));
        }
    }
}

/// The character stands: feet on the ground, head on the neck, hands at
/// the wrists, the meshes around the joints they follow.
#[test]
fn the_twilek_stands_as_the_game_shows_it() {
    let Some(appearance) = appearance() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sat = appearance.join("twk_f.sat");
    let joints = joints(&sat);
    let at = |name: &str| {
        joints
            .iter()
            .find(|(joint, _, _)| joint.eq_ignore_ascii_case(name))
            .map(|(_, _, position)| *position)
            .unwrap_or_else(|| panic!("no joint {name}"))
    };
    let head = at("head");
    assert!((1.4..2.0).contains(&head[1]), "head at {head:?}");
    for foot in ["lAnkle", "rAnkle"] {
        assert!(at(foot)[1] < 0.2, "{foot} at {:?}", at(foot));
    }
    let obj = skin(&sat, &[], dir.path());
    let positions = numbers(&obj, "v ");
    let lowest = positions.iter().map(|p| p[1]).fold(f64::MAX, f64::min);
    assert!(lowest.abs() < 0.1, "the feet stand at {lowest}");
    // The body's positions come first, then the head's.
    let body = swg_mesh(&std::fs::read(appearance.join("mesh/twk_f_body_l0.mgn")).unwrap());
    let head_mesh = swg_mesh(&std::fs::read(appearance.join("mesh/twk_f_head_l0.mgn")).unwrap());
    assert_eq!(
        positions.len(),
        body.positions.len() + head_mesh.positions.len()
    );
    let (body_positions, head_positions) = positions.split_at(body.positions.len());
    let centre_of = |mesh: &SwgMesh, positions: &[Vec<f64>], joint: &str| {
        let index = mesh
            .joints
            .iter()
            .position(|name| name.eq_ignore_ascii_case(joint))
            .unwrap();
        let held: Vec<&Vec<f64>> = positions
            .iter()
            .zip(&mesh.weights)
            .filter(|(_, weights)| weights.iter().any(|&(j, w)| j == index && w > 0.9))
            .map(|(position, _)| position)
            .collect();
        assert!(!held.is_empty(), "no position follows {joint} alone");
        [0, 1, 2].map(|axis| held.iter().map(|p| p[axis]).sum::<f64>() / held.len() as f64)
    };
    for wrist in ["lWrist", "rWrist"] {
        let centre = centre_of(&body, body_positions, wrist);
        let joint = at(wrist);
        let distance = (0..3)
            .map(|a| (centre[a] - joint[a]).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!(
            distance < 0.1,
            "{wrist}: hand at {centre:?}, joint at {joint:?}"
        );
    }
    let face = centre_of(&head_mesh, head_positions, "head");
    assert!(
        face[1] > at("neck")[1] && face[1] < head[1] + 0.3,
        "head mesh at {face:?}, neck at {:?}",
        at("neck")
    );
}

/// `--blend` moves positions and normals by the targets' offsets times the
/// weight, as the independent implementation does; an unknown name is a
/// usage error listing the targets.
#[test]
fn blend_targets_morph_by_name() {
    let Some(appearance) = appearance() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = appearance.join("mesh/twk_f_body_l0.mgn");
    let skeleton = text(&appearance.join("skeleton/all_b.skt"));
    let mesh = swg_mesh(&std::fs::read(&path).unwrap());
    let blends = [("blend_fat", 0.75), ("blend_muscle", -0.5)];
    let obj = skin(
        &path,
        &[
            "--skeleton",
            &skeleton,
            "--blend",
            "blend_fat=0.75",
            "--blend",
            "blend_muscle=-0.5",
        ],
        dir.path(),
    );
    let bytes = std::fs::read(appearance.join("skeleton/all_b.skt")).unwrap();
    let joints = skt::Skeleton::from_bytes(&bytes).unwrap().levels()[0]
        .joints()
        .unwrap();
    let names: Vec<String> = joints.iter().map(|joint| joint.name.to_text()).collect();
    let world = swg_world_matrices(&joints);
    let (want_positions, want_normals) = swg_skin(&mesh, &names, &world, &world, &blends);
    let moved = want_positions
        .iter()
        .zip(&mesh.positions)
        .filter(|(a, b)| a != b)
        .count();
    assert!(moved > 100, "only {moved} positions move");
    for (index, (got, want)) in numbers(&obj, "v ").iter().zip(&want_positions).enumerate() {
        assert_close(got, want, 1e-4, &format!("POSN[{index}]"));
    }
    let normals = numbers(&obj, "vn ");
    let per_vertex = mesh
        .groups
        .iter()
        .flat_map(|group| &group.normal_indices)
        .map(|&index| want_normals[index]);
    for (vertex, (got, want)) in normals.iter().zip(per_vertex).enumerate() {
        assert_close(got, &want, 1e-4, &format!("normal of vertex {vertex}"));
    }

    let output = ossuary(&[
        "skin",
        &text(&path),
        "--skeleton",
        &skeleton,
        "--blend",
        "blend_tall=1",
        "-o",
        &text(&dir.path().join("x.obj")),
    ]);
    assert_status(&output, 2);
    assert_eq!(
        stderr(&output),
        "ossuary: --blend blend_tall: no mesh has a morph target of that name; they have: \
         blend_fat, blend_flat_chest, blend_muscle, blend_skinny\n"
    );
}

/// `--lod N` takes level N of both mesh lists; the skeleton, which has one
/// level only, serves every level, as the game lets it.
#[test]
fn lod_chooses_the_level_of_every_mesh_list() {
    let Some(appearance) = appearance() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let positions = |mesh: &str| {
        let path = appearance.join(format!("mesh/{mesh}.mgn"));
        swg_mesh(&std::fs::read(path).unwrap()).positions.len()
    };
    for level in 0..4 {
        let obj = skin(
            &appearance.join("twk_f.sat"),
            &["--lod", &level.to_string()],
            dir.path(),
        );
        assert_eq!(
            numbers(&obj, "v ").len(),
            positions(&format!("twk_f_body_l{level}")) + positions(&format!("twk_f_head_l{level}")),
            "level {level}"
        );
    }
    let output = ossuary(&[
        "render",
        &text(&appearance.join("twk_f.sat")),
        "--lod",
        "4",
        "-o",
        &text(&dir.path().join("x.png")),
    ]);
    assert_status(&output, 1);
    let message = stderr(&output);
    assert!(
        message.contains("twk_f_body.lmg: there is no level of detail 4 (the file has 4, from 0)"),
        "{message}"
    );
}

#[test]
fn render_draws_the_whole_character_at_every_level() {
    let Some(appearance) = appearance() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for level in ["0", "3"] {
        let out = dir.path().join(format!("twk_f_{level}.png"));
        succeeded(&[
            "render",
            &text(&appearance.join("twk_f.sat")),
            "--lod",
            level,
            "-o",
            &text(&out),
        ]);
        assert!(std::fs::read(&out).unwrap().starts_with(b"\x89PNG"));
    }
}

/// References are found from the folder holding `appearance/`, or under
/// `--root`; a missing one is an error naming every path tried.
#[test]
fn references_resolve_under_the_appearance_folder_or_the_root() {
    let Some(appearance) = appearance() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let alone = dir.path().join("twk_f.sat");
    std::fs::copy(appearance.join("twk_f.sat"), &alone).unwrap();
    let out = text(&dir.path().join("x.png"));
    let output = ossuary(&["render", &text(&alone), "-o", &out]);
    assert_status(&output, 1);
    let message = stderr(&output);
    assert!(
        message.contains("cannot find the skeleton appearance/skeleton/all_b.skt; looked for ")
            && message.contains(&text(&dir.path().join("appearance/skeleton/all_b.skt")))
            && message.contains(&text(&dir.path().join("all_b.skt"))),
        "{message}"
    );
    let root = appearance.parent().unwrap();
    succeeded(&["render", &text(&alone), "--root", &text(root), "-o", &out]);

    // Named relative to the working directory, the document still has the
    // folder holding `appearance/` above it.
    for relative in ["twk_f.sat", "./twk_f.sat"] {
        let output = command(&appearance)
            .args(["render", relative, "-o", &out])
            .output()
            .unwrap();
        assert_status(&output, 0);
    }
}

#[test]
fn check_finds_every_real_file_identical() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let folder = corpus.join("swg");
    let output = succeeded(&["check", &text(&folder), "--json"]);
    let printed = stdout(&output);
    let results: Vec<serde_json::Value> = printed
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let checked: Vec<&serde_json::Value> = results
        .iter()
        .filter(|result| result.get("format").is_some_and(|format| !format.is_null()))
        .collect();
    // Every file the SWG formats claim by extension, whatever the corpus
    // holds besides (DDS textures are images, read by the exporter).
    let claimed: Vec<_> = support::files_below(&folder)
        .into_iter()
        .filter(|path| {
            path.extension()
                .and_then(|extension| extension.to_str())
                .is_some_and(|extension| {
                    ["skt", "mgn", "lmg", "sat", "sht", "pal"]
                        .contains(&extension.to_ascii_lowercase().as_str())
                })
        })
        .collect();
    assert!(claimed.len() >= 16, "{claimed:?}");
    assert_eq!(checked.len(), claimed.len(), "{printed}");
    assert!(
        checked.iter().all(|result| result["result"] == "ok"),
        "{printed}"
    );
    assert_eq!(
        results.len(),
        support::files_below(&folder).len() + 1,
        "{printed}"
    );
}

#[test]
fn corrupted_meshes_fail_with_the_tag_path() {
    let Some(appearance) = appearance() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(appearance.join("mesh/twk_f_body_l3.mgn")).unwrap();
    let find = |tag: &[u8]| bytes.windows(4).position(|w| w == tag).unwrap();
    let cases = [
        // The fourth PIDX entry points past the 76 positions.
        (
            tests::patched(bytes.clone(), find(b"PIDX") + 12 + 12, 76i32.to_le_bytes()),
            "SKMG/0004/PSDT[0]/PIDX[3]: index 76 is outside the 76 positions of POSN",
        ),
        // The first weight names joint 10 of 10.
        (
            tests::patched(bytes.clone(), find(b"TWDT") + 8, 10i32.to_le_bytes()),
            "SKMG/0004/TWDT[0]: index 10 is outside the 10 joints of XFNM",
        ),
        // INFO's position count says 77.
        (
            tests::patched(bytes.clone(), find(b"INFO") + 8 + 16, 77i32.to_le_bytes()),
            "SKMG/0004/POSN",
        ),
        (
            bytes[..bytes.len() - 5].to_vec(),
            "byte 4: size 8041 runs past the end of the enclosing data (8036 byte(s) left)",
        ),
    ];
    for (corrupted, message) in cases {
        let path = dir.path().join("bad.mgn");
        std::fs::write(&path, corrupted).unwrap();
        let output = ossuary(&["check", &text(&path)]);
        assert_status(&output, 1);
        let said = stdout(&output) + &stderr(&output);
        assert!(said.contains(message), "{message}: {said}");
    }
}

#[test]
fn info_shows_counts_joints_shaders_blend_targets_and_levels() {
    let Some(appearance) = appearance() else {
        return;
    };
    let info = |path: &str| stdout(&succeeded(&["info", &text(&appearance.join(path))]));
    let mesh = info("mesh/twk_f_body_l3.mgn");
    for expected in [
        "  version: 0004\n",
        "  positions: 76\n",
        "  joints: 10: root, lthigh,",
        "  shader groups: 1: shader/twk_f_body_sm.sht (125 vertices, 146 triangles)\n",
        "  blend targets: 1: blend_fat\n",
    ] {
        assert!(mesh.contains(expected), "{expected:?} in {mesh}");
    }
    let list = info("mesh/twk_f_head.lmg");
    assert!(
        list.contains("  levels: 4\n  meshes: appearance/mesh/twk_f_head_l0.mgn, "),
        "{list}"
    );
    let sat = info("twk_f.sat");
    assert!(
        sat.contains(
            "  skeletons: appearance/skeleton/all_b.skt (root), \
             appearance/skeleton/hum_f_face.skt under head\n"
        ),
        "{sat}"
    );
}

/// `convert --blend` gives the blend shapes exported as morph targets
/// their default weights; a target not named weighs 0.
#[test]
fn convert_exports_blend_shapes_weighted_as_blend_says() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("humanoid.gltf");
    let out_text = out.to_string_lossy().into_owned();
    let sat = fixture("humanoid.sat");
    let weights = |args: &[&str]| -> Vec<serde_json::Value> {
        let mut all = vec!["convert", sat.as_str(), "-o", out_text.as_str()];
        all.extend(args);
        assert_status(&ossuary(&all), 0);
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        let meshes = json["meshes"].as_array().unwrap().clone();
        assert!(meshes
            .iter()
            .all(|mesh| mesh["extras"]["targetNames"] == serde_json::json!(["blend_fat"])));
        meshes.iter().map(|mesh| mesh["weights"].clone()).collect()
    };
    assert!(weights(&[]).iter().all(|w| *w == serde_json::json!([0.0])));
    assert!(weights(&["--blend", "blend_fat=0.5"])
        .iter()
        .all(|w| *w == serde_json::json!([0.5])));
}
