//! The Sims 1998 prototype's skill stream (`.bin`): a skill's translations
//! and rotations as plain floats.

use serde::{Deserialize, Serialize};

use super::cfp::Values;
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::Rig;
use crate::schema::{BinarySchema, Error, ErrorKind};
use crate::Schema;

/// The Sims 1998 prototype's skill stream (`.bin`): the keys of one skill,
/// uncompressed, where the released game has a `.cfp`. Little-endian f32s
/// and nothing else: the skill's `position_count` translations (x, y, z),
/// then its `rotation_count` rotations (x, y, z, w; quaternions that act as
/// their conjugates, like a bone's rest rotation). A file is exactly
/// 4 × (3 × `position_count` + 4 × `rotation_count`) bytes long. Neither
/// count is in the file (the skill in the `.cmx` holds them), so a `.bin`
/// reads on its own as its floats and splits into translations and
/// rotations only with its skill's counts (ossuary's `bin::Keys`, which
/// takes them as context). A skill's motions index the two lists as they
/// index a `.cfp`'s.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Bin {
    /// Every float, in file order: the translations' then the rotations'.
    #[schema(to_end)]
    pub values: Vec<f32>,
}

/// A `.bin` split by its skill's counts.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, context(position_count: u32, rotation_count: u32))]
pub struct Keys {
    /// `position_count` translations (x, y, z).
    #[schema(count = position_count)]
    pub translations: Vec<[f32; 3]>,
    /// `rotation_count` rotations (x, y, z, w), acting as their conjugates.
    #[schema(count = rotation_count)]
    pub rotations: Vec<[f32; 4]>,
}

impl Keys {
    /// Splits a `.bin` into the lists its skill's counts name. A file of
    /// another size is an error naming its floats and the counts.
    pub fn split(bytes: &[u8], counts: &KeysContext) -> Result<Keys, Error> {
        let [positions, rotations] = [counts.position_count, counts.rotation_count].map(u64::from);
        let needed = 3 * positions + 4 * rotations;
        let held = bytes.len() as u64;
        if held != 4 * needed {
            return Err(Error::new(ErrorKind::Invalid(format!(
                "the file holds {held} bytes, but the skill's counts need {needed} floats \
                 (3 × {positions} translations + 4 × {rotations} rotations), {} bytes",
                4 * needed
            ))));
        }
        Keys::from_bytes_with(bytes, counts)
    }

    /// The counts these lists hold, for writing them.
    pub fn counts(&self) -> Result<KeysContext, Error> {
        let count = |len: usize, field| {
            u32::try_from(len).map_err(|_| {
                Error::new(ErrorKind::Invalid(format!(
                    "{len} entries; a skill counts at most {}",
                    u32::MAX
                )))
                .in_field(field)
            })
        };
        Ok(KeysContext {
            position_count: count(self.translations.len(), "translations")?,
            rotation_count: count(self.rotations.len(), "rotations")?,
        })
    }

    /// The keys as a skill's values.
    pub fn values(self) -> Values {
        Values {
            translations: self.translations,
            rotations: self.rotations,
        }
    }
}

impl From<&Values> for Bin {
    /// The translations' floats, then the rotations'.
    fn from(values: &Values) -> Self {
        let translations = values.translations.iter().flatten();
        let rotations = values.rotations.iter().flatten();
        Bin {
            values: translations.chain(rotations).copied().collect(),
        }
    }
}

impl Describe for Bin {
    /// The floats; which are translations needs the skill's counts.
    fn describe(&self) -> Description {
        Description {
            facts: vec![("floats", self.values.len().to_string())],
            joints: Vec::new(),
        }
    }
}

/// Posed only through its skill.
impl Rig for Bin {}

/// The `.bin` registration. No signature: found by extension only.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "xskill-humanoid-wave.bin",
            document: format::binary_document(humanoid_wave()),
        }]
    },
    ..Format::binary::<Bin>(
        "sims-bin",
        "The Sims 1998 prototype skill stream",
        &["bin"],
        |_| false,
    )
};

