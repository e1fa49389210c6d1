//! glTF animations back into Sims skills: a `.cmx` record and its keys as a
//! `.cfp`.
//!
//! **Retargeted across the two rests.** A channel turns a glTF joint from
//! the glTF's rest ([`super::rest`]); the skill turns the game's joint of
//! that name the same way in model space: each frame, the game joint's
//! model turn is the glTF joint's turn relative to its own rest, applied
//! to the game joint's rest turn (`glTF turn(t) x inverse(glTF rest turn) x
//! game rest turn`), and its local turn follows from its parent's. A
//! character animated on any rig with the game's bone names (Blender's
//! bones point from head to child; the game's do not) so moves the game's
//! skeleton as it moved the rig; on a rig that rests as the game's does
//! (ossuary's own glTF) that is the channel's own turn. A joint whose
//! translation channel moves it moves the game's joint as far in model
//! space.
//!
//! **Frames.** With the skill's record (the animation's `extras`, or the
//! skill of the animation's name in a character file the glTF carries,
//! since Blender keeps no animation's extras), the skill keeps its names,
//! and its frames and duration when the glTF's keys span its frames (from
//! its first to within a frame of its last: Blender samples at its scene's
//! rate, 24 a second, the game's skills are at 30); the glTF is sampled at
//! the skill's own frames. Without a record the name is made a released one
//! (`a2o-...`, keys `xskill-A2O-...`), the frames are the keys' times when
//! evenly spaced, else 30 a second, and distance, moving and property lists
//! are 0 and none.

use std::collections::{BTreeMap, HashMap};

use formats::schema::{BinarySchema, Magic, RawString};
use formats::sims::cmx::{self, Cmx, MAXIS_COMMENT, RETAIL_VERSION};
use glam::{Affine3A, Quat, Vec3};

use super::carried::Original;
use super::document::Asset;
use super::rest::{self, GameRest, Scene, SCALE_NOISE};
use super::sims_files::SkillFile;
use super::ImportError;

/// The glTF animation `extras` key of a Sims skill's own record (a Blender
/// custom property of the action of that name).
pub const SKILL_EXTRAS: &str = "ossuary_sims_skill";

/// A glTF animation's extras holding the skill's record (its names,
/// duration, distance, motions and their property lists: all but the keys).
pub fn skill_extras(skill: &cmx::Skill) -> Option<Box<serde_json::value::RawValue>> {
    serde_json::value::to_raw_value(&serde_json::json!({ SKILL_EXTRAS: skill })).ok()
}

/// Frames a second where an animation's keys are not evenly spaced and
/// must be sampled: the released skills' rate.
const FRAMES_PER_SECOND: f32 = 30.0;

/// The most frames a skill is sampled at: over half an hour at 30 a second,
/// where the real skills have at most a few hundred. Frames come from
/// times, not from counts the input's size bounds, so they are bounded here.
const MAX_FRAMES: usize = 65_536;

/// The most joint poses worked out for one skill (its frames times the
/// glTF nodes and game joints followed): a real skill needs a few hundred
/// frames of 30 bones, a long capture tens of thousands of frames of 60.
const MAX_POSES: usize = 1 << 22;

/// Key times this close are one frame apart evenly; a joint's local
/// transform this close to its rest is at rest.
const EVEN: f32 = 1e-4;

/// One channel's keys: times and values as glTF gives them, and whether
/// each holds until the next (step) rather than leading to it.
struct Keys<const N: usize> {
    times: Vec<f32>,
    values: Vec<[f32; N]>,
    step: bool,
}

/// One node's channels.
#[derive(Default)]
struct Channels {
    translation: Option<Keys<3>>,
    rotation: Option<Keys<4>>,
}

/// Each glTF animation as a skill, on the game's skeleton `game` (see the
/// module); `originals` are the files the glTF carries.
pub fn import_skills(
    asset: &Asset,
    scene: &Scene,
    game: &GameRest,
    originals: &[Original],
) -> Result<Vec<SkillFile>, ImportError> {
    let carried: Vec<cmx::Skill> = originals
        .iter()
        .filter_map(super::sims_original::carried_character)
        .flat_map(|(_, file)| file.skills)
        .collect();
    let retarget = Retarget::new(asset, scene, game);
    asset
        .document
        .animations()
        .map(|animation| import_skill(asset, &animation, &retarget, &carried))
        .collect()
}

