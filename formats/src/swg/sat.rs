//! Star Wars Galaxies skeletal appearance template (`.sat`): a whole
//! character, put together from mesh lists (`.lmg`, or single `.mgn`
//! meshes) and skeletons (`.skt`), the first skeleton at the root and each
//! further one attached under a joint of those before it.
//!
//! An IFF file: `FORM SMAT > FORM 0003 >` `INFO`, `MSGN`, `SKTI`, then
//! optional `LATX`, `FORM LDTB`, `SFSK` and `APAG`. Paths inside are
//! relative to the folder holding `appearance/`. As the game's loader reads
//! it (SOE's `SkeletalAppearanceTemplate` and `LodDistanceTable`, in
//! SWG-Source/client-tools); checked against the real file in
//! `shared/corpus/swg`.

use serde::{Deserialize, Serialize};

use crate::files::{Files, FoundFile};
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, Rig, RigError, RigOptions, SkinPart};
use crate::schema::{BinarySchema, Count, RawChunk, RawString};
use crate::swg::lmg::MeshLevels;
use crate::swg::mgn::Mesh;
use crate::swg::skt;
use crate::Schema;

/// A `.sat` file: `FORM SMAT` holding one version form.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "SMAT")]
pub struct Appearance {
    /// The versioned contents (`FORM 0003`).
    pub version: AppearanceVersion,
}

/// The appearance versions ossuary knows.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AppearanceVersion {
    /// `FORM 0003`, the version of every known file.
    V3(AppearanceV3),
}

/// `FORM 0003`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0003")]
pub struct AppearanceV3 {
    /// `INFO`, first value: how many meshes `MSGN` names (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub mesh_count: Count<i32>,
    /// `INFO`: how many skeletons `SKTI` names (i32).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub skeleton_count: Count<i32>,
    /// `INFO`, last (i8): whether the game gives the character an
    /// animation controller (not 0: yes).
    #[schema(chunk = "INFO")]
    pub animation_controller: i8,
    /// `MSGN`: the meshes, null-terminated paths to mesh lists (`.lmg`) or
    /// meshes (`.mgn`), e.g. `appearance/mesh/twk_f_body.lmg`.
    #[schema(chunk = "MSGN", count = mesh_count, null_terminated)]
    pub meshes: Vec<RawString>,
    /// `SKTI`: the skeletons and where each attaches.
    #[schema(chunk = "SKTI", count = skeleton_count)]
    pub skeletons: Vec<SkeletonAttachment>,
    /// `LATX`: an i16 count, then which logical animation table (`.lat`)
    /// animates which skeleton.
    #[schema(chunk = "LATX", prefix = i16)]
    pub animation_tables: Option<Vec<AnimationTable>>,
    /// `FORM LDTB`: the distances each level of detail is drawn at.
    pub lod_distances: Option<LodDistances>,
    /// `SFSK` (u8): not 0 when the character must be skinned in software.
    #[schema(chunk = "SFSK")]
    pub soft_skinning: Option<u8>,
    /// `APAG` (u8): not 0 when the action generator's animations always play.
    #[schema(chunk = "APAG")]
    pub always_play_action_animations: Option<u8>,
    /// Any chunks or forms after those, kept as they are.
    #[schema(to_end)]
    pub unknown: Vec<RawChunk>,
}

/// An `SKTI` entry.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct SkeletonAttachment {
    /// A null-terminated path to a `.skt`.
    #[schema(null_terminated)]
    pub skeleton: RawString,
    /// The joint of the skeletons before it that its root hangs under,
    /// null-terminated; empty for the first skeleton, which is the root.
    #[schema(null_terminated)]
    pub joint: RawString,
}

/// A `LATX` entry.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct AnimationTable {
    /// The skeleton, a null-terminated path to a `.skt`.
    #[schema(null_terminated)]
    pub skeleton: RawString,
    /// Its table, a null-terminated path to a `.lat`.
    #[schema(null_terminated)]
    pub table: RawString,
}

