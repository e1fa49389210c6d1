//! Exported assets read back with the `gltf` crate and compared with
//! ossuary's own posing: joint world positions put together from the node
//! hierarchy, and skinned vertex positions evaluated the way glTF viewers
//! do (linear blend skinning from the file's joints, weights and inverse
//! bind matrices), at rest and at every key of an animation built here.
//!
//! With `OSSUARY_GLTF_OUT` naming a folder, every exported file is also
//! written there, for `.ci/run` to hand to the Khronos glTF Validator.

use std::path::{Path, PathBuf};

use export::{Character, Container, Mesh};
use formats::catalogue::Catalogue;
use formats::files::{Files, FoundFile};
use formats::format::Document;
use formats::rig::{self, Keys, Motion, RigOptions, Track, TrackTarget, Transform};
use glam::{Affine3A, Mat4, Quat, Vec3};
use gltf::animation::util::ReadOutputs;
use skinning::axes::right_handed_y_up;
use skinning::{BlendRule, BoundSkin, Clip, Composition, Skeleton};

const TOLERANCE: f32 = 1e-4;

fn decode(path: &Path) -> Box<dyn Document> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let format = Catalogue::default()
        .detect(&path.to_string_lossy(), &bytes)
        .unwrap_or_else(|| panic!("{}: unknown format", path.display()));
    (format.decode)(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A skeleton file's level `lod`, the skins of the mesh files with the
/// textures found beside them, and animations.
struct Source {
    name: String,
    skeleton: rig::Skeleton,
    meshes: Vec<(rig::Skin, Option<FoundFile>)>,
    animations: Vec<rig::Animation>,
}

fn source(name: &str, skeleton: &Path, meshes: &[PathBuf], lod: usize) -> Source {
    let options = RigOptions { lod };
    let skeleton = decode(skeleton)
        .rig()
        .skeleton(&Files::beside(skeleton), options)
        .expect("a skeleton file")
        .unwrap_or_else(|e| panic!("{}: {e}", skeleton.display()));
    let meshes = meshes
        .iter()
        .flat_map(|path| {
            let files = Files::beside(path);
            let skins = decode(path)
                .rig()
                .skins(&files, options)
                .expect("a mesh file")
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            skins.into_iter().map(move |skin| {
                let texture = export::find_texture(&skin, &files).unwrap();
                (skin, texture)
            })
        })
        .collect();
    Source {
        name: name.to_owned(),
        skeleton,
        meshes,
        animations: Vec::new(),
    }
}

/// The asset as a container's bytes, also kept in `OSSUARY_GLTF_OUT`.
fn export(source: &Source, container: Container) -> Vec<u8> {
    let character = Character {
        skeleton: &source.skeleton,
        meshes: source
            .meshes
            .iter()
            .map(|(skin, texture)| Mesh {
                skin,
                texture: texture.clone(),
                suit: None,
                shader: None,
            })
            .collect(),
        animations: &source.animations,
        sims_skills: &[],
        blend_weights: &[],
        composition: Composition::Hierarchy,
        originals: &[],
    };
    let bytes =
        export::export(&character, container).unwrap_or_else(|e| panic!("{}: {e}", source.name));
    if let Some(folder) = std::env::var_os("OSSUARY_GLTF_OUT") {
        let folder = PathBuf::from(folder);
        std::fs::create_dir_all(&folder).unwrap();
        let extension = match container {
            Container::Gltf => "gltf",
            Container::Glb => "glb",
        };
        std::fs::write(folder.join(format!("{}.{extension}", source.name)), &bytes).unwrap();
    }
    bytes
}

/// `frames` frames at 30 per second in which every joint turns about an
/// axis of its own, and the roots also move; `scaled`, if given, is driven
/// by whole matrices that also grow it.
fn wave(skeleton: &rig::Skeleton, frames: usize, scaled: Option<usize>) -> rig::Animation {
    let tracks = skeleton
        .joints
        .iter()
        .enumerate()
        .filter_map(|(index, joint)| {
            let Transform::TranslationRotation {
                translation,
                rotation,
            } = joint.rest
            else {
                return None;
            };
            let j = index as f32;
            let axis = Vec3::new(j.sin(), (2.0 * j).cos(), 0.5).normalize();
            let turn = |frame: usize| {
                let angle = 0.8 * (frame as f32 * 0.7 + j * 1.3).sin();
                Quat::from_array(rotation) * Quat::from_axis_angle(axis, angle)
            };
            let moved = |frame: usize| {
                Vec3::from_array(translation) + Vec3::new(0.05, -0.02, 0.1) * frame as f32
            };
            let keys = if Some(index) == scaled {
                Keys::Transforms(
                    (0..frames)
                        .map(|frame| {
                            let scale = Vec3::splat(1.0 + 0.25 * frame as f32);
                            let matrix = Mat4::from_scale_rotation_translation(
                                scale,
                                turn(frame),
                                Vec3::from_array(translation),
                            );
                            Transform::Matrix(matrix.to_cols_array_2d())
                        })
                        .collect(),
                )
            } else {
                Keys::Parts {
                    translations: match joint.parent {
                        None => (0..frames).map(|frame| moved(frame).to_array()).collect(),
                        Some(_) => Vec::new(),
                    },
                    rotations: (0..frames).map(|frame| turn(frame).to_array()).collect(),
                }
            };
            // Half the tracks find their joint by name, half by position.
            let joint = if index % 2 == 0 {
                TrackTarget::Name(joint.name.clone())
            } else {
                TrackTarget::Index(index)
            };
            Some(Track { joint, keys })
        })
        .collect();
    rig::Animation {
        name: "wave".to_owned(),
        end: None,
        events: Vec::new(),
        times: (0..frames).map(|frame| frame as f32 / 30.0).collect(),
        motion: Motion::Joints(rig::JointMotion {
            tracks,
            depth_pattern: None,
        }),
    }
}

/// An exported asset as the `gltf` crate reads it.
struct ReadBack {
    document: gltf::Document,
    buffers: Vec<gltf::buffer::Data>,
    images: Vec<gltf::image::Data>,
}

fn read_back(bytes: &[u8]) -> ReadBack {
    let (document, buffers, images) = gltf::import_slice(bytes).unwrap();
    ReadBack {
        document,
        buffers,
        images,
    }
}

/// A node's local transform, from its own translation, rotation and scale.
fn trs(translation: [f32; 3], rotation: [f32; 4], scale: [f32; 3]) -> Mat4 {
    Mat4::from_scale_rotation_translation(
        Vec3::from_array(scale),
        Quat::from_array(rotation),
        Vec3::from_array(translation),
    )
}

impl ReadBack {
    fn rest_locals(&self) -> Vec<(Vec3, Quat, Vec3)> {
        self.document
            .nodes()
            .map(|node| {
                let (t, r, s) = node.transform().decomposed();
                (Vec3::from(t), Quat::from_array(r), Vec3::from(s))
            })
            .collect()
    }

    /// Every node's world matrix, from the hierarchy and these locals.
    fn world(&self, locals: &[(Vec3, Quat, Vec3)]) -> Vec<Mat4> {
        let mut parents = vec![None; locals.len()];
        for node in self.document.nodes() {
            for child in node.children() {
                parents[child.index()] = Some(node.index());
            }
        }
        (0..locals.len())
            .map(|mut node| {
                let mut world = Mat4::IDENTITY;
                loop {
                    let (t, r, s) = locals[node];
                    world = trs(t.into(), r.into(), s.into()) * world;
                    match parents[node] {
                        Some(parent) => node = parent,
                        None => break world,
                    }
                }
            })
            .collect()
    }

    fn mesh_nodes(&self) -> Vec<gltf::Node<'_>> {
        self.document
            .nodes()
            .filter(|node| node.mesh().is_some())
            .collect()
    }

    /// A mesh node's vertices, moved by its morph targets at `morph_weights`
    /// (none: not at all), then skinned by the node world matrices.
    fn skinned(&self, node: &gltf::Node, world: &[Mat4], morph_weights: &[f32]) -> Vec<Vec3> {
        let buffers = |buffer: gltf::Buffer| Some(&*self.buffers[buffer.index()]);
        let skin = node.skin().expect("a skinned mesh");
        let inverse_binds: Vec<Mat4> = skin
            .reader(buffers)
            .read_inverse_bind_matrices()
            .unwrap()
            .map(|matrix| Mat4::from_cols_array_2d(&matrix))
            .collect();
        let joint_matrices: Vec<Mat4> = skin
            .joints()
            .zip(&inverse_binds)
            .map(|(joint, inverse_bind)| world[joint.index()] * *inverse_bind)
            .collect();
        let primitive = node.mesh().unwrap().primitives().next().unwrap();
        let reader = primitive.reader(buffers);
        let mut positions: Vec<Vec3> = reader.read_positions().unwrap().map(Vec3::from).collect();
        for ((moves, _, _), &weight) in reader.read_morph_targets().zip(morph_weights) {
            for (position, moved) in positions.iter_mut().zip(moves.unwrap()) {
                *position += weight * Vec3::from(moved);
            }
        }
        let mut skinned = vec![Vec3::ZERO; positions.len()];
        for set in 0.. {
            let (Some(joints), Some(weights)) = (reader.read_joints(set), reader.read_weights(set))
            else {
                assert!(set > 0, "no JOINTS_0/WEIGHTS_0");
                break;
            };
            let influences = joints.into_u16().zip(weights.into_f32());
            for ((vertex, (joints, weights)), position) in
                skinned.iter_mut().zip(influences).zip(&positions)
            {
                for (joint, weight) in joints.iter().zip(weights) {
                    *vertex += weight * joint_matrices[*joint as usize].transform_point3(*position);
                }
            }
        }
        skinned
    }

    /// Whether a mesh node draws triangles (rather than points).
    fn draws_triangles(&self, node: &gltf::Node) -> bool {
        let primitive = node.mesh().unwrap().primitives().next().unwrap();
        primitive.mode() == gltf::mesh::Mode::Triangles
    }

    /// The share of a mesh node's triangles whose corners, in order, turn
    /// counterclockwise seen from the side their vertex normals point to
    /// (glTF's front faces).
    fn facing_their_normals(&self, node: &gltf::Node) -> f32 {
        let buffers = |buffer: gltf::Buffer| Some(&*self.buffers[buffer.index()]);
        let primitive = node.mesh().unwrap().primitives().next().unwrap();
        let reader = primitive.reader(buffers);
        let positions: Vec<Vec3> = reader.read_positions().unwrap().map(Vec3::from).collect();
        let normals: Vec<Vec3> = reader.read_normals().unwrap().map(Vec3::from).collect();
        let corners: Vec<usize> = reader
            .read_indices()
            .unwrap()
            .into_u32()
            .map(|corner| corner as usize)
            .collect();
        let triangles = corners.chunks(3);
        let count = triangles.len();
        let facing = triangles
            .filter(|corners| {
                let [a, b, c] = [corners[0], corners[1], corners[2]];
                let turn = (positions[b] - positions[a]).cross(positions[c] - positions[a]);
                turn.dot(normals[a] + normals[b] + normals[c]) > 0.0
            })
            .count();
        facing as f32 / count as f32
    }

    /// The morph target weights of a mesh node at each key of animation `index`.
    fn morph_weights(&self, index: usize, node: &gltf::Node) -> Vec<Vec<f32>> {
        let animation = self.document.animations().nth(index).unwrap();
        let buffers = |buffer: gltf::Buffer| Some(&*self.buffers[buffer.index()]);
        let channel = animation
            .channels()
            .find(|channel| channel.target().node().index() == node.index())
            .expect("a channel for the mesh");
        let ReadOutputs::MorphTargetWeights(weights) =
            channel.reader(buffers).read_outputs().unwrap()
        else {
            panic!("weights");
        };
        let targets = node.mesh().unwrap().weights().unwrap().len();
        let weights: Vec<f32> = weights.into_f32().collect();
        weights.chunks(targets).map(<[f32]>::to_vec).collect()
    }

    /// The locals at each key of animation `index`, for every node.
    fn animated_locals(&self, index: usize) -> Vec<Vec<(Vec3, Quat, Vec3)>> {
        let animation = self.document.animations().nth(index).unwrap();
        let buffers = |buffer: gltf::Buffer| Some(&*self.buffers[buffer.index()]);
        let mut keys: Vec<Vec<(Vec3, Quat, Vec3)>> = Vec::new();
        for channel in animation.channels() {
            let reader = channel.reader(buffers);
            let times = reader.read_inputs().unwrap().count();
            if keys.is_empty() {
                keys = vec![self.rest_locals(); times];
            }
            assert_eq!(keys.len(), times, "every channel keys the same times");
            let node = channel.target().node().index();
            match reader.read_outputs().unwrap() {
                ReadOutputs::Translations(values) => {
                    for (frame, value) in values.enumerate() {
                        keys[frame][node].0 = Vec3::from(value);
                    }
                }
                ReadOutputs::Rotations(values) => {
                    for (frame, value) in values.into_f32().enumerate() {
                        keys[frame][node].1 = Quat::from_array(value);
                    }
                }
                ReadOutputs::Scales(values) => {
                    for (frame, value) in values.enumerate() {
                        keys[frame][node].2 = Vec3::from(value);
                    }
                }
                ReadOutputs::MorphTargetWeights(_) => panic!("no morph targets are exported"),
            }
        }
        keys
    }
}

