//! Outcast animation (`.oan`).

use glam::Quat;
use serde::{Deserialize, Serialize};

use crate::files::Files;
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, JointMotion, Keys, Motion, Rig, RigError, Track, TrackTarget};
use crate::schema::Count;
use crate::Schema;

/// An Outcast animation, in ossuary's layout (its fields are known but not
/// their byte widths; little-endian): a u32 frame count, a
/// u32 count of records per frame, then the frames.
///
/// Record k of a frame animates joint k of the skeleton. Its angles replace
/// the joint's rest rotation with `R = R_X(x) * R_Y(y) * R_Z(z)` in
/// row-vector math (X applied first, each a turn by the right-hand rule),
/// the joint's rest position kept. The index column repeats the depth
/// indices of the skeleton the animation was made for, up to one constant
/// offset: an animation binds only to a skeleton with that depth pattern
/// and as many joints as records. The files state no frame rate;
/// ossuary plays 25 frames per second.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Animation {
    /// The number of frames.
    #[serde(skip)]
    pub frame_count: Count<u32>,
    /// Records in every frame: data, stated even by a file without frames.
    pub records_per_frame: u32,
    /// The frames, in playing order.
    #[schema(count = frame_count, context(record_count = records_per_frame))]
    pub frames: Vec<Frame>,
}

/// One frame: a record per joint, as many as the animation's header says.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, context(record_count: u32))]
pub struct Frame {
    /// One record per joint, in joint order.
    #[schema(count = record_count)]
    pub records: Vec<Record>,
}

/// One joint's rotation in one frame.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Record {
    /// The joint's depth index in the skeleton the animation was made for,
    /// up to a constant offset.
    pub index: i32,
    /// Fixed-point angles about x, y and z: 65536 is one full turn.
    pub angles: [i16; 3],
}

/// Frames per second: the files state none.
pub const FRAME_RATE: f32 = 25.0;

/// One full turn in the angles' fixed point.
const FULL_TURN: f32 = 65_536.0;

/// A record's angles as a column-vector quaternion: row-vector
/// `R_X(x) * R_Y(y) * R_Z(z)` applies X first, so in column-vector terms
/// the rotation is `Rz * Ry * Rx`.
pub fn rotation(angles: [i16; 3]) -> Quat {
    let [x, y, z] = angles.map(|angle| f32::from(angle) / FULL_TURN * std::f32::consts::TAU);
    Quat::from_rotation_z(z) * Quat::from_rotation_y(y) * Quat::from_rotation_x(x)
}

impl Animation {
    /// The index column every frame repeats; `None` without frames. Frames
    /// whose columns differ are an error naming the first difference.
    pub fn index_column(&self) -> Result<Option<Vec<i32>>, RigError> {
        let Some(first) = self.frames.first() else {
            return Ok(None);
        };
        let column: Vec<i32> = first.records.iter().map(|record| record.index).collect();
        for (frame_index, frame) in self.frames.iter().enumerate().skip(1) {
            let differing = frame
                .records
                .iter()
                .zip(&column)
                .position(|(record, &index)| record.index != index);
            if let Some(record) = differing {
                return Err(RigError::Invalid(format!(
                    "frames[{frame_index}].records[{record}].index differs from frame 0's: \
                     every frame must animate the same joints"
                )));
            }
        }
        Ok(Some(column))
    }
}

impl Describe for Animation {
    fn describe(&self) -> Description {
        Description {
            facts: vec![
                ("frames", self.frames.len().to_string()),
                ("records per frame", self.records_per_frame.to_string()),
            ],
            joints: Vec::new(),
        }
    }
}

impl Rig for Animation {
    /// One animation: track k turns joint k (rotations only, the rest
    /// translation kept), bound to skeletons by the index column's depths.
    /// The tracks are as many as the frames' records: a file without
    /// frames turns no joint, whatever records per frame it states (8
    /// bytes may state 2^32 - 1).
    fn animations(&self, _: &Files) -> Option<Result<Vec<rig::Animation>, RigError>> {
        let column = match self.index_column() {
            Ok(column) => column,
            Err(error) => return Some(Err(error)),
        };
        let joints = self.frames.first().map_or(0, |frame| frame.records.len());
        let tracks = (0..joints)
            .map(|joint| Track {
                joint: TrackTarget::Index(joint),
                keys: Keys::Parts {
                    translations: Vec::new(),
                    rotations: self
                        .frames
                        .iter()
                        .filter_map(|frame| frame.records.get(joint))
                        .map(|record| rotation(record.angles).to_array())
                        .collect(),
                },
            })
            .collect();
        Some(Ok(vec![rig::Animation {
            end: None,
            events: Vec::new(),
            name: "animation".to_owned(),
            times: (0..self.frames.len())
                .map(|frame| frame as f32 / FRAME_RATE)
                .collect(),
            motion: Motion::Joints(JointMotion {
                tracks,
                depth_pattern: column.map(|column| column.into_iter().map(i64::from).collect()),
            }),
        }]))
    }
}

