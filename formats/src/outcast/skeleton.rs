//! Outcast skeleton (`.osk`).

use glam::{Mat3, Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::files::Files;
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::{self, Axes, Rig, RigError, RigOptions, Transform};
use crate::schema::{BinarySchema, RawString, Refusal};
use crate::Schema;

/// An Outcast skeleton, in ossuary's layout: its fields are known but not
/// their byte widths, so ossuary fixed them (little-endian):
/// a u32 joint count, then the joints in file order.
///
/// Hierarchy: depth index 1 is a child of the implicit whole-object root
/// (depth 0, at the origin); any other joint's parent is the nearest
/// earlier joint whose depth is one less. Posing (row-vector math, as
/// Outcast's matrices are stored): each joint turns about its own rest position p,
/// `T(-p) * R * T(p)`; the default applies a child's turn first, then its
/// parent's, so a joint's model transform is its ancestors' turns composed
/// down the chain. As neutral rig data, joint j's rest local transform is
/// `T(p_j - p_parent) * R_j` in column-vector math (`R_j` the stored matrix
/// transposed). The parent-first order (a parent's accumulated turn, then
/// each child's about its rest pivot) is kept as an option of the posing
/// tools (`--outcast-order literal`). No axes are known: positions are
/// taken as stored (right-handed, y up).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Skeleton {
    /// The joints, in file order (a parent before its children); their
    /// depths make a hierarchy.
    #[schema(prefix = u32, check = depths_make_a_hierarchy)]
    pub joints: Vec<Joint>,
}

/// Read: the depths make a hierarchy (see [`parents_of`]); a refusal
/// names the joint and points at its first byte.
fn depths_make_a_hierarchy(joints: &[Joint]) -> Result<(), Refusal> {
    parents_of(joints).map(drop).map_err(|error| {
        Refusal::at_element(error.index, format!("({:?}) {}", error.name, error.problem))
            .bytes_in(error.offset)
    })
}

/// One joint.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Joint {
    /// Depth in the hierarchy: 1 for a child of the implicit root (0).
    pub depth: i32,
    /// The joint's name, e.g. `LF_KNEE`.
    #[schema(null_terminated)]
    pub name: RawString,
    /// Rest position in model space (x, y, z).
    pub position: [f32; 3],
    /// Rest rotation, a 3x3 matrix stored row by row, for row vectors
    /// (`v' = v * R`).
    pub rotation: [f32; 9],
}

/// Why a skeleton's depth indices make no hierarchy.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset}: joints[{index}] ({name:?}): {problem}")]
pub struct HierarchyError {
    pub index: usize,
    pub name: String,
    /// Where the joint starts in the file (the joint count before it
    /// included).
    pub offset: u64,
    pub problem: String,
}

/// Bytes before the first joint: the u32 count.
const HEADER_SIZE: u64 = 4;

impl Joint {
    /// The joint's size in the file: depth, name and its NUL, 12 floats.
    fn encoded_size(&self) -> u64 {
        4 + self.name.as_bytes().len() as u64 + 1 + 12 * 4
    }
}

impl Skeleton {
    /// Each joint's parent (`None` under the implicit root), from the depth
    /// indices; a depth below 1, a first joint deeper than 1, or a depth
    /// more than one deeper than the previous joint's is an error naming
    /// the joint and where it starts in the file.
    /// A decoded skeleton has passed this already (its layout checks it);
    /// one built in code may not have.
    pub fn parents(&self) -> Result<Vec<Option<usize>>, HierarchyError> {
        parents_of(&self.joints)
    }
}

/// See [`Skeleton::parents`].
fn parents_of(joints: &[Joint]) -> Result<Vec<Option<usize>>, HierarchyError> {
    // The latest joint at each depth from 1: a new joint at depth d
    // hangs under the latest at depth d - 1.
    let mut latest: Vec<usize> = Vec::new();
    let mut parents = Vec::with_capacity(joints.len());
    let mut offset = HEADER_SIZE;
    for (index, joint) in joints.iter().enumerate() {
        let fail = |problem: String| HierarchyError {
            index,
            name: joint.name.to_text(),
            offset,
            problem,
        };
        let depth = usize::try_from(joint.depth)
            .ok()
            .filter(|&depth| depth >= 1)
            .ok_or_else(|| fail(format!("depth {} is below 1", joint.depth)))?;
        if depth > latest.len() + 1 {
            return Err(fail(match index {
                0 => format!("the first joint has depth {depth}; it must be 1"),
                _ => format!(
                    "depth {depth} is more than one deeper than the previous joint's depth {}",
                    latest.len()
                ),
            }));
        }
        latest.truncate(depth - 1);
        parents.push(latest.last().copied());
        latest.push(index);
        offset += joint.encoded_size();
    }
    Ok(parents)
}