/// The largest distance between matching points.
fn largest_gap(a: &[Vec3], b: &[Vec3]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0, f32::max)
}

/// Ossuary's joint positions and deformed skins in one pose, in glTF's axes.
struct Posed {
    joints: Vec<Vec3>,
    skins: Vec<Vec<Vec3>>,
}

fn posed(source: &Source, skeleton: &Skeleton, model: &[Affine3A]) -> Posed {
    let axes = skeleton.axes();
    let to_gltf = |points: Vec<Vec3>| -> Vec<Vec3> {
        points
            .into_iter()
            .map(|point| right_handed_y_up(axes, point))
            .collect()
    };
    Posed {
        joints: to_gltf(model.iter().map(|m| Vec3::from(m.translation)).collect()),
        skins: source
            .meshes
            .iter()
            .map(|(skin, _)| {
                let deformed = BoundSkin::bind(skin, skeleton)
                    .and_then(|bound| bound.deform(model, BlendRule::Game))
                    .unwrap();
                to_gltf(deformed.positions)
            })
            .collect(),
    }
}

/// Which vertices of a skin blend vertices pull.
fn pulled(skin: &rig::Skin) -> Vec<bool> {
    let mut pulled = vec![false; skin.positions.len()];
    if let rig::Binding::BoneSpace(bone_space) = &skin.binding {
        for blend in &bone_space.blends {
            pulled[blend.vertex as usize] = true;
        }
    }
    pulled
}

