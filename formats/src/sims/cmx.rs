//! The Sims 1 character file (`.cmx`, text): skeletons, suits and skills.
//!
//! The types below the top-level [`Cmx`] have two encodings: the `.cmx`
//! text and the binary `.bcf` (see [`super::bcf`]), which stores the same
//! fields in the same order, little-endian, with Pascal strings and u32
//! counts.

use serde::{Deserialize, Serialize};

use super::skel;
use crate::format::{self, Describe, Description, Format, Joint, Sample};
use crate::schema::text::{TextSchema, TextStyle};
use crate::schema::{Error, Magic, RawString, Refusal};
use crate::Schema;

/// The Sims 1 character file (`.cmx`). A `//` comment line, `version 300`
/// (the game as released) or `version 200` (its 1998 prototype), then
/// three lists: skeletons, suits (skins bound to bones) and skills
/// (animations). Every value and every string stands on its own line, except
/// the `| x y z |` and `| x y z w |` vector lines of a bone. CRLF; floats as
/// MSVC `printf("%g")`, integers as `%d`.
///
/// Version 200 has the same lists with fewer fields: a bone has no property
/// lists, can-blend or wiggle values; a suit no type or unknown integer; a
/// suit's skin no censor flags or unknown integer. Skills are alike in both.
/// The fields version 200 lacks are `Option`s here, present exactly from
/// version 300 on (a `.bcf` always holds them).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub struct Cmx {
    /// How the file was written (line ending, number style), for byte-exact output.
    #[schema(style)]
    #[serde(default)]
    pub style: TextStyle,
    /// The first line after `//`, e.g. ` Character File. Copyright 1997, Maxis Inc.`
    #[schema(comment)]
    pub comment: RawString,
    #[schema(magic = "version")]
    #[serde(skip)]
    pub version_keyword: Magic,
    /// 300 in the released game's files, 200 in the 1998 prototype's.
    #[schema(same_line, check = known_version)]
    pub version: u32,
    #[schema(prefix, context(version))]
    pub skeletons: Vec<Skeleton>,
    #[schema(prefix, context(version))]
    pub suits: Vec<Suit>,
    #[schema(prefix)]
    pub skills: Vec<Skill>,
}

/// The comment line of every `.cmx` the original tools wrote (after `//`).
pub const MAXIS_COMMENT: &str = " Character File. Copyright 1997, Maxis Inc.";

/// The version from which the released game's fields are there.
pub const RETAIL_VERSION: u32 = 300;

/// The version of the 1998 prototype's files.
pub const PROTOTYPE_VERSION: u32 = 200;

fn known_version(version: &u32) -> Result<(), Refusal> {
    if [PROTOTYPE_VERSION, RETAIL_VERSION].contains(version) {
        Ok(())
    } else {
        Err(Refusal::new(format!(
            "version {version} is neither {RETAIL_VERSION} (the released game) nor \
             {PROTOTYPE_VERSION} (its 1998 prototype)"
        )))
    }
}

/// A named list of bones, parents before children.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(binary(little), text, context(version: u32))]
pub struct Skeleton {
    #[schema(text(line), binary(pascal))]
    pub name: RawString,
    #[schema(prefix = u32, context(version))]
    pub bones: Vec<Bone>,
}

/// A bone. In a `.bcf`, unlike the TSO `.skel`, it has no has-properties
/// byte and no leading u32.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(binary(little), text, context(version: u32))]
pub struct Bone {
    #[schema(text(line), binary(pascal))]
    pub name: RawString,
    /// The parent bone's name; `NULL` for the root.
    #[schema(text(line), binary(pascal))]
    pub parent: RawString,
    /// Version 300 on.
    #[schema(prefix = u32, present_if = version >= 300)]
    pub property_lists: Option<Vec<PropertyList>>,
    /// Rest translation relative to the parent (x, y, z).
    #[schema(text(vector))]
    pub translation: [f32; 3],
    /// Rest rotation relative to the parent, quaternion (x, y, z, w),
    /// applied as its conjugate.
    #[schema(text(vector))]
    pub rotation: [f32; 4],
    /// Kept as the integers stored (0 or 1 in known files).
    pub can_translate: i32,
    pub can_rotate: i32,
    /// Version 300 on, as are the wiggle values.
    #[schema(present_if = version >= 300)]
    pub can_blend: Option<i32>,
    #[schema(present_if = version >= 300)]
    pub wiggle_value: Option<f32>,
    #[schema(present_if = version >= 300)]
    pub wiggle_power: Option<f32>,
}