/// A glTF animation as a Sims skill (see the module).
fn import_skill(
    asset: &Asset,
    animation: &gltf::Animation,
    retarget: &Retarget,
    carried: &[cmx::Skill],
) -> Result<SkillFile, ImportError> {
    let gltf_name = animation
        .name()
        .map_or_else(|| format!("animation {}", animation.index()), str::to_owned);
    let fail = |problem: String| ImportError::Animation {
        animation: gltf_name.clone(),
        problem,
    };
    let own_record = animation
        .extras()
        .as_ref()
        .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        .and_then(|value| value.get(SKILL_EXTRAS).cloned())
        .and_then(|value| serde_json::from_value::<cmx::Skill>(value).ok());
    let channels = channels(asset, animation, retarget.scene).map_err(fail)?;
    // Blender keeps no animation's extras: the skill of the animation's name
    // (or of the released name it is written under, a prototype's
    // `adult-greet01` as `a2o-greet01`) in a carried character file is its
    // record, while the keys span its frames.
    let released = released_names(&gltf_name).0.to_text();
    let carried_record = own_record
        .is_none()
        .then(|| {
            carried.iter().find(|skill| {
                let name = skill.name.to_text();
                name.eq_ignore_ascii_case(&gltf_name) || name.eq_ignore_ascii_case(&released)
            })
        })
        .flatten();
    let record = match (own_record, carried_record) {
        (Some(record), _) => Some(record),
        (None, Some(record)) if spans(&channels, record) => Some(record.clone()),
        _ => None,
    };
    let (start, seconds, frames) = match &record {
        Some(skill) => (
            0.0,
            skill.duration / 1000.0,
            usize::try_from(skill.frame_count()).unwrap_or_default(),
        ),
        None => frames_of(&channels),
    };
    if frames == 0 {
        return Err(fail("it has no frames".to_owned()));
    }
    if frames > MAX_FRAMES {
        return Err(fail(format!(
            "it needs {frames} frames; a skill here has at most {MAX_FRAMES}"
        )));
    }
    let poses = frames.saturating_mul(retarget.followed.len() + retarget.nodes.len());
    if poses > MAX_POSES {
        return Err(fail(format!(
            "it would pose {} nodes and joints at each of its {frames} frames; a skill here \
             poses at most {MAX_POSES} in all",
            retarget.followed.len() + retarget.nodes.len()
        )));
    }
    // The same arithmetic as the export's, so that its keys are hit exactly.
    let seconds_per_frame = seconds / frames as f32;
    let times: Vec<f32> = (0..frames)
        .map(|frame| start + frame as f32 * seconds_per_frame)
        .collect();
    let posed = retarget.pose(&channels, &times);
    let motion_of = |bone: &str| {
        record
            .as_ref()
            .and_then(|skill| skill.motions.iter().find(|m| m.bone.to_text() == bone))
    };
    // Motions in the record's order, its keys laid out as it lays them;
    // others in the skeleton's order.
    let mut order: Vec<usize> = (0..retarget.nodes.len()).collect();
    order.sort_by_key(|&joint| {
        let kept = record.as_ref().and_then(|skill| {
            let name = retarget.names.get(joint)?;
            skill
                .motions
                .iter()
                .position(|motion| motion.bone.to_text() == *name)
        });
        (kept.unwrap_or(usize::MAX), joint)
    });
    let mut values = formats::sims::cfp::Values {
        translations: Vec::new(),
        rotations: Vec::new(),
    };
    let mut motions = Vec::new();
    let too_many = || fail("too many keys for a skill".to_owned());
    for joint in order {
        let Some(bone) = retarget.names.get(joint) else {
            continue;
        };
        let Some(keys) = posed.get(&joint) else {
            // Not moved: a motion only where the record has one.
            if let Some(kept) = motion_of(bone) {
                let rest = retarget.rest_local(joint);
                let keys = vec![rest; frames];
                motions.push(motion(kept, &keys, &mut values).ok_or_else(too_many)?);
            }
            continue;
        };
        let kept = motion_of(bone);
        let rest = retarget.rest_local(joint);
        let node = retarget.nodes.get(joint).copied().flatten();
        let keyed = |rotation: bool| {
            node.and_then(|node| channels.get(&node))
                .is_some_and(|own| {
                    if rotation {
                        own.rotation.is_some()
                    } else {
                        own.translation.is_some()
                    }
                })
        };
        let turns = keys
            .iter()
            .any(|(_, rotation)| rotation.dot(rest.1).abs() < 1.0 - EVEN * EVEN);
        let moves = keys
            .iter()
            .any(|(translation, _)| (*translation - rest.0).abs().max_element() > EVEN);
        let (positions_used, rotations_used) = match kept {
            Some(motion) => (motion.positions_used != 0, motion.rotations_used != 0),
            None => (keyed(false) && moves, keyed(true) || turns),
        };
        if kept.is_none() && !positions_used && !rotations_used {
            continue;
        }
        let first_position = if positions_used {
            let first = i32::try_from(values.translations.len()).map_err(|_| too_many())?;
            values
                .translations
                .extend(keys.iter().map(|(translation, _)| translation.to_array()));
            first
        } else {
            -1
        };
        let first_rotation = if rotations_used {
            let first = i32::try_from(values.rotations.len()).map_err(|_| too_many())?;
            push_rotations(
                &mut values.rotations,
                keys.iter().map(|&(_, rotation)| rotation),
            );
            first
        } else {
            -1
        };
        let frame_count = i32::try_from(frames).map_err(|_| fail("too many frames".to_owned()))?;
        motions.push(cmx::Motion {
            bone: RawString::from(bone.as_str()),
            frame_count,
            duration: kept.map_or(seconds * 1000.0, |motion| motion.duration),
            positions_used: i32::from(positions_used),
            rotations_used: i32::from(rotations_used),
            first_position,
            first_rotation,
            property_lists: kept
                .map(|motion| motion.property_lists.clone())
                .unwrap_or_default(),
            time_property_lists: kept
                .map(|motion| motion.time_property_lists.clone())
                .unwrap_or_default(),
        });
    }
    let count = |len: usize| i32::try_from(len).map_err(|_| too_many());
    let skill = match &record {
        Some(kept) => cmx::Skill {
            position_count: count(values.translations.len())?,
            rotation_count: count(values.rotations.len())?,
            motions,
            ..kept.clone()
        },
        None => {
            // A skill the carried files name keeps its names, retimed.
            let (name, animation) = match carried_record {
                Some(carried) => (carried.name.clone(), carried.animation.clone()),
                None => released_names(&gltf_name),
            };
            cmx::Skill {
                name,
                animation,
                duration: seconds * 1000.0,
                distance: 0.0,
                moving: 0,
                position_count: count(values.translations.len())?,
                rotation_count: count(values.rotations.len())?,
                motions,
            }
        }
    };
    let counts = formats::sims::cfp::StreamsContext {
        position_count: formats::sims::cfp::ValueCount(skill.position_count.unsigned_abs()),
        rotation_count: formats::sims::cfp::ValueCount(skill.rotation_count.unsigned_abs()),
    };
    let stream = formats::sims::cfp::Streams::plain(&values)
        .to_bytes_with(&counts)
        .map_err(|error| fail(error.to_string()))?;
    let name = skill.name.to_text();
    let stem = match name.get(..4).map(str::to_ascii_lowercase).as_deref() {
        Some("a2o-") => format!("adult-{}", name.get(4..).unwrap_or_default()),
        Some("c2o-") => format!("child-{}", name.get(4..).unwrap_or_default()),
        _ => name,
    };
    let stream_name = format!("{}.cfp", skill.animation.to_text());
    Ok(SkillFile {
        stem,
        cmx: Some(Cmx {
            style: super::sims::shortest(),
            comment: RawString::from(MAXIS_COMMENT),
            version_keyword: Magic,
            version: RETAIL_VERSION,
            skeletons: Vec::new(),
            suits: Vec::new(),
            skills: vec![skill],
        }),
        stream: (stream_name, stream),
    })
}

