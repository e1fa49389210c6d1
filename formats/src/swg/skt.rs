//! Star Wars Galaxies skeleton (`.skt`).
//!
//! An IFF file: `FORM SKTM > FORM 0002 >` eight chunks, one column per joint
//! attribute, all governed by the joint count in `INFO`. A file may instead
//! wrap several skeletons, one per level of detail, in
//! `FORM SLOD > FORM 0000 > INFO (i16 count), FORM SKTM...`. Payloads are
//! little-endian; IFF sizes are big-endian; there are no pad bytes.
//!
//! Chunk order and quaternion layout were checked against the real files in
//! `shared/corpus/swg` and against swgLib's reader: `BPTR` comes before
//! `BPRO`, and every quaternion (`RPRE`, `RPST`, `BPRO`) is stored w, x, y, z
//! (an identity rotation has 1.0 in its first float).

use serde::{Deserialize, Serialize};

use glam::Quat;

use crate::files::Files;
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, Axes, Rig, RigError, RigOptions, Transform};
use crate::schema::{Count, RawString};
use crate::Schema;

/// A `.skt` file: one skeleton, or several levels of detail. Remembers which,
/// so both kinds of file are written back byte for byte.
///
/// Joint posing: rotation R = RPST * BPRO * RPRE (Hamilton product, RPRE
/// applied first); local = T(BPTR) * R; world = parent * local.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Skeleton {
    /// `FORM SKTM`: a file holding one skeleton.
    Single(SkeletonForm),
    /// `FORM SLOD`: a file holding one skeleton per level of detail.
    LevelsOfDetail(LodForm),
}

/// `FORM SKTM`: one skeleton, in one of the known versions.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "SKTM")]
pub struct SkeletonForm {
    /// The versioned contents (`FORM 0002`).
    pub version: SkeletonVersion,
}

/// The skeleton versions ossuary knows, chosen by the version form's type.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkeletonVersion {
    /// `FORM 0002`, the version of every known file.
    V2(SkeletonV2),
}

/// `FORM 0002`: the joints as columns, one chunk per attribute, each with
/// one entry per joint in joint order. Parents come before their children.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0002")]
pub struct SkeletonV2 {
    /// `INFO`: the joint count (u32), shared by every other chunk.
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub joint_count: Count<u32>,
    /// `NAME`: joint names, null-terminated, e.g. `root`, `lThigh`.
    #[schema(chunk = "NAME", null_terminated, count = joint_count)]
    pub names: Vec<RawString>,
    /// `PRNT`: each joint's parent index; -1 for a root.
    #[schema(chunk = "PRNT", count = joint_count)]
    pub parents: Vec<i32>,
    /// `RPRE`: pre-rotations, applied before the bind rotation.
    #[schema(chunk = "RPRE", count = joint_count)]
    pub pre_rotations: Vec<Quaternion>,
    /// `RPST`: post-rotations, applied after the bind rotation.
    #[schema(chunk = "RPST", count = joint_count)]
    pub post_rotations: Vec<Quaternion>,
    /// `BPTR`: bind-pose translations relative to the parent (x, y, z).
    #[schema(chunk = "BPTR", count = joint_count)]
    pub bind_translations: Vec<[f32; 3]>,
    /// `BPRO`: bind-pose rotations relative to the parent.
    #[schema(chunk = "BPRO", count = joint_count)]
    pub bind_rotations: Vec<Quaternion>,
    /// `JROR`: each joint's rotation order, kept verbatim (0 in every known file).
    #[schema(chunk = "JROR", count = joint_count)]
    pub rotation_orders: Vec<i32>,
}

/// A rotation quaternion as `.skt` stores it: w first, then x, y, z.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Quaternion {
    /// Real part.
    pub w: f32,
    /// First imaginary part.
    pub x: f32,
    /// Second imaginary part.
    pub y: f32,
    /// Third imaginary part.
    pub z: f32,
}

/// `FORM SLOD`: skeletons for several levels of detail.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "SLOD")]
pub struct LodForm {
    /// The versioned contents (`FORM 0000`).
    pub version: LodVersion,
}

/// The level-of-detail wrapper versions ossuary knows.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LodVersion {
    /// `FORM 0000`, the version of every known file.
    V0(LodListV0),
}