/// `FORM LDTB`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "LDTB")]
pub struct LodDistances {
    /// The versioned contents (`FORM 0000`).
    pub version: LodDistancesVersion,
}

/// The distance table versions ossuary knows.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LodDistancesVersion {
    /// `FORM 0000`, the version of every known file.
    V0(LodDistancesV0),
}

/// `FORM 0000` inside `LDTB`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0000")]
pub struct LodDistancesV0 {
    /// `INFO`: an i16 count, then each level's distances, most detailed first.
    #[schema(chunk = "INFO", prefix = i16)]
    pub levels: Vec<LodDistance>,
}

/// The distances from the camera between which a level is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct LodDistance {
    pub min: f32,
    pub max: f32,
}

impl Appearance {
    fn contents(&self) -> &AppearanceV3 {
        let AppearanceVersion::V3(contents) = &self.version;
        contents
    }

    /// The skeletons as one, at level `lod` each (or a skeleton's last, as
    /// the game allows a skeleton fewer levels than the character): the
    /// first at the root, each further one's root under the joint `SKTI`
    /// names (found by name, ignoring case, among the joints before it).
    pub fn skeleton(&self, files: &Files, lod: usize) -> Result<rig::Skeleton, RigError> {
        let mut combined: Option<rig::Skeleton> = None;
        for (at, attachment) in self.contents().skeletons.iter().enumerate() {
            let path = attachment.skeleton.to_text();
            let found = files.find(&format!("the skeleton {path}"), std::slice::from_ref(&path))?;
            let skeleton = skt::Skeleton::from_bytes(&found.bytes)
                .map_err(|source| referenced(&found, source))?;
            let levels = skeleton.levels();
            let level = levels
                .get(lod.min(levels.len().saturating_sub(1)))
                .ok_or_else(|| RigError::Invalid(format!("{path} holds no skeleton")))?;
            let skeleton = level.skeleton()?;
            match &mut combined {
                None => combined = Some(skeleton),
                Some(base) => {
                    let joint = attachment.joint.to_text();
                    let under = (!joint.is_empty())
                        .then(|| {
                            base.joints
                                .iter()
                                .position(|candidate| candidate.name.eq_ignore_ascii_case(&joint))
                                .ok_or_else(|| {
                                    RigError::Invalid(format!(
                                        "SKTI[{at}]: {path} attaches under the joint {joint:?}, \
                                         which the skeletons before it do not have"
                                    ))
                                })
                        })
                        .transpose()?;
                    base.attach(skeleton, under)?;
                }
            }
        }
        combined.ok_or_else(|| RigError::Invalid("the appearance names no skeleton".to_owned()))
    }

    /// The skins of every mesh `MSGN` names: level `options.lod` of a mesh
    /// list, or a mesh itself (which has one level).
    pub fn skins(&self, files: &Files, options: RigOptions) -> Result<Vec<rig::Skin>, RigError> {
        let mut skins = Vec::new();
        for part in self.skin_parts(files, options) {
            skins.extend(part.skins?);
        }
        Ok(skins)
    }

    /// The skins of each mesh `MSGN` names, read one by one.
    pub fn skin_parts(&self, files: &Files, options: RigOptions) -> Vec<SkinPart> {
        self.contents()
            .meshes
            .iter()
            .map(|path| {
                let path = path.to_text();
                SkinPart {
                    skins: named_skins(files, &path, options),
                    name: path,
                }
            })
            .collect()
    }
}

/// The skins of the mesh or mesh list at `path`, at level `options.lod`.
fn named_skins(files: &Files, path: &str, options: RigOptions) -> Result<Vec<rig::Skin>, RigError> {
    let found = files.find(&format!("the mesh {path}"), &[path.to_owned()])?;
    match found.bytes.get(8..12) {
        Some(b"MLOD") => {
            let levels = MeshLevels::from_bytes(&found.bytes)
                .map_err(|source| referenced(&found, source))?;
            levels
                .level_skins(&files.beside_found(&found), options)
                .map_err(|error| naming(&found, error))
        }
        _ => {
            let mesh =
                Mesh::from_bytes(&found.bytes).map_err(|source| referenced(&found, source))?;
            options
                .single_level()
                .map_err(|error| naming(&found, error))?;
            mesh.skins(path)
        }
    }
}

