//! Star Wars Galaxies skeleton (`.skt`): golden bytes written by hand from
//! the layout, corrupted files, and the real files when `OSSUARY_CORPUS` is set.

use formats::schema::{BinarySchema, Count, ErrorKind, Position, RawString};
use formats::swg::skt::{
    Joint, LodForm, LodListV0, LodVersion, Quaternion, Skeleton, SkeletonForm,
};

/// Little-endian bytes of an f32, to keep the golden bytes readable.
fn f(value: f32) -> [u8; 4] {
    value.to_le_bytes()
}

/// A two-joint skeleton, byte by byte. Sizes are big-endian and were added
/// up by hand: chunks are 8 header bytes plus their payload, a FORM's size
/// counts its 4-byte type and its children.
fn two_joint_sktm() -> Vec<u8> {
    [
        &b"FORM"[..],
        &[0, 0, 0, 229], // 4 (SKTM) + 225 (FORM 0002)
        b"SKTM",
        b"FORM",
        &[0, 0, 0, 217], // 4 (0002) + 213 (chunks: 12+17+16+40+40+32+40+16)
        b"0002",
        // INFO: u32 joint count 2
        b"INFO",
        &[0, 0, 0, 4],
        &[2, 0, 0, 0],
        // NAME: "root\0" "hip\0"
        b"NAME",
        &[0, 0, 0, 9],
        b"root\0hip\0",
        // PRNT: -1 (root), 0
        b"PRNT",
        &[0, 0, 0, 8],
        &[0xff, 0xff, 0xff, 0xff],
        &[0, 0, 0, 0],
        // RPRE: w,x,y,z per joint: (1,0,0,0), (0,1,0,0)
        b"RPRE",
        &[0, 0, 0, 32],
        &f(1.0),
        &f(0.0),
        &f(0.0),
        &f(0.0),
        &f(0.0),
        &f(1.0),
        &f(0.0),
        &f(0.0),
        // RPST: (0.5,0.5,0.5,0.5), (0.5,-0.5,0.5,-0.5)
        b"RPST",
        &[0, 0, 0, 32],
        &f(0.5),
        &f(0.5),
        &f(0.5),
        &f(0.5),
        &f(0.5),
        &f(-0.5),
        &f(0.5),
        &f(-0.5),
        // BPTR: x,y,z per joint: (1.5,2,3), (0,0.25,-1)
        b"BPTR",
        &[0, 0, 0, 24],
        &f(1.5),
        &f(2.0),
        &f(3.0),
        &f(0.0),
        &f(0.25),
        &f(-1.0),
        // BPRO: (1,0,0,0), (0,0,0,1)
        b"BPRO",
        &[0, 0, 0, 32],
        &f(1.0),
        &f(0.0),
        &f(0.0),
        &f(0.0),
        &f(0.0),
        &f(0.0),
        &f(0.0),
        &f(1.0),
        // JROR: 0, 3
        b"JROR",
        &[0, 0, 0, 8],
        &[0, 0, 0, 0],
        &[3, 0, 0, 0],
    ]
    .concat()
}

/// The same skeleton as the only level of a `FORM SLOD`.
fn two_joint_slod() -> Vec<u8> {
    [
        &b"FORM"[..],
        &[0, 0, 1, 7], // 263 = 4 (SLOD) + 259 (FORM 0000)
        b"SLOD",
        b"FORM",
        &[0, 0, 0, 251], // 4 (0000) + 10 (INFO) + 237 (FORM SKTM)
        b"0000",
        // INFO: i16 level count 1
        b"INFO",
        &[0, 0, 0, 2],
        &[1, 0],
        &two_joint_sktm(),
    ]
    .concat()
}

fn quaternion(w: f32, x: f32, y: f32, z: f32) -> Quaternion {
    Quaternion { w, x, y, z }
}

