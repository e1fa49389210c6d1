//! The glTF import against issue 46's hostile input: a named pipe a
//! `.gltf` names, names of megabytes in messages, numbers that are not
//! finite, joint scales that are float noise or real, and work that grows
//! faster than the input (joints looked up per joint, meshes placed by many
//! nodes, one image shown by many meshes).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use export::import::{carried, read_beside, sims, swg, Asset, ImportError};
use formats::rig;
use serde_json::{json, Value};

fn fixture(name: &str) -> Vec<u8> {
    let path: PathBuf = tests::workspace_root()
        .join("export/tests/fixtures")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A `.glb`'s JSON and binary chunk.
fn parts(glb: &[u8]) -> (Value, Vec<u8>) {
    let json_length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json = serde_json::from_slice(&glb[20..20 + json_length]).unwrap();
    let binary = glb
        .get(20 + json_length + 8..)
        .map(<[u8]>::to_vec)
        .unwrap_or_default();
    (json, binary)
}

/// A `.glb` of `json` and `binary`.
fn glb(json: &Value, binary: &[u8]) -> Vec<u8> {
    let mut json = serde_json::to_vec(json).unwrap();
    while json.len() % 4 != 0 {
        json.push(b' ');
    }
    let mut binary = binary.to_vec();
    while binary.len() % 4 != 0 {
        binary.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + binary.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(binary.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&binary);
    out
}

/// `names` as a skeleton of identity rests, each under the one before.
fn chain(names: &[String]) -> rig::Skeleton {
    rig::Skeleton {
        joints: names
            .iter()
            .enumerate()
            .map(|(index, name)| rig::Joint {
                name: name.clone(),
                parent: index.checked_sub(1),
                rest: rig::Transform::IDENTITY,
            })
            .collect(),
        axes: rig::Axes::LeftHandedYUp,
    }
}

/// The made-in-Blender figure's skeleton: ROOT, and SPINE a unit above it.
fn figure() -> rig::Skeleton {
    rig::Skeleton {
        joints: vec![
            rig::Joint {
                name: "ROOT".to_owned(),
                parent: None,
                rest: rig::Transform::IDENTITY,
            },
            rig::Joint {
                name: "SPINE".to_owned(),
                parent: Some(0),
                rest: rig::Transform::TranslationRotation {
                    translation: [0.0, 1.0, 0.0],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                },
            },
        ],
        axes: rig::Axes::LeftHandedYUp,
    }
}

fn sims_import(bytes: &[u8], skeleton: &rig::Skeleton) -> Result<(), ImportError> {
    let asset = Asset::read(bytes, &|_| None)?;
    sims::import(&asset, skeleton, &carried::originals(&asset), &|_| None).map(|_| ())
}

/// The bytes of accessor `index`'s first element in the binary chunk.
fn element_at(json: &Value, index: usize) -> usize {
    let accessor = &json["accessors"][index];
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    view["byteOffset"].as_u64().unwrap_or(0) as usize
        + accessor["byteOffset"].as_u64().unwrap_or(0) as usize
}

/// The made-in-Blender figure with the f32 at accessor `accessor`'s first
/// element (component `component`) replaced by `value`.
fn figure_with(accessor: impl Fn(&Value) -> usize, component: usize, value: f32) -> Vec<u8> {
    let (json, mut binary) = parts(&fixture("made-in-blender.glb"));
    let at = element_at(&json, accessor(&json)) + 4 * component;
    binary[at..at + 4].copy_from_slice(&value.to_le_bytes());
    glb(&json, &binary)
}

/// Which accessor of an asset's JSON a case damages.
type AccessorOf = dyn Fn(&Value) -> usize;

fn message(result: Result<(), ImportError>) -> String {
    result.expect_err("refused").to_string()
}

#[test]
fn numbers_that_are_not_finite_are_refused_naming_what_and_where() {
    let attribute = |name: &'static str| {
        move |json: &Value| {
            json["meshes"][0]["primitives"][0]["attributes"][name]
                .as_u64()
                .unwrap() as usize
        }
    };
    let cases: [(Box<AccessorOf>, &str); 4] = [
        (Box::new(attribute("POSITION")), "position"),
        (Box::new(attribute("NORMAL")), "normal"),
        (Box::new(attribute("TEXCOORD_0")), "texture coordinate"),
        (
            Box::new(|json: &Value| {
                json["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize
            }),
            "inverse bind matrix",
        ),
    ];
    for (accessor, what) in cases {
        for value in [f32::NAN, f32::INFINITY] {
            let text = message(sims_import(&figure_with(&accessor, 1, value), &figure()));
            assert!(text.contains(what), "{what}: {text}");
            assert!(
                text.contains("not finite") || text.contains("not a finite"),
                "{text}"
            );
        }
    }
    // An animation's key time and value.
    let sampler = |key: &'static str| {
        move |json: &Value| json["animations"][0]["samplers"][0][key].as_u64().unwrap() as usize
    };
    for (key, what) in [
        ("input", "the time of key 0"),
        ("output", "key holds a number"),
    ] {
        let text = message(sims_import(
            &figure_with(sampler(key), 0, f32::NAN),
            &figure(),
        ));
        assert!(text.contains(what) && text.contains("not"), "{text}");
        assert!(text.contains("finite"), "{text}");
    }
    // A node's transform past f32's range is refused as the JSON is read.
    let (mut json, binary) = parts(&fixture("made-in-blender.glb"));
    json["nodes"][0]["translation"] = json!([0.0, 1e39, 0.0]);
    let text = message(sims_import(&glb(&json, &binary), &figure()));
    assert!(text.contains("out of range"), "{text}");
}

#[test]
fn a_morph_target_move_that_is_not_finite_is_refused() {
    let (json, mut binary) = parts(&fixture("swg-humanoid-edited-in-blender.glb"));
    let target = json["meshes"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|mesh| mesh["primitives"][0]["targets"][0]["POSITION"].as_u64())
        .expect("a mesh with a morph target") as usize;
    let accessor = &json["accessors"][target];
    // Blender writes the moves sparse: the first substituted value.
    let at = match accessor.get("sparse") {
        Some(sparse) => {
            let view =
                &json["bufferViews"][sparse["values"]["bufferView"].as_u64().unwrap() as usize];
            view["byteOffset"].as_u64().unwrap_or(0) as usize
                + sparse["values"]["byteOffset"].as_u64().unwrap_or(0) as usize
        }
        None => element_at(&json, target),
    };
    binary[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let asset = Asset::read(&glb(&json, &binary), &|_| None).unwrap();
    let skeleton = swg::skeleton_of(&asset).unwrap();
    let joints = match skeleton.levels().into_iter().next().unwrap().skeleton() {
        Ok(skeleton) => skeleton
            .joints
            .into_iter()
            .map(|joint| joint.name)
            .collect(),
        Err(error) => panic!("{error}"),
    };
    let files = [swg::SkeletonFile {
        attachment: swg::skeleton_at_root("x.skt"),
        joints,
    }];
    let Err(error) = swg::import(&asset, &files, &[]) else {
        panic!("a morph target move that is not finite is refused");
    };
    let text = error.to_string();
    assert!(
        text.contains("morph target move") && text.contains("not a finite"),
        "{text}"
    );
}

/// A message quotes at most 60 characters of a name, however long.
fn short(text: &str) {
    assert!(
        text.len() < 400,
        "{} characters: {}...",
        text.len(),
        &text[..200]
    );
}

#[test]
fn messages_quote_at_most_60_characters_of_a_megabyte_name() {
    let long = "J".repeat(1 << 20);
    // A joint the skeleton does not have.
    let (mut json, binary) = parts(&fixture("made-in-blender.glb"));
    let joint = json["skins"][0]["joints"][1].as_u64().unwrap() as usize;
    json["nodes"][joint]["name"] = json!(long);
    let text = message(sims_import(&glb(&json, &binary), &figure()));
    assert!(text.contains("has no joint"), "{}", &text[..100]);
    short(&text);
    // A mesh without a skin.
    let (mut json, binary) = parts(&fixture("made-in-blender.glb"));
    json["meshes"][0]["name"] = json!(long);
    for node in json["nodes"].as_array_mut().unwrap() {
        node.as_object_mut().unwrap().remove("skin");
    }
    short(&message(sims_import(&glb(&json, &binary), &figure())));
    // A buffer named by a URI that cannot be read.
    let (mut json, _) = parts(&fixture("made-in-blender.glb"));
    json["buffers"][0]["uri"] = json!(long);
    let gltf = serde_json::to_vec(&json).unwrap();
    let text = Asset::read(&gltf, &|_| None)
        .err()
        .expect("refused")
        .to_string();
    short(&text);
    // A shader path of a megabyte: the warning says it once, quoted.
    let mut warnings = Vec::new();
    let files = formats::files::Files::nowhere();
    let name = format!("shader/{long}.sht");
    export::shader::material(&name, &files, &[], &mut |_, warning| warnings.push(warning));
    assert_eq!(warnings.len(), 1);
    short(&warnings[0]);
}

/// Whether `work` finishes within `limit`, on a thread of its own.
fn finishes<T: Send + 'static>(
    limit: Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(work());
    });
    receiver.recv_timeout(limit).ok()
}