/// A list of key/value pairs.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(binary(little), text)]
pub struct PropertyList {
    #[schema(prefix = u32)]
    pub properties: Vec<Property>,
}

/// One key/value pair, e.g. `name` = `adult`: two whole lines.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(binary(little), text)]
pub struct Property {
    #[schema(text(line), binary(pascal))]
    pub key: RawString,
    #[schema(text(line), binary(pascal))]
    pub value: RawString,
}

/// A suit: skins, each bound to a bone.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(binary(little), text, context(version: u32))]
pub struct Suit {
    #[schema(text(line), binary(pascal))]
    pub name: RawString,
    /// 0 in known files. Version 300 on, as is `unknown`.
    #[schema(present_if = version >= 300)]
    pub suit_type: Option<i32>,
    /// Unknown; 0 in known files (FreeSO: `zero`). Kept as data.
    #[schema(present_if = version >= 300)]
    pub unknown: Option<i32>,
    #[schema(prefix = u32, context(version))]
    pub skins: Vec<Skin>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(binary(little), text, context(version: u32))]
pub struct Skin {
    /// The bone the skin is bound to, e.g. `PELVIS`.
    #[schema(text(line), binary(pascal))]
    pub bone: RawString,
    /// The mesh's name without extension (a `.skn`, `.bmf` or, in the
    /// prototype, `.msh`).
    #[schema(text(line), binary(pascal))]
    pub name: RawString,
    /// Version 300 on, as is `unknown`.
    #[schema(present_if = version >= 300)]
    pub censor_flags: Option<i32>,
    /// Unknown; 0 in known files. Kept as data.
    #[schema(present_if = version >= 300)]
    pub unknown: Option<i32>,
}

/// A skill: an animation's metadata; its keyframes are in a `.cfp` file.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(binary(little), text)]
pub struct Skill {
    #[schema(text(line), binary(pascal))]
    pub name: RawString,
    /// The `.cfp` name without extension.
    #[schema(text(line), binary(pascal))]
    pub animation: RawString,
    /// Milliseconds.
    pub duration: f32,
    pub distance: f32,
    pub moving: i32,
    /// Translations in the `.cfp`.
    pub position_count: i32,
    /// Rotations in the `.cfp`.
    pub rotation_count: i32,
    #[schema(prefix = u32)]
    pub motions: Vec<Motion>,
}

/// One bone's track within a skill.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(binary(little), text)]
pub struct Motion {
    #[schema(text(line), binary(pascal))]
    pub bone: RawString,
    pub frame_count: i32,
    pub duration: f32,
    pub positions_used: i32,
    pub rotations_used: i32,
    /// Index of the first translation in the `.cfp`; -1 when unused.
    pub first_position: i32,
    pub first_rotation: i32,
    #[schema(prefix = u32)]
    pub property_lists: Vec<PropertyList>,
    #[schema(prefix = u32)]
    pub time_property_lists: Vec<TimePropertyList>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(binary(little), text)]
pub struct TimePropertyList {
    #[schema(prefix = u32)]
    pub entries: Vec<TimeProperty>,
}

/// Properties that apply from a time in the animation on (e.g. footsteps).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(binary(little), text)]
pub struct TimeProperty {
    /// Milliseconds.
    pub time: i32,
    #[schema(prefix = u32)]
    pub properties: Vec<Property>,
}

/// Fills in the fields version 200 lacks, as version 300 holds them: no
/// property lists, `can_blend(bone)` for a bone's can-blend, 0 for every
/// other value. Fields already there are kept.
pub fn fill_retail_fields(
    skeletons: &mut [Skeleton],
    suits: &mut [Suit],
    can_blend: impl Fn(&Bone) -> i32,
) {
    for bone in skeletons
        .iter_mut()
        .flat_map(|skeleton| &mut skeleton.bones)
    {
        bone.property_lists.get_or_insert_with(Vec::new);
        if bone.can_blend.is_none() {
            bone.can_blend = Some(can_blend(bone));
        }
        bone.wiggle_value.get_or_insert(0.0);
        bone.wiggle_power.get_or_insert(0.0);
    }
    for suit in suits {
        suit.suit_type.get_or_insert(0);
        suit.unknown.get_or_insert(0);
        for skin in &mut suit.skins {
            skin.censor_flags.get_or_insert(0);
            skin.unknown.get_or_insert(0);
        }
    }
}