/// A motion the record keeps, for a joint the animation leaves at rest:
/// its keys laid out as the record says (`keys` are the rest, each frame).
fn motion(
    kept: &cmx::Motion,
    keys: &[(Vec3, Quat)],
    values: &mut formats::sims::cfp::Values,
) -> Option<cmx::Motion> {
    let first_position = if kept.positions_used != 0 {
        let first = i32::try_from(values.translations.len()).ok()?;
        values
            .translations
            .extend(keys.iter().map(|(translation, _)| translation.to_array()));
        first
    } else {
        -1
    };
    let first_rotation = if kept.rotations_used != 0 {
        let first = i32::try_from(values.rotations.len()).ok()?;
        push_rotations(
            &mut values.rotations,
            keys.iter().map(|&(_, rotation)| rotation),
        );
        first
    } else {
        -1
    };
    Some(cmx::Motion {
        frame_count: i32::try_from(keys.len()).ok()?,
        first_position,
        first_rotation,
        ..kept.clone()
    })
}

/// Rotations as the Sims store them (acting as their conjugates), each in
/// the hemisphere of the one before, so that keys interpolate the short
/// way.
fn push_rotations(stored: &mut Vec<[f32; 4]>, rotations: impl Iterator<Item = Quat>) {
    let mut previous: Option<Quat> = None;
    for rotation in rotations {
        let conjugate = rotation.conjugate();
        let turned = match previous {
            Some(previous) if previous.dot(conjugate) < 0.0 => -conjugate,
            _ => conjugate,
        };
        previous = Some(turned);
        stored.push(turned.to_array());
    }
}

