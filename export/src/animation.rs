//! Animations as glTF animations keyed at the animation's own times: joint
//! animations as translation and rotation channels (and scale, where a key
//! carries one) per driven joint; vertex animations as weights channels of
//! the meshes whose morph targets hold their frames.
//!
//! A clip lasts as long as its file says the animation does: where that is
//! past the last frame (a Sims skill of 18 frames over 600 ms), one more
//! key stands at the stated end. A looping animation's is its first pose
//! again, so a player looping the clip wraps from it to the first frame
//! without a jump or a stall; an animation played once holds its last pose
//! there.

use formats::rig::{self, Motion};
use gltf::json;
use json::accessor::Type;
use json::animation::{Interpolation, Property};
use json::validation::Checked;
use skinning::{Clip, Composition, Skeleton};

use crate::axes::{Change, Trs};
use crate::buffer::Asset;
use crate::AnimationProblem;

/// A mesh node whose morph targets `first..first + frames` hold one vertex
/// animation's frames, out of `targets` in all.
#[derive(Debug, Clone, Copy)]
pub struct Morphed {
    pub node: json::Index<json::Node>,
    pub first: usize,
    pub targets: usize,
}

/// What an animation moves in the asset.
pub struct Target<'a> {
    pub skeleton: &'a Skeleton,
    /// How the skeleton's joints compose (see [`crate::Character`]).
    pub composition: Composition,
    pub change: &'a Change,
    /// The joint nodes, in skeleton order.
    pub joints: &'a [json::Index<json::Node>],
    /// The meshes holding a vertex animation's frames.
    pub morphed: &'a [Morphed],
}

/// The animation as glTF channels; `None` when it moves nothing (glTF has
/// no empty animations).
pub fn animation(
    asset: &mut Asset,
    animation: &rig::Animation,
    target: &Target,
) -> Result<Option<json::Animation>, AnimationProblem> {
    let morphed = target.morphed;
    check_times(&animation.times)?;
    let mut channels = Channels::default();
    match &animation.motion {
        Motion::Joints(motion) => {
            joint_channels(asset, animation, motion, target, &mut channels)?;
        }
        Motion::Vertices(frames) => {
            if morphed.is_empty() {
                return Err(AnimationProblem::NoMesh(frames.first().map_or(0, Vec::len)));
            }
            let input = times(asset, animation);
            let closing = closing_key(animation).map(|(_, frame)| frame);
            for mesh in morphed {
                // At frame f's time only target first + f weighs anything.
                let weights: Vec<[f32; 1]> = (0..frames.len())
                    .chain(closing)
                    .flat_map(|frame| {
                        (0..mesh.targets)
                            .map(move |target| [f32::from(target == mesh.first + frame)])
                    })
                    .collect();
                let output = asset.floats(&weights, Type::Scalar, None, false);
                channels.push(input, output, mesh.node, Property::MorphTargetWeights);
            }
        }
        Motion::Incomplete { needs } => return Err(AnimationProblem::Incomplete(needs.clone())),
    }
    Ok((!channels.channels.is_empty()).then(|| json::Animation {
        name: Some(animation.name.clone()),
        channels: channels.channels,
        samplers: channels.samplers,
        extensions: None,
        extras: events_extras(&animation.events),
    }))
}

/// The key of an animation's `extras` holding its events.
pub const EVENTS_EXTRAS: &str = "ossuary_events";

/// An animation's events (glTF has no place for them) in its `extras`:
/// `{"ossuary_events": [{"joint", "time", "properties": [[key, value]...]}]}`,
/// the time as the file stores it; none without events.
fn events_extras(events: &[rig::Event]) -> Option<Box<serde_json::value::RawValue>> {
    if events.is_empty() {
        return None;
    }
    let events: Vec<serde_json::Value> = events
        .iter()
        .map(|event| {
            serde_json::json!({
                "joint": event.joint,
                "time": event.time,
                "properties": event.properties,
            })
        })
        .collect();
    serde_json::value::to_raw_value(&serde_json::json!({ EVENTS_EXTRAS: events })).ok()
}

/// Channels and the samplers they read, as they are added.
#[derive(Default)]
struct Channels {
    channels: Vec<json::animation::Channel>,
    samplers: Vec<json::animation::Sampler>,
}

impl Channels {
    /// A channel moving `path` of `node`, interpolating linearly between keys.
    fn push(
        &mut self,
        input: json::Index<json::Accessor>,
        output: json::Index<json::Accessor>,
        node: json::Index<json::Node>,
        path: Property,
    ) {
        let sampler = json::Index::push(
            &mut self.samplers,
            json::animation::Sampler {
                input,
                interpolation: Checked::Valid(Interpolation::Linear),
                output,
                extensions: None,
                extras: Default::default(),
            },
        );
        self.channels.push(json::animation::Channel {
            sampler,
            target: json::animation::Target {
                node,
                path: Checked::Valid(path),
                extensions: None,
                extras: Default::default(),
            },
            extensions: None,
            extras: Default::default(),
        });
    }
}

/// The animation's times as a key input (with the bounds glTF requires),
/// and its stated end where that is later.
fn times(asset: &mut Asset, animation: &rig::Animation) -> json::Index<json::Accessor> {
    let closing = closing_key(animation).map(|(time, _)| time);
    let times: Vec<[f32; 1]> = animation
        .times
        .iter()
        .copied()
        .chain(closing)
        .map(|time| [time])
        .collect();
    asset.floats(&times, Type::Scalar, None, true)
}

