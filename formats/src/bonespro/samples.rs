//! The sample files: a small biped and one walk, exported in every mode,
//! system, representation, order and unit. Every bone's rest rotation is
//! the identity, so a swing about one axis is exactly one Euler angle in any
//! order that starts with that axis, and a chain of swings about one axis
//! is one angle too: the Euler samples are exact, not fitted.

use glam::{Affine3A, Vec3};

use super::animation::{
    Animation, BoneKey, BoneSpaceFrame, BoneSpaceVertex, BoneVertices, BonesFrame, ExportMode,
    Frame, MeshFrame, TransformSystem,
};
use super::structure::{Bone, Influence, Structure, Vertex};
use super::transform::{AngleUnits, Euler, EulerOrder, Matrix, Representation, Transform};
use crate::format::{self, Sample};
use crate::schema::text::{Keyword, RawLine, TextStyle};
use crate::schema::{Count, RawString};

/// A bone of the sample biped.
struct BipedBone {
    name: &'static str,
    parent: Option<u32>,
    /// Where it is in the world at rest.
    position: [f32; 3],
    box_size: [f32; 3],
}

const fn bone(
    name: &'static str,
    parent: Option<u32>,
    position: [f32; 3],
    box_size: [f32; 3],
) -> BipedBone {
    BipedBone {
        name,
        parent,
        position,
        box_size,
    }
}

const BONES: [BipedBone; 7] = [
    bone("Bip01 Pelvis", None, [0.0, 0.0, 1.0], [0.3, 0.2, 0.15]),
    bone("Bip01 Spine", Some(0), [0.0, 0.0, 1.15], [0.25, 0.18, 0.45]),
    bone("Bip01 Head", Some(1), [0.0, 0.0, 1.6], [0.18, 0.2, 0.22]),
    bone(
        "Bip01 L Thigh",
        Some(0),
        [0.1, 0.0, 0.95],
        [0.12, 0.12, 0.45],
    ),
    bone("Bip01 L Calf", Some(3), [0.1, 0.0, 0.5], [0.1, 0.1, 0.45]),
    bone(
        "Bip01 R Thigh",
        Some(0),
        [-0.1, 0.0, 0.95],
        [0.12, 0.12, 0.45],
    ),
    bone("Bip01 R Calf", Some(5), [-0.1, 0.0, 0.5], [0.1, 0.1, 0.45]),
];

/// A vertex of the sample biped: its position and `(bone, weight)` influences.
struct BipedVertex {
    position: [f32; 3],
    influences: &'static [(u32, f32)],
}

const fn vertex(position: [f32; 3], influences: &'static [(u32, f32)]) -> BipedVertex {
    BipedVertex {
        position,
        influences,
    }
}

/// One to three influences each.
const VERTICES: [BipedVertex; 8] = [
    vertex([0.12, 0.0, 0.95], &[(0, 0.5), (3, 0.5)]),
    vertex([-0.12, 0.0, 0.95], &[(0, 0.5), (5, 0.5)]),
    vertex([0.1, 0.05, 0.5], &[(3, 0.5), (4, 0.5)]),
    vertex([-0.1, 0.05, 0.5], &[(5, 0.5), (6, 0.5)]),
    vertex([0.1, 0.08, 0.05], &[(4, 1.0)]),
    vertex([-0.1, 0.08, 0.05], &[(6, 1.0)]),
    vertex([0.0, 0.1, 1.4], &[(1, 0.6), (0, 0.3), (2, 0.1)]),
    vertex([0.0, 0.0, 1.75], &[(2, 1.0)]),
];

/// Each bone's swing in degrees at each of the three frames.
const SWINGS: [[f32; 3]; 7] = [
    [0.0, 0.0, 0.0],
    [0.0, 5.0, 10.0],
    [0.0, -5.0, -10.0],
    [0.0, 25.0, -25.0],
    [0.0, -30.0, 0.0],
    [0.0, -25.0, 25.0],
    [0.0, 0.0, -30.0],
];