/// The humanoid's wave (the skill of [`super::cmx::humanoid`]) as the
/// prototype stored it: the same keys as [`super::cfp::humanoid_wave`].
pub fn humanoid_wave() -> Bin {
    let half = std::f32::consts::FRAC_1_SQRT_2;
    Bin::from(&Values {
        translations: Vec::new(),
        // Stored quaternions act as their conjugates: this one turns by
        // -90 degrees as written, +90 as applied.
        rotations: vec![[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, -half, half]],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Position;

    /// One translation and two rotations, written by hand from the layout.
    #[rustfmt::skip]
    const GOLDEN: &[u8] = &[
        0x00, 0x00, 0x80, 0x3F, // translations[0].x: 1.0
        0x00, 0x00, 0x00, 0xBF, //   y: -0.5
        0x00, 0x00, 0x20, 0x41, //   z: 10.0
        0x00, 0x00, 0x00, 0x00, // rotations[0].x: 0
        0x00, 0x00, 0x00, 0x00, //   y: 0
        0x00, 0x00, 0x00, 0x00, //   z: 0
        0x00, 0x00, 0x80, 0x3F, //   w: 1.0
        0x00, 0x00, 0x00, 0x00, // rotations[1].x: 0
        0x00, 0x00, 0x00, 0x00, //   y: 0
        0xF3, 0x04, 0x35, 0xBF, //   z: -0.70710677
        0xF3, 0x04, 0x35, 0x3F, //   w: 0.70710677
    ];

    fn counts(positions: u32, rotations: u32) -> KeysContext {
        KeysContext {
            position_count: positions,
            rotation_count: rotations,
        }
    }

    #[test]
    fn golden_bytes_read_on_their_own_as_floats_and_write_back() {
        let bin = Bin::from_bytes(GOLDEN).unwrap();
        assert_eq!(bin.values.len(), 11);
        assert_eq!(bin.values[..3], [1.0, -0.5, 10.0]);
        assert_eq!(bin.to_bytes().unwrap(), GOLDEN);
        assert_eq!(bin.describe().facts, [("floats", "11".to_owned())]);
    }

    #[test]
    fn golden_bytes_split_by_their_skills_counts_into_known_keys() {
        let keys = Keys::split(GOLDEN, &counts(1, 2)).unwrap();
        let half = std::f32::consts::FRAC_1_SQRT_2;
        assert_eq!(keys.translations, [[1.0, -0.5, 10.0]]);
        assert_eq!(
            keys.rotations,
            [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, -half, half]]
        );
        assert_eq!(keys.counts().unwrap(), counts(1, 2));
        assert_eq!(keys.to_bytes_with(&counts(1, 2)).unwrap(), GOLDEN);
        let values = keys.values();
        assert_eq!(Bin::from(&values).to_bytes().unwrap(), GOLDEN);
    }

    #[test]
    fn counts_that_disagree_with_the_size_are_errors_naming_both() {
        assert_eq!(
            Keys::split(GOLDEN, &counts(2, 2)).unwrap_err().to_string(),
            "the file holds 44 bytes, but the skill's counts need 14 floats \
             (3 × 2 translations + 4 × 2 rotations), 56 bytes"
        );
        // The same number of floats, split otherwise, reads: the size is
        // all a `.bin` can be checked by.
        assert!(Keys::split(&GOLDEN[..28], &counts(0, 1)).is_err());
        assert_eq!(
            Keys::split(&GOLDEN[..28], &counts(1, 1))
                .unwrap()
                .rotations
                .len(),
            1
        );
    }

    #[test]
    fn a_size_that_is_not_whole_floats_is_an_error_at_the_cut() {
        let error = Bin::from_bytes(&GOLDEN[..6]).unwrap_err();
        assert_eq!(error.position, Some(Position::Byte(4)));
        assert_eq!(error.path.to_string(), "values[1]");
    }

    #[test]
    fn lists_that_disagree_with_their_counts_do_not_write() {
        let mut keys = Keys::split(GOLDEN, &counts(1, 2)).unwrap();
        keys.rotations.pop();
        assert!(keys.to_bytes_with(&counts(1, 2)).is_err());
        assert_eq!(keys.counts().unwrap(), counts(1, 1));
    }
}