impl Describe for Skeleton {
    /// The joint count and the tree (joints whose depths make none are
    /// shown as roots).
    fn describe(&self) -> Description {
        let parents = self.parents().unwrap_or_default();
        Description {
            facts: vec![("joints", self.joints.len().to_string())],
            joints: self
                .joints
                .iter()
                .enumerate()
                .map(|(index, joint)| format::Joint {
                    name: joint.name.to_string(),
                    parent: parents.get(index).copied().flatten(),
                })
                .collect(),
        }
    }
}

/// The rest rotation as a column-vector quaternion: the stored row-vector
/// matrix's rows are the column-vector matrix's columns.
pub fn rest_rotation(stored: &[f32; 9]) -> Quat {
    Quat::from_mat3(&Mat3::from_cols_array(stored)).normalize()
}

impl Rig for Skeleton {
    /// Joint j's rest local transform is `T(p_j - p_parent) * R_j`, with the
    /// implicit root at the origin.
    fn skeleton(&self, _: &Files, options: RigOptions) -> Option<Result<rig::Skeleton, RigError>> {
        if let Err(error) = options.single_level() {
            return Some(Err(error));
        }
        let parents = match self.parents() {
            Ok(parents) => parents,
            Err(error) => return Some(Err(RigError::Invalid(error.to_string()))),
        };
        let joints = self
            .joints
            .iter()
            .zip(&parents)
            .map(|(joint, parent)| {
                let origin = parent
                    .and_then(|parent| self.joints.get(parent))
                    .map_or(Vec3::ZERO, |parent| Vec3::from_array(parent.position));
                rig::Joint {
                    name: joint.name.to_text(),
                    parent: *parent,
                    rest: Transform::TranslationRotation {
                        translation: (Vec3::from_array(joint.position) - origin).to_array(),
                        rotation: rest_rotation(&joint.rotation).to_array(),
                    },
                }
            })
            .collect();
        Some(Ok(rig::Skeleton {
            joints,
            axes: Axes::RightHandedYUp,
        }))
    }
}

/// The `.osk` registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "biped.osk",
            document: format::binary_document(biped()),
        }]
    },
    ..Format::binary::<Skeleton>(
        "outcast-skeleton",
        "Outcast skeleton",
        &["osk"],
        // The format has no magic: the whole file must read as joints (whose
        // depths the layout checks make a hierarchy).
        |bytes| Skeleton::from_bytes(bytes).is_ok_and(|skeleton| !skeleton.joints.is_empty()),
    )
};