/// What the comparison found: the largest departure of a pulled vertex
/// from ossuary's deformation in any animated pose.
struct Report {
    blend_deviation: f32,
}

/// Exports `source` both ways and checks, for each file:
/// - one node per joint first, in order, named as the joint, children
///   matching parents;
/// - triangles wound counterclockwise seen from where their normals point;
/// - node world positions = ossuary's joints in glTF's axes, at rest and
///   at every key of every animation;
/// - skinned vertices = ossuary's deformation at rest; in animated poses
///   too, except vertices that blend vertices pull, which must stay within
///   the gap the docs state.
fn check(source: &Source) -> Report {
    let skeleton = Skeleton::new(&source.skeleton).unwrap();
    let mut report = Report {
        blend_deviation: 0.0,
    };
    for container in [Container::Gltf, Container::Glb] {
        let read = read_back(&export(source, container));
        let nodes: Vec<gltf::Node> = read.document.nodes().collect();
        for (joint, (name, parent)) in skeleton.names().iter().zip(skeleton.parents()).enumerate() {
            assert_eq!(nodes[joint].name(), Some(name.as_str()), "{}", source.name);
            if let Some(parent) = parent {
                assert!(
                    nodes[*parent as usize]
                        .children()
                        .any(|child| child.index() == joint),
                    "{}: {name} under its parent",
                    source.name
                );
            }
        }
        let mesh_nodes = read.mesh_nodes();
        // Mirroring turns triangles inside out unless their winding is
        // reversed; a few triangles of the real bodies face away anyway.
        for node in mesh_nodes.iter().filter(|node| read.draws_triangles(node)) {
            let facing = read.facing_their_normals(node);
            assert!(
                facing > 0.95,
                "{} {:?}: {facing} face their normals",
                source.name,
                node.name()
            );
        }
        let rest_model = skinning::Pose::rest(&skeleton)
            .model_matrices(&skeleton)
            .unwrap();
        let mut poses = vec![(read.rest_locals(), rest_model.clone(), "rest".to_owned())];
        for (index, animation) in source.animations.iter().enumerate() {
            let Motion::Joints(motion) = &animation.motion else {
                panic!("joint animations only");
            };
            let frames = animation.times.len();
            let clip = Clip::bind(motion, frames, &skeleton).unwrap();
            for (key, locals) in read.animated_locals(index).into_iter().enumerate() {
                // A key past the frames closes the clip at its stated end
                // with the first pose (a loop) or the last (played once).
                let frame = match animation.end {
                    _ if key < frames => key,
                    Some(rig::End::Loops { .. }) => 0,
                    _ => frames - 1,
                };
                let model = clip
                    .pose(&skeleton, frame)
                    .unwrap()
                    .model_matrices(&skeleton)
                    .unwrap();
                poses.push((locals, model, format!("{} frame {frame}", animation.name)));
            }
        }
        for (locals, model, pose) in poses {
            let world = read.world(&locals);
            let expected = posed(source, &skeleton, &model);
            let joints: Vec<Vec3> = world[..skeleton.len()]
                .iter()
                .map(|m| m.w_axis.truncate())
                .collect();
            let gap = largest_gap(&joints, &expected.joints);
            assert!(
                gap < TOLERANCE,
                "{} {pose}: joints off by {gap}",
                source.name
            );
            assert_eq!(mesh_nodes.len(), expected.skins.len());
            let skins = source.meshes.iter().map(|(skin, _)| skin);
            for ((node, expected), skin) in mesh_nodes.iter().zip(&expected.skins).zip(skins) {
                let skinned = read.skinned(node, &world, &[]);
                let pulled = pulled(skin);
                for (vertex, (actual, expected)) in skinned.iter().zip(expected).enumerate() {
                    let gap = actual.distance(*expected);
                    if pulled[vertex] && pose != "rest" {
                        report.blend_deviation = report.blend_deviation.max(gap);
                    } else {
                        assert!(
                            gap < TOLERANCE,
                            "{} {pose}: {} vertex {vertex} off by {gap}",
                            source.name,
                            skin.name
                        );
                    }
                }
            }
        }
    }
    report
}

fn fixture(name: &str) -> PathBuf {
    tests::fixtures_dir().join(name)
}

