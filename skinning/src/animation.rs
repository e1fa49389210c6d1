//! Animations bound to a skeleton: every track's joint found and every
//! key list's length checked once, so that posing a frame is a plain loop.

use formats::rig::{self, JointMotion, Keys, TrackTarget};
use glam::{Affine3A, Quat, Vec3};
use thiserror::Error;

use crate::pose::{JobError, Pose};
use crate::skeleton::{affine, Skeleton};

/// Why an animation does not fit a skeleton, or a frame does not exist.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ClipError {
    #[error("the animation moves joint {name:?}, which the skeleton does not have")]
    UnknownJoint { name: String },
    #[error("track {track} moves joint {index}, but the skeleton has only {count} joints")]
    JointOutOfRange {
        track: usize,
        index: usize,
        count: usize,
    },
    #[error("track {track} ({joint:?}) has {keys} {what}, but the animation has {frames} frames")]
    KeyCount {
        track: usize,
        joint: String,
        what: &'static str,
        keys: usize,
        frames: usize,
    },
    #[error("track {track} ({joint:?}) replaces part of a rest pose given as a whole matrix")]
    PartOfMatrix { track: usize, joint: String },
    #[error("the animation has {tracks} tracks for the joints in order, but the skeleton has {joints} joints")]
    TrackCount { tracks: usize, joints: usize },
    #[error("the animation was made for another hierarchy: its track {track} is at depth {expected} where joint {track} ({joint:?}) is at depth {found} (offset {offset} from track 0)")]
    Hierarchy {
        track: usize,
        joint: String,
        expected: i64,
        found: i64,
        offset: i64,
    },
    #[error("frame {frame} does not exist: the animation has {frames} frames (0 to {last})", last = .frames.saturating_sub(1))]
    NoSuchFrame { frame: usize, frames: usize },
    #[error(transparent)]
    Locals(#[from] JobError),
}

/// A track with its joint resolved and its keys in the math library's types.
#[derive(Debug, Clone, PartialEq)]
struct BoundTrack {
    joint: usize,
    keys: BoundKeys,
}

#[derive(Debug, Clone, PartialEq)]
enum BoundKeys {
    /// A rotation and a translation per frame, the rest's filled in where
    /// the track keys only one of them, so that sampling a frame reads one
    /// entry; none when the track keys neither (the joint stays at rest).
    Parts(Vec<(Quat, Vec3)>),
    Transforms(Vec<Affine3A>),
    /// Whole transforms in model space.
    Model(Vec<Affine3A>),
}

/// Joint motion checked against one skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    frames: usize,
    tracks: Vec<BoundTrack>,
}

impl Clip {
    /// Binds `motion`, whose animation has `frames` frames, to `skeleton`.
    /// Named tracks find their joints by name; indexed ones by position, and
    /// when the motion records the depth pattern it was made for, the
    /// skeleton must have that many joints, in that pattern (up to one
    /// constant offset).
    pub fn bind(
        motion: &JointMotion,
        frames: usize,
        skeleton: &Skeleton,
    ) -> Result<Clip, ClipError> {
        if let Some(pattern) = &motion.depth_pattern {
            check_depths(pattern, skeleton)?;
        }
        let tracks = motion
            .tracks
            .iter()
            .enumerate()
            .map(|(index, track)| bind_track(index, track, frames, skeleton))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Clip { frames, tracks })
    }

    pub fn frames(&self) -> usize {
        self.frames
    }

    /// The joints the tracks drive, each once, in ascending order.
    pub fn joints(&self) -> Vec<usize> {
        let mut joints: Vec<usize> = self.tracks.iter().map(|track| track.joint).collect();
        joints.sort_unstable();
        joints.dedup();
        joints
    }

    /// The skeleton's pose at `frame` (from 0): the rest pose with every
    /// track's joint replaced by its keys. A joint keyed in model space gets
    /// the local transform that puts it there under its parent's posed
    /// transform (parent times local, as the hierarchy composes).
    pub fn pose(&self, skeleton: &Skeleton, frame: usize) -> Result<Pose, ClipError> {
        let mut locals = skeleton.rest_locals().to_vec();
        self.sample(skeleton, frame, &mut locals)?;
        Ok(Pose::from_locals(skeleton, locals)?)
    }

    /// [`Clip::pose`] into the caller's `locals` (one per joint), in
    /// ozz-animation's job style: nothing is allocated unless a track is
    /// keyed in model space.
    pub fn sample(
        &self,
        skeleton: &Skeleton,
        frame: usize,
        locals: &mut [Affine3A],
    ) -> Result<(), ClipError> {
        if frame >= self.frames {
            return Err(ClipError::NoSuchFrame {
                frame,
                frames: self.frames,
            });
        }
        let rest = skeleton.rest_locals();
        if locals.len() != rest.len() {
            return Err(JobError::LengthMismatch {
                slice: "locals",
                expected: rest.len(),
                actual: locals.len(),
            }
            .into());
        }
        locals.copy_from_slice(rest);
        let mut in_model: Vec<Option<Affine3A>> = Vec::new();
        // `bind` checked every key list against the frame count, and
        // `frame` is below it, so every `get` finds its key; a skeleton
        // other than the one bound to may lack a joint, which is skipped.
        for track in &self.tracks {
            let local = match &track.keys {
                BoundKeys::Parts(keys) => keys.get(frame).map(|&(rotation, translation)| {
                    Affine3A::from_rotation_translation(rotation, translation)
                }),
                BoundKeys::Transforms(transforms) => transforms.get(frame).copied(),
                BoundKeys::Model(transforms) => {
                    in_model.resize(skeleton.len(), None);
                    if let Some(slot) = in_model.get_mut(track.joint) {
                        *slot = transforms.get(frame).copied();
                    }
                    continue;
                }
            };
            if let (Some(slot), Some(local)) = (locals.get_mut(track.joint), local) {
                *slot = local;
            }
        }
        if !in_model.is_empty() {
            place_in_model(locals, skeleton, &in_model);
        }
        Ok(())
    }
}

