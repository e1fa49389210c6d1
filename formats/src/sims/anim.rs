//! The Sims Online animation (`.anim`): a skill's header, its keys and its
//! motions in one file.

use serde::{Deserialize, Serialize};

use super::skel::PropertyList;
use crate::files::Files;
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, JointMotion, Keys, Rig, RigError, Track, TrackTarget};
use crate::schema::{Count, Encode, Endian, RawString, Refusal, Segment, SizeOutput};
use crate::Schema;

/// The Sims Online animation (`.anim`): integers big-endian and floats
/// little-endian, as in `.skel`. A header (version, name, duration,
/// distance, a moving flag), the translations and rotations every motion
/// shares, then one motion per bone it moves.
///
/// A motion keys its bone for `frame_count` frames: frame `f` is entry
/// `first_translation + f` of the translations and `first_rotation + f` of
/// the rotations, when the motion uses them. A range past its list is an
/// error at the motion's offset field. A key replaces the bone's rest
/// translation or rotation; rotations act as their conjugates, as a
/// `.skel`'s rest rotations do, and are normalized for posing.
///
/// A motion may carry property lists and time-stamped property lists: the
/// animation's events (`dress` and `undress` an accessory, play a sound, a
/// footstep), kept as data.
///
/// Frame `f` plays at `f × duration / frames` seconds: FreeSO's files store
/// the duration in seconds (124 frames over 3.44 s), 36 frames a second,
/// the rate a duration of 0 (or none that is a time) plays at.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Anim {
    /// Format version; 2 in every known file. Kept as data: the readers
    /// read no other layout, and FreeSO ignores it.
    pub version: u32,
    /// The animation's name, e.g. `a2o-kart-ride`: a u16 length, then the
    /// bytes.
    #[schema(with = long_pascal)]
    pub name: RawString,
    /// How long the animation lasts (seconds in FreeSO's files).
    #[schema(little)]
    pub duration: f32,
    /// How far the animation moves the character.
    #[schema(little)]
    pub distance: f32,
    /// Non-zero when the animation moves the character (kept as stored).
    pub moving: u8,
    /// How many translations.
    #[serde(skip)]
    pub translation_count: Count<u32>,
    /// Every motion's translation keys (x, y, z).
    #[schema(little, count = translation_count)]
    pub translations: Vec<[f32; 3]>,
    /// How many rotations.
    #[serde(skip)]
    pub rotation_count: Count<u32>,
    /// Every motion's rotation keys, quaternions (x, y, z, w) acting as
    /// their conjugates.
    #[schema(little, count = rotation_count)]
    pub rotations: Vec<[f32; 4]>,
    /// One motion per bone the animation moves; each used range of keys
    /// lies within its list.
    #[schema(prefix = u32, check = motions_within_the_lists(translations, rotations))]
    pub motions: Vec<Motion>,
}

/// One bone's keys and events.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Motion {
    /// Unknown; 0 in FreeSO's files, 1 where ts1-blender-io writes it.
    /// Kept as data.
    pub unknown: u32,
    /// The bone the motion moves, e.g. `R_HAND`.
    #[schema(pascal)]
    pub bone: RawString,
    /// How many frames the motion keys.
    pub frame_count: u32,
    /// How long the motion lasts (as the animation's duration).
    #[schema(little)]
    pub duration: f32,
    /// Non-zero when the motion keys translations.
    pub uses_translations: u8,
    /// Non-zero when the motion keys rotations.
    pub uses_rotations: u8,
    /// The motion's first entry in the translations.
    pub first_translation: u32,
    /// The motion's first entry in the rotations.
    pub first_rotation: u32,
    /// Non-zero when property lists follow (ts1-blender-io's reading;
    /// FreeSO's reads them only after a 1). Kept as data, so any non-zero
    /// value comes back as it was.
    pub has_properties: u8,
    /// Lists of key/value properties.
    #[schema(present_if = has_properties, prefix = u32)]
    pub property_lists: Option<Vec<PropertyList>>,
    /// Non-zero when time-stamped property lists follow.
    pub has_events: u8,
    /// The motion's events: lists of time-stamped property lists.
    #[schema(present_if = has_events, prefix = u32)]
    pub event_lists: Option<Vec<EventList>>,
}

/// A list of events.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct EventList {
    /// The events, in file order.
    #[schema(prefix = u32)]
    pub events: Vec<Event>,
}

/// Property lists that take effect at a time in the motion.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Event {
    /// When, as the file stores it (FreeSO's broom flight dresses the
    /// broom at 1 and undresses it at 8756).
    pub time: u32,
    /// What happens, e.g. `dress` = `fso-broom-handr`.
    #[schema(prefix = u32)]
    pub property_lists: Vec<PropertyList>,
}