/// `FORM 0000` inside `SLOD`: the level count, then one `FORM SKTM` per level.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0000")]
pub struct LodListV0 {
    /// `INFO`: the number of levels (i16).
    #[schema(chunk = "INFO")]
    #[serde(skip)]
    pub level_count: Count<i16>,
    /// One skeleton per level of detail, in file order.
    #[schema(count = level_count)]
    pub levels: Vec<SkeletonForm>,
}

/// One joint with all its columns together: the view the skinning crate and
/// the command line work with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Joint {
    /// The joint's name (`NAME`).
    pub name: RawString,
    /// The parent joint's index, -1 for a root (`PRNT`).
    pub parent: i32,
    /// Rotation applied before the bind rotation (`RPRE`).
    pub pre_rotation: Quaternion,
    /// Rotation applied after the bind rotation (`RPST`).
    pub post_rotation: Quaternion,
    /// Bind-pose translation relative to the parent (`BPTR`).
    pub bind_translation: [f32; 3],
    /// Bind-pose rotation relative to the parent (`BPRO`).
    pub bind_rotation: Quaternion,
    /// Rotation order, verbatim (`JROR`).
    pub rotation_order: i32,
}

/// The joint columns of a skeleton differ in length, so they do not form
/// joints. Only a value built in code can be like this: the reader checks
/// every column against `INFO`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the joint columns differ in length: {0}")]
pub struct ColumnMismatch(String);

impl Skeleton {
    /// The skeletons in the file: one, or one per level of detail.
    pub fn levels(&self) -> Vec<&SkeletonForm> {
        match self {
            Skeleton::Single(skeleton) => vec![skeleton],
            Skeleton::LevelsOfDetail(LodForm {
                version: LodVersion::V0(list),
            }) => list.levels.iter().collect(),
        }
    }
}

impl Describe for Skeleton {
    /// Counts per level, and the joint tree of the first (most detailed) level.
    fn describe(&self) -> Description {
        let levels = self.levels();
        let kind = match self {
            Skeleton::Single(_) => "single skeleton (FORM SKTM)",
            Skeleton::LevelsOfDetail(_) => "levels of detail (FORM SLOD)",
        };
        let joint_counts: Vec<String> = levels
            .iter()
            .map(|level| level.joint_count().to_string())
            .collect();
        let joints = levels
            .first()
            .map_or_else(Vec::new, |level| level.joint_tree());
        Description {
            facts: vec![
                ("kind", kind.to_owned()),
                ("levels", levels.len().to_string()),
                ("joints", joint_counts.join(", ")),
            ],
            joints,
        }
    }
}

/// The parent index a root joint stores.
const NO_PARENT: i32 = -1;

impl Rig for Skeleton {
    /// Level `options.lod` (0, the most detailed, for a single skeleton).
    fn skeleton(&self, _: &Files, options: RigOptions) -> Option<Result<rig::Skeleton, RigError>> {
        Some(
            options
                .level(&self.levels())
                .and_then(|level| level.skeleton()),
        )
    }
}

impl SkeletonForm {
    /// The joints as a neutral skeleton: rotation R = RPST * BPRO * RPRE
    /// (Hamilton product, RPRE applied first), local = T(BPTR) * R; y up,
    /// left-handed.
    pub fn skeleton(&self) -> Result<rig::Skeleton, RigError> {
        let joints = self
            .joints()
            .map_err(|error| RigError::Invalid(error.to_string()))?;
        let joints = joints
            .iter()
            .enumerate()
            .map(|(index, joint)| {
                let parent = match joint.parent {
                    NO_PARENT => None,
                    parent => Some(usize::try_from(parent).map_err(|_| {
                        RigError::Invalid(format!(
                            "PRNT[{index}]: joint {:?} has parent index {parent}; only -1 (no parent) may be negative",
                            joint.name.to_text()
                        ))
                    })?),
                };
                let rotation = quat(joint.post_rotation)
                    * quat(joint.bind_rotation)
                    * quat(joint.pre_rotation);
                Ok(rig::Joint {
                    name: joint.name.to_text(),
                    parent,
                    rest: Transform::TranslationRotation {
                        translation: joint.bind_translation,
                        rotation: rotation.to_array(),
                    },
                })
            })
            .collect::<Result<Vec<_>, RigError>>()?;
        Ok(rig::Skeleton {
            joints,
            axes: Axes::LeftHandedYUp,
        })
    }

    /// The number of joints (the length of the `NAME` column).
    pub fn joint_count(&self) -> usize {
        match &self.version {
            SkeletonVersion::V2(columns) => columns.names.len(),
        }
    }

