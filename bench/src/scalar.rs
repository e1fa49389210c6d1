//! The deformation baseline: the Sims bone-space binding as the plain glam
//! loop a person writes first, into buffers kept from one call to the
//! next. Each range's vertices and normals are moved by its bone's model
//! matrix; each blend vertex is posed by its range's bone and pulls the
//! vertex it names, `(1 - w) * vertex + w * blend`, its normal normalized
//! after. Bone `i` is skeleton joint `i`, as in the synthetic skins.

use std::hint::black_box;

use formats::rig::{self, Binding};
use glam::{Affine3A, Vec3};
use skinning::{model_matrices, BlendRule, BoundSkin, Deformer, PosedSkin, Skeleton};

use crate::synthetic;

/// The deformation the benchmarks time: a synthetic Sims skin of
/// `vertices` real vertices bound to its skeleton, at rest, with the
/// scalar baseline, checked to agree with ossuary's bit for bit.
pub struct Case {
    pub skin: rig::Skin,
    pub model: Vec<Affine3A>,
    pub bound: BoundSkin,
    pub plain: Skin,
    /// The baseline's buffers, already filled once.
    pub baseline: Posed,
}

/// Ossuary's deformation the benchmarks time: `bound` at the pose
/// `model`, into `posed`'s buffers, kept from one call to the next by
/// `deformer`.
pub fn ossuary_deform(
    bound: &BoundSkin,
    model: &[Affine3A],
    deformer: &mut Deformer,
    posed: &mut PosedSkin,
) {
    deformer
        .deform(bound, black_box(model), BlendRule::Game, posed)
        .expect("deforms");
}

pub fn case(vertices: usize) -> Case {
    let skin = synthetic::skn(vertices)
        .skin()
        .expect("the synthetic skin is a rig skin");
    let skeleton = Skeleton::new(&synthetic::rig_skeleton(synthetic::SKIN_BONES))
        .expect("the synthetic skeleton poses");
    let model = model_matrices(&skeleton, skeleton.rest_locals()).expect("poses");
    let bound = BoundSkin::bind(&skin, &skeleton).expect("binds");
    let plain = Skin::new(&skin);
    let mut baseline = Posed::default();
    plain.deform(&model, &mut baseline);
    let posed = bound.deform(&model, BlendRule::Game).expect("deforms");
    assert_eq!(
        posed.positions, baseline.positions,
        "the deformations differ"
    );
    assert_eq!(posed.normals, baseline.normals, "the deformations differ");
    Case {
        skin,
        model,
        bound,
        plain,
        baseline,
    }
}

/// The floor of a deformation: the bytes any deformation reads and
/// writes, the skin's positions and normals copied into buffers kept from
/// one call to the next.
pub struct CopyFloor {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
}

impl CopyFloor {
    pub fn new(skin: &rig::Skin) -> CopyFloor {
        CopyFloor {
            positions: vec![[0.0; 3]; skin.positions.len()],
            normals: vec![[0.0; 3]; skin.normals.len()],
        }
    }

    /// Copies `skin`'s positions and normals, which must be as many as the
    /// floor was made for.
    pub fn copy(&mut self, skin: &rig::Skin) {
        self.positions.copy_from_slice(&skin.positions);
        self.normals.copy_from_slice(&skin.normals);
    }
}

/// Posed positions and normals, reused from one call to the next.
#[derive(Default)]
pub struct Posed {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
}

/// A bone-space skin in glam's types, prepared once.
pub struct Skin {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    /// The bone, its vertices and its blend vertices.
    ranges: Vec<(usize, std::ops::Range<usize>, std::ops::Range<usize>)>,
    blend_positions: Vec<Vec3>,
    blend_normals: Vec<Vec3>,
    /// Per blend vertex: the vertex it pulls and how hard.
    pulls: Vec<(usize, f32)>,
}

fn vec3s(values: &[[f32; 3]]) -> Vec<Vec3> {
    values.iter().copied().map(Vec3::from).collect()
}

impl Skin {
    pub fn new(skin: &rig::Skin) -> Skin {
        let Binding::BoneSpace(binding) = &skin.binding else {
            panic!("the scalar baseline deforms bone-space skins only");
        };
        let range = |range: &std::ops::Range<u32>| range.start as usize..range.end as usize;
        Skin {
            positions: vec3s(&skin.positions),
            normals: vec3s(&skin.normals),
            ranges: binding
                .ranges
                .iter()
                .map(|bone| {
                    (
                        bone.bone as usize,
                        range(&bone.vertices),
                        range(&bone.blends),
                    )
                })
                .collect(),
            blend_positions: vec3s(&binding.blend_positions),
            blend_normals: vec3s(&binding.blend_normals),
            pulls: binding
                .blends
                .iter()
                .map(|pull| (pull.vertex as usize, pull.weight))
                .collect(),
        }
    }

    /// Deforms the skin by the joints' model matrices into `posed`.
    pub fn deform(&self, model: &[Affine3A], posed: &mut Posed) {
        posed.positions.resize(self.positions.len(), Vec3::ZERO);
        posed.normals.resize(self.normals.len(), Vec3::ZERO);
        for (bone, vertices, _) in &self.ranges {
            let bone = model[*bone];
            for vertex in vertices.clone() {
                posed.positions[vertex] = bone.transform_point3(self.positions[vertex]);
                posed.normals[vertex] = bone.transform_vector3(self.normals[vertex]);
            }
        }
        for (bone, _, blends) in &self.ranges {
            let bone = model[*bone];
            for blend in blends.clone() {
                let (vertex, weight) = self.pulls[blend];
                let position = bone.transform_point3(self.blend_positions[blend]);
                let normal = bone.transform_vector3(self.blend_normals[blend]);
                posed.positions[vertex] =
                    posed.positions[vertex] * (1.0 - weight) + position * weight;
                posed.normals[vertex] =
                    (posed.normals[vertex] * (1.0 - weight) + normal * weight).normalize_or_zero();
            }
        }
    }
}
