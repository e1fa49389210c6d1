//! The Sims 1 binary character file (`.bcf`): the `.cmx` layout, little-endian.

use std::any::Any;

use serde::{Deserialize, Serialize};

use super::cmx::{self, Cmx, Skeleton, Skill, Suit, MAXIS_COMMENT, RETAIL_VERSION};
use crate::files::Files;
use crate::format::{self, Conversion, Describe, Description, Document, Format, Sample};
use crate::rig::{self, Rig, RigError, RigOptions};
use crate::schema::text::TextStyle;
use crate::schema::{Magic, RawString};
use crate::Schema;

/// The Sims 1 binary character file (`.bcf`): the lists of a `.cmx` in the
/// same order, without its comment and version lines, and always with the
/// fields the released game added (version 300's). Little-endian, u32
/// counts, Pascal strings (a u8 length, as FreeSO and ts1-blender-io read
/// them). The lists' types are the `.cmx`'s, in their binary encoding.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Bcf {
    #[schema(prefix = u32, context(version = 300))]
    pub skeletons: Vec<Skeleton>,
    #[schema(prefix = u32, context(version = 300))]
    pub suits: Vec<Suit>,
    #[schema(prefix = u32)]
    pub skills: Vec<Skill>,
}

impl Bcf {
    /// The `.bcf` of a `.cmx`'s data. The comment line, the text style and
    /// the version have no place in a `.bcf`, which always holds the
    /// released game's fields: those a version 200 file lacks are filled
    /// in as 0 (a bone's property lists: none).
    pub fn from_cmx(cmx: &Cmx) -> Bcf {
        let mut bcf = Bcf {
            skeletons: cmx.skeletons.clone(),
            suits: cmx.suits.clone(),
            skills: cmx.skills.clone(),
        };
        cmx::fill_retail_fields(&mut bcf.skeletons, &mut bcf.suits, |_| 0);
        bcf
    }

    /// The `.cmx` of the same data: version 300, with the comment line and
    /// style of the original tools (CRLF, MSVC `%g`), which every known
    /// `.cmx` has.
    pub fn to_cmx(&self) -> Cmx {
        Cmx {
            style: TextStyle::default(),
            comment: RawString::from(MAXIS_COMMENT),
            version_keyword: Magic,
            version: RETAIL_VERSION,
            skeletons: self.skeletons.clone(),
            suits: self.suits.clone(),
            skills: self.skills.clone(),
        }
    }
}

impl Describe for Bcf {
    /// Described as the `.cmx` it converts to.
    fn describe(&self) -> Description {
        self.to_cmx().describe()
    }
}

/// Posed, dressed and animated as the `.cmx` it converts to.
impl Rig for Bcf {
    fn skeleton(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<rig::Skeleton, RigError>> {
        self.to_cmx().skeleton(files, options)
    }

    fn skins(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<Vec<rig::Skin>, RigError>> {
        self.to_cmx().skins(files, options)
    }

    fn animations(&self, files: &Files) -> Option<Result<Vec<rig::Animation>, RigError>> {
        self.to_cmx().animations(files)
    }

    fn named_animations(&self, files: &Files) -> Option<Vec<rig::NamedAnimation>> {
        self.to_cmx().named_animations(files)
    }
}

/// The `.bcf` registration. Binary with no signature: found by extension only.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "humanoid.bcf",
            document: format::binary_document(Bcf::from_cmx(&cmx::humanoid())),
        }]
    },
    conversions: &[
        Conversion {
            from: &cmx::FORMAT,
            to: &FORMAT,
            convert: cmx_to_bcf,
        },
        Conversion {
            from: &FORMAT,
            to: &cmx::FORMAT,
            convert: bcf_to_cmx,
        },
    ],
    ..Format::binary::<Bcf>(
        "sims-bcf",
        "The Sims binary character file",
        &["bcf"],
        |_| false,
    )
};

/// [`Bcf::from_cmx`], as a conversion between registered formats.
fn cmx_to_bcf(source: &dyn Any) -> Option<Box<dyn Document>> {
    format::converted(source, |cmx: &Cmx| {
        format::binary_document(Bcf::from_cmx(cmx))
    })
}

/// [`Bcf::to_cmx`], as a conversion between registered formats.
fn bcf_to_cmx(source: &dyn Any) -> Option<Box<dyn Document>> {
    format::converted(source, |bcf: &Bcf| format::text_document(bcf.to_cmx()))
}

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
        assert_eq!(Bcf::from_cmx(&cmx).to_bytes().unwrap(), BCF);
    }

    #[test]
    fn golden_bcf_bytes_become_cmx_text() {
        let bcf = Bcf::from_bytes(BCF).unwrap();
        assert_eq!(bcf.skills[0].motions[0].first_position, -1);
        let text = bcf.to_cmx().to_text().unwrap();
        assert_eq!(String::from_utf8(text).unwrap(), CMX);
    }

    #[test]
    fn a_version_200_cmx_becomes_a_bcf_with_the_retail_fields_as_0() {
        let bcf = Bcf::from_cmx(&cmx::prototype_humanoid());
        let bone = &bcf.skeletons[0].bones[0];
        assert_eq!(bone.property_lists, Some(Vec::new()));
        assert_eq!(
            (bone.can_blend, bone.wiggle_value, bone.wiggle_power),
            (Some(0), Some(0.0), Some(0.0))
        );
        let suit = &bcf.suits[0];
        assert_eq!((suit.suit_type, suit.unknown), (Some(0), Some(0)));
        let skin = &suit.skins[0];
        assert_eq!((skin.censor_flags, skin.unknown), (Some(0), Some(0)));
        let bytes = bcf.to_bytes().unwrap();
        assert_eq!(Bcf::from_bytes(&bytes).unwrap(), bcf);
        assert_eq!(bcf.to_cmx().version, RETAIL_VERSION);
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
