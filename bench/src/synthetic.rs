//! Large synthetic inputs, built the same way on every run (a fixed
//! pseudo-random sequence), shaped like the real files: tree-shaped
//! skeletons with a few property lists, and Sims skins whose proportions
//! follow the corpus (about 1.2 faces per real vertex, one blend vertex per
//! four real ones, a few dozen bones, blends pulling nearby vertices).

use formats::objects::pixels::Pixels;
use formats::objects::sprites::{
    alpha_from_5_bits, Frame, FrameInfo, SizedFrame, Sprite, SpriteV1000, SpriteV1001,
};
use formats::rig;
use formats::schema::{At, Block, Calc, Count, RawString};
use formats::sims::skel::{self, Bone, Property, PropertyList};
use formats::sims::skn::{self, Skn};
use formats::swg::skt::{self, Quaternion, SkeletonForm};

/// A fixed pseudo-random sequence (xorshift64*), so every run measures the
/// same bytes.
pub struct Sequence(u64);

impl Sequence {
    pub fn new(seed: u64) -> Self {
        Sequence(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Below `bound` (which must not be 0).
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }

    /// In `[-scale, scale)`.
    pub fn float(&mut self, scale: f32) -> f32 {
        // The top 24 bits give every value of f32's mantissa once.
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (unit * 2.0 - 1.0) * scale
    }

    pub fn unit_quaternion(&mut self) -> [f32; 4] {
        let raw = [
            self.float(1.0),
            self.float(1.0),
            self.float(1.0),
            self.float(1.0),
        ];
        let length = raw.iter().map(|c| c * c).sum::<f32>().sqrt().max(1e-6);
        raw.map(|c| c / length)
    }

    pub fn unit_vector(&mut self) -> [f32; 3] {
        let raw = [self.float(1.0), self.float(1.0), self.float(1.0)];
        let length = raw.iter().map(|c| c * c).sum::<f32>().sqrt().max(1e-6);
        raw.map(|c| c / length)
    }
}

/// Joint `index`'s name; the names grow to the lengths real ones have.
fn joint_name(index: usize) -> RawString {
    RawString::from(format!("joint_{index:06}").as_str())
}

/// The parent of joint `index` in a binary tree (joint 0 is the root).
fn tree_parent(index: usize) -> Option<usize> {
    index.checked_sub(1).map(|above| above / 2)
}

/// A The Sims Online skeleton of `bones` bones in a binary tree; every
/// sixteenth bone carries a property list, as some real bones do.
pub fn skel(bones: usize) -> skel::Skeleton {
    let mut sequence = Sequence::new(0x5EE1);
    let bones = (0..bones)
        .map(|index| {
            let property_lists = (index % 16 == 0).then(|| {
                vec![PropertyList {
                    properties: vec![
                        Property {
                            key: RawString::from("name"),
                            value: joint_name(index),
                        },
                        Property {
                            key: RawString::from("weight"),
                            value: RawString::from("0.5"),
                        },
                    ],
                }]
            });
            Bone {
                unknown: 1,
                name: joint_name(index),
                parent: tree_parent(index).map_or_else(|| RawString::from("NULL"), joint_name),
                has_properties: u8::from(property_lists.is_some()),
                property_lists,
                translation: [
                    sequence.float(2.0),
                    sequence.float(2.0),
                    sequence.float(2.0),
                ],
                rotation: sequence.unit_quaternion(),
                can_translate: 1,
                can_rotate: 1,
                can_blend: 1,
                wiggle_value: 0.0,
                wiggle_power: sequence.float(1.0),
            }
        })
        .collect();
    skel::Skeleton {
        version: 1,
        name: RawString::from("synthetic"),
        bones,
    }
}

/// A Star Wars Galaxies skeleton (`FORM SKTM`) of `joints` joints in a
/// binary tree.
pub fn skt(joints: usize) -> skt::Skeleton {
    let mut sequence = Sequence::new(0x5C7);
    let mut quaternion = || {
        let [x, y, z, w] = sequence.unit_quaternion();
        Quaternion { w, x, y, z }
    };
    let joints: Vec<skt::Joint> = (0..joints)
        .map(|index| skt::Joint {
            name: joint_name(index),
            parent: tree_parent(index).map_or(-1, |parent| parent as i32),
            pre_rotation: quaternion(),
            post_rotation: quaternion(),
            bind_translation: [index as f32 * 0.01, 0.5, -0.25],
            bind_rotation: quaternion(),
            rotation_order: 0,
        })
        .collect();
    skt::Skeleton::Single(SkeletonForm::from_joints(&joints))
}

/// Bones a synthetic skin is bound to: as many as a real body skin.
pub const SKIN_BONES: usize = 20;

/// A Sims skin of `vertices` vertex records: four fifths real vertices,
/// one fifth blend vertices, each bone carrying an equal run of both.
/// Its floats are those a `.skn` can hold (six significant digits, as the
/// original tools printed them), so the text baselines and ossuary's
/// writer print the same numbers.
pub fn skn(vertices: usize) -> Skn {
    let mut sequence = Sequence::new(0x5C1);
    let blend_count = vertices / 5;
    let real = vertices - blend_count;
    let per_bone = |count: usize, bone: usize| {
        let first = count * bone / SKIN_BONES;
        (first, count * (bone + 1) / SKIN_BONES - first)
    };
    let bindings = (0..SKIN_BONES)
        .map(|bone| {
            let (first_vertex, vertex_count) = per_bone(real, bone);
            let (first_blend, blend_count) = per_bone(blend_count, bone);
            skn::Binding {
                bone: bone as i32,
                first_vertex: first_vertex as i32,
                vertex_count: vertex_count as i32,
                first_blend: if blend_count == 0 {
                    -1
                } else {
                    first_blend as i32
                },
                blend_count: blend_count as i32,
            }
        })
        .collect();
    let mut vertex = || skn::Vertex {
        position: [
            sequence.float(1.0),
            sequence.float(1.0),
            sequence.float(1.0),
        ],
        normal: sequence.unit_vector(),
    };
    let vertices: Vec<skn::Vertex> = (0..vertices).map(|_| vertex()).collect();
    let mut sequence = Sequence::new(0xB1E);
    let faces = (0..real + real / 5)
        .map(|_| [0, 1, 2].map(|_| sequence.below(real as u64) as i32))
        .collect();
    let uvs = (0..real)
        .map(|_| [sequence.float(0.5) + 0.5, sequence.float(0.5) + 0.5])
        .collect();
    // Real skins' blends pull runs of nearby vertices (those by a joint),
    // so each blend pulls one near where the one before it did.
    let blends = (0..blend_count)
        .map(|blend| skn::Blend {
            vertex: (blend * real / blend_count + sequence.below(64) as usize).min(real - 1) as i32,
            raw_weight: sequence.below(32769) as i32,
        })
        .collect();
    let skin = Skn {
        style: Default::default(),
        name: RawString::from("xskin-synthetic-PELVIS-BODY"),
        texture: RawString::from("x"),
        bones: (0..SKIN_BONES).map(joint_name).collect(),
        faces,
        bindings,
        uvs,
        blends,
        vertices,
    };
    // Through the original tools' number style and back: every float is
    // now one a `.skn` holds.
    let text = skin.to_text().expect("a synthetic skin writes");
    Skn::from_text(&text).expect("a synthetic skin reads back")
}

/// A skeleton of `joints` joints in a binary tree, named as the synthetic
/// files name them, with turned and shifted rest transforms: the skeleton
/// [`skn()`]'s skins bind to (joint `i` is bone `i`), and a large one to pose.
pub fn rig_skeleton(joints: usize) -> rig::Skeleton {
    let mut sequence = Sequence::new(0x51E);
    rig::Skeleton {
        joints: (0..joints)
            .map(|index| rig::Joint {
                name: joint_name(index).to_text(),
                parent: tree_parent(index),
                rest: rig::Transform::TranslationRotation {
                    translation: [
                        sequence.float(1.0),
                        sequence.float(1.0),
                        sequence.float(1.0),
                    ],
                    rotation: sequence.unit_quaternion(),
                },
            })
            .collect(),
        axes: rig::Axes::LeftHandedYUp,
    }
}

/// The colours of [`sprite`]'s palette: 256, each distinct.
pub fn sprite_palette() -> Vec<[u8; 3]> {
    (0..=255u8)
        .map(|index| [index, 255 - index, index.wrapping_mul(7)])
        .collect()
}

/// A sprite of `frames` frames of `side` x `side` pixels, made as the
/// game's tools make them ([`Frame::from_pixels`]): a round object, opaque
/// inside with a soft edge of alpha pixels and clear around, every other
/// frame with a z-buffer (its opaque pixels depth and colour runs, the
/// others colour-only runs). Version 1000 lays the frames out by an offset
/// table, 1001 one after another with their sizes.
pub fn sprite(version: u32, frames: usize, side: u16) -> Sprite {
    let colors = sprite_palette();
    let mut sequence = Sequence::new(0x5052_3200 + frames as u64);
    let frames: Vec<Frame> = (0..frames)
        .map(|index| {
            let image = round_object(&mut sequence, &colors, side, index % 2 == 0);
            let info = FrameInfo {
                palette: 0,
                transparent_index: 255,
                position: [-(side as i16) / 2, -(side as i16) / 2],
            };
            Frame::from_pixels(&image, &colors, info).expect("a synthetic frame encodes")
        })
        .collect();
    match version {
        1000 => Sprite::V1000(SpriteV1000 {
            count: Count::new(),
            default_palette: 1,
            frames: frames.into_iter().map(At::new).collect(),
        }),
        _ => Sprite::V1001(SpriteV1001 {
            default_palette: 1,
            frames: frames
                .into_iter()
                .map(|frame| SizedFrame {
                    version: 1001,
                    size: Calc::computed(),
                    frame: Block::new(frame),
                })
                .collect(),
            trailing: Vec::new(),
        }),
    }
}

/// One frame's picture: opaque within 0.8 of the radius, alpha to 0.95,
/// clear beyond.
fn round_object(
    sequence: &mut Sequence,
    colors: &[[u8; 3]],
    side: u16,
    with_depth: bool,
) -> Pixels {
    let side = u32::from(side);
    let centre = side as f32 / 2.0;
    let mut rgba = Vec::with_capacity((side * side) as usize);
    let mut depth = Vec::with_capacity((side * side) as usize);
    for y in 0..side {
        for x in 0..side {
            let distance = ((x as f32 - centre).hypot(y as f32 - centre)) / centre;
            let [r, g, b] = colors[sequence.below(colors.len() as u64) as usize];
            let (alpha, z) = if distance < 0.8 {
                (255, (distance * 200.0) as u8)
            } else if distance < 0.95 {
                (alpha_from_5_bits(1 + sequence.below(30) as u8), 200)
            } else {
                (0, 255)
            };
            rgba.push(if alpha == 0 { [0; 4] } else { [r, g, b, alpha] });
            depth.push(z);
        }
    }
    Pixels {
        width: side,
        height: side,
        rgba,
        depth: with_depth.then_some(depth),
    }
}
