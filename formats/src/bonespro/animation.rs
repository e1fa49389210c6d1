//! The BonesPro animation file: a header, then the frames.

use serde::{Deserialize, Serialize};

use super::transform::{rig_matrix, AngleUnits, EulerOrder, Representation, Transform};
use crate::files::Files;
use crate::format::{Describe, Description};
use crate::rig::{self, JointMotion, Keys, Motion, Rig, RigError, Track, TrackTarget};
use crate::schema::text::{Keyword, Refusal, TextRead, TextReader, TextStyle};
use crate::schema::{Count, RawString};
use crate::Schema;

/// A BonesPro animation export (3ds Max). The header has one value a line:
/// the bone count, the vertex count, the frame count, the export mode, the
/// transform system, the representation, the Euler order, the angle units
/// (each a phrase, with or without double quotes, kept as written), the
/// first frame, the last frame and the step; then the frames. The frame
/// count is `(last - first) / step + 1` (integer division): the frames
/// exported are first, first + step, ... up to last. `//` comments may stand
/// anywhere and are kept, with the quoting, the number style and the line
/// ending, so a file comes back byte for byte.
///
/// What a frame holds depends on the export mode (ossuary's reading of the
/// specification, which gives no real export): for `Bones`, per bone its box
/// size, its bone transform and its node transform, each a matrix (four
/// lines) or Euler angles and a translation (two lines) as the
/// representation says; for `Mesh (absolute)`, per vertex its deformed
/// position; for `Mesh (bones c.s)`, per bone a line `boneIndex n`, then n
/// lines `vertexIndex x y z`, the vertex in that bone's coordinate system at
/// the frame.
///
/// `Absolute` transforms are world transforms. A `Relative to parent`
/// transform R is composed with the parent's world transform at the same
/// frame: `world = R * parent_world` in row-vector math. The bone transform
/// poses the skeleton; the node transform is kept as data. Posing uses the
/// bones of the structure file the animation was exported with, by index.
/// `Mesh (bones c.s)` frames become positions only with the same frames'
/// bone transforms, which a `Bones` animation holds: alone they pose nothing.
/// The file gives no frame rate; ossuary plays frames at 3ds Max's default
/// 30 frames per second, the first exported frame at time 0.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, comments)]
pub struct Animation {
    /// How the file was written (comments, quoting, line ending, number
    /// style), for byte-exact output.
    #[schema(style)]
    #[serde(default)]
    pub style: TextStyle,
    /// Bones in every `Bones` or `Mesh (bones c.s)` frame.
    pub bone_count: u32,
    /// Vertices in every `Mesh (absolute)` frame, and the vertices a
    /// `Mesh (bones c.s)` frame's indices refer to.
    pub vertex_count: u32,
    /// The number of frames: `(last_frame - first_frame) / step + 1`.
    #[serde(skip)]
    pub frame_count: Count<u32>,
    /// What every frame holds.
    pub mode: ExportMode,
    /// What `Bones` frames' transforms are relative to.
    pub system: TransformSystem,
    /// How `Bones` frames' transforms are written.
    pub representation: Representation,
    /// The order of Euler angles (written whatever the representation).
    pub order: EulerOrder,
    /// The unit of Euler angles (written whatever the representation).
    pub units: AngleUnits,
    /// The 3ds Max frame the export starts at.
    pub first_frame: i32,
    /// The last 3ds Max frame the export may reach.
    pub last_frame: i32,
    /// Frames between two exported frames, at least 1; with the first and
    /// last frame it gives the frame count.
    #[schema(check = frames_span(frame_count, first_frame, last_frame))]
    pub step: i32,
    /// The frames, as the mode says.
    #[schema(
        count = frame_count,
        context(mode, representation, bone_count, vertex_count)
    )]
    pub frames: Vec<Frame>,
}

/// What the frames hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub enum ExportMode {
    /// Every bone's transforms.
    #[schema(keyword = "Bones")]
    Bones,
    /// Every vertex's deformed position.
    #[schema(keyword = "Mesh (absolute)")]
    MeshAbsolute,
    /// Every bone's vertices in the bone's coordinate system.
    #[schema(keyword = "Mesh (bones c.s)")]
    MeshBonesCs,
}

/// What a frame's bone transforms are relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub enum TransformSystem {
    /// World transforms.
    #[schema(keyword = "Absolute")]
    Absolute,
    /// Transforms relative to the parent bone's world transform.
    #[schema(keyword = "Relative to parent")]
    RelativeToParent,
}