fn two_joints() -> Vec<Joint> {
    vec![
        Joint {
            name: RawString::from("root"),
            parent: -1,
            pre_rotation: quaternion(1.0, 0.0, 0.0, 0.0),
            post_rotation: quaternion(0.5, 0.5, 0.5, 0.5),
            bind_translation: [1.5, 2.0, 3.0],
            bind_rotation: quaternion(1.0, 0.0, 0.0, 0.0),
            rotation_order: 0,
        },
        Joint {
            name: RawString::from("hip"),
            parent: 0,
            pre_rotation: quaternion(0.0, 1.0, 0.0, 0.0),
            post_rotation: quaternion(0.5, -0.5, 0.5, -0.5),
            bind_translation: [0.0, 0.25, -1.0],
            bind_rotation: quaternion(0.0, 0.0, 0.0, 1.0),
            rotation_order: 3,
        },
    ]
}

#[test]
fn golden_sktm_decodes_to_known_joints_and_encodes_back() {
    let bytes = two_joint_sktm();
    assert_eq!(bytes.len(), 237);
    let skeleton = Skeleton::from_bytes(&bytes).unwrap();
    let Skeleton::Single(form) = &skeleton else {
        panic!("expected a single skeleton, got {skeleton:?}");
    };
    assert_eq!(form.joints().unwrap(), two_joints());
    assert_eq!(skeleton.to_bytes().unwrap(), bytes);

    let built = Skeleton::Single(SkeletonForm::from_joints(&two_joints()));
    assert_eq!(built.to_bytes().unwrap(), bytes);
}

#[test]
fn golden_slod_decodes_to_one_level_and_encodes_back() {
    let bytes = two_joint_slod();
    assert_eq!(bytes.len(), 271);
    let skeleton = Skeleton::from_bytes(&bytes).unwrap();
    assert!(matches!(skeleton, Skeleton::LevelsOfDetail(_)));
    let levels = skeleton.levels();
    assert_eq!(levels.len(), 1);
    assert_eq!(levels.first().unwrap().joints().unwrap(), two_joints());
    assert_eq!(skeleton.to_bytes().unwrap(), bytes);
}

#[test]
fn json_round_trips_byte_for_byte() {
    for bytes in [two_joint_sktm(), two_joint_slod()] {
        let skeleton = Skeleton::from_bytes(&bytes).unwrap();
        let json = serde_json::to_string(&skeleton).unwrap();
        let back: Skeleton = serde_json::from_str(&json).unwrap();
        assert_eq!(back.to_bytes().unwrap(), bytes, "{json}");
    }
}

#[test]
fn golden_sktm_snapshot() {
    insta::assert_json_snapshot!(Skeleton::from_bytes(&two_joint_sktm()).unwrap());
}

#[test]
fn every_truncation_is_an_error() {
    for bytes in [two_joint_sktm(), two_joint_slod()] {
        for len in 0..bytes.len() {
            assert!(
                Skeleton::from_bytes(&bytes[..len]).is_err(),
                "{len} of {} bytes decoded",
                bytes.len()
            );
        }
    }
}

#[test]
fn a_form_size_past_the_end_is_an_error() {
    let bytes = tests::patched(two_joint_sktm(), 4, 0x0001_0000u32.to_be_bytes());
    let error = Skeleton::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 4: size 65536 runs past the end of the enclosing data (229 byte(s) left)"
    );
}

#[test]
fn a_chunk_size_past_its_form_is_an_error() {
    // PRNT's size (at 53 + 4) claims more than FORM 0002 has left.
    let bytes = tests::patched(two_joint_sktm(), 57, 200u32.to_be_bytes());
    let error = Skeleton::from_bytes(&bytes).unwrap_err();
    assert_eq!(error.position, Some(Position::Byte(57)));
    assert_eq!(error.path.to_string(), "SKTM/0002/PRNT");
    assert!(matches!(
        error.kind,
        ErrorKind::SizePastParent {
            size: 200,
            available: 176
        }
    ));
}

#[test]
fn a_huge_joint_count_fails_without_allocating() {
    // INFO's payload is at 32.
    let bytes = tests::patched(two_joint_sktm(), 32, u32::MAX.to_le_bytes());
    let error = Skeleton::from_bytes(&bytes).unwrap_err();
    assert_eq!(error.path.to_string(), "SKTM/0002/NAME");
    // Checked against NAME's 9 bytes before any element is allocated.
    assert!(
        matches!(error.kind, ErrorKind::CountTooLarge { remaining: 9, .. }),
        "{error}"
    );
}

