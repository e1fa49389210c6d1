//! Weighted skins (SWG, BonesPro, glTF-style influences) for the
//! deformation benchmarks: a synthetic skin whose every vertex has the
//! same number of influences, on the synthetic 20-joint skeleton, posed
//! away from its rest pose; and the same vertices laid out for ozz's
//! `SkinningJob` (joint indices, weights, skinning matrices).

use formats::rig::{self, Binding, Influence, Weights};
use glam::{Affine3A, Mat4, Quat, Vec3};
use skinning::{model_matrices, BlendRule, BoundSkin, Deformer, PosedSkin, Skeleton};

use crate::synthetic::{self, Sequence};

/// A weighted skin bound to its skeleton, a pose, and the skinning
/// matrices (`model * inverse(rest model)`) the deformation applies.
pub struct Case {
    pub influences: usize,
    pub skin: rig::Skin,
    pub bound: BoundSkin,
    pub model: Vec<Affine3A>,
    pub skinning: Vec<Affine3A>,
    /// Per vertex, its influences: (joint, weight).
    pub per_vertex: Vec<Vec<(usize, f32)>>,
}

/// `vertices` vertices of `influences` influences each (distinct joints
/// near one another, as a limb's vertices have; weights multiples of
/// 1/1024 that sum to exactly 1), with normals or without.
pub fn case(vertices: usize, influences: usize, normals: bool) -> Case {
    let joints = synthetic::SKIN_BONES;
    let skeleton = Skeleton::new(&synthetic::rig_skeleton(joints)).expect("the skeleton poses");
    let mut sequence = Sequence::new(0x3E16);
    let per_vertex: Vec<Vec<(usize, f32)>> = (0..vertices)
        .map(|vertex| {
            let base = vertex * joints / vertices.max(1);
            let mut shares: Vec<u64> = (0..influences).map(|_| 1 + sequence.below(64)).collect();
            let total: u64 = shares.iter().sum();
            // Scale to 1024 in all, the remainder on the first.
            for share in &mut shares {
                *share = *share * 1024 / total;
            }
            let rest = 1024 - shares.iter().sum::<u64>();
            shares[0] += rest;
            shares
                .iter()
                .enumerate()
                .map(|(slot, &share)| ((base + slot) % joints, share as f32 / 1024.0))
                .collect()
        })
        .collect();
    let mut point = || {
        [
            sequence.float(1.0),
            sequence.float(1.0),
            sequence.float(1.0),
        ]
    };
    let positions = (0..vertices).map(|_| point()).collect();
    let normals = if normals {
        (0..vertices).map(|_| sequence.unit_vector()).collect()
    } else {
        Vec::new()
    };
    let skin = rig::Skin {
        name: "weighted".to_owned(),
        texture: None,
        morph_targets: Vec::new(),
        shared_positions: None,
        positions,
        normals,
        uvs: Vec::new(),
        triangles: Vec::new(),
        binding: Binding::Weighted(Weights {
            joints: skeleton.names().to_vec(),
            counts: vec![influences as u32; vertices],
            influences: per_vertex
                .iter()
                .flatten()
                .map(|&(joint, weight)| Influence {
                    joint: joint as u32,
                    weight,
                })
                .collect(),
        }),
    };
    let bound = BoundSkin::bind(&skin, &skeleton).expect("binds");
    // Every joint turned a little from its rest pose.
    let locals: Vec<Affine3A> = skeleton
        .rest_locals()
        .iter()
        .map(|rest| {
            let [x, y, z] = sequence.unit_vector();
            *rest * Affine3A::from_quat(Quat::from_axis_angle(Vec3::new(x, y, z), 0.3))
        })
        .collect();
    let model = model_matrices(&skeleton, &locals).expect("poses");
    let rest = model_matrices(&skeleton, skeleton.rest_locals()).expect("poses");
    let skinning = model
        .iter()
        .zip(&rest)
        .map(|(model, rest)| *model * rest.inverse())
        .collect();
    Case {
        influences,
        skin,
        bound,
        model,
        skinning,
        per_vertex,
    }
}

impl Case {
    /// Ossuary's deformation, into `posed`'s buffers kept by `deformer`.
    pub fn deform(&self, deformer: &mut Deformer, posed: &mut PosedSkin) {
        deformer
            .deform(&self.bound, &self.model, BlendRule::Game, posed)
            .expect("deforms");
    }

    /// The skinning matrices as ozz takes them.
    pub fn matrices(&self) -> Vec<Mat4> {
        self.skinning
            .iter()
            .map(|&matrix| Mat4::from(matrix))
            .collect()
    }

    /// What ozz's job is given for these vertices: joint indices, and all
    /// weights but each vertex's last (ozz restores it as 1 minus the
    /// others, which is exact here).
    pub fn ozz_layout(&self) -> (Vec<u16>, Vec<f32>) {
        let indices = self
            .per_vertex
            .iter()
            .flatten()
            .map(|&(joint, _)| joint as u16)
            .collect();
        let weights = self
            .per_vertex
            .iter()
            .flat_map(|own| own[..own.len() - 1].iter().map(|&(_, weight)| weight))
            .collect();
        (indices, weights)
    }
}

/// The largest difference between two lists of vectors, coordinate by
/// coordinate, relative to the larger magnitude where that is above 1.
pub fn largest_difference(ours: &[Vec3], theirs: &[Vec3]) -> f32 {
    assert_eq!(ours.len(), theirs.len());
    ours.iter()
        .zip(theirs)
        .map(|(a, b)| ((*a - *b).abs() / a.abs().max(b.abs()).max(Vec3::ONE)).max_element())
        .fold(0.0, f32::max)
}
