//! The Sims Online mesh (`.mesh`): a version, then the body of a `.bmf`
//! skin with big-endian integers.

use serde::{Deserialize, Serialize};

use super::bmf::Body;
use super::file_id::{self, FileId};
use super::skn;
use crate::files::{Files, FoundFile};
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, Rig, RigError, RigOptions};
use crate::schema::{BinarySchema, Endian, RawString};
use crate::Schema;

/// The Sims Online mesh (`.mesh`): a version (2), then the body of a
/// `.bmf` (the same types, `Body`) with big-endian integers; its floats
/// stay little-endian, as in `.skel`, and its strings are Pascal (a u8
/// length). See `sims-bmf` for the body's fields, and why its vertex count
/// is kept as data.
///
/// The mesh names neither itself nor its texture: a binding (`.bnd`) pairs
/// it with a texture, by file id. Posed as a `.skn` is.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Mesh {
    /// Format version; 2 in every known file. Kept as data: the readers
    /// know no other layout.
    pub version: u32,
    /// Bones, faces, bindings, texture coordinates, blends and vertices.
    #[schema(context(order = Endian::Big))]
    pub body: Body,
}

impl Mesh {
    /// Decodes a found file, naming it in the error.
    pub fn from_file(found: &FoundFile) -> Result<Mesh, RigError> {
        Mesh::from_bytes(&found.bytes).map_err(|source| RigError::Referenced {
            path: found.path.clone(),
            source: Box::new(source),
        })
    }

    /// The mesh as neutral rig data with the Sims' conventions (see
    /// `.skn`), named `name`, with the texture `texture` names.
    pub fn skin(&self, name: String, texture: Option<String>) -> Result<rig::Skin, RigError> {
        let skn = self
            .body
            .to_skn(RawString::from(name.as_str()), RawString::from("x"));
        let mut skin = skn.skin()?;
        skin.name = name;
        skin.texture = texture;
        Ok(skin)
    }
}

impl Describe for Mesh {
    fn describe(&self) -> Description {
        Description {
            facts: vec![
                ("version", self.version.to_string()),
                ("bones", self.body.bones.len().to_string()),
                ("faces", self.body.faces.len().to_string()),
                ("bindings", self.body.bindings.len().to_string()),
                ("real vertices", self.body.vertices.len().to_string()),
                ("blends", self.body.blends.len().to_string()),
                ("vertex count stored", self.body.vertex_count.to_string()),
            ],
            joints: Vec::new(),
        }
    }
}

/// A mesh on its own has no name and no texture: its skin is named `mesh`
/// and untextured. Through a binding it gets both.
impl Rig for Mesh {
    fn skins(&self, _: &Files, options: RigOptions) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Some(
            options
                .single_level()
                .and_then(|()| self.skin("mesh".to_owned(), None).map(|skin| vec![skin])),
        )
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

/// The `.mesh` registration. Its version (2) is a TSO `.anim`'s too: found
/// by extension only.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "humanoid-arm.0000100000000009.mesh",
            document: format::binary_document(arm()),
        }]
    },
    ..Format::binary::<Mesh>("tso-mesh", "The Sims Online mesh", &["mesh"], |_| false)
};

/// The ids of the sample mesh, as its file name and the sample binding
/// give them.
pub const ARM_ID: FileId = FileId {
    file: 0x0000_1000,
    kind: 9,
};

/// The synthetic sample: `.skn`'s arm tube (eight vertices on the arm and
/// the hand, two blend vertices), as a `.mesh`.
pub fn arm() -> Mesh {
    Mesh {
        version: 2,
        body: Body::from_skn(&skn::arm_skin()),
    }
}