/// A released skill's name and its keys' for a glTF animation named
/// `name`: `walk` as `a2o-walk` (keys `xskill-A2O-walk`), an already
/// released `a2o-idle2` as itself (keys `xskill-A2O-idle2`).
fn released_names(name: &str) -> (RawString, RawString) {
    let unnamed = cmx::Skill {
        name: RawString::from(name),
        animation: RawString::from(format!("xskill-{name}").as_str()),
        duration: 0.0,
        distance: 0.0,
        moving: 0,
        position_count: 0,
        rotation_count: 0,
        motions: Vec::new(),
    };
    let (released, keys) =
        formats::sims::retail::released_skill_name(&unnamed, formats::sims::retail::Figure::Adult);
    // Released keys name the figure's prefix in capitals: `xskill-A2O-idle1`.
    let text = released.to_text();
    let prefixed = text.as_bytes().get(1) == Some(&b'2') && text.as_bytes().get(3) == Some(&b'-');
    match (prefixed, text.get(..3), text.get(3..)) {
        (true, Some(prefix), Some(rest)) => (
            released,
            RawString::from(format!("xskill-{}{rest}", prefix.to_ascii_uppercase()).as_str()),
        ),
        _ => (released, keys),
    }
}

/// The animation's channels, per node: their keys as glTF gives them (a
/// cubic spline's key values only), checked: times and values finite,
/// as many values as times, a scale only of 1 (a Sims bone has none).
fn channels(
    asset: &Asset,
    animation: &gltf::Animation,
    scene: &Scene,
) -> Result<BTreeMap<usize, Channels>, String> {
    let mut channels: BTreeMap<usize, Channels> = BTreeMap::new();
    for (index, channel) in animation.channels().enumerate() {
        let node = channel.target().node().index();
        let name = || rest::quoted(scene.names.get(node).map_or("", String::as_str));
        let sampler = channel.sampler();
        let cubic = sampler.interpolation() == gltf::animation::Interpolation::CubicSpline;
        let step = sampler.interpolation() == gltf::animation::Interpolation::Step;
        let times: Vec<f32> = asset
            .floats::<1>(&sampler.input())
            .map_err(|error| error.to_string())?
            .into_iter()
            .map(|[time]| time)
            .collect();
        if let Some(key) = times.iter().position(|time| !time.is_finite()) {
            return Err(format!(
                "channel {index} (joint {}): the time of key {key} is not a finite number",
                name()
            ));
        }
        let checked = |values: &[f32], what: &str| match values.iter().position(|v| !v.is_finite())
        {
            Some(at) => Err(format!(
                "channel {index} (joint {}): a {what} key holds a number that is not finite \
                 (component {at})",
                name()
            )),
            None => Ok(()),
        };
        let entry = channels.entry(node).or_default();
        let read_error = |error: ImportError| error.to_string();
        match channel.target().property() {
            gltf::animation::Property::Translation => {
                let values = key_values(
                    asset.floats::<3>(&sampler.output()).map_err(read_error)?,
                    cubic,
                );
                checked(values.as_flattened(), "translation")?;
                entry.translation = Some(Keys {
                    times,
                    values,
                    step,
                });
            }
            gltf::animation::Property::Rotation => {
                let values = key_values(
                    asset.floats::<4>(&sampler.output()).map_err(read_error)?,
                    cubic,
                );
                checked(values.as_flattened(), "rotation")?;
                entry.rotation = Some(Keys {
                    times,
                    values,
                    step,
                });
            }
            // Blender keys every joint's scale, at 1: only a scale that is
            // not 1 is one the game cannot play.
            gltf::animation::Property::Scale => {
                let scales = key_values(
                    asset.floats::<3>(&sampler.output()).map_err(read_error)?,
                    cubic,
                );
                checked(scales.as_flattened(), "scale")?;
                if scales
                    .iter()
                    .flatten()
                    .any(|&axis| (axis - 1.0).abs() > SCALE_NOISE)
                {
                    return Err(format!(
                        "it scales the joint {}; a Sims bone has no scale",
                        name()
                    ));
                }
            }
            gltf::animation::Property::MorphTargetWeights => {}
        }
    }
    for (node, channels) in &channels {
        let lengths = [
            channels
                .translation
                .as_ref()
                .map(|keys| (keys.times.len(), keys.values.len())),
            channels
                .rotation
                .as_ref()
                .map(|keys| (keys.times.len(), keys.values.len())),
        ];
        if let Some((times, values)) = lengths
            .into_iter()
            .flatten()
            .find(|(t, v)| t != v || *t == 0)
        {
            return Err(format!(
                "the joint {} has {values} keys for {times} times",
                rest::quoted(scene.names.get(*node).map_or("", String::as_str))
            ));
        }
    }
    Ok(channels)
}

