//! Sims skills as neutral animations, the game's conventions applied:
//!
//! - A skill's `.cfp` (named by its `animation`, found beside the skill
//!   without regard to case) holds one list of translations and one of
//!   rotations for all its motions. A motion drives the bone it names; its
//!   key for frame `f` is entry `first_position + f` of the translations and
//!   `first_rotation + f` of the rotations, when it uses them
//!   (`positions_used`, `rotations_used` non-zero).
//! - A key replaces the bone's rest translation or rotation, as the game's
//!   playback assigns them (VitaMoo's `Practice`, after the original
//!   vitaboy code, and FreeSO's animator do the same): a motion without
//!   translations keeps the bone's rest translation, and a bone no motion
//!   names keeps its rest pose.
//! - Rotations are stored like a bone's rest rotation, acting as their
//!   conjugates; they are normalized, as the deltas leave them slightly
//!   off unit length (by up to 2e-4 in the real skills).
//! - Frame `f` plays at `f × duration / frames`, the duration in
//!   milliseconds (the real skills run 30 frames a second: 60 frames in
//!   1999 ms, 18 in 600).

use glam::Vec4;

use super::cfp::{Streams, StreamsContext, ValueCount, Values};
use super::cmx::{Motion, Skill};
use crate::files::Files;
use crate::rig::{self, JointMotion, Keys, RigError, Track, TrackTarget};

/// The skill as an animation, with its keys read from its `.cfp`. Every
/// motion must have the skill's frame count (its first motion's), as in
/// every known skill.
pub fn animation(skill: &Skill, files: &Files) -> Result<rig::Animation, RigError> {
    let name = skill.name.to_text();
    let invalid = |message: String| RigError::Invalid(format!("skill {name:?}: {message}"));
    let count = |field: &str, value: i32| {
        u32::try_from(value)
            .map(ValueCount)
            .map_err(|_| invalid(format!("{field} {value} is negative")))
    };
    let counts = StreamsContext {
        position_count: count("position_count", skill.position_count)?,
        rotation_count: count("rotation_count", skill.rotation_count)?,
    };
    let frame_count = skill.frame_count();
    let frames = usize::try_from(frame_count)
        .map_err(|_| invalid(format!("frame count {frame_count} is negative")))?;
    let found = files.find(
        &format!("the animation data of skill {name:?}"),
        &[format!("{}.cfp", skill.animation)],
    )?;
    let values = Streams::split(&found.bytes, &counts)
        .and_then(|streams| streams.values())
        .map_err(|source| RigError::Referenced {
            path: found.path.clone(),
            source: Box::new(source),
        })?;
    let tracks = skill
        .motions
        .iter()
        .map(|motion| track(motion, frames, &values).map_err(&invalid))
        .collect::<Result<Vec<_>, _>>()?;
    let seconds_per_frame = skill.duration / 1000.0 / frames as f32;
    Ok(rig::Animation {
        name,
        times: (0..frames)
            .map(|frame| frame as f32 * seconds_per_frame)
            .collect(),
        motion: rig::Motion::Joints(JointMotion {
            tracks,
            depth_pattern: None,
        }),
    })
}

/// One motion's keys, bound to its bone by name.
fn track(motion: &Motion, frames: usize, values: &Values) -> Result<Track, String> {
    let bone = motion.bone.to_text();
    if usize::try_from(motion.frame_count).ok() != Some(frames) {
        return Err(format!(
            "motion {bone:?} has {} frames where the skill's first motion has {frames}",
            motion.frame_count
        ));
    }
    let translations = if motion.positions_used != 0 {
        keys(&values.translations, motion.first_position, frames)
            .map_err(|problem| format!("motion {bone:?}: translations {problem}"))?
            .to_vec()
    } else {
        Vec::new()
    };
    let rotations = if motion.rotations_used != 0 {
        keys(&values.rotations, motion.first_rotation, frames)
            .map_err(|problem| format!("motion {bone:?}: rotations {problem}"))?
            .iter()
            .enumerate()
            .map(|(frame, &[x, y, z, w])| {
                Vec4::new(-x, -y, -z, w)
                    .try_normalize()
                    .map(|rotation| rotation.to_array())
                    .ok_or_else(|| {
                        format!("motion {bone:?}: the rotation of frame {frame} has no direction")
                    })
            })
            .collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    Ok(Track {
        joint: TrackTarget::Name(bone),
        keys: Keys::Parts {
            translations,
            rotations,
        },
    })
}

/// Entries `first` to `first + frames - 1` of a skill's list.
fn keys<T>(list: &[T], first: i32, frames: usize) -> Result<&[T], String> {
    usize::try_from(first)
        .ok()
        .and_then(|start| list.get(start..start.checked_add(frames)?))
        .ok_or_else(|| {
            format!(
                "{first} to {first} + {frames} are not all among the skill's {}",
                list.len()
            )
        })
}