/// Every motion's used ranges `[first, first + frame_count)` lie within
/// the translations and the rotations. A refusal names the motion's offset
/// field and points at its bytes.
fn motions_within_the_lists(
    motions: &[Motion],
    translations: &[[f32; 3]],
    rotations: &[[f32; 4]],
) -> Result<(), Refusal> {
    // The motions' bytes start after their u32 count.
    let mut start = 4u64;
    for (index, motion) in motions.iter().enumerate() {
        // unknown (4), the bone (1 + its bytes), frame_count (4),
        // duration (4), the two flags (1 each).
        let first_translation = start + 15 + motion.bone.as_bytes().len() as u64;
        let ranges = [
            (
                motion.uses_translations,
                motion.first_translation,
                translations.len(),
                "first_translation",
                "translations",
                first_translation,
            ),
            (
                motion.uses_rotations,
                motion.first_rotation,
                rotations.len(),
                "first_rotation",
                "rotations",
                first_translation + 4,
            ),
        ];
        for (used, first, len, field, list, offset) in ranges {
            let end = u64::from(first) + u64::from(motion.frame_count);
            if used != 0 && end > len as u64 {
                return Err(Refusal::at_element(
                    index,
                    format!(
                        "entries {first} to {end} (its {} frames) are not all among the {len} {list}",
                        motion.frame_count
                    ),
                )
                .inside([Segment::Field(field)])
                .bytes_in(offset));
            }
        }
        let mut size = SizeOutput::default();
        motion
            .encode_output(&mut size, Endian::Big, &())
            .map_err(|error| Refusal::at_element(index, error.to_string()))?;
        start += size.counted();
    }
    Ok(())
}

/// The rate FreeSO's animations are made at (124 frames over 3.44 s).
const FRAMES_PER_SECOND: f32 = 36.0;

/// A string of a u16 length, then the bytes.
mod long_pascal {
    use std::io::{Read, Seek, Write};

    use crate::schema::io::read_bytes;
    use crate::schema::{Decode, Encode, Endian, Error, ErrorKind, RawString};

    pub fn read<R: Read + Seek>(reader: &mut R, endian: Endian) -> Result<RawString, Error> {
        let length = u16::decode(reader, endian, &())?;
        read_bytes(reader, u64::from(length)).map(RawString)
    }

    pub fn write<W: Write + Seek>(
        name: &RawString,
        writer: &mut W,
        endian: Endian,
    ) -> Result<(), Error> {
        let bytes = name.as_bytes();
        let length = u16::try_from(bytes.len()).map_err(|_| {
            Error::new(ErrorKind::TooLong {
                len: bytes.len(),
                count_type: "u16",
                max: u64::from(u16::MAX),
            })
        })?;
        length.encode(writer, endian, &())?;
        writer
            .write_all(bytes)
            .map_err(|error| Error::new(ErrorKind::Io(error)))
    }

    #[cfg(test)]
    pub fn strategy() -> crate::schema::testing::proptest::strategy::BoxedStrategy<RawString> {
        crate::schema::testing::pascal_string()
    }
}

impl Anim {
    /// Every event of every motion.
    fn events(&self) -> impl Iterator<Item = &Event> {
        self.motions
            .iter()
            .flat_map(|motion| motion.event_lists.iter().flatten())
            .flat_map(|list| &list.events)
    }

    /// The animation as neutral rig data; see the type's documentation for
    /// the conventions. It lasts as long as its longest motion that uses
    /// keys (a motion using none poses nothing, whatever its frame count
    /// says), and a shorter motion holds its last key.
    pub fn animation(&self) -> Result<rig::Animation, RigError> {
        let keyed_motions = self
            .motions
            .iter()
            .filter(|motion| motion.uses_translations != 0 || motion.uses_rotations != 0);
        // The reader has checked that each used range lies within its list,
        // so the frames are at most the longer list's length.
        let frames = keyed_motions
            .clone()
            .map(|motion| motion.frame_count)
            .max()
            .unwrap_or(0);
        // Held keys could still make the tracks far larger than the file
        // (many short motions beside one long one): every known animation
        // keys each motion's frames with keys of its own, so the keyed
        // frames stay within the keys the file holds, plus a margin.
        let keyed = (keyed_motions.count() as u64).saturating_mul(u64::from(frames));
        let available = self.translations.len() as u64 + self.rotations.len() as u64;
        if keyed > available + (1 << 16) {
            return Err(RigError::Invalid(format!(
                "the motions would key {keyed} bone-frames from the {available} keys the file holds"
            )));
        }
        let frames = frames as usize;
        let tracks = self
            .motions
            .iter()
            .enumerate()
            .map(|(index, motion)| self.track(index, motion, frames))
            .collect::<Result<Vec<_>, _>>()?;
        // A duration that gives no time (0 in the one-frame kart ride)
        // plays at the rate of FreeSO's files, so that frames still follow
        // one another.
        let step = if frames > 0 && self.duration.is_finite() && self.duration > 0.0 {
            self.duration / frames as f32
        } else {
            1.0 / FRAMES_PER_SECOND
        };
        Ok(rig::Animation {
            name: self.name.to_text(),
            times: (0..frames).map(|frame| frame as f32 * step).collect(),
            motion: rig::Motion::Joints(JointMotion {
                tracks,
                depth_pattern: None,
            }),
            end: Some(rig::End::Holds {
                seconds: frames as f32 * step,
            }),
            events: self.rig_events(),
        })
    }