/// Gives each joint with a model-space transform the local one that puts
/// it there, parents first, so a parent's own motion (local or in model
/// space) is known when its children are placed.
fn place_in_model(locals: &mut [Affine3A], skeleton: &Skeleton, in_model: &[Option<Affine3A>]) {
    let mut model = vec![Affine3A::IDENTITY; skeleton.len()];
    for &joint in skeleton.evaluation_order() {
        let joint = joint as usize;
        let parent = skeleton
            .parents()
            .get(joint)
            .copied()
            .flatten()
            .and_then(|parent| model.get(parent as usize).copied());
        let placed = match in_model.get(joint).copied().flatten() {
            Some(target) => {
                if let Some(slot) = locals.get_mut(joint) {
                    *slot = parent.map_or(target, |parent| parent.inverse() * target);
                }
                target
            }
            None => {
                let local = locals.get(joint).copied().unwrap_or(Affine3A::IDENTITY);
                parent.unwrap_or(Affine3A::IDENTITY) * local
            }
        };
        if let Some(slot) = model.get_mut(joint) {
            *slot = placed;
        }
    }
}

fn bind_track(
    index: usize,
    track: &rig::Track,
    frames: usize,
    skeleton: &Skeleton,
) -> Result<BoundTrack, ClipError> {
    let joint = match &track.joint {
        TrackTarget::Name(name) => skeleton
            .find(name)
            .ok_or_else(|| ClipError::UnknownJoint { name: name.clone() })?,
        TrackTarget::Index(joint) if *joint < skeleton.len() => *joint,
        TrackTarget::Index(joint) => {
            return Err(ClipError::JointOutOfRange {
                track: index,
                index: *joint,
                count: skeleton.len(),
            })
        }
    };
    let name = skeleton.names().get(joint).cloned().unwrap_or_default();
    let count = |what: &'static str, keys: usize, optional: bool| {
        if keys == frames || (optional && keys == 0) {
            Ok(())
        } else {
            Err(ClipError::KeyCount {
                track: index,
                joint: name.clone(),
                what,
                keys,
                frames,
            })
        }
    };
    let keys = match &track.keys {
        Keys::Parts {
            translations,
            rotations,
        } => {
            count("translations", translations.len(), true)?;
            count("rotations", rotations.len(), true)?;
            let Some(rig::Transform::TranslationRotation {
                translation,
                rotation,
            }) = skeleton.rest_transforms().get(joint).copied()
            else {
                return Err(ClipError::PartOfMatrix {
                    track: index,
                    joint: name,
                });
            };
            let rotation_at =
                |frame: usize| Quat::from_array(rotations.get(frame).copied().unwrap_or(rotation));
            let translation_at = |frame: usize| {
                Vec3::from_array(translations.get(frame).copied().unwrap_or(translation))
            };
            // A track with no keys at all leaves its joint at rest and
            // stores nothing: filling it would cost memory the file never
            // spent.
            let keyed = if translations.is_empty() && rotations.is_empty() {
                0
            } else {
                frames
            };
            BoundKeys::Parts(
                (0..keyed)
                    .map(|frame| (rotation_at(frame), translation_at(frame)))
                    .collect(),
            )
        }
        Keys::Transforms(transforms) => {
            count("transforms", transforms.len(), false)?;
            BoundKeys::Transforms(transforms.iter().map(affine).collect())
        }
        Keys::ModelTransforms(transforms) => {
            count("transforms", transforms.len(), false)?;
            BoundKeys::Model(transforms.iter().map(affine).collect())
        }
    };
    Ok(BoundTrack { joint, keys })
}

