//! Sims skills as neutral animations, the game's conventions applied:
//!
//! - A skill's keys are in `<animation>.cfp` (the released game's
//!   compressed stream) or, failing that, `<animation>.bin` (the 1998
//!   prototype's plain floats), found beside the skill without regard to
//!   case: one list of translations and one of rotations for all its
//!   motions. A motion drives the bone it names; its
//!   key for frame `f` is entry `first_position + f` of the translations and
//!   `first_rotation + f` of the rotations, when it uses them
//!   (`positions_used`, `rotations_used` non-zero).
//! - A key replaces the bone's rest translation or rotation, as the game's
//!   playback assigns them (VitaMoo's `Practice`, after the original
//!   vitaboy code; ts1-blender-io's importer reads skills the same way): a
//!   motion without translations keeps the bone's rest translation, and a
//!   bone no motion names keeps its rest pose.
//! - Rotations are stored like a bone's rest rotation, acting as their
//!   conjugates; they are normalized, as the deltas leave them slightly
//!   off unit length (by up to 1.5e-3 in the real skills).
//! - Frame `f` plays at `f × duration / frames`, the duration in
//!   milliseconds (the real skills run 30 frames a second: 60 frames in
//!   1999 ms, 18 in 600).

use glam::Vec4;

use super::bin;
use super::cfp::{Streams, StreamsContext, ValueCount, Values};
use super::cmx::{Motion, Skill};
use crate::files::Files;
use crate::rig::{self, JointMotion, Keys, RigError, Track, TrackTarget};

/// The most values ossuary decodes for one skill, and the most it keys
/// (3 a translation, 4 a rotation, 1 a frame's time): 2^24, over two
/// thousand times the real idle's 7,320. A repeat lets 3 bytes stand for
/// 65,536 values and motions may share their keys, so without a bound a
/// file of a few kilobytes could ask for any amount of memory.
const MAX_VALUES: u64 = 1 << 24;

/// The skill as an animation, with its keys read from its `.cfp` or its
/// `.bin`; with neither, the error names both.
pub fn animation(skill: &Skill, files: &Files) -> Result<rig::Animation, RigError> {
    let name = skill.name.quoted();
    let count = |field: &str, value: i32| {
        u32::try_from(value)
            .map(ValueCount)
            .map_err(|_| RigError::Invalid(format!("skill {name}: {field} {value} is negative")))
    };
    let counts = StreamsContext {
        position_count: count("position_count", skill.position_count)?,
        rotation_count: count("rotation_count", skill.rotation_count)?,
    };
    let needed = 3 * u64::from(counts.position_count.0) + 4 * u64::from(counts.rotation_count.0);
    if needed > MAX_VALUES {
        return Err(RigError::Invalid(format!(
            "skill {name}: its counts need {needed} values; ossuary decodes at most {MAX_VALUES}"
        )));
    }
    let found = files.find(
        &format!("the animation data of skill {name}"),
        &[
            format!("{}.cfp", skill.animation),
            format!("{}.bin", skill.animation),
        ],
    )?;
    let is_bin = found
        .path
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("bin"));
    let values = if is_bin {
        let counts = bin::KeysContext {
            position_count: counts.position_count.0,
            rotation_count: counts.rotation_count.0,
        };
        bin::Keys::split(&found.bytes, &counts).map(bin::Keys::values)
    } else {
        Streams::split(&found.bytes, &counts).and_then(|streams| streams.values())
    };
    let values = values.map_err(|source| RigError::Referenced {
        path: found.path.clone(),
        source: Box::new(source),
    })?;
    keyed(skill, &values)
}

