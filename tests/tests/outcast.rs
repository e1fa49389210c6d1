//! Outcast: golden bytes written by hand from ossuary's layout (little-endian:
//! skeleton = u32 joint count, per joint i32 depth, NUL-terminated name,
//! f32x3 position, f32x9 rotation; animation = u32 frame count, u32 records
//! per frame, per record i32 index and i16 x, y, z), the errors of damaged
//! files, and the source document's example pairs of skeletons and
//! animations, which bind or are refused as the document lists them.

use formats::files::Files;
use formats::outcast::animation::{Animation, Frame, Record};
use formats::outcast::skeleton::{Joint, Skeleton};
use formats::rig::{Motion, Rig, RigOptions};
use formats::schema::{BinarySchema, Count, RawString};
use skinning::{Clip, ClipError};

#[rustfmt::skip]
const SKELETON: &[u8] = &[
    0x02, 0x00, 0x00, 0x00,             // joint count: 2
    // joints[0], at byte 4
    0x01, 0x00, 0x00, 0x00,             // depth: 1
    b'H', b'I', b'P', 0x00,             // name: "HIP", NUL-terminated
    0x00, 0x00, 0x00, 0x00,             // position x: 0.0
    0x00, 0x00, 0x80, 0x3F,             // position y: 1.0
    0x00, 0x00, 0x00, 0x00,             // position z: 0.0
    0x00, 0x00, 0x80, 0x3F,             // rotation row 0: 1, 0, 0
    0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,             // rotation row 1: 0, 1, 0
    0x00, 0x00, 0x80, 0x3F,
    0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,             // rotation row 2: 0, 0, 1
    0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x80, 0x3F,
    // joints[1], at byte 60
    0x02, 0x00, 0x00, 0x00,             // depth: 2
    b'K', b'N', b'E', b'E', 0x00,       // name: "KNEE"
    0x00, 0x00, 0x00, 0x3F,             // position x: 0.5
    0x00, 0x00, 0x00, 0x3F,             // position y: 0.5
    0x00, 0x00, 0x00, 0x80,             // position z: -0.0
    0x00, 0x00, 0x00, 0x00,             // rotation row 0: 0, 1, 0
    0x00, 0x00, 0x80, 0x3F,
    0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x80, 0xBF,             // rotation row 1: -1, 0, 0
    0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,             // rotation row 2: 0, 0, 1
    0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x80, 0x3F,
];

#[rustfmt::skip]
const ANIMATION: &[u8] = &[
    0x02, 0x00, 0x00, 0x00,             // frame count: 2
    0x02, 0x00, 0x00, 0x00,             // records per frame: 2
    // frames[0]
    0x00, 0x00, 0x00, 0x00,             // records[0].index: 0
    0x00, 0x40, 0x00, 0x00, 0x00, 0x00, // angles: 0x4000 (a quarter turn), 0, 0
    0x01, 0x00, 0x00, 0x00,             // records[1].index: 1
    0x00, 0x00, 0x00, 0xC0, 0xFF, 0xFF, // angles: 0, -0x4000, -1
    // frames[1]
    0x00, 0x00, 0x00, 0x00,             // records[0].index: 0
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // angles: 0, 0, 0
    0x01, 0x00, 0x00, 0x00,             // records[1].index: 1
    0x00, 0x00, 0x00, 0x00, 0x00, 0x80, // angles: 0, 0, -0x8000 (half a turn)
];