/// The joint list Outcast uses for every human-like character,
/// with made-up but plausible rest positions (a figure standing on y = 0,
/// facing +z, its left on +x, arms held out) and the upper arms twisted
/// about their length and the hips tilted, so the stored matrices are not
/// all identities.
pub fn biped() -> Skeleton {
    let identity = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    // Row-vector matrices of a quarter turn about x, along the arms: +y
    // goes to +z (left), and back (right).
    let left_turn = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, 0.0];
    let right_turn = [1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0];
    // A small tilt about x (cos 0.1, sin 0.1) for the hips.
    let (c, s) = (0.995_004_2, 0.099_833_42);
    let tilt = [1.0, 0.0, 0.0, 0.0, c, s, 0.0, -s, c];
    let joint = |depth: i32, name: &str, position: [f32; 3], rotation: [f32; 9]| Joint {
        depth,
        name: RawString::from(name),
        position,
        rotation,
    };
    Skeleton {
        joints: vec![
            joint(1, "BIPED", [0.0, 1.0, 0.0], identity),
            joint(2, "LF_HIP", [0.1, 0.95, 0.0], tilt),
            joint(3, "LF_KNEE", [0.1, 0.5, 0.0], identity),
            joint(4, "LF_ANKLE", [0.1, 0.08, 0.0], identity),
            joint(5, "LF_TOES", [0.1, 0.02, 0.12], identity),
            joint(2, "RT_HIP", [-0.1, 0.95, 0.0], tilt),
            joint(3, "RT_KNEE", [-0.1, 0.5, 0.0], identity),
            joint(4, "RT_ANKLE", [-0.1, 0.08, 0.0], identity),
            joint(5, "RT_TOES", [-0.1, 0.02, 0.12], identity),
            joint(2, "BACK", [0.0, 1.2, 0.0], identity),
            joint(3, "NECK", [0.0, 1.5, 0.0], identity),
            joint(4, "HEAD", [0.0, 1.62, 0.0], identity),
            joint(5, "LF_EYEBROW", [0.03, 1.72, 0.09], identity),
            joint(5, "RT_EYEBROW", [-0.03, 1.72, 0.09], identity),
            joint(4, "JAW", [0.0, 1.58, 0.06], identity),
            joint(3, "LF_SHOULDER", [0.18, 1.45, 0.0], left_turn),
            joint(4, "LF_ELBOW", [0.45, 1.45, 0.0], identity),
            joint(5, "LF_WRIST", [0.7, 1.45, 0.0], identity),
            joint(6, "LF_FINGERS", [0.8, 1.45, 0.0], identity),
            joint(6, "LF_THUMB", [0.74, 1.45, 0.05], identity),
            joint(3, "RT_SHOULDER", [-0.18, 1.45, 0.0], right_turn),
            joint(4, "RT_ELBOW", [-0.45, 1.45, 0.0], identity),
            joint(5, "RT_WRIST", [-0.7, 1.45, 0.0], identity),
            joint(6, "RT_FINGERS", [-0.8, 1.45, 0.0], identity),
            joint(6, "RT_THUMB", [-0.74, 1.45, 0.05], identity),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skeleton(depths: &[i32]) -> Skeleton {
        Skeleton {
            joints: depths
                .iter()
                .enumerate()
                .map(|(index, &depth)| Joint {
                    depth,
                    name: RawString::from(format!("J{index}").as_str()),
                    position: [0.0; 3],
                    rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
                })
                .collect(),
        }
    }

    #[test]
    fn the_biped_hangs_together_as_outcast_lists_it() {
        let biped = biped();
        let parents = biped.parents().unwrap();
        let parent_name = |name: &str| {
            let index = biped
                .joints
                .iter()
                .position(|joint| joint.name.to_text() == name)
                .unwrap();
            parents[index].map(|parent| biped.joints[parent].name.to_text())
        };
        assert_eq!(parent_name("BIPED"), None);
        assert_eq!(parent_name("RT_HIP").as_deref(), Some("BIPED"));
        assert_eq!(parent_name("JAW").as_deref(), Some("NECK"));
        assert_eq!(parent_name("RT_EYEBROW").as_deref(), Some("HEAD"));
        assert_eq!(parent_name("LF_SHOULDER").as_deref(), Some("BACK"));
        assert_eq!(parent_name("RT_THUMB").as_deref(), Some("RT_WRIST"));
    }

    #[test]
    fn depths_that_make_no_hierarchy_name_the_joint_and_its_offset() {
        // Each joint here takes 4 + 3 + 48 = 55 bytes.
        assert_eq!(
            skeleton(&[1, 2, 4]).parents().unwrap_err().to_string(),
            "byte 114: joints[2] (\"J2\"): depth 4 is more than one deeper than the previous \
             joint's depth 2"
        );
        assert_eq!(
            skeleton(&[2]).parents().unwrap_err().to_string(),
            "byte 4: joints[0] (\"J0\"): the first joint has depth 2; it must be 1"
        );
        assert_eq!(
            skeleton(&[1, 0]).parents().unwrap_err().to_string(),
            "byte 59: joints[1] (\"J1\"): depth 0 is below 1"
        );
        assert_eq!(
            skeleton(&[1, 2, 3, 2, 1]).parents().unwrap(),
            [None, Some(0), Some(1), Some(0), None]
        );
    }

    #[test]
    fn reading_refuses_depths_that_make_no_hierarchy_at_the_joint() {
        let message = "byte 114: joints[2]: (\"J2\") depth 4 is more than one deeper than the \
                       previous joint's depth 2";
        // The writer refuses it too, as the reader would; the bad file is
        // written with the checks left out.
        let bad = skeleton(&[1, 2, 4]);
        assert_eq!(bad.to_bytes().unwrap_err().to_string(), message);
        let bytes = crate::schema::without_checks(|| bad.to_bytes()).unwrap();
        assert_eq!(
            Skeleton::from_bytes(&bytes).unwrap_err().to_string(),
            message
        );
    }

    #[test]
    fn the_rest_local_is_the_offset_from_the_parent_then_the_stored_turn() {
        let mut skeleton = skeleton(&[1, 2]);
        skeleton.joints[0].position = [1.0, 2.0, 3.0];
        skeleton.joints[1].position = [1.0, 5.0, 3.0];
        // Row-vector quarter turn about z: the row (1, 0, 0) maps x to y.
        skeleton.joints[1].rotation = [0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        let rig = skeleton
            .skeleton(&Files::nowhere(), RigOptions::default())
            .unwrap()
            .unwrap();
        let Transform::TranslationRotation {
            translation,
            rotation,
        } = rig.joints[1].rest
        else {
            panic!("a translation and a rotation");
        };
        assert_eq!(translation, [0.0, 3.0, 0.0]);
        let turned = Quat::from_array(rotation) * Vec3::X;
        assert!(turned.abs_diff_eq(Vec3::Y, 1e-6), "{turned:?}");
        assert_eq!(rig.joints[0].parent, None);
        assert_eq!(rig.joints[1].parent, Some(0));
    }
}