#[test]
fn fixtures_export_and_read_back_as_ossuary_poses_them() {
    let arm_skn = fixture("xskin-humanoid-L_ARM-ARM.skn");
    let arm_bmf = fixture("xskin-humanoid-L_ARM-ARM.bmf");
    let cases = [
        ("humanoid-skel", "humanoid.skel", vec![], 0),
        ("humanoid-cmx", "humanoid.cmx", vec![arm_skn], 0),
        ("humanoid-bcf", "humanoid.bcf", vec![arm_bmf], 0),
        ("humanoid-skt", "humanoid.skt", vec![], 0),
        ("humanoid-lods-skt-lod0", "humanoid-lods.skt", vec![], 0),
        ("humanoid-lods-skt-lod1", "humanoid-lods.skt", vec![], 1),
        (
            "humanoid-mgn",
            "humanoid.skt",
            vec![fixture("humanoid.mgn")],
            0,
        ),
        (
            "humanoid-sat",
            "humanoid.sat",
            vec![fixture("humanoid.sat")],
            0,
        ),
    ];
    for (name, skeleton, meshes, lod) in cases {
        let mut source = source(name, &fixture(skeleton), &meshes, lod);
        let scaled = (source.skeleton.joints.len() > 2).then_some(2);
        source.animations = vec![wave(&source.skeleton, 5, scaled)];
        let report = check(&source);
        let blended = source
            .meshes
            .iter()
            .any(|(skin, _)| matches!(skin.binding, rig::Binding::BoneSpace(_)));
        if blended {
            // The arm's blend vertices sit 0.3 from the vertices they pull,
            // at weights 1/2 and 1/4: glTF cannot follow the game exactly.
            assert!(report.blend_deviation > 1e-3, "{name}");
        }
    }
}

/// The BonesPro biped (z up), its vertices a cloud of points, with its walk
/// given in model space (absolute frames) and relative to the parents as
/// Euler angles.
#[test]
fn a_bonespro_biped_exports_its_walks_as_ossuary_poses_them() {
    let structure = fixture("bonespro-biped.txt");
    let mut source = source(
        "bonespro-biped",
        &structure,
        std::slice::from_ref(&structure),
        0,
    );
    for walk in [
        "bonespro-walk-absolute-matrix.txt",
        "bonespro-walk-euler-zxz.txt",
    ] {
        let path = fixture(walk);
        let animations = decode(&path)
            .rig()
            .animations(&Files::beside(&path))
            .expect("an animation file")
            .unwrap_or_else(|e| panic!("{walk}: {e}"));
        source.animations.extend(animations);
    }
    check(&source);
}

/// The real adult Sim: skeleton, body, head and hands.
#[test]
fn the_real_adult_sim_exports_as_ossuary_poses_it() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let sims = corpus.join("sims1");
    let meshes = [
        "xskin-b001mafit_01-PELVIS-BODY.skn",
        "xskin-C001MA_Ross-HEAD-HEADB.skn",
        "xskin-hmlo-L_HAND-HANDML.skn",
        "xskin-hmro-R_HAND-HANDMR.skn",
    ]
    .map(|name| sims.join(name));
    let mut adult = source("sims1-adult", &sims.join("adult-skeleton.cmx"), &meshes, 0);
    adult.animations = vec![wave(&adult.skeleton, 12, None)];
    check(&adult);
}

/// Every real Sims skin on the adult skeleton, posed by an animation built
/// here and by the real skills. Prints the largest departure of a blended
/// vertex from the game's deformation under each:
/// `OSSUARY_CORPUS=../shared/corpus cargo test -p export --test read_back blend -- --nocapture`.
#[test]
fn every_real_sims_skin_and_the_blend_deviation() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let sims = corpus.join("sims1");
    let skins = tests::files_with_extension(&sims, "skn");
    let skeleton = sims.join("adult-skeleton.cmx");
    let mut built = source("sims1-every-skin", &skeleton, &skins, 0);
    built.animations = vec![wave(&built.skeleton, 30, None)];
    let mut skills = Vec::new();
    for skill in ["adult-idle1.cmx", "adult-walking-frantic-loop.cmx"] {
        let path = sims.join(skill);
        let found = decode(&path)
            .rig()
            .animations(&Files::beside(&path))
            .expect("a skill file")
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        skills.extend(found);
    }
    let skills = Source {
        animations: skills,
        ..source("sims1-every-skin-skills", &skeleton, &skins, 0)
    };
    let skeleton = Skeleton::new(&built.skeleton).unwrap();
    let (gap, bound) = built
        .meshes
        .iter()
        .map(|(skin, _)| rest_gap_and_bound(skin, &skeleton))
        .fold((0f32, 0f32), |(a, b), (c, d)| (a.max(c), b.max(d)));
    let (built_deviation, skills_deviation) = (
        check(&built).blend_deviation,
        check(&skills).blend_deviation,
    );
    println!(
        "{} real skins: blended vertices depart from ossuary's deformation by {built_deviation} \
         at most in 30 built poses, by {skills_deviation} in every frame of {} real skills \
         (largest rest gap between a vertex and its blend vertex {gap}; bound 2 w (1 - w) gap = {bound})",
        skins.len(),
        skills.animations.len(),
    );
    assert!(built_deviation <= bound + TOLERANCE);
    assert!(skills_deviation <= bound + TOLERANCE);
}

/// The largest distance at rest between a vertex and the blend vertex
/// pulling it, and the largest `2 w (1 - w)` times that distance: how far
/// glTF can depart from the game when both bones only turn (glTF moves the
/// shared bind position by `w (1 - w)` times the difference of the two
/// bones' turns applied to the gap, and two turns differ by at most 2).
fn rest_gap_and_bound(skin: &rig::Skin, skeleton: &Skeleton) -> (f32, f32) {
    let rig::Binding::BoneSpace(bone_space) = &skin.binding else {
        return (0.0, 0.0);
    };
    let mut pulls = vec![0; skin.positions.len()];
    for blend in &bone_space.blends {
        pulls[blend.vertex as usize] += 1;
    }
    assert!(
        pulls.iter().all(|&count| count <= 1),
        "{}: one pull per vertex",
        skin.name
    );
    let rest = skinning::Pose::rest(skeleton)
        .model_matrices(skeleton)
        .unwrap();
    let pulled_by = |weight: f32| {
        let mut skin = skin.clone();
        if let rig::Binding::BoneSpace(bone_space) = &mut skin.binding {
            for blend in &mut bone_space.blends {
                blend.weight = weight;
            }
        }
        let bound = BoundSkin::bind(&skin, skeleton).unwrap();
        bound.deform(&rest, BlendRule::Game).unwrap().positions
    };
    let (vertices, blend_vertices) = (pulled_by(0.0), pulled_by(1.0));
    bone_space
        .blends
        .iter()
        .map(|blend| {
            let vertex = blend.vertex as usize;
            let gap = vertices[vertex].distance(blend_vertices[vertex]);
            (gap, 2.0 * blend.weight * (1.0 - blend.weight) * gap)
        })
        .fold((0f32, 0f32), |(a, b), (c, d)| (a.max(c), b.max(d)))
}