/// The values of a sampler's output; of a cubic spline's, each key's
/// value (between its in- and out-tangents).
fn key_values<const N: usize>(output: Vec<[f32; N]>, cubic: bool) -> Vec<[f32; N]> {
    if cubic {
        output.into_iter().skip(1).step_by(3).collect()
    } else {
        output
    }
}

/// Every key time of the channels, sorted, those one frame apart evenly
/// merged.
fn key_times(channels: &BTreeMap<usize, Channels>) -> Vec<f32> {
    let mut times: Vec<f32> = channels
        .values()
        .flat_map(|channels| {
            let translation = channels.translation.iter().flat_map(|keys| &keys.times);
            let rotation = channels.rotation.iter().flat_map(|keys| &keys.times);
            translation.chain(rotation).copied()
        })
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() <= EVEN);
    times
}

/// Whether the keys span the frames of `skill`: the first within a frame
/// of its start, the last within a frame of its last frame (a key closing
/// the loop at the skill's end is a frame after it: to [`EVEN`], as a
/// frame's length in `f32` rounds either way).
fn spans(channels: &BTreeMap<usize, Channels>, skill: &cmx::Skill) -> bool {
    let frames = skill.frame_count();
    if frames <= 0 {
        return false;
    }
    let frame = skill.duration / 1000.0 / frames as f32;
    let last_frame = (frames - 1) as f32 * frame;
    let times = key_times(channels);
    match (times.first(), times.last()) {
        (Some(&first), Some(&last)) => {
            first.abs() <= frame + EVEN && (last - last_frame).abs() <= frame + EVEN
        }
        _ => false,
    }
}

/// The skill's start, duration and frames when no record gives them: from
/// the first key, the key times when evenly spaced (the last frame lasting
/// as long as the others); else 30 frames a second up to the last key.
fn frames_of(channels: &BTreeMap<usize, Channels>) -> (f32, f32, usize) {
    let times = key_times(channels);
    // The skill starts at the first key (Blender's first frame is at 1/24
    // of a second): before it, glTF holds the first key's pose anyway.
    let first = times.first().copied().unwrap_or_default().max(0.0);
    let last = times.last().copied().unwrap_or_default().max(first);
    let span = last - first;
    let even = times.len() >= 2 && {
        let step = times.get(1).copied().unwrap_or_default() - first;
        times
            .windows(2)
            .all(|pair| ((pair[1] - pair[0]) - step).abs() <= EVEN)
    };
    if even {
        let step = span / (times.len() - 1) as f32;
        (first, span + step, times.len())
    } else {
        // A float cast saturates: a last key past every bound asks for more
        // than MAX_FRAMES, which the caller refuses.
        let frames = ((span * FRAMES_PER_SECOND).round() as usize).saturating_add(1);
        (first, frames as f32 / FRAMES_PER_SECOND, frames)
    }
}

/// Where `time` falls among `times`: the key before and the share of the
/// way to the next.
fn segment(times: &[f32], time: f32, step: bool) -> (usize, usize, f32) {
    let after = times.partition_point(|&key| key <= time);
    let before = after.saturating_sub(1);
    let next = after.min(times.len().saturating_sub(1));
    let (t0, t1) = (
        times.get(before).copied().unwrap_or_default(),
        times.get(next).copied().unwrap_or_default(),
    );
    let share = if step || next == before || t1 <= t0 {
        0.0
    } else {
        ((time - t0) / (t1 - t0)).clamp(0.0, 1.0)
    };
    (before, next, share)
}

fn sample3(keys: &Keys<3>, time: f32) -> Vec3 {
    let (before, next, share) = segment(&keys.times, time, keys.step);
    let a = Vec3::from_array(keys.values.get(before).copied().unwrap_or_default());
    let b = Vec3::from_array(keys.values.get(next).copied().unwrap_or_default());
    if share == 0.0 {
        return a;
    }
    a.lerp(b, share)
}