/// The skill's motions keyed from its values. Every motion must have the
/// skill's frame count (its first motion's), as in every known skill.
fn keyed(skill: &Skill, values: &Values) -> Result<rig::Animation, RigError> {
    let name = skill.name.to_text();
    let quoted = skill.name.quoted();
    let invalid = |message: String| RigError::Invalid(format!("skill {quoted}: {message}"));
    let frame_count = skill.frame_count();
    let frames = usize::try_from(frame_count)
        .map_err(|_| invalid(format!("frame count {frame_count} is negative")))?;
    let per_frame: u64 = skill
        .motions
        .iter()
        .map(|motion| {
            3 * u64::from(motion.positions_used != 0) + 4 * u64::from(motion.rotations_used != 0)
        })
        .sum();
    let keyed = (per_frame + 1).saturating_mul(frames as u64);
    if keyed > MAX_VALUES {
        return Err(invalid(format!(
            "its motions and frames need {keyed} values; ossuary keys at most {MAX_VALUES}"
        )));
    }
    let tracks = skill
        .motions
        .iter()
        .map(|motion| track(motion, frames, values).map_err(&invalid))
        .collect::<Result<Vec<_>, _>>()?;
    let seconds = skill.duration / 1000.0;
    let seconds_per_frame = seconds / frames as f32;
    // The game's looping skills say so in their names
    // (`a2o-walking-frantic-loop`); the others play once.
    let end = if name.to_ascii_lowercase().ends_with("loop") {
        rig::End::Loops { seconds }
    } else {
        rig::End::Holds { seconds }
    };
    Ok(rig::Animation {
        times: (0..frames)
            .map(|frame| frame as f32 * seconds_per_frame)
            .collect(),
        name,
        motion: rig::Motion::Joints(JointMotion {
            tracks,
            depth_pattern: None,
        }),
        end: Some(end),
        events: Vec::new(),
    })
}

