//! Every registered format's samples through the neutral rig data, from the
//! catalogue alone: whatever has joints poses, whatever has meshes skins on
//! some sample skeleton, whatever has animations binds to some sample
//! skeleton and poses every frame.

use formats::catalogue::FORMATS;
use formats::files::Files;
use formats::rig::{self, Motion, RigOptions};
use skinning::{BlendRule, BoundSkin, Clip, Pose, Skeleton};

/// Every sample's skeleton, skins and animations, named by the sample file.
struct Rigs {
    skeletons: Vec<(String, Skeleton)>,
    skins: Vec<(String, rig::Skin)>,
    animations: Vec<(String, rig::Animation)>,
}

fn sample_rigs() -> Rigs {
    let mut rigs = Rigs {
        skeletons: Vec::new(),
        skins: Vec::new(),
        animations: Vec::new(),
    };
    for format in FORMATS {
        for sample in (format.samples)() {
            let name = sample.file_name.to_owned();
            // Samples refer to each other by name, as the fixtures beside them.
            let files = Files::beside(&tests::fixtures_dir().join(sample.file_name));
            let rig = sample.document.rig();
            if let Some(skeleton) = rig.skeleton(&files, RigOptions::default()) {
                let skeleton = skeleton.unwrap_or_else(|e| panic!("{name}: {e}"));
                let skeleton = Skeleton::new(&skeleton).unwrap_or_else(|e| panic!("{name}: {e}"));
                rigs.skeletons.push((name.clone(), skeleton));
            }
            if let Some(skins) = rig.skins(&files, RigOptions::default()) {
                let skins = skins.unwrap_or_else(|e| panic!("{name}: {e}"));
                rigs.skins
                    .extend(skins.into_iter().map(|skin| (name.clone(), skin)));
            }
            if let Some(animations) = rig.animations(&files) {
                let animations = animations.unwrap_or_else(|e| panic!("{name}: {e}"));
                rigs.animations.extend(
                    animations
                        .into_iter()
                        .map(|animation| (name.clone(), animation)),
                );
            }
        }
    }
    rigs
}

fn all_finite(points: &[glam::Vec3]) -> bool {
    points.iter().all(|point| point.is_finite())
}

#[test]
fn every_sample_skeleton_poses_at_rest() {
    let rigs = sample_rigs();
    assert!(!rigs.skeletons.is_empty(), "no sample has a skeleton");
    for (name, skeleton) in &rigs.skeletons {
        let model = Pose::rest(skeleton).model_matrices(skeleton).unwrap();
        let positions: Vec<glam::Vec3> = model.iter().map(|m| m.translation.into()).collect();
        assert!(all_finite(&positions), "{name}");
    }
}

#[test]
fn every_sample_skin_deforms_on_some_sample_skeleton() {
    let rigs = sample_rigs();
    assert!(!rigs.skins.is_empty(), "no sample has a mesh");
    for (name, skin) in &rigs.skins {
        let deformed = rigs.skeletons.iter().find_map(|(_, skeleton)| {
            let bound = BoundSkin::bind(skin, skeleton).ok()?;
            let model = Pose::rest(skeleton).model_matrices(skeleton).ok()?;
            bound.deform(&model, BlendRule::Game).ok()
        });
        let deformed = deformed.unwrap_or_else(|| panic!("{name}: no sample skeleton carries it"));
        assert_eq!(deformed.positions.len(), skin.positions.len(), "{name}");
        assert!(all_finite(&deformed.positions), "{name}");
    }
}

#[test]
fn every_sample_animation_poses_every_frame_of_some_sample_skeleton() {
    let rigs = sample_rigs();
    for (name, animation) in &rigs.animations {
        let frames = animation.times.len();
        match &animation.motion {
            Motion::Joints(motion) => {
                let (skeleton, clip) = rigs
                    .skeletons
                    .iter()
                    .find_map(|(_, skeleton)| {
                        Clip::bind(motion, frames, skeleton)
                            .ok()
                            .map(|clip| (skeleton, clip))
                    })
                    .unwrap_or_else(|| panic!("{name}: binds to no sample skeleton"));
                for frame in 0..frames {
                    let pose = clip
                        .pose(skeleton, frame)
                        .unwrap_or_else(|e| panic!("{name} frame {frame}: {e}"));
                    let model = pose.model_matrices(skeleton).unwrap();
                    let positions: Vec<glam::Vec3> =
                        model.iter().map(|m| m.translation.into()).collect();
                    assert!(all_finite(&positions), "{name} frame {frame}");
                }
            }
            Motion::Vertices(vertex_frames) => {
                assert_eq!(vertex_frames.len(), frames, "{name}");
            }
            // Poses nothing alone: it must say what has to come with it.
            Motion::Incomplete { needs } => assert!(!needs.is_empty(), "{name}"),
        }
    }
}