#[test]
fn a_count_larger_than_a_later_chunk_holds_is_an_error() {
    // Three joints but two in every column: NAME runs out first.
    let bytes = tests::patched(two_joint_sktm(), 32, 3u32.to_le_bytes());
    let error = Skeleton::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 53: SKTM/0002/NAME[2]: string has no terminating NUL before the end of the input"
    );
}

#[test]
fn bytes_left_inside_a_chunk_are_an_error() {
    // INFO grows by one byte; both enclosing FORM sizes grow with it.
    let mut bytes = two_joint_sktm();
    bytes.insert(36, 0xAA);
    let bytes = tests::patched(bytes, 28, 5u32.to_be_bytes());
    let bytes = tests::patched(bytes, 16, 218u32.to_be_bytes());
    let bytes = tests::patched(bytes, 4, 230u32.to_be_bytes());
    let error = Skeleton::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 36: SKTM/0002/INFO: 1 byte(s) are left over inside the chunk"
    );
}

#[test]
fn a_wrong_chunk_tag_is_an_error() {
    let bytes = tests::patched(two_joint_sktm(), 53, *b"PRNX");
    let error = Skeleton::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 53: SKTM/0002: expected chunk PRNT, found PRNX"
    );
}

#[test]
fn an_error_in_a_level_names_the_level() {
    // The SKTM form starts at 34 in the SLOD file; its PRNT tag at 34 + 53.
    let bytes = tests::patched(two_joint_slod(), 34 + 53, *b"PRNX");
    let error = Skeleton::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 87: SLOD/0000/SKTM[0]/0002: expected chunk PRNT, found PRNX"
    );
}

#[test]
fn an_unknown_version_lists_the_known_ones() {
    let bytes = tests::patched(two_joint_sktm(), 20, *b"0003");
    let error = Skeleton::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 20: SKTM: unknown FORM 0003; known: 0002"
    );

    let bytes = tests::patched(two_joint_sktm(), 8, *b"SKTX");
    let error = Skeleton::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "byte 8: unknown FORM SKTX; known: SKTM, SLOD"
    );
}

#[test]
fn columns_of_different_lengths_are_a_write_error() {
    let mut form = SkeletonForm::from_joints(&two_joints());
    let formats::swg::skt::SkeletonVersion::V2(columns) = &mut form.version;
    columns.parents.pop();
    let error = Skeleton::Single(form).to_bytes().unwrap_err();
    assert_eq!(
        error.to_string(),
        "SKTM/0002/INFO: collections sharing one count differ in length: NAME has 2, PRNT has 1, \
         RPRE has 2, RPST has 2, BPTR has 2, BPRO has 2, JROR has 2"
    );
}

#[test]
fn several_levels_and_no_joints_round_trip() {
    let levels = vec![
        SkeletonForm::from_joints(&two_joints()),
        SkeletonForm::from_joints(&[]),
        SkeletonForm::from_joints(&two_joints()[..1]),
    ];
    let skeleton = Skeleton::LevelsOfDetail(LodForm {
        version: LodVersion::V0(LodListV0 {
            level_count: Count::new(),
            levels,
        }),
    });
    let bytes = skeleton.to_bytes().unwrap();
    let back = Skeleton::from_bytes(&bytes).unwrap();
    assert_eq!(back, skeleton);
    assert_eq!(back.to_bytes().unwrap(), bytes);
}

#[test]
fn corpus_files_round_trip_byte_for_byte() {
    for path in tests::corpus_files("swg", "skt").unwrap_or_default() {
        let bytes = std::fs::read(&path).unwrap();
        let skeleton = Skeleton::from_bytes(&bytes)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        assert_eq!(skeleton.to_bytes().unwrap(), bytes, "{}", path.display());
        for level in skeleton.levels() {
            let joints = level.joints().unwrap();
            assert!(joints
                .iter()
                .all(|joint| joint.parent >= -1 && joint.parent < joints.len() as i32));
        }
        let json = serde_json::to_string(&skeleton).unwrap();
        let back: Skeleton = serde_json::from_str(&json).unwrap();
        assert_eq!(
            back.to_bytes().unwrap(),
            bytes,
            "{} through JSON",
            path.display()
        );
        for len in 0..bytes.len() {
            assert!(
                Skeleton::from_bytes(&bytes[..len]).is_err(),
                "{}: {len} bytes decoded",
                path.display()
            );
        }
    }
}