/// One motion's keys, bound to its bone by name.
fn track(motion: &Motion, frames: usize, values: &Values) -> Result<Track, String> {
    let quoted = motion.bone.quoted();
    if usize::try_from(motion.frame_count).ok() != Some(frames) {
        return Err(format!(
            "motion {quoted} has {} frames where the skill's first motion has {frames}",
            motion.frame_count
        ));
    }
    let translations = if motion.positions_used != 0 {
        keys(&values.translations, motion.first_position, frames)
            .map_err(|problem| format!("motion {quoted}: translations {problem}"))?
            .to_vec()
    } else {
        Vec::new()
    };
    let rotations = if motion.rotations_used != 0 {
        keys(&values.rotations, motion.first_rotation, frames)
            .map_err(|problem| format!("motion {quoted}: rotations {problem}"))?
            .iter()
            .enumerate()
            .map(|(frame, &[x, y, z, w])| {
                Vec4::new(-x, -y, -z, w)
                    .try_normalize()
                    .map(|rotation| rotation.to_array())
                    .ok_or_else(|| {
                        format!("motion {quoted}: the rotation of frame {frame} has no direction")
                    })
            })
            .collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    Ok(Track {
        joint: TrackTarget::Name(motion.bone.to_text()),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::RawString;

    fn motion(bone: &str, translations: Option<i32>, rotations: Option<i32>) -> Motion {
        Motion {
            bone: RawString::from(bone),
            frame_count: 2,
            duration: 500.0,
            positions_used: i32::from(translations.is_some()),
            rotations_used: i32::from(rotations.is_some()),
            first_position: translations.unwrap_or(-1),
            first_rotation: rotations.unwrap_or(-1),
            property_lists: Vec::new(),
            time_property_lists: Vec::new(),
        }
    }

    fn skill(motions: Vec<Motion>) -> Skill {
        Skill {
            name: RawString::from("a2o-test"),
            animation: RawString::from("xskill-a2o-test"),
            duration: 500.0,
            distance: 0.0,
            moving: 0,
            position_count: 2,
            rotation_count: 4,
            motions,
        }
    }

    fn values() -> Values {
        Values {
            translations: vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
            rotations: vec![
                [0.0, 0.0, 0.0, 1.0],
                [0.0, 0.0, 0.0, 2.0],
                [0.6, 0.0, 0.0, 0.8],
                [0.0, 0.6, 0.0, 0.8],
            ],
        }
    }

    fn tracks(animation: &rig::Animation) -> &[Track] {
        match &animation.motion {
            rig::Motion::Joints(motion) => &motion.tracks,
            other => panic!("joint motion expected, found {other:?}"),
        }
    }

    #[test]
    fn motions_read_the_shared_lists_at_their_offsets_conjugated_and_normalized() {
        let animation = keyed(
            &skill(vec![
                motion("ROOT", Some(0), Some(0)),
                motion("ARM", None, Some(2)),
            ]),
            &values(),
        )
        .unwrap();
        assert_eq!(animation.name, "a2o-test");
        assert_eq!(animation.times, [0.0, 0.25]);
        let tracks = tracks(&animation);
        assert_eq!(tracks[0].joint, TrackTarget::Name("ROOT".to_owned()));
        assert_eq!(
            tracks[0].keys,
            Keys::Parts {
                translations: vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
                rotations: vec![[0.0, 0.0, 0.0, 1.0]; 2],
            }
        );
        // No translations: the rest's are kept.
        assert_eq!(
            tracks[1].keys,
            Keys::Parts {
                translations: Vec::new(),
                rotations: vec![[-0.6, 0.0, 0.0, 0.8], [0.0, -0.6, 0.0, 0.8]],
            }
        );
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("ossuary-skill-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_skill_reads_its_keys_from_a_bin_when_no_cfp_is_beside_it() {
        let dir = scratch("bin");
        let values = values();
        let bytes = crate::schema::BinarySchema::to_bytes(&bin::Bin::from(&values)).unwrap();
        // Found without regard to case, as the games' file systems did.
        std::fs::write(dir.join("XSKILL-a2o-test.BIN"), bytes).unwrap();
        let files = Files::beside(&dir.join("skill.cmx"));
        let skill = skill(vec![motion("ROOT", Some(0), Some(2))]);
        let keyed = animation(&skill, &files).unwrap();
        assert_eq!(
            tracks(&keyed)[0].keys,
            Keys::Parts {
                translations: vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
                rotations: vec![[-0.6, 0.0, 0.0, 0.8], [0.0, -0.6, 0.0, 0.8]],
            }
        );
        let mut wrong = skill.clone();
        wrong.rotation_count = 5;
        let message = animation(&wrong, &files).unwrap_err().to_string();
        assert!(
            message.contains("the skill's counts need 26 floats"),
            "{message}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_skill_without_keys_names_both_files_looked_for() {
        let dir = scratch("none");
        let files = Files::beside(&dir.join("skill.cmx"));
        let message = animation(&skill(Vec::new()), &files)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("xskill-a2o-test.cfp") && message.contains("xskill-a2o-test.bin"),
            "{message}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn motions_that_do_not_fit_their_skill_are_errors_naming_both() {
        let error = |motions| keyed(&skill(motions), &values()).unwrap_err().to_string();
        assert_eq!(
            error(vec![motion("ARM", None, Some(3))]),
            r#"skill "a2o-test": motion "ARM": rotations 3 to 3 + 2 are not all among the skill's 4"#
        );
        assert_eq!(
            error(vec![motion("ROOT", Some(-1), None)]),
            r#"skill "a2o-test": motion "ROOT": translations -1 to -1 + 2 are not all among the skill's 2"#
        );
        let mut short = motion("ARM", None, Some(0));
        short.frame_count = 1;
        assert_eq!(
            error(vec![motion("ROOT", None, Some(0)), short]),
            r#"skill "a2o-test": motion "ARM" has 1 frames where the skill's first motion has 2"#
        );
        let mut zero = values();
        zero.rotations[1] = [0.0; 4];
        assert_eq!(
            keyed(&skill(vec![motion("ROOT", None, Some(0))]), &zero)
                .unwrap_err()
                .to_string(),
            r#"skill "a2o-test": motion "ROOT": the rotation of frame 1 has no direction"#
        );
        let mut long = motion("ROOT", None, Some(0));
        long.frame_count = 1 << 22;
        assert_eq!(
            error(vec![long.clone(), long]),
            r#"skill "a2o-test": its motions and frames need 37748736 values; ossuary keys at most 16777216"#
        );
        let mut huge = skill(Vec::new());
        huge.position_count = i32::MAX;
        assert_eq!(
            animation(&huge, &Files::nowhere()).unwrap_err().to_string(),
            r#"skill "a2o-test": its counts need 6442450957 values; ossuary decodes at most 16777216"#
        );
        let mut negative = skill(Vec::new());
        negative.rotation_count = -4;
        assert_eq!(
            animation(&negative, &Files::nowhere())
                .unwrap_err()
                .to_string(),
            r#"skill "a2o-test": rotation_count -4 is negative"#
        );
    }
}