const FIRST_FRAME: i32 = 0;
const LAST_FRAME: i32 = 20;
const STEP: i32 = 10;

fn parent_of(bone: usize) -> Option<usize> {
    BONES
        .get(bone)
        .and_then(|bone| bone.parent)
        .map(|parent| parent as usize)
}

fn rest_position(bone: usize) -> Vec3 {
    BONES
        .get(bone)
        .map_or(Vec3::ZERO, |bone| Vec3::from_array(bone.position))
}

/// The bone's position relative to its parent's (rest rotations are identities).
fn rest_offset(bone: usize) -> Vec3 {
    rest_position(bone) - parent_of(bone).map_or(Vec3::ZERO, rest_position)
}

/// Each bone's local transform at `frame`: its rest offset, then a swing
/// about `axis`.
fn locals(frame: usize, axis: Vec3) -> Vec<Affine3A> {
    (0..BONES.len())
        .map(|bone| {
            let swing = SWINGS
                .get(bone)
                .and_then(|swings| swings.get(frame))
                .copied()
                .unwrap_or(0.0);
            Affine3A::from_translation(rest_offset(bone))
                * Affine3A::from_axis_angle(axis, swing.to_radians())
        })
        .collect()
}

/// World transforms from local ones (parents come before children here).
fn worlds(locals: &[Affine3A]) -> Vec<Affine3A> {
    let mut worlds: Vec<Affine3A> = Vec::with_capacity(locals.len());
    for (bone, local) in locals.iter().enumerate() {
        let parent = parent_of(bone).and_then(|parent| worlds.get(parent).copied());
        worlds.push(parent.unwrap_or(Affine3A::IDENTITY) * *local);
    }
    worlds
}

fn rest_worlds() -> Vec<Affine3A> {
    (0..BONES.len())
        .map(|bone| Affine3A::from_translation(rest_position(bone)))
        .collect()
}

/// The biped: seven bones, eight vertices of one to three influences.
pub fn biped() -> Structure {
    let bones = BONES
        .iter()
        .zip(rest_worlds())
        .map(|(bone, world)| Bone {
            name: RawString::from(bone.name),
            parent: bone.parent,
            box_size: bone.box_size,
            bone_transform: Matrix::from_affine(&world),
            node_transform: Matrix::from_affine(&world),
        })
        .collect();
    let vertices = VERTICES
        .iter()
        .map(|vertex| Vertex {
            position: vertex.position,
            influences: vertex
                .influences
                .iter()
                .map(|&(bone, weight)| Influence { bone, weight })
                .collect(),
        })
        .collect();
    let comment = |index: usize, text: &str| RawLine {
        index,
        text: RawString::from(text),
    };
    Structure {
        style: TextStyle {
            comment_lines: vec![comment(0, "// BonesPro structure export")],
            trailing_comments: vec![comment(1, "\t// bones"), comment(2, "\t// vertices")],
            ..TextStyle::default()
        },
        bone_count: Count::new(),
        vertex_count: Count::new(),
        bones,
        vertices,
    }
}

/// A header as BonesPro writes it: a comment line, then the phrases in
/// double quotes.
fn header(
    mode: ExportMode,
    system: TransformSystem,
    representation: Representation,
    order: EulerOrder,
    units: AngleUnits,
    frames: Vec<Frame>,
) -> Animation {
    let phrases = [
        mode.keyword(),
        system.keyword(),
        representation.keyword(),
        order.keyword(),
        units.keyword(),
    ];
    let quoted = phrases
        .iter()
        .enumerate()
        .map(|(line, phrase)| RawLine {
            index: 4 + line,
            text: RawString::from(format!("\"{phrase}\"").as_str()),
        })
        .collect();
    Animation {
        style: TextStyle {
            comment_lines: vec![RawLine {
                index: 0,
                text: RawString::from("// BonesPro animation export"),
            }],
            raw_lines: quoted,
            ..TextStyle::default()
        },
        bone_count: BONES.len() as u32,
        vertex_count: VERTICES.len() as u32,
        frame_count: Count::new(),
        mode,
        system,
        representation,
        order,
        units,
        first_frame: FIRST_FRAME,
        last_frame: LAST_FRAME,
        step: STEP,
        frames,
    }
}

