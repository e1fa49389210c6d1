//! Star Wars Galaxies mesh level-of-detail list (`.lmg`).
//!
//! An IFF file: `FORM MLOD > FORM 0000 > INFO` (an i16 level count), then
//! one `NAME` chunk per level, each a null-terminated path to a `.mgn`
//! such as `appearance/mesh/twk_f_body_l0.mgn`, most detailed first. Paths
//! are relative to the folder holding `appearance/`. As the game's loader
//! reads it (SOE's `LodMeshGeneratorTemplate`, in SWG-Source/client-tools);
//! checked against the real files in `shared/corpus/swg`.

use serde::{Deserialize, Serialize};

use crate::files::Files;
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, Rig, RigError, RigOptions};
use crate::schema::{BinarySchema, Count, RawString};
use crate::swg::mgn::Mesh;
use crate::Schema;

/// A `.lmg` file: `FORM MLOD` holding one version form.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "MLOD")]
pub struct MeshLevels {
    /// The versioned contents (`FORM 0000`).
    pub version: MeshLevelsVersion,
}

/// The list versions ossuary knows.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeshLevelsVersion {
    /// `FORM 0000`, the version of every known file.
    V0(MeshLevelsV0),
}

/// `FORM 0000`: the level count, then one `NAME` per level.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0000")]
pub struct MeshLevelsV0 {
    /// `INFO`: the number of levels (i16).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub level_count: Count<i16>,
    /// The levels' meshes, most detailed first.
    #[schema(count = level_count)]
    pub levels: Vec<LevelName>,
}

/// `NAME`: one level's mesh.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, chunk = "NAME")]
pub struct LevelName {
    /// A null-terminated path to a `.mgn`.
    #[schema(null_terminated)]
    pub path: RawString,
}

impl MeshLevels {
    /// The levels' mesh paths, most detailed first.
    pub fn levels(&self) -> Vec<String> {
        let MeshLevelsVersion::V0(list) = &self.version;
        list.levels
            .iter()
            .map(|level| level.path.to_text())
            .collect()
    }

    /// The skins of the mesh of level `options.lod`, found through `files`.
    pub fn level_skins(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Result<Vec<rig::Skin>, RigError> {
        let levels = self.levels();
        let path = options.level(&levels)?;
        let found = files.find(
            &format!("level {} of the mesh list, {path}", options.lod),
            std::slice::from_ref(path),
        )?;
        let mesh = Mesh::from_bytes(&found.bytes).map_err(|source| RigError::Referenced {
            path: found.path.clone(),
            source: Box::new(source),
        })?;
        mesh.skins(path)
    }
}

impl Describe for MeshLevels {
    fn describe(&self) -> Description {
        let levels = self.levels();
        Description {
            facts: vec![
                ("levels", levels.len().to_string()),
                ("meshes", levels.join(", ")),
            ],
            joints: Vec::new(),
        }
    }
}

impl Rig for MeshLevels {
    /// The skins of level `options.lod`.
    fn skins(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Some(self.level_skins(files, options))
    }
}

/// The `.lmg` registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "humanoid.lmg",
            document: format::binary_document(humanoid()),
        }]
    },
    ..Format::binary::<MeshLevels>(
        "swg-lmg",
        "Star Wars Galaxies mesh level-of-detail list",
        &["lmg"],
        // `FORM`, a size, then `MLOD`.
        |bytes| bytes.starts_with(b"FORM") && bytes.get(8..12) == Some(b"MLOD"),
    )
};

/// A list of one level: the `.mgn` sample, named as the game would name it.
pub fn humanoid() -> MeshLevels {
    MeshLevels {
        version: MeshLevelsVersion::V0(MeshLevelsV0 {
            level_count: Count::new(),
            levels: vec![LevelName {
                path: RawString::from("appearance/mesh/humanoid.mgn"),
            }],
        }),
    }
}