    /// Joint names with their parents, for `ossuary info`. A parent index
    /// outside the skeleton (or -1) leaves the joint a root.
    pub fn joint_tree(&self) -> Vec<format::Joint> {
        let SkeletonVersion::V2(columns) = &self.version;
        let count = columns.names.len();
        columns
            .names
            .iter()
            .zip(
                columns
                    .parents
                    .iter()
                    .copied()
                    .map(Some)
                    .chain(std::iter::repeat(None)),
            )
            .map(|(name, parent)| format::Joint {
                name: name.to_string(),
                parent: parent
                    .and_then(|parent| usize::try_from(parent).ok())
                    .filter(|&parent| parent < count),
            })
            .collect()
    }

    /// One record per joint, in file order.
    pub fn joints(&self) -> Result<Vec<Joint>, ColumnMismatch> {
        match &self.version {
            SkeletonVersion::V2(columns) => columns.joints(),
        }
    }

    /// A version 2 skeleton holding these joints.
    pub fn from_joints(joints: &[Joint]) -> Self {
        SkeletonForm {
            version: SkeletonVersion::V2(SkeletonV2::from_joints(joints)),
        }
    }
}

impl SkeletonV2 {
    /// One record per joint, in file order; fails if the columns differ in length.
    pub fn joints(&self) -> Result<Vec<Joint>, ColumnMismatch> {
        let lengths = [
            ("NAME", self.names.len()),
            ("PRNT", self.parents.len()),
            ("RPRE", self.pre_rotations.len()),
            ("RPST", self.post_rotations.len()),
            ("BPTR", self.bind_translations.len()),
            ("BPRO", self.bind_rotations.len()),
            ("JROR", self.rotation_orders.len()),
        ];
        if lengths.iter().any(|(_, len)| *len != self.names.len()) {
            let listing = lengths
                .iter()
                .map(|(tag, len)| format!("{tag} has {len}"))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(ColumnMismatch(listing));
        }
        let joints = self
            .names
            .iter()
            .zip(&self.parents)
            .zip(&self.pre_rotations)
            .zip(&self.post_rotations)
            .zip(&self.bind_translations)
            .zip(&self.bind_rotations)
            .zip(&self.rotation_orders)
            .map(
                |((((((name, parent), pre), post), translation), bind_rotation), order)| Joint {
                    name: name.clone(),
                    parent: *parent,
                    pre_rotation: *pre,
                    post_rotation: *post,
                    bind_translation: *translation,
                    bind_rotation: *bind_rotation,
                    rotation_order: *order,
                },
            )
            .collect();
        Ok(joints)
    }

    /// The column layout of these joints.
    pub fn from_joints(joints: &[Joint]) -> Self {
        SkeletonV2 {
            joint_count: Count::new(),
            names: joints.iter().map(|joint| joint.name.clone()).collect(),
            parents: joints.iter().map(|joint| joint.parent).collect(),
            pre_rotations: joints.iter().map(|joint| joint.pre_rotation).collect(),
            post_rotations: joints.iter().map(|joint| joint.post_rotation).collect(),
            bind_translations: joints.iter().map(|joint| joint.bind_translation).collect(),
            bind_rotations: joints.iter().map(|joint| joint.bind_rotation).collect(),
            rotation_orders: joints.iter().map(|joint| joint.rotation_order).collect(),
        }
    }
}

/// A quaternion as stored (w, x, y, z) for the math.
fn quat(stored: Quaternion) -> Quat {
    Quat::from_xyzw(stored.x, stored.y, stored.z, stored.w)
}

/// The `.skt` registration.
pub static FORMAT: Format = Format {
    samples: || {
        let detailed = SkeletonForm::from_joints(&humanoid_joints());
        let coarse = SkeletonForm::from_joints(humanoid_joints().get(..4).unwrap_or_default());
        vec![
            Sample {
                file_name: "humanoid.skt",
                document: format::binary_document(Skeleton::Single(detailed.clone())),
            },
            Sample {
                file_name: "humanoid-lods.skt",
                document: format::binary_document(Skeleton::LevelsOfDetail(LodForm {
                    version: LodVersion::V0(LodListV0 {
                        level_count: Count::new(),
                        levels: vec![detailed, coarse],
                    }),
                })),
            },
        ]
    },
    ..Format::binary::<Skeleton>(
        "swg-skt",
        "Star Wars Galaxies skeleton",
        &["skt"],
        // `FORM`, a size, then `SKTM` (one skeleton) or `SLOD` (levels of detail).
        |bytes| {
            bytes.starts_with(b"FORM") && matches!(bytes.get(8..12), Some(b"SKTM") | Some(b"SLOD"))
        },
    )
};