/// The `.oan` registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "biped-wave.oan",
            document: format::binary_document(biped_wave()),
        }]
    },
    ..Format::binary::<Animation>(
        "outcast-animation",
        "Outcast animation",
        &["oan"],
        // No magic: the counts must describe exactly the file's length.
        |bytes| {
            let word = |at: usize| {
                bytes
                    .get(at..at + 4)
                    .and_then(|word| <[u8; 4]>::try_from(word).ok())
                    .map(|word| u64::from(u32::from_le_bytes(word)))
            };
            let length = match (word(0), word(4)) {
                (Some(frames), Some(records)) => frames
                    .checked_mul(records)
                    .filter(|&count| count > 0)
                    .and_then(|count| count.checked_mul(10))
                    .and_then(|length| length.checked_add(8)),
                _ => None,
            };
            length == Some(bytes.len() as u64)
        },
    )
};

/// Four frames for the biped: the right arm lifts and waves, the left knee
/// bends. The index column is the biped's depths less one, as most known
/// Outcast animations start at 0.
pub fn biped_wave() -> Animation {
    let biped = super::skeleton::biped();
    let quarter = 16_384i16;
    let frames = (0..4i16)
        .map(|frame| Frame {
            records: biped
                .joints
                .iter()
                .map(|joint| {
                    let angles = match joint.name.to_text().as_str() {
                        "RT_SHOULDER" => [0, 0, -quarter / 2 * (frame % 2 + 1)],
                        "RT_ELBOW" => [0, 0, -quarter / 4 * frame],
                        "LF_KNEE" => [quarter / 3, 0, 0],
                        _ => [0, 0, 0],
                    };
                    Record {
                        index: joint.depth - 1,
                        angles,
                    }
                })
                .collect(),
        })
        .collect();
    Animation {
        frame_count: Count::new(),
        records_per_frame: biped.joints.len() as u32,
        frames,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::BinarySchema;
    use glam::Vec3;

    #[test]
    fn angles_turn_x_first_then_y_then_z() {
        let quarter = 16_384;
        // By hand: x then y quarter turns take +y to +z (about x), then +z
        // to +x (about y).
        let turned = rotation([quarter, quarter, 0]) * Vec3::Y;
        assert!(turned.abs_diff_eq(Vec3::X, 1e-6), "{turned:?}");
        assert!((rotation([0, 0, quarter]) * Vec3::X).abs_diff_eq(Vec3::Y, 1e-6));
    }

    /// A fuzz finding: an 8-byte file without frames stating 12,977,152
    /// records per frame made as many empty tracks (924 MB).
    #[test]
    fn a_file_without_frames_has_no_tracks_whatever_it_states() {
        let animation = Animation::from_bytes(&[0, 0, 0, 0, 0, 4, 0xC6, 0]).unwrap();
        assert_eq!(animation.records_per_frame, 12_977_152);
        let animations = animation.animations(&Files::nowhere()).unwrap().unwrap();
        let [only] = animations.as_slice() else {
            panic!("one animation, not {}", animations.len());
        };
        assert!(only.times.is_empty());
        let Motion::Joints(motion) = &only.motion else {
            panic!("joint motion");
        };
        assert!(motion.tracks.is_empty());
    }

    #[test]
    fn every_joint_of_the_frames_has_a_track() {
        let wave = biped_wave();
        let animations = wave.animations(&Files::nowhere()).unwrap().unwrap();
        let Motion::Joints(motion) = &animations[0].motion else {
            panic!("joint motion");
        };
        assert_eq!(motion.tracks.len(), wave.records_per_frame as usize);
        assert_eq!(animations[0].times.len(), wave.frames.len());
    }

    #[test]
    fn frames_must_animate_the_same_joints() {
        let mut animation = biped_wave();
        animation.frames[2].records[3].index = 9;
        assert_eq!(
            animation.index_column().unwrap_err().to_string(),
            "frames[2].records[3].index differs from frame 0's: every frame must animate the \
             same joints"
        );
    }
}