fn sample4(keys: &Keys<4>, time: f32) -> Quat {
    let (before, next, share) = segment(&keys.times, time, keys.step);
    let key = |at: usize| {
        Quat::from_array(keys.values.get(at).copied().unwrap_or([0.0, 0.0, 0.0, 1.0])).normalize()
    };
    let (a, b) = (key(before), key(next));
    if share == 0.0 {
        return a;
    }
    a.slerp(b, share)
}

/// What carries a glTF animation onto the game's skeleton (see the
/// module), worked out once per asset.
struct Retarget<'a> {
    scene: &'a Scene,
    /// Per game joint: its name, its parent, its rest (model and local),
    /// and the glTF node of its name.
    names: Vec<String>,
    parents: Vec<Option<usize>>,
    model: Vec<Affine3A>,
    nodes: Vec<Option<usize>>,
    /// Game joints, parents first.
    order: Vec<usize>,
    /// The glTF nodes the game's joints follow, with their ancestors,
    /// parents first.
    followed: Vec<usize>,
    /// Per game joint with a node: the turn from its node's rest turn to
    /// its own (`inverse(glTF rest turn) x game rest turn`).
    offsets: Vec<Quat>,
}

impl<'a> Retarget<'a> {
    fn new(asset: &Asset, scene: &'a Scene, game: &GameRest) -> Retarget<'a> {
        // A name is looked for among the skins' joints first, then among
        // every node.
        let mut by_name: HashMap<&str, usize> = HashMap::new();
        for skin in asset.document.skins() {
            for joint in skin.joints() {
                if let Some(name) = scene.names.get(joint.index()) {
                    by_name.entry(name.as_str()).or_insert(joint.index());
                }
            }
        }
        for (node, name) in scene.names.iter().enumerate() {
            by_name.entry(name.as_str()).or_insert(node);
        }
        let names = game.names.clone();
        let nodes: Vec<Option<usize>> = names
            .iter()
            .map(|name| by_name.get(name.as_str()).copied())
            .collect();
        // Each followed node once, its ancestors before it.
        let mut seen = vec![false; scene.parents.len()];
        let mut followed = Vec::new();
        let mut chain = Vec::new();
        for &node in nodes.iter().flatten() {
            let mut at = Some(node);
            while let Some(node) = at {
                match seen.get_mut(node) {
                    Some(slot) if !*slot => *slot = true,
                    _ => break,
                }
                chain.push(node);
                at = scene.parent(node);
            }
            followed.extend(chain.drain(..).rev());
        }
        let offsets = nodes
            .iter()
            .enumerate()
            .map(|(joint, node)| match node {
                Some(node) => turn(&scene.world(*node)).inverse() * turn(&game.model(joint)),
                None => Quat::IDENTITY,
            })
            .collect();
        Retarget {
            scene,
            names,
            parents: game.parents.clone(),
            model: game.model.clone(),
            nodes,
            order: game.order.clone(),
            followed,
            offsets,
        }
    }

    /// A game joint's rest, local to its parent: translation and turn.
    fn rest_local(&self, joint: usize) -> (Vec3, Quat) {
        let model = self.model.get(joint).copied().unwrap_or_default();
        let local = match self.parents.get(joint).copied().flatten() {
            Some(parent) => {
                self.model
                    .get(parent)
                    .copied()
                    .unwrap_or_default()
                    .inverse()
                    * model
            }
            None => model,
        };
        (Vec3::from(local.translation), turn(&local))
    }

    /// Each moved game joint's local translation and turn at each of
    /// `times`, by joint; joints the animation leaves where they rest are
    /// not in it.
    fn pose(
        &self,
        channels: &BTreeMap<usize, Channels>,
        times: &[f32],
    ) -> BTreeMap<usize, Vec<(Vec3, Quat)>> {
        let scene = self.scene;
        // A node moves when it or an ancestor is animated.
        let mut moved = vec![false; scene.parents.len()];
        for &node in &self.followed {
            let own = channels.contains_key(&node);
            let inherited = scene
                .parent(node)
                .and_then(|parent| moved.get(parent).copied())
                .unwrap_or(false);
            if let Some(slot) = moved.get_mut(node) {
                *slot = own || inherited;
            }
        }
        let is_moved = |node: Option<usize>| {
            node.is_some_and(|node| moved.get(node).copied().unwrap_or(false))
        };
        let moving: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|&joint| is_moved(self.nodes.get(joint).copied().flatten()))
            .collect();
        let mut posed: BTreeMap<usize, Vec<(Vec3, Quat)>> = moving
            .iter()
            .map(|&joint| (joint, Vec::with_capacity(times.len())))
            .collect();
        if moving.is_empty() {
            return posed;
        }
        let mut worlds: Vec<Affine3A> = scene.worlds.clone();
        let count = self.names.len();
        let (mut turns, mut places) = (vec![Quat::IDENTITY; count], vec![Vec3::ZERO; count]);
        for &time in times {
            for &node in &self.followed {
                if !moved.get(node).copied().unwrap_or(false) {
                    continue;
                }
                let local = match channels.get(&node) {
                    Some(own) => animated_local(&scene.local(node), own, time),
                    None => scene.local(node),
                };
                let parent = scene
                    .parent(node)
                    .and_then(|parent| worlds.get(parent).copied())
                    .unwrap_or(scene.root);
                if let Some(slot) = worlds.get_mut(node) {
                    *slot = parent * local;
                }
            }
            for &joint in &self.order {
                let parent = self.parents.get(joint).copied().flatten();
                let (parent_turn, parent_place) = match parent {
                    Some(parent) => (
                        turns.get(parent).copied().unwrap_or_default(),
                        places.get(parent).copied().unwrap_or_default(),
                    ),
                    None => (Quat::IDENTITY, Vec3::ZERO),
                };
                let rest = self.model.get(joint).copied().unwrap_or_default();
                let node = self.nodes.get(joint).copied().flatten();
                let (turned, place) = match node.filter(|&node| is_moved(Some(node))) {
                    Some(node) => {
                        let world = worlds.get(node).copied().unwrap_or_default();
                        let offset = self.offsets.get(joint).copied().unwrap_or_default();
                        let translated = channels
                            .get(&node)
                            .is_some_and(|own| own.translation.is_some());
                        let place = if translated {
                            // Moved in model space as far as its node.
                            Vec3::from(rest.translation)
                                + Vec3::from(world.translation - scene.world(node).translation)
                        } else {
                            let (local, _) = self.rest_local(joint);
                            parent_place + parent_turn * local
                        };
                        ((turn(&world) * offset).normalize(), place)
                    }
                    None => {
                        let (local, local_turn) = self.rest_local(joint);
                        (parent_turn * local_turn, parent_place + parent_turn * local)
                    }
                };
                if let Some(slot) = turns.get_mut(joint) {
                    *slot = turned;
                }
                if let Some(slot) = places.get_mut(joint) {
                    *slot = place;
                }
                if let Some(keys) = posed.get_mut(&joint) {
                    let inverse = parent_turn.inverse();
                    keys.push((
                        inverse * (place - parent_place),
                        (inverse * turned).normalize(),
                    ));
                }
            }
        }
        posed
    }
}