/// Track k drives joint k; the recorded depths must equal the skeleton's
/// up to the offset between the first two.
fn check_depths(pattern: &[i64], skeleton: &Skeleton) -> Result<(), ClipError> {
    if pattern.len() != skeleton.len() {
        return Err(ClipError::TrackCount {
            tracks: pattern.len(),
            joints: skeleton.len(),
        });
    }
    let depths = skeleton.depths();
    let offset = match (pattern.first(), depths.first()) {
        (Some(&recorded), Some(&depth)) => recorded - i64::from(depth),
        _ => return Ok(()),
    };
    for (track, (&recorded, &depth)) in pattern.iter().zip(&depths).enumerate() {
        if recorded - i64::from(depth) != offset {
            return Err(ClipError::Hierarchy {
                track,
                joint: skeleton.names().get(track).cloned().unwrap_or_default(),
                expected: recorded - offset,
                found: i64::from(depth),
                offset,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;

    use rig::{Axes, Joint, Track, Transform};

    use super::*;

    /// ROOT at the origin, ARM 1 along x from it.
    fn arm() -> Skeleton {
        let joint = |name: &str, parent, translation| Joint {
            name: name.to_owned(),
            parent,
            rest: Transform::TranslationRotation {
                translation,
                rotation: [0.0, 0.0, 0.0, 1.0],
            },
        };
        Skeleton::new(&rig::Skeleton {
            joints: vec![
                joint("ROOT", None, [0.0; 3]),
                joint("ARM", Some(0), [1.0, 0.0, 0.0]),
            ],
            axes: Axes::RightHandedYUp,
        })
        .unwrap()
    }

    fn motion(tracks: Vec<Track>) -> JointMotion {
        JointMotion {
            tracks,
            depth_pattern: None,
        }
    }

    #[test]
    fn a_rotation_track_turns_its_joint_and_keeps_the_rest_translation() {
        let skeleton = arm();
        let quarter = Quat::from_rotation_z(FRAC_PI_2).to_array();
        let clip = Clip::bind(
            &motion(vec![Track {
                joint: TrackTarget::Name("ROOT".to_owned()),
                keys: Keys::Parts {
                    translations: Vec::new(),
                    rotations: vec![[0.0, 0.0, 0.0, 1.0], quarter],
                },
            }]),
            2,
            &skeleton,
        )
        .unwrap();
        let arm_at = |frame| {
            let model = clip
                .pose(&skeleton, frame)
                .unwrap()
                .model_matrices(&skeleton)
                .unwrap();
            Vec3::from(model[1].translation)
        };
        assert_eq!(clip.joints(), vec![0]);
        assert!(arm_at(0).abs_diff_eq(Vec3::X, 1e-6));
        // By hand: the root's quarter turn about z takes the arm's (1,0,0) to (0,1,0).
        assert!(arm_at(1).abs_diff_eq(Vec3::Y, 1e-6));
        assert_eq!(
            clip.pose(&skeleton, 2).unwrap_err().to_string(),
            "frame 2 does not exist: the animation has 2 frames (0 to 1)"
        );
    }

    #[test]
    fn a_joint_keyed_in_model_space_lands_there_and_carries_its_children() {
        // ROOT, ARM 1 along x from it, HAND 1 along x from the arm.
        let joint = |name: &str, parent| Joint {
            name: name.to_owned(),
            parent,
            rest: Transform::TranslationRotation {
                translation: [1.0, 0.0, 0.0],
                rotation: [0.0, 0.0, 0.0, 1.0],
            },
        };
        let skeleton = Skeleton::new(&rig::Skeleton {
            joints: vec![
                joint("ROOT", None),
                joint("ARM", Some(0)),
                joint("HAND", Some(1)),
            ],
            axes: Axes::RightHandedYUp,
        })
        .unwrap();
        let quarter = Quat::from_rotation_z(FRAC_PI_2).to_array();
        // The root turns a quarter about z in its own frame; the arm is put
        // at (0, 2, 0), turned a quarter about z too, in model space.
        let clip = Clip::bind(
            &motion(vec![
                Track {
                    joint: TrackTarget::Index(1),
                    keys: Keys::ModelTransforms(vec![Transform::TranslationRotation {
                        translation: [0.0, 2.0, 0.0],
                        rotation: quarter,
                    }]),
                },
                Track {
                    joint: TrackTarget::Index(0),
                    keys: Keys::Transforms(vec![Transform::TranslationRotation {
                        translation: [1.0, 0.0, 0.0],
                        rotation: quarter,
                    }]),
                },
            ]),
            1,
            &skeleton,
        )
        .unwrap();
        let model = clip
            .pose(&skeleton, 0)
            .unwrap()
            .model_matrices(&skeleton)
            .unwrap();
        let at = |joint: usize| Vec3::from(model[joint].translation);
        assert!(at(0).abs_diff_eq(Vec3::X, 1e-6), "{:?}", at(0));
        assert!(
            at(1).abs_diff_eq(Vec3::new(0.0, 2.0, 0.0), 1e-6),
            "{:?}",
            at(1)
        );
        // By hand: the hand's (1, 0, 0) turned a quarter about z is (0, 1, 0).
        assert!(
            at(2).abs_diff_eq(Vec3::new(0.0, 3.0, 0.0), 1e-6),
            "{:?}",
            at(2)
        );
    }

    #[test]
    fn tracks_that_do_not_fit_are_errors() {
        let skeleton = arm();
        let rotations = |count| Keys::Parts {
            translations: Vec::new(),
            rotations: vec![[0.0, 0.0, 0.0, 1.0]; count],
        };
        let error = Clip::bind(
            &motion(vec![Track {
                joint: TrackTarget::Name("TAIL".to_owned()),
                keys: rotations(3),
            }]),
            3,
            &skeleton,
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"the animation moves joint "TAIL", which the skeleton does not have"#
        );
        let error = Clip::bind(
            &motion(vec![Track {
                joint: TrackTarget::Index(1),
                keys: rotations(2),
            }]),
            3,
            &skeleton,
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"track 0 ("ARM") has 2 rotations, but the animation has 3 frames"#
        );
        assert!(matches!(
            Clip::bind(
                &motion(vec![Track {
                    joint: TrackTarget::Index(2),
                    keys: rotations(3),
                }]),
                3,
                &skeleton,
            ),
            Err(ClipError::JointOutOfRange { index: 2, .. })
        ));
    }

    #[test]
    fn sampling_into_kept_locals_gives_the_pose_and_checks_their_length() {
        let skeleton = arm();
        let quarter = Quat::from_rotation_z(FRAC_PI_2).to_array();
        let clip = Clip::bind(
            &motion(vec![
                Track {
                    joint: TrackTarget::Name("ARM".to_owned()),
                    keys: Keys::Parts {
                        translations: vec![[0.0, 2.0, 0.0], [0.0, 3.0, 0.0]],
                        rotations: Vec::new(),
                    },
                },
                // Keys neither part: the joint stays at rest.
                Track {
                    joint: TrackTarget::Name("ROOT".to_owned()),
                    keys: Keys::Parts {
                        translations: Vec::new(),
                        rotations: Vec::new(),
                    },
                },
                Track {
                    joint: TrackTarget::Index(0),
                    keys: Keys::Parts {
                        translations: Vec::new(),
                        rotations: vec![quarter, quarter],
                    },
                },
            ]),
            2,
            &skeleton,
        )
        .unwrap();
        let mut locals = vec![Affine3A::IDENTITY; 2];
        for frame in 0..2 {
            clip.sample(&skeleton, frame, &mut locals).unwrap();
            assert_eq!(locals, clip.pose(&skeleton, frame).unwrap().locals());
        }
        // By hand, frame 1: the arm at (0, 3, 0) with no turn; the root
        // turned a quarter at its rest place (the origin).
        assert!(Vec3::from(locals[1].translation).abs_diff_eq(Vec3::new(0.0, 3.0, 0.0), 1e-6));
        assert!(locals[0]
            .transform_vector3(Vec3::X)
            .abs_diff_eq(Vec3::Y, 1e-6));
        assert_eq!(
            clip.sample(&skeleton, 0, &mut locals[..1])
                .unwrap_err()
                .to_string(),
            "locals has 1 entries, but the skeleton has 2 joints"
        );
    }

    #[test]
    fn a_depth_pattern_binds_only_to_the_same_hierarchy() {
        let skeleton = arm();
        let with_pattern = |pattern: Vec<i64>| JointMotion {
            tracks: Vec::new(),
            depth_pattern: Some(pattern),
        };
        // Depths 1, 2 with any constant offset.
        assert!(Clip::bind(&with_pattern(vec![0, 1]), 1, &skeleton).is_ok());
        assert!(Clip::bind(&with_pattern(vec![5, 6]), 1, &skeleton).is_ok());
        assert!(matches!(
            Clip::bind(&with_pattern(vec![1, 1]), 1, &skeleton),
            Err(ClipError::Hierarchy { track: 1, .. })
        ));
        assert!(matches!(
            Clip::bind(&with_pattern(vec![1, 2, 3]), 1, &skeleton),
            Err(ClipError::TrackCount {
                tracks: 3,
                joints: 2
            })
        ));
    }
}