/// One frame, as the export mode says.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(
    text,
    context(
        mode: ExportMode,
        representation: Representation,
        bone_count: u32,
        vertex_count: u32
    ),
    select = mode
)]
pub enum Frame {
    #[schema(when = ExportMode::Bones, context(representation, bone_count))]
    Bones(BonesFrame),
    #[schema(when = ExportMode::MeshAbsolute, context(vertex_count))]
    MeshAbsolute(MeshFrame),
    #[schema(when = ExportMode::MeshBonesCs, context(bone_count, vertex_count))]
    MeshBonesCs(BoneSpaceFrame),
}

/// A `Bones` frame: every bone's box and transforms.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, comments, context(representation: Representation, bone_count: u32))]
pub struct BonesFrame {
    /// Every bone, in the structure's order.
    #[schema(count = bone_count, context(representation))]
    pub bones: Vec<BoneKey>,
}

/// One bone in a `Bones` frame.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, comments, context(representation: Representation))]
pub struct BoneKey {
    /// The size of the bone's box (x, y, z): kept as data.
    pub box_size: [f32; 3],
    /// The transform that poses the bone.
    #[schema(context(representation))]
    pub bone_transform: Transform,
    /// The 3ds Max node's transform: kept as data.
    #[schema(context(representation))]
    pub node_transform: Transform,
}

/// A `Mesh (absolute)` frame: every vertex's position.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, comments, context(vertex_count: u32))]
pub struct MeshFrame {
    /// Every vertex's position, in the structure's order.
    #[schema(count = vertex_count)]
    pub positions: Vec<[f32; 3]>,
}

/// A `Mesh (bones c.s)` frame: every bone's vertices.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, comments, context(bone_count: u32, vertex_count: u32))]
pub struct BoneSpaceFrame {
    /// Every bone's vertices.
    #[schema(count = bone_count, context(bone_count, vertex_count))]
    pub bones: Vec<BoneVertices>,
}

/// One bone's vertices: a line `boneIndex n`, then n `vertexIndex x y z` lines.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, comments, context(bone_count: u32, vertex_count: u32))]
pub struct BoneVertices {
    /// The bone's index.
    #[schema(check = bone_exists(bone_count))]
    pub bone: u32,
    /// How many vertices follow, on the bone's line.
    #[schema(same_line)]
    #[serde(skip)]
    pub listed: Count<u32>,
    /// The bone's vertices, each an index into the structure's vertices.
    #[schema(count = listed, check = vertices_exist(vertex_count))]
    pub vertices: Vec<BoneSpaceVertex>,
}

/// A vertex in a bone's coordinate system at the frame.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, one_line)]
pub struct BoneSpaceVertex {
    /// The vertex's index.
    pub vertex: u32,
    /// The vertex in the bone's coordinate system at the frame.
    pub position: [f32; 3],
}

/// The frames `first`, `first + step`, ... up to `last`.
pub fn frames_in_span(first: i32, last: i32, step: i32) -> Option<i64> {
    let span = i64::from(last) - i64::from(first);
    (step >= 1 && span >= 0).then(|| span / i64::from(step) + 1)
}

fn frames_span(step: &i32, frame_count: &usize, first: &i32, last: &i32) -> Result<(), Refusal> {
    if *step < 1 {
        return Err(Refusal::new(format!("step {step} is not at least 1")));
    }
    match frames_in_span(*first, *last, *step) {
        None => Err(Refusal::new(format!(
            "the last frame {last} comes before the first frame {first}"
        ))),
        Some(span) if usize::try_from(span).ok() != Some(*frame_count) => {
            Err(Refusal::new(format!(
            "frames {first} to {last} by {step} make {span}, but the frame count is {frame_count}"
        )))
        }
        Some(_) => Ok(()),
    }
}

fn bone_exists(bone: &u32, bone_count: &u32) -> Result<(), Refusal> {
    if bone < bone_count {
        Ok(())
    } else {
        Err(Refusal::new(format!(
            "bone {bone} is not one of the {bone_count} bones"
        )))
    }
}

fn vertices_exist(vertices: &[BoneSpaceVertex], vertex_count: &u32) -> Result<(), Refusal> {
    let outside = vertices
        .iter()
        .enumerate()
        .find(|(_, vertex)| vertex.vertex >= *vertex_count);
    match outside {
        Some((index, vertex)) => Err(Refusal::at_element(
            index,
            format!(
                "vertex {} is not one of the {vertex_count} vertices",
                vertex.vertex
            ),
        )),
        None => Ok(()),
    }
}

/// Frames per second: the file gives none, so 3ds Max's default.
pub const FRAME_RATE: f32 = 30.0;

/// What a `Mesh (bones c.s)` animation needs to pose anything.
const BONE_SPACE_NEEDS: &str =
    "a `Bones` animation of the same frames (the bone transforms its vertices are given in)";

