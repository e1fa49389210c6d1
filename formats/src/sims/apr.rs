//! The Sims Online appearance (`.apr`): the bindings that dress a body
//! part (a head, a body, an accessory) in one skin tone.

use serde::{Deserialize, Serialize};

use super::bnd::Bnd;
use super::file_id::{self, FileId};
use crate::files::Files;
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, Rig, RigError, RigOptions, SkinPart};
use crate::schema::BinarySchema;
use crate::Schema;

/// The Sims Online appearance (`.apr`), big-endian: a version, the
/// thumbnail's ids, then the ids of its bindings (`.bnd`), each found
/// beside the appearance or in a `Bindings` folder beside its folder (see
/// `tso-bnd` for how ids name files).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Apr {
    /// Format version; 1 in every known file. Kept as data.
    pub version: u32,
    /// The thumbnail image's ids; 0 and 0 in FreeSO's files, which have
    /// none.
    pub thumbnail: FileId,
    /// The bindings, in file order.
    #[schema(prefix = u32)]
    pub bindings: Vec<FileId>,
}

impl Apr {
    /// Every binding's skins, each binding found by its id and read beside
    /// itself. A binding that cannot be found or read is an error naming
    /// it and where it was looked for.
    pub fn skins(&self, files: &Files) -> Result<Vec<rig::Skin>, RigError> {
        let mut skins = Vec::new();
        for part in self.skin_parts(files) {
            skins.extend(part.skins?);
        }
        Ok(skins)
    }

    /// Each binding's skins, read one by one, named by the binding's id.
    pub fn skin_parts(&self, files: &Files) -> Vec<SkinPart> {
        self.bindings
            .iter()
            .map(|id| SkinPart {
                name: id.to_string(),
                skins: binding_skins(files, *id),
            })
            .collect()
    }
}

/// The skins of the binding `id`, found by its id and read beside itself.
fn binding_skins(files: &Files, id: FileId) -> Result<Vec<rig::Skin>, RigError> {
    let found = file_id::find(files, "binding", id, "bnd")?;
    let binding = Bnd::from_bytes(&found.bytes).map_err(|source| RigError::Referenced {
        path: found.path.clone(),
        source: Box::new(source),
    })?;
    binding.skins(&files.beside_found(&found))
}

impl Describe for Apr {
    fn describe(&self) -> Description {
        let bindings: Vec<String> = self.bindings.iter().map(FileId::to_string).collect();
        Description {
            facts: vec![
                ("version", self.version.to_string()),
                ("thumbnail", self.thumbnail.to_string()),
                ("bindings", bindings.join(", ")),
            ],
            joints: Vec::new(),
        }
    }
}

impl Rig for Apr {
    fn skins(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Some(
            options
                .single_level()
                .and_then(|()| Apr::skins(self, files)),
        )
    }

    /// Each binding's skins, one by one.
    fn skin_parts(&self, files: &Files, options: RigOptions) -> Option<Vec<SkinPart>> {
        Some(match options.single_level() {
            Ok(()) => Apr::skin_parts(self, files),
            Err(error) => vec![SkinPart {
                name: String::new(),
                skins: Err(error),
            }],
        })
    }

    /// The first `.skel` beside the file or in a `Skeletons` folder beside
    /// its folder, when there is one.
    fn skeleton(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<rig::Skeleton, RigError>> {
        file_id::skeleton_beside(files, options)
    }
}

/// The `.apr` registration. Its version (1) is a `.skel`'s too: found by
/// extension only.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "humanoid-arm.000010020000000c.apr",
            document: format::binary_document(arm()),
        }]
    },
    ..Format::binary::<Apr>("tso-apr", "The Sims Online appearance", &["apr"], |_| false)
};

/// The synthetic sample: an appearance of one binding, `.bnd`'s sample.
pub fn arm() -> Apr {
    Apr {
        version: 1,
        thumbnail: FileId { file: 0, kind: 0 },
        bindings: vec![FileId {
            file: 0x0000_1001,
            kind: 0x0b,
        }],
    }
}