#[test]
fn a_named_pipe_a_gltf_names_is_refused_without_opening_it() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("buffer.bin");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    std::fs::create_dir(dir.path().join("folder.bin")).unwrap();
    let folder = dir.path().to_path_buf();
    let (mut json, _) = parts(&fixture("made-in-blender.glb"));
    for name in ["buffer.bin", "folder.bin", "../buffer.bin"] {
        json["buffers"][0]["uri"] = json!(name);
        let gltf = serde_json::to_vec(&json).unwrap();
        let folder = folder.clone();
        let result = finishes(Duration::from_secs(20), move || {
            let external = |uri: &str| read_beside(&folder, uri, 1 << 30).ok();
            Asset::read(&gltf, &external)
                .err()
                .map(|error| error.to_string())
        })
        .unwrap_or_else(|| panic!("{name}: reading the asset waits on it"));
        let text = result.expect("refused");
        assert!(text.contains(name), "{text}");
    }
    assert!(read_beside(&folder, "buffer.bin", 1 << 30)
        .unwrap_err()
        .contains("not a regular file"));
    assert!(read_beside(&folder, "../buffer.bin", 1 << 30)
        .unwrap_err()
        .contains("not one plain file name"));
}

#[test]
fn a_joint_scale_of_float_noise_is_none_and_a_real_one_is_refused_naming_swg() {
    let (mut json, binary) = parts(&fixture("swg-humanoid-edited-in-blender.glb"));
    let joint = json["skins"][0]["joints"][3].as_u64().unwrap() as usize;
    // Blender writes joints it imported scaled by up to 1 ± 2e-5.
    json["nodes"][joint]["scale"] = json!([1.0000173, 1.0000004, 1.0]);
    let asset = Asset::read(&glb(&json, &binary), &|_| None).unwrap();
    swg::skeleton_of(&asset).unwrap();
    json["nodes"][joint]["scale"] = json!([1.2, 1.2, 1.2]);
    let asset = Asset::read(&glb(&json, &binary), &|_| None).unwrap();
    let text = swg::skeleton_of(&asset).expect_err("refused").to_string();
    assert!(
        text.contains("Star Wars Galaxies joint has no scale"),
        "{text}"
    );
    assert!(!text.contains("Sims"), "{text}");
}

