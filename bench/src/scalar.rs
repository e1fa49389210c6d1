//! The deformation baseline: the Sims bone-space binding written as a
//! straightforward scalar loop over plain arrays, each output written once
//! (vertices pushed range by range, which needs the ranges to cover the
//! vertices in order, as the synthetic skins' do), posed blend vertices in a
//! buffer of their own, then the pulls.

use formats::rig::{self, Binding};
use glam::Affine3A;

/// Posed positions and normals.
pub struct Posed {
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
}

/// A 3x4 matrix: three columns of rotation, then the translation.
type Matrix = [[f32; 3]; 4];

fn matrix(affine: &Affine3A) -> Matrix {
    let c = affine.to_cols_array();
    [
        [c[0], c[1], c[2]],
        [c[3], c[4], c[5]],
        [c[6], c[7], c[8]],
        [c[9], c[10], c[11]],
    ]
}

fn rotate(m: &Matrix, [x, y, z]: [f32; 3]) -> [f32; 3] {
    [
        m[0][0] * x + m[1][0] * y + m[2][0] * z,
        m[0][1] * x + m[1][1] * y + m[2][1] * z,
        m[0][2] * x + m[1][2] * y + m[2][2] * z,
    ]
}

fn transform(m: &Matrix, point: [f32; 3]) -> [f32; 3] {
    let [x, y, z] = rotate(m, point);
    [x + m[3][0], y + m[3][1], z + m[3][2]]
}

fn normalize([x, y, z]: [f32; 3]) -> [f32; 3] {
    let length = (x * x + y * y + z * z).sqrt();
    if length > 0.0 {
        [x / length, y / length, z / length]
    } else {
        [0.0; 3]
    }
}

fn mix(a: [f32; 3], b: [f32; 3], weight: f32) -> [f32; 3] {
    std::array::from_fn(|i| a[i] * (1.0 - weight) + b[i] * weight)
}

/// Deforms a bone-space skin whose bone `i` is skeleton joint `i`.
pub fn deform(skin: &rig::Skin, model: &[Affine3A]) -> Posed {
    let Binding::BoneSpace(binding) = &skin.binding else {
        panic!("the scalar baseline deforms bone-space skins only");
    };
    let matrices: Vec<Matrix> = model.iter().map(matrix).collect();
    let mut positions = Vec::with_capacity(skin.positions.len());
    let mut normals = Vec::with_capacity(skin.normals.len());
    let mut blend_positions = Vec::with_capacity(binding.blend_positions.len());
    let mut blend_normals = Vec::with_capacity(binding.blend_normals.len());
    for range in &binding.ranges {
        let m = &matrices[range.bone as usize];
        let vertices = range.vertices.start as usize..range.vertices.end as usize;
        for vertex in vertices {
            positions.push(transform(m, skin.positions[vertex]));
            normals.push(rotate(m, skin.normals[vertex]));
        }
        let blends = range.blends.start as usize..range.blends.end as usize;
        for blend in blends {
            blend_positions.push(transform(m, binding.blend_positions[blend]));
            blend_normals.push(rotate(m, binding.blend_normals[blend]));
        }
    }
    for (blend, pull) in binding.blends.iter().enumerate() {
        let vertex = pull.vertex as usize;
        positions[vertex] = mix(positions[vertex], blend_positions[blend], pull.weight);
        normals[vertex] = normalize(mix(normals[vertex], blend_normals[blend], pull.weight));
    }
    Posed { positions, normals }
}