impl Cmx {
    /// Reads a `.cmx`.
    pub fn from_text(text: &[u8]) -> Result<Self, Error> {
        <Self as TextSchema>::from_text(text)
    }

    /// Writes the `.cmx` in its recorded style.
    pub fn to_text(&self) -> Result<Vec<u8>, Error> {
        <Self as TextSchema>::to_text(self)
    }

    pub fn suit_names(&self) -> impl Iterator<Item = &RawString> {
        self.suits.iter().map(|suit| &suit.name)
    }

    pub fn skill_names(&self) -> impl Iterator<Item = &RawString> {
        self.skills.iter().map(|skill| &skill.name)
    }
}

impl Skill {
    /// Frames of the skill: those of its first motion (every motion of a
    /// known skill has as many); 0 without motions.
    pub fn frame_count(&self) -> i32 {
        self.motions.first().map_or(0, |motion| motion.frame_count)
    }
}

impl Motion {
    /// The bone and what the motion drives, e.g. `ROOT (translation,
    /// rotation)`; the bone alone for a motion that drives neither.
    fn describe(&self) -> String {
        let parts: Vec<&str> = [
            (self.positions_used != 0, "translation"),
            (self.rotations_used != 0, "rotation"),
        ]
        .into_iter()
        .filter_map(|(used, part)| used.then_some(part))
        .collect();
        if parts.is_empty() {
            self.bone.to_string()
        } else {
            format!("{} ({})", self.bone, parts.join(", "))
        }
    }
}

impl Skeleton {
    /// Each bone's name and its parent's (`None` for a root, stored as `NULL`).
    pub fn bone_parents(&self) -> impl Iterator<Item = (&RawString, Option<&RawString>)> {
        self.bones.iter().map(|bone| {
            let parent = (bone.parent.as_bytes() != b"NULL").then_some(&bone.parent);
            (&bone.name, parent)
        })
    }
}

impl Describe for Cmx {
    /// Counts, suit and skill names, and every skeleton's bones as one
    /// joint list (each skeleton's root a root of its own).
    fn describe(&self) -> Description {
        let names = |items: Vec<String>| items.join(", ");
        let mut facts = vec![
            ("version", self.version.to_string()),
            ("skeletons", self.skeletons.len().to_string()),
        ];
        for skeleton in &self.skeletons {
            facts.push((
                "skeleton",
                format!("{} ({} bones)", skeleton.name, skeleton.bones.len()),
            ));
        }
        facts.push(("suits", self.suits.len().to_string()));
        for suit in &self.suits {
            let skins = suit
                .skins
                .iter()
                .map(|skin| format!("{} (on {})", skin.name, skin.bone))
                .collect();
            facts.push(("suit", format!("{}: {}", suit.name, names(skins))));
        }
        facts.push(("skills", self.skills.len().to_string()));
        for skill in &self.skills {
            let motions = skill.motions.iter().map(Motion::describe).collect();
            facts.push((
                "skill",
                format!(
                    "{}: {} frames over {} ms, data {}.cfp, {} motions: {}",
                    skill.name,
                    skill.frame_count(),
                    skill.duration,
                    skill.animation,
                    skill.motions.len(),
                    names(motions)
                ),
            ));
        }
        let mut joints = Vec::new();
        for skeleton in &self.skeletons {
            let first = joints.len();
            let bone_names: Vec<&[u8]> = skeleton
                .bones
                .iter()
                .map(|bone| bone.name.as_bytes())
                .collect();
            let tree = Joint::tree_from_parent_names(
                skeleton
                    .bones
                    .iter()
                    .map(|bone| (bone.name.to_string(), bone.parent.as_bytes())),
                &bone_names,
            );
            joints.extend(tree.into_iter().map(|joint| Joint {
                parent: joint.parent.map(|parent| parent + first),
                ..joint
            }));
        }
        Description { facts, joints }
    }
}

/// The `.cmx` registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![
            Sample {
                file_name: "humanoid.cmx",
                document: format::text_document(humanoid()),
            },
            Sample {
                file_name: "humanoid-prototype.cmx",
                document: format::text_document(prototype_humanoid()),
            },
        ]
    },
    ..Format::text::<Cmx>(
        "sims-cmx",
        "The Sims character file",
        &["cmx"],
        // A `//` comment line, then `version 300` (or the prototype's `200`).
        |bytes| {
            let head = bytes.get(..200).unwrap_or(bytes);
            head.starts_with(b"//")
                && head
                    .windows(11)
                    .any(|window| window == b"version 300" || window == b"version 200")
        },
    )
};

