//! Golden bytes for a `.skel`, written by hand from the format's layout
//! (big-endian integers, little-endian floats, Pascal strings):
//! the reader must decode them to known values and the writer reproduce them.

use formats::schema::{BinarySchema, RawString};
use formats::sims::skel::{Bone, Property, PropertyList, Skeleton};

#[rustfmt::skip]
const GOLDEN: &[u8] = &[
    0x00, 0x00, 0x00, 0x01,             // version: u32 BE 1
    0x02, b'm', b'e',                   // name: pstr "me"
    0x00, 0x02,                         // bone count: u16 BE 2
    // bone 0
    0x00, 0x00, 0x00, 0x01,             // unknown: u32 BE 1
    0x04, b'R', b'O', b'O', b'T',       // name: pstr "ROOT"
    0x04, b'N', b'U', b'L', b'L',       // parent: pstr "NULL"
    0x01,                               // has properties: 1
    0x00, 0x00, 0x00, 0x01,             //   property list count: u32 BE 1
    0x00, 0x00, 0x00, 0x01,             //   list 0 pair count: u32 BE 1
    0x01, b'k',                         //   key: pstr "k"
    0x02, 0xE9, b'!',                   //   value: pstr "é!" (Windows-1252 0xE9)
    0x00, 0x00, 0x80, 0x3F,             // translation x: f32 LE 1.0
    0x00, 0x00, 0x00, 0x40,             // translation y: f32 LE 2.0
    0x00, 0x00, 0x40, 0xC0,             // translation z: f32 LE -3.0
    0x00, 0x00, 0x00, 0x00,             // rotation x: f32 LE 0.0
    0x00, 0x00, 0x00, 0x80,             // rotation y: f32 LE -0.0
    0x01, 0x00, 0xC0, 0x7F,             // rotation z: f32 LE NaN with payload 0x400001
    0x00, 0x00, 0x80, 0x3F,             // rotation w: f32 LE 1.0
    0x00, 0x00, 0x00, 0x01,             // can translate: i32 BE 1
    0x00, 0x00, 0x00, 0x02,             // can rotate: i32 BE 2
    0xFF, 0xFF, 0xFF, 0xFF,             // can blend: i32 BE -1
    0x00, 0x00, 0x00, 0x3F,             // wiggle value: f32 LE 0.5
    0x00, 0x00, 0x20, 0x41,             // wiggle power: f32 LE 10.0
    // bone 1
    0x00, 0x00, 0x00, 0x01,             // unknown: u32 BE 1
    0x01, b'A',                         // name: pstr "A"
    0x04, b'R', b'O', b'O', b'T',       // parent: pstr "ROOT"
    0x00,                               // has properties: 0, no lists follow
    0x00, 0x00, 0x00, 0x00,             // translation x: 0.0
    0x00, 0x00, 0x80, 0x3F,             // translation y: 1.0
    0x00, 0x00, 0x00, 0x00,             // translation z: 0.0
    0x00, 0x00, 0x00, 0x00,             // rotation x: 0.0
    0x00, 0x00, 0x00, 0x00,             // rotation y: 0.0
    0x00, 0x00, 0x00, 0x00,             // rotation z: 0.0
    0x00, 0x00, 0x80, 0x3F,             // rotation w: 1.0
    0x00, 0x00, 0x00, 0x01,             // can translate: 1
    0x00, 0x00, 0x00, 0x01,             // can rotate: 1
    0x00, 0x00, 0x00, 0x00,             // can blend: 0
    0x00, 0x00, 0x00, 0x00,             // wiggle value: 0.0
    0x00, 0x00, 0x00, 0x00,             // wiggle power: 0.0
];

fn expected() -> Skeleton {
    Skeleton {
        version: 1,
        name: RawString::from("me"),
        bones: vec![
            Bone {
                unknown: 1,
                name: RawString::from("ROOT"),
                parent: RawString::from("NULL"),
                has_properties: 1,
                property_lists: Some(vec![PropertyList {
                    properties: vec![Property {
                        key: RawString::from("k"),
                        value: RawString(vec![0xE9, b'!']),
                    }],
                }]),
                translation: [1.0, 2.0, -3.0],
                rotation: [0.0, -0.0, f32::from_bits(0x7FC0_0001), 1.0],
                can_translate: 1,
                can_rotate: 2,
                can_blend: -1,
                wiggle_value: 0.5,
                wiggle_power: 10.0,
            },
            Bone {
                unknown: 1,
                name: RawString::from("A"),
                parent: RawString::from("ROOT"),
                has_properties: 0,
                property_lists: None,
                translation: [0.0, 1.0, 0.0],
                rotation: [0.0, 0.0, 0.0, 1.0],
                can_translate: 1,
                can_rotate: 1,
                can_blend: 0,
                wiggle_value: 0.0,
                wiggle_power: 0.0,
            },
        ],
    }
}

/// Compares through the bit patterns, since NaN != NaN.
fn bits(skeleton: &Skeleton) -> Vec<[u32; 4]> {
    skeleton
        .bones
        .iter()
        .map(|bone| bone.rotation.map(f32::to_bits))
        .collect()
}

#[test]
fn reader_decodes_golden_bytes_to_known_values() {
    let decoded = Skeleton::from_bytes(GOLDEN).unwrap();
    assert_eq!(bits(&decoded), bits(&expected()));
    assert_eq!(
        decoded.bones[0].property_lists,
        expected().bones[0].property_lists
    );
    assert_eq!(decoded.bones[1], expected().bones[1]);
    assert_eq!(decoded.name, expected().name);
    assert_eq!(decoded.bones[0].can_blend, -1);
    let lists = decoded.bones[0].property_lists.as_ref().unwrap();
    assert_eq!(lists[0].properties[0].value.to_text(), "é!");
}

#[test]
fn writer_reproduces_golden_bytes() {
    assert_eq!(expected().to_bytes().unwrap(), GOLDEN);
}

#[test]
fn errors_name_the_byte_and_the_field() {
    // Cut inside bone 1's rotation w.
    let cut = GOLDEN.len() - 4 * 6 + 2;
    let error = Skeleton::from_bytes(&GOLDEN[..cut]).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "byte {}: bones[1].rotation[3]: the input ends 2 byte(s) into a 4-byte value",
            cut - 2
        )
    );

    // A pair count of 2^32-1 cannot fit in what remains: refused before allocating.
    let mut huge = GOLDEN.to_vec();
    huge[28..32].copy_from_slice(&[0xFF; 4]);
    let error = Skeleton::from_bytes(&huge).unwrap_err();
    assert_eq!(
        error.path.to_string(),
        "bones[0].property_lists[0].properties"
    );
    assert!(
        error
            .to_string()
            .contains("count 4294967295 needs at least"),
        "{error}"
    );
}

#[test]
fn values_the_layout_cannot_hold_are_write_errors() {
    let mut long_name = expected();
    long_name.bones[1].name = RawString(vec![b'x'; 300]);
    assert_eq!(
        long_name.to_bytes().unwrap_err().to_string(),
        "bones[1].name: 300 entries do not fit a u8 count (at most 255)"
    );

    let mut too_many = expected();
    too_many.bones = vec![expected().bones[1].clone(); 70_000];
    assert_eq!(
        too_many.to_bytes().unwrap_err().to_string(),
        "bones: 70000 entries do not fit a u16 count (at most 65535)"
    );
}
