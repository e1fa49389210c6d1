//! Joint animations as glTF animations: per driven joint, translation and
//! rotation channels (and scale, where a key carries one) keyed at the
//! animation's own times.

use formats::rig::{self, Motion};
use gltf::json;
use json::accessor::Type;
use json::animation::{Interpolation, Property};
use json::validation::Checked;
use skinning::{Clip, Skeleton};

use crate::axes::{Change, Trs};
use crate::buffer::Asset;
use crate::AnimationProblem;

/// The animation as glTF channels; `None` when it drives no joint (glTF
/// has no empty animations). `joints` are the joint nodes, in skeleton order.
pub fn animation(
    asset: &mut Asset,
    animation: &rig::Animation,
    skeleton: &Skeleton,
    change: &Change,
    joints: &[json::Index<json::Node>],
) -> Result<Option<json::Animation>, AnimationProblem> {
    let motion = match &animation.motion {
        Motion::Joints(motion) => motion,
        Motion::Vertices(_) => return Err(AnimationProblem::Vertices),
    };
    check_times(&animation.times)?;
    let frames = animation.times.len();
    let clip = Clip::bind(motion, frames, skeleton)?;
    let driven = clip.joints();
    if driven.is_empty() {
        return Ok(None);
    }
    // keys[d][f]: driven joint d at frame f, in glTF's axes.
    let mut keys: Vec<Vec<Trs>> = vec![Vec::with_capacity(frames); driven.len()];
    for frame in 0..frames {
        let pose = clip.pose(skeleton, frame)?;
        for (&joint, joint_keys) in driven.iter().zip(keys.iter_mut()) {
            if let Some(local) = pose.locals().get(joint) {
                let previous = joint_keys.last().map(|key: &Trs| key.rotation);
                joint_keys.push(change.trs(local, previous));
            }
        }
    }
    let times: Vec<[f32; 1]> = animation.times.iter().map(|&time| [time]).collect();
    let input = asset.floats(&times, Type::Scalar, None, true);
    let mut channels = Vec::new();
    let mut samplers = Vec::new();
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
        let mut outputs = vec![
            (
                Property::Translation,
                asset.floats(&translations, Type::Vec3, None, false),
            ),
            (
                Property::Rotation,
                asset.floats(&rotations, Type::Vec4, None, false),
            ),
        ];
        if joint_keys.iter().any(Trs::has_scale) {
            let scales: Vec<[f32; 3]> = joint_keys.iter().map(|key| key.scale.to_array()).collect();
            outputs.push((
                Property::Scale,
                asset.floats(&scales, Type::Vec3, None, false),
            ));
        }
        for (path, output) in outputs {
            let sampler = json::Index::push(
                &mut samplers,
                json::animation::Sampler {
                    input,
                    interpolation: Checked::Valid(Interpolation::Linear),
                    output,
                    extensions: None,
                    extras: Default::default(),
                },
            );
            channels.push(json::animation::Channel {
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
    Ok(Some(json::Animation {
        name: Some(animation.name.clone()),
        channels,
        samplers,
        extensions: None,
        extras: Default::default(),
    }))
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
