//! Golden bytes for The Sims Online's `.mesh`, `.anim`, `.apr` and `.bnd`,
//! written by hand from their layouts (integers big-endian, floats
//! little-endian, Pascal strings): each reader must decode them to known
//! values, each writer reproduce them, and every cut of them must be an
//! error, not a panic.

use formats::schema::{BinarySchema, Count, RawString};
use formats::sims::anim::{Anim, Event, EventList, Motion};
use formats::sims::apr::Apr;
use formats::sims::bmf::{Binding, Blend, Body, Vertex};
use formats::sims::bnd::{Bnd, Reference};
use formats::sims::file_id::FileId;
use formats::sims::mesh::Mesh;
use formats::sims::skel::{Property, PropertyList};

fn every_cut_is_an_error<T: BinarySchema<Context = ()> + std::fmt::Debug>(golden: &[u8]) {
    for len in 0..golden.len() {
        assert!(T::from_bytes(&golden[..len]).is_err(), "cut at {len}");
    }
}

fn pair(key: &str, value: &str) -> PropertyList {
    PropertyList {
        properties: vec![Property {
            key: RawString::from(key),
            value: RawString::from(value),
        }],
    }
}

#[rustfmt::skip]
const MESH: &[u8] = &[
    0x00, 0x00, 0x00, 0x02,             // version: u32 BE 2
    0x00, 0x00, 0x00, 0x01,             // bone count: u32 BE 1
    0x01, b'B',                         //   pstr "B"
    0x00, 0x00, 0x00, 0x01,             // face count: 1
    0x00, 0x00, 0x00, 0x00,             //   a: i32 BE 0
    0x00, 0x00, 0x00, 0x01,             //   b: 1
    0x00, 0x00, 0x00, 0x02,             //   c: 2
    0x00, 0x00, 0x00, 0x01,             // binding count: 1
    0x00, 0x00, 0x00, 0x00,             //   bone: 0
    0x00, 0x00, 0x00, 0x00,             //   first vertex: 0
    0x00, 0x00, 0x00, 0x03,             //   vertex count: 3
    0x00, 0x00, 0x00, 0x00,             //   first blend: 0
    0x00, 0x00, 0x00, 0x01,             //   blend count: 1
    0x00, 0x00, 0x00, 0x03,             // uv count: 3 (and real vertices)
    0x00, 0x00, 0x00, 0x00,  0x00, 0x00, 0x80, 0x3F, // (0.0, 1.0): f32 LE
    0x00, 0x00, 0x80, 0x3F,  0x00, 0x00, 0x80, 0x3F, // (1.0, 1.0)
    0x00, 0x00, 0x00, 0x3F,  0x00, 0x00, 0x00, 0x00, // (0.5, 0.0)
    0x00, 0x00, 0x00, 0x01,             // blend count: 1 (and blend vertices)
    0x00, 0x00, 0x40, 0x00,             //   weight: i32 BE 16384 (0.5), first
    0x00, 0x00, 0x00, 0x02,             //   vertex: 2
    0x00, 0x00, 0x00, 0x03,             // vertex count as FreeSO writes it:
                                        //   the real vertices alone (3, not 4)
    // real vertex 0: position (0, 0, 0), normal (0, 0, -1)
    0, 0, 0, 0,  0, 0, 0, 0,  0, 0, 0, 0,
    0, 0, 0, 0,  0, 0, 0, 0,  0x00, 0x00, 0x80, 0xBF,
    // real vertex 1: position (1, 0, 0), normal (0, 0, -1)
    0x00, 0x00, 0x80, 0x3F,  0, 0, 0, 0,  0, 0, 0, 0,
    0, 0, 0, 0,  0, 0, 0, 0,  0x00, 0x00, 0x80, 0xBF,
    // real vertex 2: position (0, 2, 0), normal (0, 0, -1)
    0, 0, 0, 0,  0x00, 0x00, 0x00, 0x40,  0, 0, 0, 0,
    0, 0, 0, 0,  0, 0, 0, 0,  0x00, 0x00, 0x80, 0xBF,
    // blend vertex 0: position (0, 3, 0), normal (0, 1, 0)
    0, 0, 0, 0,  0x00, 0x00, 0x40, 0x40,  0, 0, 0, 0,
    0, 0, 0, 0,  0x00, 0x00, 0x80, 0x3F,  0, 0, 0, 0,
];