const FRAMES: usize = 3;

/// `Bones` frames whose bone (and node) transforms are `transform(frame, bone)`.
fn bone_frames(transform: impl Fn(usize, usize) -> Transform) -> Vec<Frame> {
    (0..FRAMES)
        .map(|frame| {
            Frame::Bones(BonesFrame {
                bones: BONES
                    .iter()
                    .enumerate()
                    .map(|(index, bone)| BoneKey {
                        box_size: bone.box_size,
                        bone_transform: transform(frame, index),
                        node_transform: transform(frame, index),
                    })
                    .collect(),
            })
        })
        .collect()
}

/// The walk as matrices, relative to the parent or absolute.
fn matrix_walk(system: TransformSystem) -> Animation {
    let frames = bone_frames(|frame, bone| {
        let locals = locals(frame, Vec3::X);
        let transform = match system {
            TransformSystem::RelativeToParent => locals.get(bone).copied(),
            TransformSystem::Absolute => worlds(&locals).get(bone).copied(),
        };
        Transform::Matrix(Matrix::from_affine(&transform.unwrap_or_default()))
    });
    header(
        ExportMode::Bones,
        system,
        Representation::Matrix,
        EulerOrder::Xyz,
        AngleUnits::Degrees,
        frames,
    )
}

/// The walk as Euler angles in `order`, swinging about the order's first
/// axis: one angle, the swing itself (relative) or the sum of the swings
/// from the root down (absolute).
fn euler_walk(order: EulerOrder, system: TransformSystem, units: AngleUnits) -> Animation {
    let [axis, _, _] = order.axes();
    let frames = bone_frames(|frame, bone| {
        let locals = locals(frame, axis);
        let worlds = worlds(&locals);
        let mut swing = 0.0;
        let mut at = Some(bone);
        while let Some(joint) = at {
            swing += SWINGS
                .get(joint)
                .and_then(|swings| swings.get(frame))
                .copied()
                .unwrap_or(0.0);
            at = match system {
                TransformSystem::Absolute => parent_of(joint),
                TransformSystem::RelativeToParent => None,
            };
        }
        let translation = match system {
            TransformSystem::RelativeToParent => rest_offset(bone),
            TransformSystem::Absolute => worlds
                .get(bone)
                .map_or(Vec3::ZERO, |world| world.translation.into()),
        };
        let angle = match units {
            AngleUnits::Degrees => swing,
            AngleUnits::Radians => swing.to_radians(),
        };
        Transform::Euler(Euler {
            angles: [angle, 0.0, 0.0],
            translation: translation.to_array(),
        })
    });
    header(
        ExportMode::Bones,
        system,
        Representation::EulerAngles,
        order,
        units,
        frames,
    )
}

/// Each vertex where the walk (swinging about x) puts it at `frame`:
/// `sum of w * world(f) * inverse(rest world) * v`.
fn walked_vertices(frame: usize) -> Vec<Vec3> {
    let worlds = worlds(&locals(frame, Vec3::X));
    let rests = rest_worlds();
    VERTICES
        .iter()
        .map(|vertex| {
            let position = vertex.position;
            vertex
                .influences
                .iter()
                .fold(Vec3::ZERO, |sum, &(bone, weight)| {
                    let bone = bone as usize;
                    let moved = match (worlds.get(bone), rests.get(bone)) {
                        (Some(world), Some(rest)) => {
                            (*world * rest.inverse()).transform_point3(Vec3::from_array(position))
                        }
                        _ => Vec3::ZERO,
                    };
                    sum + weight * moved
                })
        })
        .collect()
}