/// The real Twi'lek, its skeletons and meshes as its appearance puts them
/// together, at the most and the least detailed level.
#[test]
fn the_real_twilek_exports_as_ossuary_poses_it() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let appearance = corpus.join("swg/appearance/twk_f.sat");
    for lod in [0, 3] {
        let name = format!("swg-twk_f-lod{lod}");
        let mut twilek = source(&name, &appearance, std::slice::from_ref(&appearance), lod);
        twilek.animations = vec![wave(&twilek.skeleton, 6, None)];
        check(&twilek);
    }
}

/// Every real SWG skeleton, every level of detail.
#[test]
fn every_real_swg_skeleton_exports_at_every_level() {
    let Some(files) = tests::corpus_files("swg", "skt") else {
        return;
    };
    for path in files {
        let document = decode(&path);
        let files = Files::beside(&path);
        // all_b.skt is in the corpus twice, at the top and in the game's folders.
        let relative = path.strip_prefix(tests::corpus_dir().unwrap()).unwrap();
        let stem = relative
            .with_extension("")
            .to_string_lossy()
            .replace(['/', '\\'], "-");
        let levels = (0..)
            .take_while(|&lod| {
                let options = RigOptions { lod };
                document.rig().skeleton(&files, options).unwrap().is_ok()
            })
            .count();
        assert!(levels > 0, "{}", path.display());
        for lod in 0..levels {
            let name = format!("{stem}-lod{lod}");
            let mut skeleton = source(&name, &path, &[], lod);
            skeleton.animations = vec![wave(&skeleton.skeleton, 4, None)];
            check(&skeleton);
        }
    }
}

#[test]
fn a_texture_found_beside_the_mesh_is_embedded_as_png() {
    let temporary = tempfile::tempdir().unwrap();
    let dir = temporary.path();
    // Two by two pixels, each of its own colour; TGA, which only the
    // extension tells apart, named in another case than the skin names it.
    let pixels =
        image::RgbImage::from_fn(2, 2, |x, y| image::Rgb([x as u8 * 200, y as u8 * 100, 50]));
    pixels
        .save_with_format(dir.join("ArmTex.tga"), image::ImageFormat::Tga)
        .unwrap();
    let mut source = source(
        "humanoid-cmx-textured",
        &fixture("humanoid.cmx"),
        &[fixture("xskin-humanoid-L_ARM-ARM.skn")],
        0,
    );
    let files = Files::beside(&dir.join("arm.skn"));
    let (arm, _) = source.meshes.remove(0);
    for texture in ["armtex", "missing"] {
        let skin = rig::Skin {
            texture: Some(texture.to_owned()),
            morph_targets: Vec::new(),
            shared_positions: None,
            ..arm.clone()
        };
        let found = export::find_texture(&skin, &files).unwrap();
        source.meshes.push((skin, found));
    }
    check(&source);

    let read = read_back(&export(&source, Container::Glb));
    assert_eq!(read.images.len(), 1);
    let image = &read.images[0];
    assert_eq!((image.width, image.height), (2, 2));
    assert_eq!(image.format, gltf::image::Format::R8G8B8);
    assert_eq!(image.pixels, pixels.into_raw());
    let materials: Vec<Option<usize>> = read
        .mesh_nodes()
        .iter()
        .map(|node| {
            let primitive = node.mesh().unwrap().primitives().next().unwrap();
            let colour = primitive
                .material()
                .pbr_metallic_roughness()
                .base_color_texture();
            colour.map(|info| info.texture().source().index())
        })
        .collect();
    assert_eq!(materials, vec![Some(0), None]);
}

/// The bytes of the asset's images, in order, from a `.glb`'s buffer.
fn embedded_images(glb: &[u8]) -> Vec<Vec<u8>> {
    let gltf = gltf::Gltf::from_slice(glb).unwrap();
    let blob = gltf.blob.as_deref().unwrap();
    gltf.images()
        .map(|image| match image.source() {
            gltf::image::Source::View { view, mime_type } => {
                assert_eq!(mime_type, "image/png");
                blob[view.offset()..view.offset() + view.length()].to_vec()
            }
            gltf::image::Source::Uri { .. } => panic!("an image outside the asset"),
        })
        .collect()
}

#[test]
fn a_png_texture_is_embedded_as_its_own_bytes() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let shipped = std::fs::read(corpus.join("sims1-prototype/Textures/mfemtorso.png")).unwrap();
    let temporary = tempfile::tempdir().unwrap();
    let dir = temporary.path();
    std::fs::write(dir.join("armtex.png"), &shipped).unwrap();
    let mut source = source(
        "humanoid-cmx-png",
        &fixture("humanoid.cmx"),
        &[fixture("xskin-humanoid-L_ARM-ARM.skn")],
        0,
    );
    let (arm, _) = source.meshes.remove(0);
    let skin = rig::Skin {
        texture: Some("armtex".to_owned()),
        ..arm
    };
    let found = export::find_texture(&skin, &Files::beside(&dir.join("arm.skn"))).unwrap();
    assert!(found.is_some());
    source.meshes.push((skin, found));
    assert_eq!(embedded_images(&export(&source, Container::Glb)), [shipped]);
}

#[test]
fn an_unreadable_texture_is_an_error_naming_the_image() {
    let temporary = tempfile::tempdir().unwrap();
    let dir = temporary.path();
    std::fs::write(dir.join("armtex.bmp"), b"BM not really").unwrap();
    let source = source(
        "unused",
        &fixture("humanoid.cmx"),
        &[fixture("xskin-humanoid-L_ARM-ARM.skn")],
        0,
    );
    let (arm, _) = &source.meshes[0];
    let skin = rig::Skin {
        texture: Some("armtex".to_owned()),
        morph_targets: Vec::new(),
        shared_positions: None,
        ..arm.clone()
    };
    let texture = export::find_texture(&skin, &Files::beside(&dir.join("arm.skn"))).unwrap();
    let character = Character {
        skeleton: &source.skeleton,
        meshes: vec![Mesh {
            skin: &skin,
            texture,
            suit: None,
            shader: None,
        }],
        animations: &[],
        sims_skills: &[],
        blend_weights: &[],
        composition: Composition::Hierarchy,
        originals: &[],
    };
    let message = export::export(&character, Container::Glb)
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with(r#"mesh "xskin-humanoid-L_ARM-ARM": "#)
            && message.contains("armtex.bmp: cannot read the texture"),
        "{message}"
    );
}