fn identity() -> [f32; 9] {
    [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
}

fn expected_skeleton() -> Skeleton {
    Skeleton {
        joints: vec![
            Joint {
                depth: 1,
                name: RawString::from("HIP"),
                position: [0.0, 1.0, 0.0],
                rotation: identity(),
            },
            Joint {
                depth: 2,
                name: RawString::from("KNEE"),
                position: [0.5, 0.5, -0.0],
                rotation: [0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            },
        ],
    }
}

fn record(index: i32, angles: [i16; 3]) -> Record {
    Record { index, angles }
}

fn expected_animation() -> Animation {
    Animation {
        frame_count: Count::new(),
        records_per_frame: 2,
        frames: vec![
            Frame {
                records: vec![record(0, [0x4000, 0, 0]), record(1, [0, -0x4000, -1])],
            },
            Frame {
                records: vec![record(0, [0, 0, 0]), record(1, [0, 0, i16::MIN])],
            },
        ],
    }
}

#[test]
fn golden_skeleton_bytes_decode_and_the_writer_reproduces_them() {
    let skeleton = Skeleton::from_bytes(SKELETON).unwrap();
    assert_eq!(skeleton, expected_skeleton());
    assert_eq!(expected_skeleton().to_bytes().unwrap(), SKELETON);
}

#[test]
fn golden_animation_bytes_decode_and_the_writer_reproduces_them() {
    let animation = Animation::from_bytes(ANIMATION).unwrap();
    assert_eq!(animation, expected_animation());
    assert_eq!(expected_animation().to_bytes().unwrap(), ANIMATION);
}

#[test]
fn an_animation_without_frames_keeps_its_records_per_frame() {
    let bytes = [0, 0, 0, 0, 25, 0, 0, 0];
    let animation = Animation::from_bytes(&bytes).unwrap();
    assert_eq!(animation.records_per_frame, 25);
    assert_eq!(animation.to_bytes().unwrap(), bytes);
}

#[test]
fn damaged_files_fail_with_offset_and_field_path() {
    // The last joint's last rotation entry starts at byte 113.
    let error = Skeleton::from_bytes(&SKELETON[..115]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 113: joints[1].rotation[8]: the input ends 2 byte(s) into a 4-byte value"
    );
    let error = Skeleton::from_bytes(&SKELETON[..60]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 4: joints: count 2 needs at least 106 bytes but only 56 remain"
    );
    let error = Animation::from_bytes(&ANIMATION[..40]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 28: frames[1].records: count 2 needs at least 20 bytes but only 12 remain"
    );
    // Records per frame corrupted to 1000: the frames cannot hold them.
    let mut corrupted = ANIMATION.to_vec();
    corrupted[5] = 0x03;
    corrupted[4] = 0xE8;
    assert_eq!(
        Animation::from_bytes(&corrupted).unwrap_err().to_string(),
        "byte 8: frames[0].records: count 1000 needs at least 10000 bytes but only 40 remain"
    );
    // The last name runs to the end of the file without its NUL.
    let mut unterminated = SKELETON[..64].to_vec();
    unterminated.extend_from_slice(&[b'K'; 52]);
    assert_eq!(
        Skeleton::from_bytes(&unterminated).unwrap_err().to_string(),
        "byte 64: joints[1].name: string has no terminating NUL before the end of the input"
    );
    for len in 0..SKELETON.len() {
        assert!(Skeleton::from_bytes(&SKELETON[..len]).is_err(), "{len}");
    }
    for len in 0..ANIMATION.len() {
        assert!(Animation::from_bytes(&ANIMATION[..len]).is_err(), "{len}");
    }
}

/// A skeleton of these depths (names `J0`, `J1`...).
fn skeleton_of_depths(depths: &[i32]) -> skinning::Skeleton {
    let skeleton = Skeleton {
        joints: depths
            .iter()
            .enumerate()
            .map(|(index, &depth)| Joint {
                depth,
                name: RawString::from(format!("J{index}").as_str()),
                position: [index as f32, 0.0, 0.0],
                rotation: identity(),
            })
            .collect(),
    };
    let rig = skeleton
        .skeleton(&Files::nowhere(), RigOptions::default())
        .unwrap()
        .unwrap();
    skinning::Skeleton::new(&rig).unwrap()
}

/// One frame whose index column is `indices`.
fn bind(skeleton: &[i32], indices: &[i32]) -> Result<Clip, ClipError> {
    let animation = Animation {
        frame_count: Count::new(),
        records_per_frame: indices.len() as u32,
        frames: vec![Frame {
            records: indices.iter().map(|&index| record(index, [0; 3])).collect(),
        }],
    };
    let mut animations = animation.animations(&Files::nowhere()).unwrap().unwrap();
    let animation = animations.remove(0);
    let Motion::Joints(motion) = animation.motion else {
        panic!("an Outcast animation moves joints");
    };
    Clip::bind(
        &motion,
        animation.times.len(),
        &skeleton_of_depths(skeleton),
    )
}

const X_TENTACLE: &[i32] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 14];
const X_SHARK: &[i32] = &[1, 2, 3, 4, 5, 2, 2];
const X_AQUAREX: &[i32] = &[
    1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 4, 5, 6, 7, 4, 5, 6, 7, 3, 4, 5, 6, 3, 4, 5, 6, 3, 4, 5, 6,
];

#[test]
fn the_documents_matching_pairs_bind() {
    let tentacle_spit = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 13];
    let shark_attack = [1, 2, 3, 4, 5, 2, 2];
    let gorgor_slow_walk = [
        0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 3, 4, 5, 6, 3, 4, 5, 6, 2, 3, 4, 5, 2, 3, 4, 5, 2, 3, 4, 5,
    ];
    bind(X_TENTACLE, &tentacle_spit).unwrap();
    bind(X_SHARK, &shark_attack).unwrap();
    bind(X_AQUAREX, &gorgor_slow_walk).unwrap();
}

#[test]
fn the_documents_mismatched_pairs_are_refused() {
    let tentacle_grab = [0, 1, 2, 3, 4, 5, 6, 6];
    let tentacle_stop1 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 13, 14];
    let shark_swim = [0, 1, 2, 3, 4];
    assert_eq!(
        bind(X_TENTACLE, &tentacle_grab).unwrap_err(),
        ClipError::TrackCount {
            tracks: 8,
            joints: 16
        }
    );
    assert_eq!(
        bind(X_TENTACLE, &tentacle_stop1).unwrap_err(),
        ClipError::TrackCount {
            tracks: 18,
            joints: 16
        }
    );
    assert_eq!(
        bind(X_SHARK, &shark_swim).unwrap_err(),
        ClipError::TrackCount {
            tracks: 5,
            joints: 7
        }
    );
    // Same count, another shape: the shark's pattern on the tentacle's
    // first seven joints.
    let error = bind(&X_TENTACLE[..7], &[1, 2, 3, 4, 5, 2, 2]).unwrap_err();
    assert!(
        matches!(error, ClipError::Hierarchy { track: 5, .. }),
        "{error}"
    );
}