/// The walk's vertices as a `Mesh (absolute)` frame.
fn mesh_absolute_frame(frame: usize) -> Frame {
    Frame::MeshAbsolute(MeshFrame {
        positions: walked_vertices(frame)
            .iter()
            .map(|vertex| vertex.to_array())
            .collect(),
    })
}

/// The walk's vertices as a `Mesh (bones c.s)` frame: each bone's, in its
/// space at the frame.
fn mesh_bones_cs_frame(frame: usize) -> Frame {
    let vertices = walked_vertices(frame);
    let worlds = worlds(&locals(frame, Vec3::X));
    Frame::MeshBonesCs(BoneSpaceFrame {
        bones: worlds
            .iter()
            .enumerate()
            .map(|(bone, world)| BoneVertices {
                bone: bone as u32,
                listed: Count::new(),
                vertices: carried_by(bone)
                    .filter_map(|vertex| {
                        let position = vertices.get(vertex)?;
                        Some(BoneSpaceVertex {
                            vertex: vertex as u32,
                            position: world.inverse().transform_point3(*position).to_array(),
                        })
                    })
                    .collect(),
            })
            .collect(),
    })
}

fn mesh_walk(mode: ExportMode, frame: fn(usize) -> Frame) -> Animation {
    header(
        mode,
        TransformSystem::Absolute,
        Representation::Matrix,
        EulerOrder::Xyz,
        AngleUnits::Degrees,
        (0..FRAMES).map(frame).collect(),
    )
}

/// The vertices bone `bone` influences.
fn carried_by(bone: usize) -> impl Iterator<Item = usize> {
    VERTICES
        .iter()
        .enumerate()
        .filter(move |(_, vertex)| {
            vertex
                .influences
                .iter()
                .any(|&(influenced, _)| influenced as usize == bone)
        })
        .map(|(vertex, _)| vertex)
}

/// The walk in every mode, system, representation, order and unit.
pub fn animations() -> Vec<Sample> {
    let euler_names = [
        "bonespro-walk-euler-xyz.txt",
        "bonespro-walk-euler-xzy.txt",
        "bonespro-walk-euler-yzx.txt",
        "bonespro-walk-euler-yxz.txt",
        "bonespro-walk-euler-zxy.txt",
        "bonespro-walk-euler-zyx.txt",
        "bonespro-walk-euler-xyx.txt",
        "bonespro-walk-euler-yzy.txt",
        "bonespro-walk-euler-zxz.txt",
    ];
    let mut samples = vec![
        Sample {
            file_name: "bonespro-walk-relative-matrix.txt",
            document: format::text_document(matrix_walk(TransformSystem::RelativeToParent)),
        },
        Sample {
            file_name: "bonespro-walk-absolute-matrix.txt",
            document: format::text_document(matrix_walk(TransformSystem::Absolute)),
        },
    ];
    for (index, (order, file_name)) in EulerOrder::ALL.into_iter().zip(euler_names).enumerate() {
        let system = if index % 3 == 0 {
            TransformSystem::Absolute
        } else {
            TransformSystem::RelativeToParent
        };
        let units = if index % 2 == 0 {
            AngleUnits::Degrees
        } else {
            AngleUnits::Radians
        };
        samples.push(Sample {
            file_name,
            document: format::text_document(euler_walk(order, system, units)),
        });
    }
    samples.push(Sample {
        file_name: "bonespro-walk-mesh-absolute.txt",
        document: format::text_document(mesh_walk(ExportMode::MeshAbsolute, mesh_absolute_frame)),
    });
    samples.push(Sample {
        file_name: "bonespro-walk-mesh-bones-cs.txt",
        document: format::text_document(mesh_walk(ExportMode::MeshBonesCs, mesh_bones_cs_frame)),
    });
    samples
}