/// A small standing humanoid (y up), with non-trivial pre- and
/// post-rotations on the arms so posing exercises every term.
pub fn humanoid_joints() -> Vec<Joint> {
    let identity = Quaternion {
        w: 1.0,
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };
    // 90 degrees about z, stored w, x, y, z.
    let quarter_turn_z = Quaternion {
        w: std::f32::consts::FRAC_1_SQRT_2,
        x: 0.0,
        y: 0.0,
        z: std::f32::consts::FRAC_1_SQRT_2,
    };
    let joint = |name: &str, parent: i32, translation: [f32; 3]| Joint {
        name: RawString::from(name),
        parent,
        pre_rotation: identity,
        post_rotation: identity,
        bind_translation: translation,
        bind_rotation: identity,
        rotation_order: 0,
    };
    let mut left_arm = joint("lUpperArm", 2, [0.2, 0.45, 0.0]);
    left_arm.pre_rotation = quarter_turn_z;
    left_arm.post_rotation = Quaternion {
        z: -quarter_turn_z.z,
        ..quarter_turn_z
    };
    vec![
        joint("root", -1, [0.0, 1.0, 0.0]),
        joint("spine1", 0, [0.0, 0.1, 0.0]),
        joint("spine3", 1, [0.0, 0.35, 0.0]),
        joint("head", 2, [0.0, 0.25, 0.0]),
        left_arm,
        joint("lHand", 4, [0.0, -0.55, 0.0]),
        joint("rUpperArm", 2, [-0.2, 0.45, 0.0]),
        joint("rHand", 6, [0.0, -0.55, 0.0]),
        joint("lThigh", 0, [0.1, -0.05, 0.0]),
        joint("lFoot", 8, [0.0, -0.9, 0.0]),
        joint("rThigh", 0, [-0.1, -0.05, 0.0]),
        joint("rFoot", 10, [0.0, -0.9, 0.0]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joint(name: &str, parent: i32) -> Joint {
        let identity = Quaternion {
            w: 1.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        };
        Joint {
            name: RawString::from(name),
            parent,
            pre_rotation: identity,
            post_rotation: Quaternion {
                w: 0.5,
                x: 0.5,
                y: 0.5,
                z: 0.5,
            },
            bind_translation: [1.0, 2.0, 3.0],
            bind_rotation: identity,
            rotation_order: 7,
        }
    }

    #[test]
    fn joints_and_columns_convert_both_ways() {
        let joints = vec![joint("root", -1), joint("spine", 0)];
        let columns = SkeletonV2::from_joints(&joints);
        assert_eq!(columns.parents, vec![-1, 0]);
        assert_eq!(columns.joints().unwrap(), joints);
    }

    #[test]
    fn columns_of_different_lengths_are_an_error() {
        let mut columns = SkeletonV2::from_joints(&[joint("root", -1)]);
        columns.parents.push(0);
        assert_eq!(
            columns.joints().unwrap_err().to_string(),
            "the joint columns differ in length: NAME has 1, PRNT has 2, RPRE has 1, RPST has 1, \
             BPTR has 1, BPRO has 1, JROR has 1"
        );
    }

    #[test]
    fn the_description_shows_the_joint_tree() {
        let skeleton = Skeleton::Single(SkeletonForm::from_joints(&[
            joint("root", -1),
            joint("spine", 0),
            joint("stray", 9),
        ]));
        let description = skeleton.describe();
        assert_eq!(description.facts.get(2), Some(&("joints", "3".to_owned())));
        let parents: Vec<Option<usize>> = description
            .joints
            .iter()
            .map(|joint| joint.parent)
            .collect();
        assert_eq!(parents, vec![None, Some(0), None]);
        assert_eq!(
            description.joints.get(1).map(|joint| joint.name.as_str()),
            Some("spine")
        );
    }

    #[test]
    fn a_file_lists_its_levels() {
        let level = SkeletonForm::from_joints(&[joint("root", -1)]);
        let lods = Skeleton::LevelsOfDetail(LodForm {
            version: LodVersion::V0(LodListV0 {
                level_count: Count::new(),
                levels: vec![level.clone(), level.clone()],
            }),
        });
        assert_eq!(lods.levels().len(), 2);
        assert_eq!(Skeleton::Single(level).levels().len(), 1);
    }
}