    /// Every motion's events as rig data, each property list's pairs
    /// together.
    fn rig_events(&self) -> Vec<rig::Event> {
        self.motions
            .iter()
            .flat_map(|motion| {
                let events = motion
                    .event_lists
                    .iter()
                    .flatten()
                    .flat_map(|list| &list.events);
                events.map(|event| rig::Event {
                    joint: motion.bone.to_text(),
                    time: event.time,
                    properties: event
                        .property_lists
                        .iter()
                        .flat_map(|list| &list.properties)
                        .map(|property| (property.key.to_text(), property.value.to_text()))
                        .collect(),
                })
            })
            .collect()
    }

    /// One motion's keys for `frames` frames, bound to its bone by name.
    fn track(&self, index: usize, motion: &Motion, frames: usize) -> Result<Track, RigError> {
        let invalid = |what: &str, message: String| {
            RigError::Invalid(format!("motions[{index}].{what}: {message}"))
        };
        let translations = if motion.uses_translations != 0 {
            held(
                &self.translations,
                motion.first_translation,
                motion.frame_count,
                frames,
            )
            .map_err(|message| invalid("first_translation", message))?
        } else {
            Vec::new()
        };
        let rotations = if motion.uses_rotations != 0 {
            held(
                &self.rotations,
                motion.first_rotation,
                motion.frame_count,
                frames,
            )
            .map_err(|message| invalid("first_rotation", message))?
            .into_iter()
            .enumerate()
            .map(|(frame, rotation)| {
                conjugate_normalized(rotation).ok_or_else(|| {
                    invalid(
                        "first_rotation",
                        format!("the rotation of frame {frame} has no direction"),
                    )
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
}

/// Entries `first` to `first + count - 1` of `list`, the last repeated up
/// to `frames` entries.
fn held<T: Copy>(list: &[T], first: u32, count: u32, frames: usize) -> Result<Vec<T>, String> {
    let start = first as usize;
    let keys = start
        .checked_add(count as usize)
        .and_then(|end| list.get(start..end))
        .ok_or_else(|| {
            format!(
                "entries {first} to {first} + {count} are not all among the {}",
                list.len()
            )
        })?;
    let Some(&last) = keys.last() else {
        return Ok(Vec::new());
    };
    let mut held = keys.to_vec();
    held.resize(frames.max(keys.len()), last);
    Ok(held)
}

/// The stored quaternion's conjugate at unit length: the rotation it acts
/// as. `None` for a quaternion of length 0 (or not finite).
fn conjugate_normalized([x, y, z, w]: [f32; 4]) -> Option<[f32; 4]> {
    let length = (x * x + y * y + z * z + w * w).sqrt();
    (length.is_finite() && length > 0.0)
        .then(|| [-x / length, -y / length, -z / length, w / length])
}

impl Describe for Anim {
    fn describe(&self) -> Description {
        let frames = self
            .motions
            .iter()
            .map(|motion| motion.frame_count)
            .max()
            .unwrap_or(0);
        Description {
            facts: vec![
                ("name", self.name.to_string()),
                ("version", self.version.to_string()),
                ("duration", self.duration.to_string()),
                ("frames", frames.to_string()),
                ("motions", self.motions.len().to_string()),
                ("translations", self.translations.len().to_string()),
                ("rotations", self.rotations.len().to_string()),
                ("events", self.events().count().to_string()),
            ],
            joints: Vec::new(),
        }
    }
}

impl Rig for Anim {
    fn animations(&self, _: &Files) -> Option<Result<Vec<rig::Animation>, RigError>> {
        Some(self.animation().map(|animation| vec![animation]))
    }
}

/// The `.anim` registration. Its version (2) is the TSO `.mesh`'s too:
/// found by extension only.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "a2o-humanoid-wave.anim",
            document: format::binary_document(wave()),
        }]
    },
    ..Format::binary::<Anim>("tso-anim", "The Sims Online animation", &["anim"], |_| {
        false
    })
};

/// The humanoid (`.skel`'s sample) raising its left arm over four frames,
/// with a sound event on its first frame: the synthetic sample.
pub fn wave() -> Anim {
    // A turn about z of 0, 30, 60 and 90 degrees, stored as the game
    // stores it (the conjugate of the turn it makes).
    let rotations: Vec<[f32; 4]> = (0..4)
        .map(|step| {
            let half = (step as f32 * 30.0_f32).to_radians() / 2.0;
            [0.0, 0.0, -half.sin(), half.cos()]
        })
        .collect();
    let event = |time: u32, key: &str, value: &str| Event {
        time,
        property_lists: vec![PropertyList {
            properties: vec![super::skel::Property {
                key: RawString::from(key),
                value: RawString::from(value),
            }],
        }],
    };
    let motion = |bone: &str, translations: bool, first_rotation: u32| Motion {
        unknown: 0,
        bone: RawString::from(bone),
        frame_count: 4,
        duration: 0.1,
        uses_translations: u8::from(translations),
        uses_rotations: 1,
        first_translation: 0,
        first_rotation,
        has_properties: 0,
        property_lists: None,
        has_events: 0,
        event_lists: None,
    };
    let mut arm = motion("L_ARM", false, 0);
    arm.has_events = 1;
    arm.event_lists = Some(vec![EventList {
        events: vec![
            event(0, "sound", "wave_whoosh"),
            event(75, "footstep", "left"),
        ],
    }]);
    let mut root = motion("ROOT", true, 4);
    root.has_properties = 1;
    root.property_lists = Some(vec![PropertyList {
        properties: vec![super::skel::Property {
            key: RawString::from("name"),
            value: RawString::from("wave"),
        }],
    }]);
    Anim {
        version: 2,
        name: RawString::from("a2o-humanoid-wave"),
        duration: 0.1,
        distance: 0.0,
        moving: 0,
        translation_count: Count::default(),
        translations: vec![[0.0, 3.0, 0.0]; 4],
        rotation_count: Count::default(),
        rotations: rotations
            .into_iter()
            .chain(std::iter::repeat_n([0.0, 0.0, 0.0, 1.0], 4))
            .collect(),
        motions: vec![arm, root],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A track's bone, translations and rotations.
    type Parts = (String, Vec<[f32; 3]>, Vec<[f32; 4]>);

    fn keys(animation: &rig::Animation) -> Vec<Parts> {
        let rig::Motion::Joints(motion) = &animation.motion else {
            panic!("joint motion expected");
        };
        motion
            .tracks
            .iter()
            .map(|track| match (&track.joint, &track.keys) {
                (
                    TrackTarget::Name(name),
                    Keys::Parts {
                        translations,
                        rotations,
                    },
                ) => (name.clone(), translations.clone(), rotations.clone()),
                other => panic!("named parts expected, found {other:?}"),
            })
            .collect()
    }

    #[test]
    fn keys_are_conjugated_normalized_and_a_shorter_motion_holds_its_last() {
        let mut anim = wave();
        anim.rotations[5] = [0.0, 0.0, 0.0, 2.0];
        anim.motions[1].frame_count = 2;
        let animation = anim.animation().unwrap();
        assert_eq!(animation.times.len(), 4);
        assert!((animation.times[3] - 0.075).abs() < 1e-6);
        let tracks = keys(&animation);
        let (name, translations, rotations) = &tracks[0];
        assert_eq!(name, "L_ARM");
        assert!(translations.is_empty());
        // Stored (0, 0, -sin 45°, cos 45°): a turn of +90° about z.
        let [x, y, z, w] = rotations[3];
        assert_eq!([x, y], [0.0, 0.0]);
        assert!((z - 0.70710677).abs() < 1e-6 && (w - 0.70710677).abs() < 1e-6);
        let (name, translations, rotations) = &tracks[1];
        assert_eq!(name, "ROOT");
        assert_eq!(translations.len(), 4);
        assert_eq!(rotations[1], [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(rotations[3], rotations[1], "held after its two frames");
    }

    #[test]
    fn a_duration_of_0_plays_at_36_frames_a_second() {
        let mut anim = wave();
        anim.duration = 0.0;
        let animation = anim.animation().unwrap();
        assert!((animation.times[1] - 1.0 / 36.0).abs() < 1e-7);
        assert_eq!(
            animation.end,
            Some(rig::End::Holds {
                seconds: 4.0 / 36.0
            })
        );
    }

    #[test]
    fn held_keys_past_the_keys_held_are_refused() {
        let mut anim = wave();
        let short = anim.motions[0].clone();
        anim.translations = vec![[0.0; 3]; 70_000];
        anim.motions[1].frame_count = 70_000;
        anim.motions[1].uses_rotations = 0;
        anim.motions.extend(std::iter::repeat_n(short, 3));
        let error = anim.animation().unwrap_err().to_string();
        assert!(error.contains("would key 350000 bone-frames"), "{error}");
    }
}