/// The key closing the clip at the animation's stated end, where that is
/// after its last frame: its time, and the frame whose pose it repeats
/// (the first for a loop, the last for an animation played once).
fn closing_key(animation: &rig::Animation) -> Option<(f32, usize)> {
    let end = animation.end?;
    let last = animation.times.len().checked_sub(1)?;
    let last_time = *animation.times.get(last)?;
    let seconds = end.seconds();
    if !(seconds.is_finite() && seconds > last_time) {
        return None;
    }
    let frame = match end {
        rig::End::Loops { .. } => 0,
        rig::End::Holds { .. } => last,
    };
    Some((seconds, frame))
}

/// Translation, rotation and, where a key carries one, scale channels for
/// every joint a track drives.
fn joint_channels(
    asset: &mut Asset,
    animation: &rig::Animation,
    motion: &rig::JointMotion,
    target: &Target,
    channels: &mut Channels,
) -> Result<(), AnimationProblem> {
    let (skeleton, change, joints) = (target.skeleton, target.change, target.joints);
    let frames = animation.times.len();
    let clip = Clip::bind(motion, frames, skeleton)?;
    // In a composition other than the hierarchy, a turn moves joints below
    // the one it drives otherwise than glTF's nodes would: every joint is
    // keyed with the locals that give the composed model matrices.
    let driven = match target.composition {
        Composition::Hierarchy => clip.joints(),
        Composition::LiteralPivots => (0..skeleton.len()).collect(),
    };
    if driven.is_empty() {
        return Ok(());
    }
    // keys[d][f]: driven joint d at frame f, in glTF's axes.
    let mut keys: Vec<Vec<Trs>> = vec![Vec::with_capacity(frames); driven.len()];
    for frame in 0..frames {
        let pose = clip.pose(skeleton, frame)?;
        let locals = crate::hierarchy_locals(skeleton, &pose, target.composition)?;
        for (&joint, joint_keys) in driven.iter().zip(keys.iter_mut()) {
            if let Some(local) = locals.get(joint) {
                let previous = joint_keys.last().map(|key: &Trs| key.rotation);
                joint_keys.push(change.trs(local, previous));
            }
        }
    }
    let closing = closing_key(animation);
    if let Some((_, frame)) = closing {
        for joint_keys in &mut keys {
            if let Some(&key) = joint_keys.get(frame) {
                joint_keys.push(key);
            }
        }
    }
    let input = times(asset, animation);
    for (&joint, joint_keys) in driven.iter().zip(&keys) {
        let Some(&node) = joints.get(joint) else {
            continue;
        };
        let translations: Vec<[f32; 3]> = joint_keys
            .iter()
            .map(|key| key.translation.to_array())
            .collect();
        let rotations: Vec<[f32; 4]> = joint_keys
            .iter()
            .map(|key| key.rotation.to_array())
            .collect();
        let output = asset.floats(&translations, Type::Vec3, None, false);
        channels.push(input, output, node, Property::Translation);
        let output = asset.floats(&rotations, Type::Vec4, None, false);
        channels.push(input, output, node, Property::Rotation);
        if joint_keys.iter().any(Trs::has_scale) {
            let scales: Vec<[f32; 3]> = joint_keys.iter().map(|key| key.scale.to_array()).collect();
            let output = asset.floats(&scales, Type::Vec3, None, false);
            channels.push(input, output, node, Property::Scale);
        }
    }
    Ok(())
}

/// A vertex animation's frames: one per time, each moving as many vertices
/// as the first.
pub fn check_vertex_frames(
    animation: &rig::Animation,
    frames: &[Vec<[f32; 3]>],
) -> Result<(), AnimationProblem> {
    if frames.len() != animation.times.len() {
        return Err(AnimationProblem::FrameCount {
            frames: frames.len(),
            times: animation.times.len(),
        });
    }
    let first = frames.first().map_or(0, Vec::len);
    match frames.iter().position(|frame| frame.len() != first) {
        Some(frame) => Err(AnimationProblem::FrameVertices {
            frame,
            vertices: frames.get(frame).map_or(0, Vec::len),
            first,
        }),
        None => Ok(()),
    }
}

/// glTF keys need times from 0 up, each later than the one before.
fn check_times(times: &[f32]) -> Result<(), AnimationProblem> {
    if times.is_empty() {
        return Err(AnimationProblem::NoFrames);
    }
    let mut earliest = 0.0;
    for (frame, &time) in times.iter().enumerate() {
        if !(time.is_finite() && time >= earliest && (frame == 0 || time > earliest)) {
            return Err(AnimationProblem::Time { frame, time });
        }
        earliest = time;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_start_at_zero_or_later_and_increase() {
        assert!(check_times(&[0.0, 0.5, 1.0]).is_ok());
        assert!(check_times(&[0.25]).is_ok());
        assert!(matches!(check_times(&[]), Err(AnimationProblem::NoFrames)));
        assert!(matches!(
            check_times(&[-0.1, 0.5]),
            Err(AnimationProblem::Time { frame: 0, .. })
        ));
        assert!(matches!(
            check_times(&[0.0, 0.5, 0.5]),
            Err(AnimationProblem::Time { frame: 2, .. })
        ));
        assert!(matches!(
            check_times(&[0.0, f32::NAN]),
            Err(AnimationProblem::Time { frame: 1, .. })
        ));
    }
}