/// An asset of one triangle skinned to the last of a chain of `joints`
/// joints named `J<n>`, each a node under the one before.
fn chain_asset(joints: usize) -> (Vec<u8>, rig::Skeleton) {
    let names: Vec<String> = (0..joints).map(|index| format!("J{index}")).collect();
    let mut binary = Vec::new();
    let mut floats = |values: &[f32]| {
        let at = binary.len();
        for value in values {
            binary.extend_from_slice(&value.to_le_bytes());
        }
        at
    };
    let positions = floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    let normals = floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0]);
    let uvs = floats(&[0.0; 6]);
    let weights = floats(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
    let last = (joints - 1) as u32;
    let joints_at = binary.len();
    for _ in 0..3 {
        for joint in [last, 0, 0, 0] {
            binary.extend_from_slice(&joint.to_le_bytes());
        }
    }
    let view = |offset: usize, length: usize| json!({"buffer": 0, "byteOffset": offset, "byteLength": length});
    let mut nodes: Vec<Value> = (0..joints)
        .map(|index| {
            let mut node = json!({"name": names[index]});
            if index + 1 < joints {
                node["children"] = json!([index + 1]);
            }
            node
        })
        .collect();
    nodes.push(json!({"name": "triangle", "mesh": 0, "skin": 0}));
    let json = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, joints]}],
        "nodes": nodes,
        "skins": [{"joints": (0..joints).collect::<Vec<_>>()}],
        "meshes": [{"name": "triangle", "primitives": [{"attributes": {
            "POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2, "WEIGHTS_0": 3, "JOINTS_0": 4}}]}],
        "buffers": [{"byteLength": binary.len()}],
        "bufferViews": [view(positions, 36), view(normals, 36), view(uvs, 24), view(weights, 48),
            view(joints_at, 48)],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]},
            {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"},
            {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC2"},
            {"bufferView": 3, "componentType": 5126, "count": 3, "type": "VEC4"},
            {"bufferView": 4, "componentType": 5125, "count": 3, "type": "VEC4"},
        ],
    });
    (glb(&json, &binary), chain(&names))
}

/// The least of three timings of `work`.
fn fastest(work: impl Fn()) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .min()
        .unwrap()
}