/// The humanoid as the 1998 prototype wrote it: version 200, without the
/// fields the released game added.
pub fn prototype_humanoid() -> Cmx {
    let mut cmx = humanoid();
    cmx.version = PROTOTYPE_VERSION;
    for bone in cmx
        .skeletons
        .iter_mut()
        .flat_map(|skeleton| &mut skeleton.bones)
    {
        bone.property_lists = None;
        bone.can_blend = None;
        bone.wiggle_value = None;
        bone.wiggle_power = None;
    }
    for suit in &mut cmx.suits {
        suit.suit_type = None;
        suit.unknown = None;
        for skin in &mut suit.skins {
            skin.censor_flags = None;
            skin.unknown = None;
        }
    }
    cmx
}

/// The humanoid as a `.cmx`: one skeleton, one suit, one skill.
pub fn humanoid() -> Cmx {
    let humanoid = skel::humanoid();
    let bones = humanoid
        .bones
        .iter()
        .map(|bone| Bone {
            name: bone.name.clone(),
            parent: bone.parent.clone(),
            property_lists: Some(
                bone.property_lists
                    .iter()
                    .flatten()
                    .map(|list| PropertyList {
                        properties: list
                            .properties
                            .iter()
                            .map(|property| Property {
                                key: property.key.clone(),
                                value: property.value.clone(),
                            })
                            .collect(),
                    })
                    .collect(),
            ),
            translation: bone.translation,
            rotation: bone.rotation,
            can_translate: bone.can_translate,
            can_rotate: bone.can_rotate,
            can_blend: Some(bone.can_blend),
            wiggle_value: Some(bone.wiggle_value),
            wiggle_power: Some(bone.wiggle_power),
        })
        .collect();
    let wave = Property {
        key: RawString::from("xevt"),
        value: RawString::from("wave"),
    };
    Cmx {
        style: TextStyle::default(),
        comment: RawString::from(MAXIS_COMMENT),
        version_keyword: Magic,
        version: RETAIL_VERSION,
        skeletons: vec![Skeleton {
            name: humanoid.name,
            bones,
        }],
        suits: vec![Suit {
            name: RawString::from("humanoid-arm"),
            suit_type: Some(0),
            unknown: Some(0),
            skins: vec![Skin {
                bone: RawString::from("L_ARM"),
                name: RawString::from("xskin-humanoid-L_ARM-ARM"),
                censor_flags: Some(0),
                unknown: Some(0),
            }],
        }],
        skills: vec![Skill {
            name: RawString::from("humanoid-wave"),
            animation: RawString::from("xskill-humanoid-wave"),
            duration: 1000.0,
            distance: 0.0,
            moving: 0,
            position_count: 0,
            rotation_count: 2,
            motions: vec![Motion {
                bone: RawString::from("L_ARM"),
                frame_count: 2,
                duration: 1000.0,
                positions_used: 0,
                rotations_used: 1,
                first_position: -1,
                first_rotation: 0,
                property_lists: vec![PropertyList {
                    properties: vec![wave.clone()],
                }],
                time_property_lists: vec![TimePropertyList {
                    entries: vec![TimeProperty {
                        time: 500,
                        properties: vec![wave],
                    }],
                }],
            }],
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Position;

    /// A small character file written by hand from the layout.
    const GOLDEN_LINES: &[&str] = &[
        "// Character File. Copyright 1997, Maxis Inc.", // 1 comment
        "version 300",                                   // 2
        "1",                                             // 3 skeletons
        "adult",                                         // 4 name
        "2",                                             // 5 bones
        "ROOT",                                          // 6 name
        "NULL",                                          // 7 parent: none
        "1",                                             // 8 property lists
        "1",                                             // 9 pairs
        "name",                                          // 10 key
        "adult",                                         // 11 value
        "| 0 1.5 -2.5e-005 |",                           // 12 translation
        "| 0 0 0 1 |",                                   // 13 rotation
        "1",                                             // 14 can translate
        "1",                                             // 15 can rotate
        "0",                                             // 16 can blend
        "0",                                             // 17 wiggle value
        "0",                                             // 18 wiggle power
        "PELVIS",                                        // 19
        "ROOT",                                          // 20
        "0",                                             // 21 no property lists
        "| 0.1 0 0 |",                                   // 22
        "| -0.5 0.5 0.5 0.5 |",                          // 23
        "0",                                             // 24
        "1",                                             // 25
        "1",                                             // 26
        "400000",                                        // 27 wiggle value
        "0.02",                                          // 28 wiggle power
        "1",                                             // 29 suits
        "b001fafat_01",                                  // 30 name
        "0",                                             // 31 type
        "0",                                             // 32 unknown
        "1",                                             // 33 skins
        "PELVIS",                                        // 34 bone
        "xskin-b001fafat_01-PELVIS-BODY",                // 35 skin
        "0",                                             // 36 censor flags
        "0",                                             // 37 unknown
        "1",                                             // 38 skills
        "a2o-test",                                      // 39 name
        "xskill-a2o-test",                               // 40 animation
        "600",                                           // 41 duration
        "6.71966",                                       // 42 distance
        "1",                                             // 43 moving
        "18",                                            // 44 positions
        "36",                                            // 45 rotations
        "1",                                             // 46 motions
        "ROOT",                                          // 47 bone
        "18",                                            // 48 frames
        "600",                                           // 49 duration
        "1",                                             // 50 positions used
        "1",                                             // 51 rotations used
        "0",                                             // 52 first position
        "0",                                             // 53 first rotation
        "0",                                             // 54 property lists
        "1",                                             // 55 time-property lists
        "1",                                             // 56 entries
        "100",                                           // 57 time
        "1",                                             // 58 pairs
        "footstep",                                      // 59
        "2",                                             // 60
    ];

    /// A version 200 file (the 1998 prototype) written by hand from the
    /// layout: a bone without property lists, can-blend or wiggle values,
    /// a suit without type or unknown integer, a skin of two lines.
    const PROTOTYPE_LINES: &[&str] = &[
        "// Character File. Copyright 1997, Maxis Inc.", // 1 comment
        "version 200",                                   // 2
        "1",                                             // 3 skeletons
        "new",                                           // 4 name
        "1",                                             // 5 bones
        "ROOT",                                          // 6 name
        "NULL",                                          // 7 parent
        "| -5.88894e-005 3.01498 0.00807638 |",          // 8 translation
        "| 0 -0.707107 0 -0.707106 |",                   // 9 rotation
        "1",                                             // 10 can translate
        "1",                                             // 11 can rotate
        "1",                                             // 12 suits
        "samnud",                                        // 13 name
        "1",                                             // 14 skins
        "ROOT",                                          // 15 bone
        "xskin-samnud-PELVIS-MHIP",                      // 16 mesh
        "0",                                             // 17 skills
    ];

    #[test]
    fn a_version_200_file_reads_without_the_retail_fields_and_back() {
        let text: String = PROTOTYPE_LINES
            .iter()
            .map(|line| format!("{line}\r\n"))
            .collect();
        let cmx = Cmx::from_text(text.as_bytes()).unwrap();
        assert_eq!(cmx.version, PROTOTYPE_VERSION);
        let root = &cmx.skeletons[0].bones[0];
        assert_eq!(root.translation, [-5.88894e-5, 3.01498, 0.00807638]);
        assert_eq!((root.can_translate, root.can_rotate), (1, 1));
        assert_eq!(root.property_lists, None);
        assert_eq!(
            (root.can_blend, root.wiggle_value, root.wiggle_power),
            (None, None, None)
        );
        let suit = &cmx.suits[0];
        assert_eq!((suit.suit_type, suit.unknown), (None, None));
        assert_eq!(
            suit.skins[0].name,
            RawString::from("xskin-samnud-PELVIS-MHIP")
        );
        assert_eq!(
            (suit.skins[0].censor_flags, suit.skins[0].unknown),
            (None, None)
        );
        assert_eq!(cmx.to_text().unwrap(), text.as_bytes());
    }

    #[test]
    fn a_retail_field_in_a_version_200_value_is_not_written() {
        let mut cmx = humanoid();
        cmx.version = PROTOTYPE_VERSION;
        let error = cmx.to_text().unwrap_err().to_string();
        assert_eq!(
            error,
            "skeletons[0].bones[0].property_lists: the condition `version >= 300` does not \
             hold but the value is present"
        );
    }

    fn golden() -> String {
        GOLDEN_LINES
            .iter()
            .map(|line| format!("{line}\r\n"))
            .collect()
    }

    fn error_of(text: &str) -> String {
        Cmx::from_text(text.as_bytes()).unwrap_err().to_string()
    }

    fn replaced(from: &str, to: &str) -> String {
        let text = golden();
        assert!(text.contains(from), "{from}");
        text.replacen(from, to, 1)
    }

    #[test]
    fn golden_text_reads_to_known_values_and_back() {
        let cmx = Cmx::from_text(golden().as_bytes()).unwrap();
        assert_eq!(cmx.comment, RawString::from(MAXIS_COMMENT));
        let skeleton = &cmx.skeletons[0];
        let parents: Vec<_> = skeleton
            .bone_parents()
            .map(|(bone, parent)| (bone.to_text(), parent.map(RawString::to_text)))
            .collect();
        assert_eq!(
            parents,
            [
                ("ROOT".to_owned(), None),
                ("PELVIS".to_owned(), Some("ROOT".to_owned()))
            ]
        );
        let root = &skeleton.bones[0];
        assert_eq!(
            root.property_lists.as_ref().unwrap()[0].properties[0].value,
            RawString::from("adult")
        );
        assert_eq!(root.translation, [0.0, 1.5, -2.5e-5]);
        assert_eq!(skeleton.bones[1].wiggle_value, Some(400000.0));
        assert_eq!(
            cmx.suit_names().collect::<Vec<_>>(),
            [&RawString::from("b001fafat_01")]
        );
        assert_eq!(
            cmx.skill_names().collect::<Vec<_>>(),
            [&RawString::from("a2o-test")]
        );
        let motion = &cmx.skills[0].motions[0];
        let entry = &motion.time_property_lists[0].entries[0];
        assert_eq!(entry.time, 100);
        assert_eq!(entry.properties[0].key, RawString::from("footstep"));
        assert_eq!(String::from_utf8(cmx.to_text().unwrap()).unwrap(), golden());
    }

    #[test]
    fn malformed_files_name_line_column_and_field() {
        assert_eq!(
            error_of(&replaced("version 300", "version 301")),
            "line 2:9: version: version 301 is neither 300 (the released game) nor 200 \
             (its 1998 prototype)"
        );
        assert_eq!(
            error_of(&replaced("\r\n400000\r\n", "\r\nlots\r\n")),
            "line 27:1: skeletons[0].bones[1].wiggle_value: expected a number, found `lots`"
        );
        assert_eq!(
            error_of(&replaced("| 0.1 0 0 |", "| 0.1 0 |")),
            "line 22:9: skeletons[0].bones[1].translation[2]: expected a number, found `|`"
        );
        assert_eq!(
            error_of(&replaced("\r\n1\r\nb001fafat_01", "\r\n9\r\nb001fafat_01")),
            // A version 200 suit takes two lines at least, so the count
            // passes the first bound and the second suit reads a skill.
            "line 39:1: suits[1].suit_type: expected an integer, found `a2o-test`"
        );
        // A missing line shifts the rest: the suit count becomes the wiggle
        // power and the suit's name the suit count.
        assert_eq!(
            error_of(&replaced("\r\n0.02\r\n", "\r\n")),
            "line 29:1: suits: expected an integer, found `b001fafat_01`"
        );
    }

    #[test]
    fn describe_lists_counts_suits_skills_and_the_bone_tree() {
        let description = Cmx::from_text(golden().as_bytes()).unwrap().describe();
        assert_eq!(
            description.facts,
            [
                ("version", "300".to_owned()),
                ("skeletons", "1".to_owned()),
                ("skeleton", "adult (2 bones)".to_owned()),
                ("suits", "1".to_owned()),
                (
                    "suit",
                    "b001fafat_01: xskin-b001fafat_01-PELVIS-BODY (on PELVIS)".to_owned()
                ),
                ("skills", "1".to_owned()),
                (
                    "skill",
                    "a2o-test: 18 frames over 600 ms, data xskill-a2o-test.cfp, 1 motions: \
                     ROOT (translation, rotation)"
                        .to_owned()
                ),
            ]
        );
        let tree: Vec<_> = description
            .joints
            .iter()
            .map(|joint| (joint.name.as_str(), joint.parent))
            .collect();
        assert_eq!(tree, [("ROOT", None), ("PELVIS", Some(0))]);
    }

    #[test]
    fn every_truncation_is_an_error() {
        let text = golden();
        let last_line = text.len() - "2\r\n".len();
        for len in 0..last_line {
            let error = Cmx::from_text(&text.as_bytes()[..len]).unwrap_err();
            assert!(
                matches!(error.position, Some(Position::Text { line, .. }) if line <= GOLDEN_LINES.len() + 1),
                "{len}: {error}"
            );
        }
    }
}
