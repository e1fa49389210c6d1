//! Synthetic Sims 1 samples the project ships: the `.skel` humanoid's bones
//! as a `.cmx` character (skeleton, suit and skill), and a small skin bound
//! to its left arm and hand with blended vertices.

use super::cmx::{self, Cmx, MAXIS_COMMENT};
use super::skel;
use super::skn::{self, Skn};
use crate::schema::text::TextStyle;
use crate::schema::{Magic, RawString};

/// The humanoid as a `.cmx`: one skeleton, one suit, one skill.
pub fn humanoid_cmx() -> Cmx {
    let humanoid = skel::humanoid();
    let bones = humanoid
        .bones
        .iter()
        .map(|bone| cmx::Bone {
            name: bone.name.clone(),
            parent: bone.parent.clone(),
            property_lists: bone
                .property_lists
                .iter()
                .flatten()
                .map(|list| cmx::PropertyList {
                    properties: list
                        .properties
                        .iter()
                        .map(|property| cmx::Property {
                            key: property.key.clone(),
                            value: property.value.clone(),
                        })
                        .collect(),
                })
                .collect(),
            translation: bone.translation,
            rotation: bone.rotation,
            can_translate: bone.can_translate,
            can_rotate: bone.can_rotate,
            can_blend: bone.can_blend,
            wiggle_value: bone.wiggle_value,
            wiggle_power: bone.wiggle_power,
        })
        .collect();
    let wave = cmx::Property {
        key: RawString::from("xevt"),
        value: RawString::from("wave"),
    };
    Cmx {
        style: TextStyle::default(),
        comment: RawString::from(MAXIS_COMMENT),
        version: Magic,
        skeletons: vec![cmx::Skeleton {
            name: humanoid.name,
            bones,
        }],
        suits: vec![cmx::Suit {
            name: RawString::from("humanoid-arm"),
            suit_type: 0,
            unknown: 0,
            skins: vec![cmx::Skin {
                bone: RawString::from("L_ARM"),
                name: RawString::from("xskin-humanoid-L_ARM-ARM"),
                censor_flags: 0,
                unknown: 0,
            }],
        }],
        skills: vec![cmx::Skill {
            name: RawString::from("humanoid-wave"),
            animation: RawString::from("xskill-humanoid-wave"),
            duration: 1000.0,
            distance: 0.0,
            moving: 0,
            position_count: 0,
            rotation_count: 2,
            motions: vec![cmx::Motion {
                bone: RawString::from("L_ARM"),
                frame_count: 2,
                duration: 1000.0,
                positions_used: 0,
                rotations_used: 1,
                first_position: -1,
                first_rotation: 0,
                property_lists: vec![cmx::PropertyList {
                    properties: vec![wave.clone()],
                }],
                time_property_lists: vec![cmx::TimePropertyList {
                    entries: vec![cmx::TimeProperty {
                        time: 500,
                        properties: vec![wave],
                    }],
                }],
            }],
        }],
    }
}

/// A square tube from the left shoulder to the hand: four vertices on the
/// arm, four on the hand, and two blend vertices (in hand space) pulling
/// two of the arm's far corners toward the hand, at half and quarter weight.
pub fn arm_skin() -> Skn {
    let vertex = |x: f32, y: f32, z: f32| skn::Vertex {
        position: [x, y, z],
        normal: [x.signum(), 0.0, z.signum()],
    };
    let ring = |y: f32| {
        [
            vertex(-0.1, y, -0.1),
            vertex(0.1, y, -0.1),
            vertex(0.1, y, 0.1),
            vertex(-0.1, y, 0.1),
        ]
    };
    let mut vertices: Vec<skn::Vertex> = ring(0.0).into_iter().chain(ring(0.0)).collect();
    vertices.push(vertex(0.1, 0.3, 0.1));
    vertices.push(vertex(-0.1, 0.3, 0.1));
    let side = |a: i32, b: i32| [[a, b, b + 4], [a, b + 4, a + 4]];
    Skn {
        style: TextStyle::default(),
        name: RawString::from("xskin-humanoid-L_ARM-ARM"),
        texture: RawString::from("x"),
        bones: vec![RawString::from("L_ARM"), RawString::from("L_HAND")],
        faces: [side(0, 1), side(1, 2), side(2, 3), side(3, 0)].concat(),
        bindings: vec![
            skn::Binding {
                bone: 0,
                first_vertex: 0,
                vertex_count: 4,
                first_blend: -1,
                blend_count: 0,
            },
            skn::Binding {
                bone: 1,
                first_vertex: 4,
                vertex_count: 4,
                first_blend: 0,
                blend_count: 2,
            },
        ],
        uvs: (0..8)
            .map(|index| [(index % 4) as f32 / 4.0, (index / 4) as f32])
            .collect(),
        blends: vec![
            skn::Blend {
                vertex: 2,
                raw_weight: 16384,
            },
            skn::Blend {
                vertex: 3,
                raw_weight: 8192,
            },
        ],
        vertices,
    }
}