fn vertex(position: [f32; 3], normal: [f32; 3]) -> Vertex {
    Vertex { position, normal }
}

#[test]
fn golden_mesh_bytes_decode_and_encode() {
    let expected = Mesh {
        version: 2,
        body: Body {
            bones: vec![RawString::from("B")],
            faces: vec![[0, 1, 2]],
            bindings: vec![Binding {
                bone: 0,
                first_vertex: 0,
                vertex_count: 3,
                first_blend: 0,
                blend_count: 1,
            }],
            real_count: Count::new(),
            uvs: vec![[0.0, 1.0], [1.0, 1.0], [0.5, 0.0]],
            blend_count: Count::new(),
            blends: vec![Blend {
                raw_weight: 16384,
                vertex: 2,
            }],
            vertex_count: 3,
            vertices: vec![
                vertex([0.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
                vertex([1.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
                vertex([0.0, 2.0, 0.0], [0.0, 0.0, -1.0]),
            ],
            blend_vertices: vec![vertex([0.0, 3.0, 0.0], [0.0, 1.0, 0.0])],
        },
    };
    assert_eq!(Mesh::from_bytes(MESH).unwrap(), expected);
    assert_eq!(expected.to_bytes().unwrap(), MESH);
    every_cut_is_an_error::<Mesh>(MESH);
}

#[rustfmt::skip]
const ANIM: &[u8] = &[
    0x00, 0x00, 0x00, 0x02,             // version: u32 BE 2
    0x00, 0x02, b'h', b'i',             // name: u16 BE length 2, "hi"
    0x00, 0x00, 0x80, 0x3F,             // duration: f32 LE 1.0
    0x00, 0x00, 0x00, 0x3F,             // distance: f32 LE 0.5
    0x01,                               // moving: 1
    0x00, 0x00, 0x00, 0x01,             // translation count: 1
    0x00, 0x00, 0x80, 0x3F,  0x00, 0x00, 0x00, 0x40,  0x00, 0x00, 0x40, 0x40, // (1, 2, 3)
    0x00, 0x00, 0x00, 0x01,             // rotation count: 1
    0, 0, 0, 0,  0, 0, 0, 0,  0, 0, 0, 0,  0x00, 0x00, 0x80, 0x3F, // (0, 0, 0, 1)
    0x00, 0x00, 0x00, 0x01,             // motion count: 1
    0x00, 0x00, 0x00, 0x00,             //   unknown: 0
    0x04, b'R', b'O', b'O', b'T',       //   bone: pstr "ROOT"
    0x00, 0x00, 0x00, 0x01,             //   frame count: 1
    0x00, 0x00, 0x80, 0x3F,             //   duration: f32 LE 1.0
    0x01,                               //   uses translations
    0x01,                               //   uses rotations
    0x00, 0x00, 0x00, 0x00,             //   first translation: 0
    0x00, 0x00, 0x00, 0x00,             //   first rotation: 0
    0x01,                               //   has property lists
    0x00, 0x00, 0x00, 0x01,             //     list count: 1
    0x00, 0x00, 0x00, 0x01,             //     pair count: 1
    0x01, b'k', 0x01, b'v',             //     "k" = "v"
    0x02,                               //   has events: 2 (not 0: kept as 2)
    0x00, 0x00, 0x00, 0x01,             //     event list count: 1
    0x00, 0x00, 0x00, 0x01,             //     event count: 1
    0x00, 0x00, 0x00, 0x21,             //     time: 33
    0x00, 0x00, 0x00, 0x01,             //     property list count: 1
    0x00, 0x00, 0x00, 0x01,             //     pair count: 1
    0x05, b's', b'o', b'u', b'n', b'd', //     "sound"
    0x03, b'p', b'o', b'p',             //     = "pop"
];

#[test]
fn golden_anim_bytes_decode_and_encode() {
    let expected = Anim {
        version: 2,
        name: RawString::from("hi"),
        duration: 1.0,
        distance: 0.5,
        moving: 1,
        translation_count: Count::new(),
        translations: vec![[1.0, 2.0, 3.0]],
        rotation_count: Count::new(),
        rotations: vec![[0.0, 0.0, 0.0, 1.0]],
        motions: vec![Motion {
            unknown: 0,
            bone: RawString::from("ROOT"),
            frame_count: 1,
            duration: 1.0,
            uses_translations: 1,
            uses_rotations: 1,
            first_translation: 0,
            first_rotation: 0,
            has_properties: 1,
            property_lists: Some(vec![pair("k", "v")]),
            has_events: 2,
            event_lists: Some(vec![EventList {
                events: vec![Event {
                    time: 33,
                    property_lists: vec![pair("sound", "pop")],
                }],
            }]),
        }],
    };
    assert_eq!(Anim::from_bytes(ANIM).unwrap(), expected);
    assert_eq!(expected.to_bytes().unwrap(), ANIM);
    every_cut_is_an_error::<Anim>(ANIM);
}

#[test]
fn a_motion_past_the_shared_lists_is_an_error_at_its_offset_field() {
    let mut bytes = ANIM.to_vec();
    // The first translation (bytes 76 to 79) now 1: frame 0 would be
    // translation 1 of 1.
    bytes[79] = 1;
    let error = Anim::from_bytes(&bytes).unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("byte 76") && message.contains("motions[0].first_translation"),
        "{message}"
    );
}

#[rustfmt::skip]
const APR: &[u8] = &[
    0x00, 0x00, 0x00, 0x01,             // version: 1
    0x00, 0x00, 0x00, 0x00,             // thumbnail file id: 0
    0x00, 0x00, 0x00, 0x00,             // thumbnail type id: 0
    0x00, 0x00, 0x00, 0x02,             // binding count: 2
    0x12, 0x34, 0x56, 0x78,             //   file id 0x12345678
    0x00, 0x00, 0x00, 0x0B,             //   type id 11
    0xFE, 0xDC, 0xBA, 0x98,             //   file id 0xFEDCBA98
    0x00, 0x00, 0x00, 0x0B,             //   type id 11
];

#[test]
fn golden_apr_bytes_decode_and_encode() {
    let expected = Apr {
        version: 1,
        thumbnail: FileId { file: 0, kind: 0 },
        bindings: vec![
            FileId {
                file: 0x1234_5678,
                kind: 11,
            },
            FileId {
                file: 0xFEDC_BA98,
                kind: 11,
            },
        ],
    };
    assert_eq!(Apr::from_bytes(APR).unwrap(), expected);
    assert_eq!(expected.to_bytes().unwrap(), APR);
    assert_eq!(expected.bindings[1].to_string(), "fedcba980000000b");
    every_cut_is_an_error::<Apr>(APR);
}

#[rustfmt::skip]
const BND: &[u8] = &[
    0x00, 0x00, 0x00, 0x01,             // version: 1
    0x04, b'H', b'E', b'A', b'D',       // bone: pstr "HEAD"
    0x00, 0x00, 0x00, 0x08,             // mesh kind: 8, ids follow
    0x00, 0x00, 0x00, 0x00,             //   group id: 0
    0x00, 0x00, 0x12, 0x34,             //   file id: 0x1234
    0x00, 0x00, 0x00, 0x09,             //   type id: 9
    0x00, 0x00, 0x00, 0x00,             // texture kind: 0, no ids follow
];

#[test]
fn golden_bnd_bytes_decode_and_encode() {
    let expected = Bnd {
        version: 1,
        bone: RawString::from("HEAD"),
        mesh_kind: 8,
        mesh: Some(Reference {
            group: 0,
            id: FileId {
                file: 0x1234,
                kind: 9,
            },
        }),
        texture_kind: 0,
        texture: None,
    };
    assert_eq!(Bnd::from_bytes(BND).unwrap(), expected);
    assert_eq!(expected.to_bytes().unwrap(), BND);
    every_cut_is_an_error::<Bnd>(BND);
}