/// A level or value a referenced file lacks, said of that file.
fn naming(found: &FoundFile, error: RigError) -> RigError {
    match error {
        RigError::Invalid(message) => {
            RigError::Invalid(format!("{}: {message}", found.path.display()))
        }
        other => other,
    }
}

fn referenced(found: &FoundFile, source: crate::schema::Error) -> RigError {
    RigError::Referenced {
        path: found.path.clone(),
        source: Box::new(source),
    }
}

impl Describe for Appearance {
    fn describe(&self) -> Description {
        let contents = self.contents();
        let skeletons = contents
            .skeletons
            .iter()
            .map(|attachment| match attachment.joint.as_bytes() {
                [] => format!("{} (root)", attachment.skeleton),
                _ => format!("{} under {}", attachment.skeleton, attachment.joint),
            })
            .collect::<Vec<_>>();
        let mut facts = vec![
            (
                "meshes",
                contents
                    .meshes
                    .iter()
                    .map(RawString::to_text)
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            ("skeletons", skeletons.join(", ")),
        ];
        if let Some(distances) = &contents.lod_distances {
            let LodDistancesVersion::V0(table) = &distances.version;
            let levels = table
                .levels
                .iter()
                .map(|level| format!("{} to {}", level.min, level.max))
                .collect::<Vec<_>>();
            facts.push(("level-of-detail distances", levels.join(", ")));
        }
        Description {
            facts,
            joints: Vec::new(),
        }
    }
}

impl Rig for Appearance {
    /// The skeletons put together, each at level `options.lod`.
    fn skeleton(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<rig::Skeleton, RigError>> {
        Some(self.skeleton(files, options.lod))
    }

    /// Level `options.lod` of every mesh.
    fn skins(
        &self,
        files: &Files,
        options: RigOptions,
    ) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Some(self.skins(files, options))
    }

    /// Level `options.lod` of each mesh, one by one.
    fn skin_parts(&self, files: &Files, options: RigOptions) -> Option<Vec<SkinPart>> {
        Some(self.skin_parts(files, options))
    }
}

/// The `.sat` registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "humanoid.sat",
            document: format::binary_document(humanoid()),
        }]
    },
    ..Format::binary::<Appearance>(
        "swg-sat",
        "Star Wars Galaxies appearance",
        &["sat"],
        // `FORM`, a size, then `SMAT`.
        |bytes| bytes.starts_with(b"FORM") && bytes.get(8..12) == Some(b"SMAT"),
    )
};

/// The sample humanoid as an appearance: the `.lmg` sample on the `.skt`
/// sample, with an animation table and two levels' distances.
pub fn humanoid() -> Appearance {
    let skeleton = RawString::from("appearance/skeleton/humanoid.skt");
    Appearance {
        version: AppearanceVersion::V3(AppearanceV3 {
            mesh_count: Count::new(),
            skeleton_count: Count::new(),
            animation_controller: 1,
            meshes: vec![RawString::from("appearance/mesh/humanoid.lmg")],
            skeletons: vec![SkeletonAttachment {
                skeleton: skeleton.clone(),
                joint: RawString::from(""),
            }],
            animation_tables: Some(vec![AnimationTable {
                skeleton,
                table: RawString::from("appearance/lat/humanoid.lat"),
            }]),
            lod_distances: Some(LodDistances {
                version: LodDistancesVersion::V0(LodDistancesV0 {
                    levels: vec![
                        LodDistance {
                            min: -1.0,
                            max: 10.0,
                        },
                        LodDistance {
                            min: 9.0,
                            max: 10000.0,
                        },
                    ],
                }),
            }),
            soft_skinning: None,
            always_play_action_animations: None,
            unknown: Vec::new(),
        }),
    }
}