/// A node's local transform at `time`: its channels' keys in place of its
/// rest's translation and turn (in the games' axes), its rest's scale.
fn animated_local(rest: &Affine3A, channels: &Channels, time: f32) -> Affine3A {
    let (scale, rest_turn, rest_translation) = rest.to_scale_rotation_translation();
    let translation = channels
        .translation
        .as_ref()
        .map_or(rest_translation, |keys| mirror_point(sample3(keys, time)));
    let rotation = channels
        .rotation
        .as_ref()
        .map_or(rest_turn, |keys| mirror_turn(sample4(keys, time)));
    Affine3A::from_scale_rotation_translation(scale, rotation, translation)
}

/// A point of glTF's axes in the games' (x mirrored).
fn mirror_point(point: Vec3) -> Vec3 {
    Vec3::new(-point.x, point.y, point.z)
}

/// A turn of glTF's axes in the games': `(x, y, z, w)` as `(x, -y, -z, w)`.
fn mirror_turn(turn: Quat) -> Quat {
    Quat::from_xyzw(turn.x, -turn.y, -turn.z, turn.w)
}

/// A transform's turn, its scale left out.
fn turn(transform: &Affine3A) -> Quat {
    let (_, rotation, _) = transform.to_scale_rotation_translation();
    rotation.normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rotation_channels(times: Vec<f32>) -> BTreeMap<usize, Channels> {
        let values = vec![[0.0, 0.0, 0.0, 1.0]; times.len()];
        let mut map = BTreeMap::new();
        map.insert(
            0,
            Channels {
                translation: None,
                rotation: Some(Keys {
                    times,
                    values,
                    step: false,
                }),
            },
        );
        map
    }

    #[test]
    fn evenly_spaced_keys_are_the_frames_and_others_are_sampled_at_30_a_second() {
        // Three frames a tenth of a second apart: the last lasts a tenth too.
        let (start, seconds, frames) = frames_of(&rotation_channels(vec![0.0, 0.1, 0.2]));
        assert_eq!((start, frames), (0.0, 3));
        assert!((seconds - 0.3).abs() < 1e-6);
        let (start, seconds, frames) = frames_of(&rotation_channels(vec![0.0, 0.1, 0.5]));
        assert_eq!((start, frames), (0.0, 16));
        assert!((seconds - 16.0 / 30.0).abs() < 1e-6);
        // Blender's keys start at its frame 1, a 24th of a second in: the
        // skill starts there.
        let blender: Vec<f32> = (1..=25).map(|frame| frame as f32 / 24.0).collect();
        let (start, seconds, frames) = frames_of(&rotation_channels(blender));
        assert_eq!((start, frames), (1.0 / 24.0, 25));
        assert!((seconds - 25.0 / 24.0).abs() < 1e-6);
    }

    #[test]
    fn keys_sampled_at_blender_s_rate_span_a_skill_s_frames_at_the_game_s() {
        // A 60-frame skill of 2 s (30 a second), sampled by Blender at its
        // 24 a second: 48 keys from 0 to 47/24 s.
        let skill = cmx::Skill {
            name: RawString::from("a2o-idle2"),
            animation: RawString::from("xskill-A2O-idle2"),
            duration: 2000.0,
            distance: 0.0,
            moving: 0,
            position_count: 0,
            rotation_count: 60,
            motions: vec![cmx::Motion {
                bone: RawString::from("ROOT"),
                frame_count: 60,
                duration: 2000.0,
                positions_used: 0,
                rotations_used: 1,
                first_position: -1,
                first_rotation: 0,
                property_lists: Vec::new(),
                time_property_lists: Vec::new(),
            }],
        };
        let blender: Vec<f32> = (0..48).map(|frame| frame as f32 / 24.0).collect();
        assert!(spans(&rotation_channels(blender), &skill));
        // Lengthened in Blender by half a second: its own frames then.
        let longer: Vec<f32> = (0..60).map(|frame| frame as f32 / 24.0).collect();
        assert!(!spans(&rotation_channels(longer), &skill));
    }

    #[test]
    fn keys_closing_the_loop_at_a_skill_s_end_span_its_frames() {
        // `adult-idle1.cmx`'s `a2o-idle1`: 60 frames in 1999 ms. ossuary's
        // glTF keys each frame and closes the loop at 1.999 s, one frame
        // after the last, which in `f32` is a hair more than a frame.
        let skill = cmx::Skill {
            name: RawString::from("a2o-idle1"),
            animation: RawString::from("xskill-A2O-idle1"),
            duration: 1999.0,
            distance: 0.0,
            moving: 0,
            position_count: 60,
            rotation_count: 60,
            motions: vec![cmx::Motion {
                bone: RawString::from("ROOT"),
                frame_count: 60,
                duration: 1999.0,
                positions_used: 1,
                rotations_used: 1,
                first_position: 0,
                first_rotation: 0,
                property_lists: Vec::new(),
                time_property_lists: Vec::new(),
            }],
        };
        let frame = 1999.0_f32 / 1000.0 / 60.0;
        let mut keys: Vec<f32> = (0..60).map(|at| at as f32 * frame).collect();
        keys.push(1.999);
        assert!((keys[60] - keys[59]) > frame, "the case this test is for");
        assert!(spans(&rotation_channels(keys), &skill));
    }

    #[test]
    fn released_names_put_the_figure_s_prefix_in_capitals_in_the_keys_name() {
        let text = |(name, keys): (RawString, RawString)| (name.to_text(), keys.to_text());
        assert_eq!(
            text(released_names("a2o-idle2")),
            ("a2o-idle2".to_owned(), "xskill-A2O-idle2".to_owned())
        );
        assert_eq!(
            text(released_names("walk")),
            ("a2o-walk".to_owned(), "xskill-A2O-walk".to_owned())
        );
    }

    #[test]
    fn keys_are_sampled_between_and_at_their_times() {
        let keys = Keys {
            times: vec![0.0, 1.0],
            values: vec![[0.0, 0.0, 0.0], [2.0, 4.0, 6.0]],
            step: false,
        };
        assert_eq!(sample3(&keys, 0.25), Vec3::new(0.5, 1.0, 1.5));
        assert_eq!(sample3(&keys, 1.0), Vec3::new(2.0, 4.0, 6.0));
        // Past the last key, the last holds.
        assert_eq!(sample3(&keys, 3.0), Vec3::new(2.0, 4.0, 6.0));
        let step = Keys { step: true, ..keys };
        assert_eq!(sample3(&step, 0.75), Vec3::ZERO);
    }
}
