//! The Sims Online binding (`.bnd`): a mesh, the bone it hangs from and its
//! texture, named by file id.

use serde::{Deserialize, Serialize};

use super::file_id::{self, FileId};
use crate::files::{Files, FindError};
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, Rig, RigError, RigOptions};
use crate::schema::RawString;
use crate::Schema;

/// What a reference kind of 8 says: a group id, a file id and a type id
/// follow (the only kind FreeSO reads or writes).
const REFERENCE: u32 = 8;

/// The Sims Online binding (`.bnd`), big-endian: a version, the bone the
/// mesh is bound to, then the mesh's and the texture's references, each a
/// kind (8: a group id, a file id and a type id follow) and the ids.
///
/// The files of a character name each other by file id and type id, which
/// end their names as 16 hexadecimal digits
/// (`FSO-Accessory-CapeBlack.883209d300000009.mesh`). A binding's mesh and
/// texture are looked for beside it and in the folders FreeSO keeps them in
/// (`Meshes`, `Textures`) beside its folder. The bone names the bone that
/// carries the mesh's vertices where the mesh's own bindings do not say.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Bnd {
    /// Format version; 1 in every known file. FreeSO refuses others;
    /// kept as data, as the layout does not depend on it.
    pub version: u32,
    /// The bone the mesh is bound to, e.g. `SPINE1`.
    #[schema(pascal)]
    pub bone: RawString,
    /// 8 when the mesh's ids follow.
    pub mesh_kind: u32,
    /// The mesh (`.mesh`).
    #[schema(present_if = mesh_kind == 8)]
    pub mesh: Option<Reference>,
    /// 8 when the texture's ids follow.
    pub texture_kind: u32,
    /// The texture (an image).
    #[schema(present_if = texture_kind == 8)]
    pub texture: Option<Reference>,
}

/// A file named by its ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(big)]
pub struct Reference {
    /// The group the file belongs to; 0 in FreeSO's files, and no part of
    /// the file's name.
    pub group: u32,
    /// The file's id and type id.
    pub id: FileId,
}

impl Bnd {
    /// The skins of the mesh the binding names, found by its id, with the
    /// texture's file (found by its id) as their texture. A missing mesh
    /// is an error naming its id and where it was looked for; a missing
    /// texture leaves the texture's name, for the caller to warn about.
    pub fn skins(&self, files: &Files) -> Result<Vec<rig::Skin>, RigError> {
        let Some(mesh) = self.mesh else {
            return Err(RigError::Invalid(format!(
                "mesh_kind: {}, so the binding names no mesh",
                self.mesh_kind
            )));
        };
        let found = file_id::find(files, "mesh", mesh.id, "mesh")?;
        let decoded = super::mesh::Mesh::from_file(&found)?;
        let texture = match self.texture {
            None => None,
            Some(texture) => Some(texture_name(files, texture.id)?),
        };
        let name = found
            .path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        decoded
            .skin(name, texture)
            .map(|skin| vec![skin])
            .map_err(|error| match error {
                RigError::Invalid(message) => {
                    RigError::Invalid(format!("{}: {message}", found.path.display()))
                }
                other => other,
            })
    }
}

/// Where the texture with `id` is, as a name [`Files`] finds from the
/// binding's folder (`Textures/<file name>` when it lies in a sibling
/// `Textures` folder); when it is nowhere, the id as FreeSO names it,
/// which no file answers to.
fn texture_name(files: &Files, id: FileId) -> Result<String, RigError> {
    match file_id::find_name(files, "texture", id) {
        Ok(name) => Ok(name),
        Err(FindError::Missing { .. }) => Ok(id.to_string()),
        Err(other) => Err(other.into()),
    }
}

impl Describe for Bnd {
    fn describe(&self) -> Description {
        let reference = |reference: &Option<Reference>, kind: u32| match reference {
            Some(reference) => reference.id.to_string(),
            None => format!("none (kind {kind})"),
        };
        Description {
            facts: vec![
                ("version", self.version.to_string()),
                ("bone", self.bone.to_string()),
                ("mesh", reference(&self.mesh, self.mesh_kind)),
                ("texture", reference(&self.texture, self.texture_kind)),
            ],
            joints: Vec::new(),
        }
    }
}

impl Rig for Bnd {
    fn skins(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Some(
            options
                .single_level()
                .and_then(|()| Bnd::skins(self, files)),
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

/// The `.bnd` registration. Its version (1) is a `.skel`'s too: found by
/// extension only.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "humanoid-arm.000010010000000b.bnd",
            document: format::binary_document(arm()),
        }]
    },
    ..Format::binary::<Bnd>("tso-bnd", "The Sims Online binding", &["bnd"], |_| false)
};

/// The synthetic sample: the humanoid's left arm mesh (`.mesh`'s sample)
/// on `L_ARM`, with a texture the fixtures do not hold.
pub fn arm() -> Bnd {
    Bnd {
        version: 1,
        bone: RawString::from("L_ARM"),
        mesh_kind: REFERENCE,
        mesh: Some(Reference {
            group: 0,
            id: super::mesh::ARM_ID,
        }),
        texture_kind: REFERENCE,
        texture: Some(Reference {
            group: 0,
            id: FileId {
                file: 0x0000_1003,
                kind: 0x14,
            },
        }),
    }
}