#[test]
fn animations_gltf_cannot_take_are_errors_naming_them() {
    let source = source("unused", &fixture("humanoid.cmx"), &[], 0);
    let export_with = |animation: rig::Animation| {
        let character = Character {
            skeleton: &source.skeleton,
            meshes: Vec::new(),
            animations: &[animation],
            sims_skills: &[],
            blend_weights: &[],
            composition: Composition::Hierarchy,
            originals: &[],
        };
        export::export(&character, Container::Gltf)
            .unwrap_err()
            .to_string()
    };
    let mut unknown = wave(&source.skeleton, 2, None);
    if let Motion::Joints(motion) = &mut unknown.motion {
        motion.tracks[0].joint = TrackTarget::Name("TAIL".to_owned());
    }
    assert_eq!(
        export_with(unknown),
        r#"animation "wave": the animation moves joint "TAIL", which the skeleton does not have"#
    );
    let mut backwards = wave(&source.skeleton, 3, None);
    backwards.times = vec![0.0, 0.2, 0.1];
    assert_eq!(
        export_with(backwards),
        r#"animation "wave": frame 2 is at 0.1 s; glTF needs times from 0 up, each later than the one before"#
    );
    let vertices = |frames: Vec<Vec<[f32; 3]>>| rig::Animation {
        name: "melt".to_owned(),
        end: None,
        events: Vec::new(),
        times: (0..frames.len()).map(|frame| frame as f32).collect(),
        motion: Motion::Vertices(frames),
    };
    assert_eq!(
        export_with(vertices(vec![vec![[0.0; 3]; 3]])),
        r#"animation "melt": its frames move 3 vertices, and no mesh has that many"#
    );
    assert_eq!(
        export_with(vertices(vec![vec![[0.0; 3]; 3], vec![[0.0; 3]; 2]])),
        r#"animation "melt": frame 1 moves 2 vertices, frame 0 3"#
    );
}

/// A vertex animation (every frame's positions of the arm, as the wave
/// animation deforms it) read back: at each key, the morphed mesh skinned at
/// rest is that frame, in glTF's axes.
#[test]
fn a_vertex_animation_morphs_the_meshes_with_as_many_vertices() {
    let arm = fixture("xskin-humanoid-L_ARM-ARM.skn");
    let mut source = source(
        "humanoid-cmx-vertex-animation",
        &fixture("humanoid.cmx"),
        &[arm],
        0,
    );
    let skeleton = Skeleton::new(&source.skeleton).unwrap();
    let wave = wave(&source.skeleton, 4, None);
    let Motion::Joints(motion) = &wave.motion else {
        unreachable!("wave moves joints");
    };
    let clip = Clip::bind(motion, wave.times.len(), &skeleton).unwrap();
    let bound = BoundSkin::bind(&source.meshes[0].0, &skeleton).unwrap();
    let frames: Vec<Vec<Vec3>> = (0..wave.times.len())
        .map(|frame| {
            let model = clip
                .pose(&skeleton, frame)
                .unwrap()
                .model_matrices(&skeleton)
                .unwrap();
            bound.deform(&model, BlendRule::Game).unwrap().positions
        })
        .collect();
    source.animations = vec![rig::Animation {
        name: "melt".to_owned(),
        times: wave.times.clone(),
        end: None,
        events: Vec::new(),
        motion: Motion::Vertices(
            frames
                .iter()
                .map(|frame| frame.iter().map(|position| position.to_array()).collect())
                .collect(),
        ),
    }];
    for container in [Container::Gltf, Container::Glb] {
        let read = read_back(&export(&source, container));
        let node = &read.mesh_nodes()[0];
        let world = read.world(&read.rest_locals());
        let keys = read.morph_weights(0, node);
        assert_eq!(keys.len(), frames.len());
        for (frame, (weights, expected)) in keys.iter().zip(&frames).enumerate() {
            let expected: Vec<Vec3> = expected
                .iter()
                .map(|&position| right_handed_y_up(skeleton.axes(), position))
                .collect();
            let gap = largest_gap(&read.skinned(node, &world, weights), &expected);
            assert!(gap < TOLERANCE, "frame {frame}: off by {gap}");
        }
    }
}

/// A clip lasts its animation's stated length: one more key at the end,
/// the first pose again for a loop, the last held for one played once.
#[test]
fn a_clip_lasts_its_stated_length_looping_back_or_holding() {
    let skeleton = fixture("humanoid.skel");
    for end in [
        rig::End::Loops { seconds: 0.2 },
        rig::End::Holds { seconds: 0.2 },
    ] {
        let mut source = source("humanoid-ending", &skeleton, &[], 0);
        let mut animation = wave(&source.skeleton, 5, None);
        assert_eq!(animation.times.last(), Some(&(4.0 / 30.0)));
        animation.end = Some(end);
        source.animations = vec![animation];
        let back = read_back(&export(&source, Container::Glb));
        let gltf_animation = back.document.animations().next().unwrap();
        for channel in gltf_animation.channels() {
            let times: Vec<f32> = channel
                .reader(|buffer| Some(&*back.buffers[buffer.index()]))
                .read_inputs()
                .unwrap()
                .collect();
            assert_eq!(times.len(), 6, "{end:?}");
            assert_eq!(times.last(), Some(&0.2), "{end:?}");
        }
        let keys = back.animated_locals(0);
        let closing = &keys[5];
        let expected = match end {
            rig::End::Loops { .. } => &keys[0],
            rig::End::Holds { .. } => &keys[4],
        };
        assert_eq!(closing, expected, "{end:?}");
        assert_ne!(&keys[0], &keys[4], "the wave moves");
    }
}

/// The Sims' frantic walk (18 frames over 600 ms, a loop) lasts 600 ms in
/// glTF, back at its first pose at the end.
#[test]
fn the_frantic_walk_lasts_600_ms() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let path = corpus.join("sims1/adult-walking-frantic-loop.cmx");
    let animations = decode(&path)
        .rig()
        .animations(&Files::beside(&path))
        .unwrap()
        .unwrap();
    let walk = animations
        .iter()
        .find(|animation| animation.name.contains("walking-frantic-loop"))
        .expect("the loop skill");
    assert_eq!(walk.end, Some(rig::End::Loops { seconds: 0.6 }));
    assert!(walk.times.last().is_some_and(|&time| time < 0.57));
}