#[test]
fn work_grows_with_the_joints_as_they_do() {
    // Four times the joints take about four times as long: joints are
    // found by name once each, not by scanning every joint for each (that
    // took sixteen times as long, and minutes for 100,000 joints).
    let time = |joints: usize| {
        let (bytes, skeleton) = chain_asset(joints);
        fastest(|| {
            sims_import(&bytes, &skeleton).unwrap();
            let asset = Asset::read(&bytes, &|_| None).unwrap();
            sims::skeleton_of(&asset, "adult", &carried::originals(&asset)).unwrap();
            swg::skeleton_of(&asset).unwrap();
        })
    };
    let (small, large) = (time(4_000), time(16_000));
    assert!(
        large < small * 10,
        "4,000 joints took {small:?}, 16,000 {large:?}"
    );
}

/// The made-in-Blender figure's JSON and binary chunk, and its mesh node.
fn figure_and_its_mesh_node() -> (Value, Vec<u8>, usize) {
    let (json, binary) = parts(&fixture("made-in-blender.glb"));
    let mesh_node = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .position(|node| node.get("mesh").is_some())
        .unwrap();
    (json, binary, mesh_node)
}

#[test]
fn a_mesh_placed_by_several_nodes_is_refused_before_it_is_read() {
    let (mut json, binary, mesh_node) = figure_and_its_mesh_node();
    let copy = json["nodes"][mesh_node].clone();
    let nodes = json["nodes"].as_array_mut().unwrap();
    let copies: Vec<usize> = (0..4_000).map(|index| nodes.len() + index).collect();
    nodes.extend(std::iter::repeat_n(copy, copies.len()));
    json["scenes"][0]["nodes"]
        .as_array_mut()
        .unwrap()
        .extend(copies.iter().map(|&node| json!(node)));
    let text = message(sims_import(&glb(&json, &binary), &figure()));
    assert!(text.contains("more than one node places it"), "{text}");
}

#[test]
fn meshes_sharing_one_image_share_one_texture_file() {
    // Three meshes, each its own copy of the box, showing the one image.
    let (mut json, binary, mesh_node) = figure_and_its_mesh_node();
    for copy in 1..3 {
        let mut mesh = json["meshes"][0].clone();
        mesh["name"] = json!(format!("box{copy}"));
        json["meshes"].as_array_mut().unwrap().push(mesh);
        let mut node = json["nodes"][mesh_node].clone();
        node["mesh"] = json!(copy);
        node["name"] = json!(format!("box{copy}"));
        json["nodes"].as_array_mut().unwrap().push(node);
        let index = json["nodes"].as_array().unwrap().len() - 1;
        json["scenes"][0]["nodes"]
            .as_array_mut()
            .unwrap()
            .push(json!(index));
    }
    let asset = Asset::read(&glb(&json, &binary), &|_| None).unwrap();
    let character =
        sims::import(&asset, &figure(), &carried::originals(&asset), &|_| None).unwrap();
    assert_eq!(character.skins.len(), 3);
    assert_eq!(
        character.textures.len(),
        1,
        "{:?}",
        character.textures.iter().map(|t| &t.0).collect::<Vec<_>>()
    );
    let file = &character.textures[0].0;
    for skin in &character.skins {
        assert_eq!(format!("{}.bmp", skin.texture.to_text()), *file);
    }
}

#[test]
fn accessors_read_past_the_buffers_size_are_refused() {
    // Thousands of meshes, each its own, all reading the box's accessors:
    // small JSON, every mesh read whole.
    let (mut json, binary, mesh_node) = figure_and_its_mesh_node();
    let first = json["meshes"].as_array().unwrap().len();
    for copy in 0..20_000 {
        let mesh = json["meshes"][0].clone();
        json["meshes"].as_array_mut().unwrap().push(mesh);
        let mut node = json["nodes"][mesh_node].clone();
        node["mesh"] = json!(first + copy);
        json["nodes"].as_array_mut().unwrap().push(node);
    }
    let bytes = glb(&json, &binary);
    let text = message(sims_import(&bytes, &figure()));
    assert!(text.contains("four for each byte of its buffers"), "{text}");
}