impl Describe for Animation {
    /// The header.
    fn describe(&self) -> Description {
        Description {
            facts: vec![
                ("bones", self.bone_count.to_string()),
                ("vertices", self.vertex_count.to_string()),
                ("frames", self.frames.len().to_string()),
                ("mode", self.mode.keyword().to_owned()),
                ("system", self.system.keyword().to_owned()),
                ("representation", self.representation.keyword().to_owned()),
                ("order", self.order.keyword().to_owned()),
                ("units", self.units.keyword().to_owned()),
                ("first frame", self.first_frame.to_string()),
                ("last frame", self.last_frame.to_string()),
                ("step", self.step.to_string()),
            ],
            joints: Vec::new(),
        }
    }
}

impl Rig for Animation {
    /// One animation: for `Bones`, track k moves bone k by its bone
    /// transforms (relative ones as local transforms, absolute ones in
    /// model space); for `Mesh (absolute)`, the vertices' positions; for
    /// `Mesh (bones c.s)`, frames that need a `Bones` animation to pose.
    fn animations(&self, _: &Files) -> Option<Result<Vec<rig::Animation>, RigError>> {
        let motion = match self.mode {
            ExportMode::Bones => self.bone_motion().map(Motion::Joints),
            ExportMode::MeshAbsolute => self.vertex_motion().map(Motion::Vertices),
            ExportMode::MeshBonesCs => Ok(Motion::Incomplete {
                needs: BONE_SPACE_NEEDS.to_owned(),
            }),
        };
        Some(motion.map(|motion| {
            vec![rig::Animation {
                end: None,
                events: Vec::new(),
                name: "animation".to_owned(),
                times: (0..self.frames.len())
                    .map(|frame| frame as f32 * self.step as f32 / FRAME_RATE)
                    .collect(),
                motion,
            }]
        }))
    }
}

impl Animation {
    /// Frame `index` as the header's mode says, or the error naming it.
    fn frame_as<'a, T>(
        &'a self,
        index: usize,
        frame: &'a Frame,
        pick: impl Fn(&'a Frame) -> Option<&'a T>,
    ) -> Result<&'a T, RigError> {
        pick(frame).ok_or_else(|| {
            RigError::Invalid(format!(
                "frames[{index}]: the mode is `{}`, but the frame is not",
                self.mode.keyword()
            ))
        })
    }

    fn bone_motion(&self) -> Result<JointMotion, RigError> {
        let frames = self
            .frames
            .iter()
            .enumerate()
            .map(|(index, frame)| {
                self.frame_as(index, frame, |frame| match frame {
                    Frame::Bones(bones) => Some(bones),
                    _ => None,
                })
            })
            .collect::<Result<Vec<&BonesFrame>, RigError>>()?;
        // One track per bone the frames hold: reading checked that every
        // frame holds the header's count, and a value without frames moves
        // nothing.
        let bones = frames.first().map_or(0, |frame| frame.bones.len());
        let tracks = (0..bones)
            .map(|bone| {
                let transforms = frames
                    .iter()
                    .filter_map(|frame| frame.bones.get(bone))
                    .map(|key| rig_matrix(&key.bone_transform.to_affine(self.order, self.units)))
                    .collect();
                Track {
                    joint: TrackTarget::Index(bone),
                    keys: match self.system {
                        TransformSystem::RelativeToParent => Keys::Transforms(transforms),
                        TransformSystem::Absolute => Keys::ModelTransforms(transforms),
                    },
                }
            })
            .collect();
        Ok(JointMotion {
            tracks,
            depth_pattern: None,
        })
    }

    fn vertex_motion(&self) -> Result<Vec<Vec<[f32; 3]>>, RigError> {
        self.frames
            .iter()
            .enumerate()
            .map(|(index, frame)| {
                self.frame_as(index, frame, |frame| match frame {
                    Frame::MeshAbsolute(mesh) => Some(mesh),
                    _ => None,
                })
                .map(|mesh| mesh.positions.clone())
            })
            .collect()
    }
}

/// The first values of an animation file: enough to tell one from other
/// text. The mode line may hold anything, so that a file with a misspelt
/// mode is still taken for an animation and told what is wrong with it.
#[derive(Debug, Schema)]
#[schema(text, comments)]
struct Head {
    bone_count: u32,
    vertex_count: u32,
    frame_count: u32,
    #[schema(line)]
    mode: RawString,
}

/// Whether `bytes` begin as an animation file does: three counts, then a
/// line (the export mode).
pub(super) fn sniff(bytes: &[u8]) -> bool {
    Head::read_text(&mut TextReader::new(bytes), &()).is_ok()
}