/// A skeleton without meshes (every Outcast file, a Sims skeleton alone)
/// still gets a glTF skin over all its joints, with their inverse bind
/// matrices, so a client builds an armature from it.
#[test]
fn a_skeleton_alone_gets_a_skin_over_its_joints() {
    let source = source("humanoid-skeleton-alone", &fixture("humanoid.skel"), &[], 0);
    assert!(source.meshes.is_empty());
    let back = read_back(&export(&source, Container::Glb));
    let skins: Vec<_> = back.document.skins().collect();
    let [skin] = skins.as_slice() else {
        panic!("one skin, not {}", skins.len());
    };
    let joints: Vec<usize> = skin.joints().map(|joint| joint.index()).collect();
    assert_eq!(
        joints,
        (0..source.skeleton.joints.len()).collect::<Vec<_>>()
    );
    let inverse_binds = skin
        .reader(|buffer| Some(&*back.buffers[buffer.index()]))
        .read_inverse_bind_matrices()
        .unwrap()
        .count();
    assert_eq!(inverse_binds, joints.len());
}

/// A SWG mesh's blend shapes are morph targets named in
/// `extras.targetNames`, weighted as `--blend` says; each moves the bind
/// positions where ossuary's own deformation at rest moves them.
#[test]
fn blend_shapes_are_named_morph_targets_at_the_given_weights() {
    let mesh = fixture("humanoid.mgn");
    let source = source("humanoid-blend", &fixture("humanoid.skt"), &[mesh], 0);
    let skin = &source.meshes[0].0;
    let names: Vec<&str> = skin
        .morph_targets
        .iter()
        .map(|target| target.name.as_str())
        .collect();
    assert!(names.contains(&"blend_fat"), "{names:?}");
    let blend_weights = vec![("blend_fat".to_owned(), 0.5)];
    let character = Character {
        skeleton: &source.skeleton,
        meshes: vec![Mesh {
            skin,
            texture: None,
            suit: None,
            shader: None,
        }],
        animations: &[],
        sims_skills: &[],
        blend_weights: &blend_weights,
        composition: Composition::Hierarchy,
        originals: &[],
    };
    let bytes = export::export(&character, Container::Gltf).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let gltf_mesh = &json["meshes"][0];
    let target_names: Vec<&str> = gltf_mesh["extras"]["targetNames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| name.as_str().unwrap())
        .collect();
    assert_eq!(target_names, names);
    let weights: Vec<f64> = gltf_mesh["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|weight| weight.as_f64().unwrap())
        .collect();
    let expected: Vec<f64> = names
        .iter()
        .map(|&name| if name == "blend_fat" { 0.5 } else { 0.0 })
        .collect();
    assert_eq!(weights, expected);

    // The fat target moves each bind position by what weight 1 moves it
    // in ossuary's deformation at rest (mirrored in x into glTF's axes).
    let back = read_back(&bytes);
    let primitive = back
        .document
        .meshes()
        .next()
        .unwrap()
        .primitives()
        .next()
        .unwrap();
    let buffers = |buffer: gltf::Buffer| Some(&*back.buffers[buffer.index()]);
    let reader = primitive.reader(buffers);
    let bind: Vec<Vec3> = reader.read_positions().unwrap().map(Vec3::from).collect();
    let fat = names.iter().position(|&name| name == "blend_fat").unwrap();
    let (moves, _, _) = reader.read_morph_targets().nth(fat).unwrap();
    let moves: Vec<Vec3> = moves.unwrap().map(Vec3::from).collect();
    let skeleton = Skeleton::new(&source.skeleton).unwrap();
    let rest = skinning::Pose::rest(&skeleton)
        .model_matrices(&skeleton)
        .unwrap();
    let bound = skinning::BoundSkin::bind(skin, &skeleton).unwrap();
    let fat_at_rest = bound
        .morphed(&[("blend_fat".to_owned(), 1.0)])
        .deform(&rest, skinning::BlendRule::Game)
        .unwrap();
    let mut moved = 0;
    for ((bind, step), shaped) in bind.iter().zip(&moves).zip(&fat_at_rest.positions) {
        let expected = Vec3::new(-shaped.x, shaped.y, shaped.z);
        assert!((*bind + *step).distance(expected) < 1e-5);
        moved += usize::from(step.length() > 0.0);
    }
    assert!(moved > 0, "the fat target moves some vertex");
}

/// A mesh's two blend targets of one name (as the Twi'lek's head has two
/// `blend_jaw_1`) are two morph targets each holding its own moves, under
/// the one name; and back in a `.mgn` they are two targets again, each with
/// its own offsets, also after Blender named the second `<name>.001`.
#[test]
fn two_blend_targets_of_one_name_each_keep_their_own_moves() {
    let mesh = fixture("humanoid.mgn");
    let mut source = source(
        "humanoid-twin-targets",
        &fixture("humanoid.skt"),
        &[mesh],
        0,
    );
    let skin = &mut source.meshes[0].0;
    let first = skin.morph_targets[0].clone();
    let vertex = first.positions[0].vertex;
    let moved = vertex as usize;
    let twin = rig::MorphTarget {
        name: first.name.clone(),
        positions: vec![rig::MorphOffset {
            vertex,
            offset: [0.0, 0.25, 0.0],
        }],
        normals: Vec::new(),
    };
    skin.morph_targets.push(twin);
    let skin = &source.meshes[0].0;
    let twin_index = skin.morph_targets.len() - 1;
    let bytes = export(&source, Container::Gltf);
    let mut json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let names = &json["meshes"][0]["extras"]["targetNames"];
    assert_eq!(names[0], names[twin_index], "{names}");

    let back = read_back(&bytes);
    let primitive = back
        .document
        .meshes()
        .next()
        .unwrap()
        .primitives()
        .next()
        .unwrap();
    let buffers = |buffer: gltf::Buffer| Some(&*back.buffers[buffer.index()]);
    let reader = primitive.reader(buffers);
    let targets: Vec<Vec<Vec3>> = reader
        .read_morph_targets()
        .map(|(moves, _, _)| moves.unwrap().map(Vec3::from).collect())
        .collect();
    // The twin moves its one vertex by its own (0, 0.25, 0), mirrored into
    // glTF's axes; the first target moves it by the file's move alone.
    let twin_moves = &targets[twin_index];
    for (vertex, step) in twin_moves.iter().enumerate() {
        let expected = if vertex == moved { 0.25 } else { 0.0 };
        assert!(
            (step.y - expected).abs() < 1e-5 && step.x.abs() < 1e-5,
            "{vertex}: {step}"
        );
    }
    let file_move = Vec3::from_array(first.positions[0].offset);
    let glt_move = targets[0][moved];
    assert!(
        (glt_move - Vec3::new(-file_move.x, file_move.y, file_move.z)).length() < 1e-5,
        "{glt_move} is not {file_move} mirrored"
    );

    // Blender's importer names the second shape key `<name>.001`.
    let renamed = format!("{}.001", first.name);
    json["meshes"][0]["extras"]["targetNames"][twin_index] = renamed.into();
    for text in [
        String::from_utf8(bytes.clone()).unwrap(),
        serde_json::to_string(&json).unwrap(),
    ] {
        let asset = export::import::Asset::read(text.as_bytes(), &|_| None).unwrap();
        let skeleton = export::import::swg::skeleton_of(&asset).unwrap();
        let joints = match skeleton.levels().into_iter().next().unwrap().skeleton() {
            Ok(skeleton) => skeleton
                .joints
                .into_iter()
                .map(|joint| joint.name)
                .collect(),
            Err(error) => panic!("{error}"),
        };
        let files = [export::import::swg::SkeletonFile {
            attachment: export::import::swg::skeleton_at_root("humanoid.skt"),
            joints,
        }];
        let character = export::import::swg::import(&asset, &files, &[]).unwrap();
        let body = character.meshes[0].mesh.body();
        let targets = body.blend_targets.as_ref().unwrap();
        let of_name: Vec<_> = targets
            .iter()
            .filter(|target| target.name.to_text() == first.name)
            .collect();
        assert_eq!(
            of_name.len(),
            2,
            "{:?}",
            targets.iter().map(|t| t.name.to_text()).collect::<Vec<_>>()
        );
        let twin_offsets = of_name[1].positions.as_ref().unwrap();
        assert_eq!(twin_offsets.len(), 1, "{twin_offsets:?}");
        assert!(
            (twin_offsets[0].offset[1] - 0.25).abs() < 1e-5,
            "{twin_offsets:?}"
        );
        assert_ne!(of_name[0].positions, of_name[1].positions);
    }
}

/// The real Twi'lek's head at level 1 has two targets named `blend_jaw_1`:
/// every morph target of every mesh moves each vertex by its own target's
/// offsets (mirrored in x), not by the sum of the targets of its name.
#[test]
fn the_real_twilek_head_targets_each_move_by_their_own_offsets() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let appearance = corpus.join("swg/appearance/twk_f.sat");
    let twilek = source(
        "swg-twk_f-lod1",
        &appearance,
        std::slice::from_ref(&appearance),
        1,
    );
    let bytes = export(&twilek, Container::Glb);
    let back = read_back(&bytes);
    let mut twins = 0;
    for ((skin, _), mesh) in twilek.meshes.iter().zip(back.document.meshes()) {
        assert_eq!(mesh.name(), Some(skin.name.as_str()));
        let names: Vec<&str> = skin.morph_targets.iter().map(|t| t.name.as_str()).collect();
        twins += usize::from(names.iter().filter(|&&name| name == "blend_jaw_1").count() == 2);
        let primitive = mesh.primitives().next().unwrap();
        let buffers = |buffer: gltf::Buffer| Some(&*back.buffers[buffer.index()]);
        let reader = primitive.reader(buffers);
        for ((moves, _, _), target) in reader.read_morph_targets().zip(&skin.morph_targets) {
            let mut expected = vec![Vec3::ZERO; skin.positions.len()];
            for offset in &target.positions {
                let [x, y, z] = offset.offset;
                expected[offset.vertex as usize] += Vec3::new(-x, y, z);
            }
            let moves: Vec<Vec3> = moves.unwrap().map(Vec3::from).collect();
            let gap = largest_gap(&moves, &expected);
            assert!(gap < 1e-5, "{} {}: {gap}", skin.name, target.name);
        }
    }
    assert!(
        twins >= 2,
        "the face and the skull each have two blend_jaw_1"
    );
}

/// Exported with Outcast's parent-first order, the asset's joints stand
/// where that order puts them, at rest and at every key, although glTF
/// composes nodes as a hierarchy (and where the default order would put
/// them elsewhere).
#[test]
fn the_literal_outcast_order_exports_as_the_locals_that_give_its_poses() {
    let skeleton_path = fixture("biped.osk");
    let mut source = source("outcast-biped-literal", &skeleton_path, &[], 0);
    let wave = fixture("biped-wave.oan");
    source.animations = decode(&wave)
        .rig()
        .animations(&Files::beside(&wave))
        .expect("an animation file")
        .unwrap();
    let character = Character {
        skeleton: &source.skeleton,
        meshes: Vec::new(),
        animations: &source.animations,
        sims_skills: &[],
        blend_weights: &[],
        composition: Composition::LiteralPivots,
        originals: &[],
    };
    let back = read_back(&export::export(&character, Container::Glb).unwrap());
    let skeleton = Skeleton::new(&source.skeleton).unwrap();
    let rig::Motion::Joints(motion) = &source.animations[0].motion else {
        panic!("joint animation");
    };
    let frames = source.animations[0].times.len();
    let clip = Clip::bind(motion, frames, &skeleton).unwrap();
    let positions = |model: &[Affine3A]| -> Vec<Vec3> {
        model.iter().map(|m| Vec3::from(m.translation)).collect()
    };
    let mut departs_from_default = 0f32;
    let rest = skinning::Pose::rest(&skeleton);
    let mut poses = vec![(back.rest_locals(), rest)];
    for (frame, locals) in back.animated_locals(0).into_iter().enumerate().take(frames) {
        poses.push((locals, clip.pose(&skeleton, frame).unwrap()));
    }
    for (locals, pose) in poses {
        let world = back.world(&locals);
        let literal = positions(
            &pose
                .model_matrices_by(&skeleton, Composition::LiteralPivots)
                .unwrap(),
        );
        let default = positions(&pose.model_matrices(&skeleton).unwrap());
        let exported: Vec<Vec3> = world[..skeleton.len()]
            .iter()
            .map(|m| m.w_axis.truncate())
            .collect();
        assert!(largest_gap(&exported, &literal) < TOLERANCE);
        departs_from_default = departs_from_default.max(largest_gap(&literal, &default));
    }
    assert!(departs_from_default > 0.01, "{departs_from_default}");
}
