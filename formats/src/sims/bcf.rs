//! The Sims 1 binary character file (`.bcf`): the `.cmx` layout, little-endian.

use serde::{Deserialize, Serialize};

use super::cmx::{self, Cmx, MAXIS_COMMENT};
use crate::files::Files;
use crate::format::{self, Conversion, Describe, Description, Format, Sample};
use crate::rig::{self, Rig, RigError, RigOptions};
use crate::schema::text::TextStyle;
use crate::schema::{Magic, RawString};
use crate::Schema;

/// The Sims 1 binary character file (`.bcf`): the fields of a `.cmx` in the
/// same order, without its comment and version lines. Little-endian, u32
/// counts, Pascal strings (a u8 length, as FreeSO and ts1-blender-io read
/// them). Bones have no has-properties byte and no leading u32, unlike the
/// TSO `.skel`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Bcf {
    #[schema(prefix = u32)]
    pub skeletons: Vec<Skeleton>,
    #[schema(prefix = u32)]
    pub suits: Vec<Suit>,
    #[schema(prefix = u32)]
    pub skills: Vec<Skill>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Skeleton {
    #[schema(pascal)]
    pub name: RawString,
    #[schema(prefix = u32)]
    pub bones: Vec<Bone>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Bone {
    #[schema(pascal)]
    pub name: RawString,
    /// `NULL` for the root.
    #[schema(pascal)]
    pub parent: RawString,
    #[schema(prefix = u32)]
    pub property_lists: Vec<PropertyList>,
    pub translation: [f32; 3],
    /// Quaternion (x, y, z, w), applied as its conjugate.
    pub rotation: [f32; 4],
    pub can_translate: i32,
    pub can_rotate: i32,
    pub can_blend: i32,
    pub wiggle_value: f32,
    pub wiggle_power: f32,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct PropertyList {
    #[schema(prefix = u32)]
    pub properties: Vec<Property>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Property {
    #[schema(pascal)]
    pub key: RawString,
    #[schema(pascal)]
    pub value: RawString,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Suit {
    #[schema(pascal)]
    pub name: RawString,
    pub suit_type: i32,
    pub unknown: i32,
    #[schema(prefix = u32)]
    pub skins: Vec<Skin>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Skin {
    #[schema(pascal)]
    pub bone: RawString,
    #[schema(pascal)]
    pub name: RawString,
    pub censor_flags: i32,
    pub unknown: i32,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Skill {
    #[schema(pascal)]
    pub name: RawString,
    #[schema(pascal)]
    pub animation: RawString,
    pub duration: f32,
    pub distance: f32,
    pub moving: i32,
    pub position_count: i32,
    pub rotation_count: i32,
    #[schema(prefix = u32)]
    pub motions: Vec<Motion>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Motion {
    #[schema(pascal)]
    pub bone: RawString,
    pub frame_count: i32,
    pub duration: f32,
    pub positions_used: i32,
    pub rotations_used: i32,
    /// -1 when unused.
    pub first_position: i32,
    pub first_rotation: i32,
    #[schema(prefix = u32)]
    pub property_lists: Vec<PropertyList>,
    #[schema(prefix = u32)]
    pub time_property_lists: Vec<TimePropertyList>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct TimePropertyList {
    #[schema(prefix = u32)]
    pub entries: Vec<TimeProperty>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct TimeProperty {
    pub time: i32,
    #[schema(prefix = u32)]
    pub properties: Vec<Property>,
}

fn map<A, B>(items: &[A], convert: impl Fn(&A) -> B) -> Vec<B> {
    items.iter().map(convert).collect()
}

impl From<&Cmx> for Bcf {
    /// The same data; the comment line and the text style have no place in
    /// a `.bcf`. A version 200 file's bones, suits and skins lack fields a
    /// `.bcf` has: those are written as 0 (property lists: none).
    fn from(cmx: &Cmx) -> Self {
        Bcf {
            skeletons: map(&cmx.skeletons, |s| Skeleton {
                name: s.name.clone(),
                bones: map(&s.bones, |b| Bone {
                    name: b.name.clone(),
                    parent: b.parent.clone(),
                    property_lists: map(
                        b.property_lists.as_deref().unwrap_or_default(),
                        to_bcf_properties,
                    ),
                    translation: b.translation,
                    rotation: b.rotation,
                    can_translate: b.can_translate,
                    can_rotate: b.can_rotate,
                    can_blend: b.can_blend.unwrap_or_default(),
                    wiggle_value: b.wiggle_value.unwrap_or_default(),
                    wiggle_power: b.wiggle_power.unwrap_or_default(),
                }),
            }),
            suits: map(&cmx.suits, |s| Suit {
                name: s.name.clone(),
                suit_type: s.suit_type.unwrap_or_default(),
                unknown: s.unknown.unwrap_or_default(),
                skins: map(&s.skins, |k| Skin {
                    bone: k.bone.clone(),
                    name: k.name.clone(),
                    censor_flags: k.censor_flags.unwrap_or_default(),
                    unknown: k.unknown.unwrap_or_default(),
                }),
            }),
            skills: map(&cmx.skills, |s| Skill {
                name: s.name.clone(),
                animation: s.animation.clone(),
                duration: s.duration,
                distance: s.distance,
                moving: s.moving,
                position_count: s.position_count,
                rotation_count: s.rotation_count,
                motions: map(&s.motions, |m| Motion {
                    bone: m.bone.clone(),
                    frame_count: m.frame_count,
                    duration: m.duration,
                    positions_used: m.positions_used,
                    rotations_used: m.rotations_used,
                    first_position: m.first_position,
                    first_rotation: m.first_rotation,
                    property_lists: map(&m.property_lists, to_bcf_properties),
                    time_property_lists: map(&m.time_property_lists, |list| TimePropertyList {
                        entries: map(&list.entries, |entry| TimeProperty {
                            time: entry.time,
                            properties: map(&entry.properties, to_bcf_property),
                        }),
                    }),
                }),
            }),
        }
    }
}

fn to_bcf_properties(list: &cmx::PropertyList) -> PropertyList {
    PropertyList {
        properties: map(&list.properties, to_bcf_property),
    }
}

fn to_bcf_property(property: &cmx::Property) -> Property {
    Property {
        key: property.key.clone(),
        value: property.value.clone(),
    }
}

impl From<&Bcf> for Cmx {
    /// The same data, with the comment line and style of the original tools
    /// (CRLF, MSVC `%g`), which every known `.cmx` has.
    fn from(bcf: &Bcf) -> Self {
        Cmx {
            style: TextStyle::default(),
            comment: RawString::from(MAXIS_COMMENT),
            version_keyword: Magic,
            version: cmx::RETAIL_VERSION,
            skeletons: map(&bcf.skeletons, |s| cmx::Skeleton {
                name: s.name.clone(),
                bones: map(&s.bones, |b| cmx::Bone {
                    name: b.name.clone(),
                    parent: b.parent.clone(),
                    property_lists: Some(map(&b.property_lists, to_cmx_properties)),
                    translation: b.translation,
                    rotation: b.rotation,
                    can_translate: b.can_translate,
                    can_rotate: b.can_rotate,
                    can_blend: Some(b.can_blend),
                    wiggle_value: Some(b.wiggle_value),
                    wiggle_power: Some(b.wiggle_power),
                }),
            }),
            suits: map(&bcf.suits, |s| cmx::Suit {
                name: s.name.clone(),
                suit_type: Some(s.suit_type),
                unknown: Some(s.unknown),
                skins: map(&s.skins, |k| cmx::Skin {
                    bone: k.bone.clone(),
                    name: k.name.clone(),
                    censor_flags: Some(k.censor_flags),
                    unknown: Some(k.unknown),
                }),
            }),
            skills: map(&bcf.skills, |s| cmx::Skill {
                name: s.name.clone(),
                animation: s.animation.clone(),
                duration: s.duration,
                distance: s.distance,
                moving: s.moving,
                position_count: s.position_count,
                rotation_count: s.rotation_count,
                motions: map(&s.motions, |m| cmx::Motion {
                    bone: m.bone.clone(),
                    frame_count: m.frame_count,
                    duration: m.duration,
                    positions_used: m.positions_used,
                    rotations_used: m.rotations_used,
                    first_position: m.first_position,
                    first_rotation: m.first_rotation,
                    property_lists: map(&m.property_lists, to_cmx_properties),
                    time_property_lists: map(&m.time_property_lists, |list| {
                        cmx::TimePropertyList {
                            entries: map(&list.entries, |entry| cmx::TimeProperty {
                                time: entry.time,
                                properties: map(&entry.properties, to_cmx_property),
                            }),
                        }
                    }),
                }),
            }),
        }
    }
}

fn to_cmx_properties(list: &PropertyList) -> cmx::PropertyList {
    cmx::PropertyList {
        properties: map(&list.properties, to_cmx_property),
    }
}

fn to_cmx_property(property: &Property) -> cmx::Property {
    cmx::Property {
        key: property.key.clone(),
        value: property.value.clone(),
    }
}

impl Describe for Bcf {
    /// Described as the `.cmx` it converts to.
    fn describe(&self) -> Description {
        Cmx::from(self).describe()
    }
}

/// Posed, dressed and animated as the `.cmx` it converts to.
impl Rig for Bcf {
    fn skeleton(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<rig::Skeleton, RigError>> {
        Cmx::from(self).skeleton(files, options)
    }

    fn skins(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Cmx::from(self).skins(files, options)
    }

    fn animations(&self, files: &Files) -> Option<Result<Vec<rig::Animation>, RigError>> {
        Cmx::from(self).animations(files)
    }

    fn named_animations(&self, files: &Files) -> Option<Vec<rig::NamedAnimation>> {
        Cmx::from(self).named_animations(files)
    }
}

/// The `.bcf` registration. Binary with no signature: found by extension only.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "humanoid.bcf",
            document: format::binary_document(Bcf::from(&cmx::humanoid())),
        }]
    },
    conversions: &[
        Conversion {
            from: &cmx::FORMAT,
            to: &FORMAT,
            convert: format::convert_to_binary::<Cmx, Bcf>,
        },
        Conversion {
            from: &FORMAT,
            to: &cmx::FORMAT,
            convert: format::convert_to_text::<Bcf, Cmx>,
        },
    ],
    ..Format::binary::<Bcf>(
        "sims-bcf",
        "The Sims binary character file",
        &["bcf"],
        |_| false,
    )
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{BinarySchema, Position};

    /// A small character file as `.cmx` text, written by hand.
    const CMX: &str = "// Character File. Copyright 1997, Maxis Inc.\r\n\
                       version 300\r\n\
                       1\r\na\r\n1\r\n\
                       R\r\nNULL\r\n0\r\n| 0 1 0 |\r\n| 0 0 0 1 |\r\n1\r\n1\r\n0\r\n0\r\n0.5\r\n\
                       1\r\ns\r\n0\r\n0\r\n1\r\nR\r\nk\r\n0\r\n0\r\n\
                       1\r\nk\r\nx\r\n1\r\n0\r\n0\r\n0\r\n1\r\n1\r\n\
                       R\r\n1\r\n1\r\n0\r\n1\r\n-1\r\n0\r\n0\r\n0\r\n";

    /// The same file as `.bcf` bytes, written by hand from the layout.
    #[rustfmt::skip]
    const BCF: &[u8] = &[
        1, 0, 0, 0,                         // skeletons: u32 1
        1, b'a',                            //   name: Pascal "a"
        1, 0, 0, 0,                         //   bones: 1
        1, b'R',                            //     name "R"
        4, b'N', b'U', b'L', b'L',          //     parent "NULL"
        0, 0, 0, 0,                         //     property lists: 0
        0, 0, 0, 0,  0, 0, 0x80, 0x3F,  0, 0, 0, 0, // translation (0, 1, 0)
        0, 0, 0, 0,  0, 0, 0, 0,  0, 0, 0, 0,  0, 0, 0x80, 0x3F, // rotation (0, 0, 0, 1)
        1, 0, 0, 0,  1, 0, 0, 0,  0, 0, 0, 0, // can translate, rotate, blend
        0, 0, 0, 0,                         //     wiggle value 0
        0, 0, 0, 0x3F,                      //     wiggle power 0.5
        1, 0, 0, 0,                         // suits: 1
        1, b's',                            //   name "s"
        0, 0, 0, 0,  0, 0, 0, 0,            //   type 0, unknown 0
        1, 0, 0, 0,                         //   skins: 1
        1, b'R',  1, b'k',                  //     bone "R", skin "k"
        0, 0, 0, 0,  0, 0, 0, 0,            //     censor flags 0, unknown 0
        1, 0, 0, 0,                         // skills: 1
        1, b'k',  1, b'x',                  //   name "k", animation "x"
        0, 0, 0x80, 0x3F,  0, 0, 0, 0,      //   duration 1, distance 0
        0, 0, 0, 0,                         //   moving 0
        0, 0, 0, 0,  1, 0, 0, 0,            //   positions 0, rotations 1
        1, 0, 0, 0,                         //   motions: 1
        1, b'R',                            //     bone "R"
        1, 0, 0, 0,                         //     frames 1
        0, 0, 0x80, 0x3F,                   //     duration 1
        0, 0, 0, 0,  1, 0, 0, 0,            //     positions used 0, rotations used 1
        0xFF, 0xFF, 0xFF, 0xFF,  0, 0, 0, 0, //    first position -1, first rotation 0
        0, 0, 0, 0,  0, 0, 0, 0,            //     property lists 0, time-property lists 0
    ];

    #[test]
    fn cmx_text_becomes_golden_bcf_bytes() {
        let cmx = Cmx::from_text(CMX.as_bytes()).unwrap();
        assert_eq!(Bcf::from(&cmx).to_bytes().unwrap(), BCF);
    }

    #[test]
    fn golden_bcf_bytes_become_cmx_text() {
        let bcf = Bcf::from_bytes(BCF).unwrap();
        assert_eq!(bcf.skills[0].motions[0].first_position, -1);
        let text = Cmx::from(&bcf).to_text().unwrap();
        assert_eq!(String::from_utf8(text).unwrap(), CMX);
    }

    #[test]
    fn every_truncation_is_an_error() {
        for len in 0..BCF.len() {
            let error = Bcf::from_bytes(&BCF[..len]).unwrap_err();
            assert!(
                matches!(error.position, Some(Position::Byte(offset)) if offset <= len as u64),
                "{len}: {error}"
            );
            assert!(!error.path.is_empty() || len == 0, "{len}: {error}");
        }
    }
}
