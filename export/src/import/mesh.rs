//! A glTF mesh's primitives read into one list of vertices, in the games'
//! left-handed axes (x mirrored back), triangles wound back, each vertex's
//! joints and weights as glTF gives them.

use std::collections::HashSet;

use glam::{Affine3A, Vec3};
use gltf::mesh::Mode;
use gltf::Semantic;

use super::document::Asset;
use super::{rest, ImportError};

/// The mirror in x between the games' left-handed axes and glTF's.
const MIRROR: Vec3 = Vec3::new(-1.0, 1.0, 1.0);

pub fn mirror(point: Vec3) -> Vec3 {
    point * MIRROR
}

/// A mesh's vertices (every primitive's, one after another).
pub struct MeshData<'a> {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    pub uvs: Vec<[f32; 2]>,
    pub triangles: Vec<[u32; 3]>,
    /// Per vertex: (glTF skin joint index, weight) for each weight above 0.
    pub influences: Vec<Vec<(usize, f32)>>,
    /// Per morph target: each vertex's move.
    pub morph_positions: Vec<Vec<Vec3>>,
    /// The first primitive's base colour image.
    pub image: Option<gltf::Image<'a>>,
}

impl MeshData<'_> {
    /// Every vertex (and each morph target's move of it) carried from its
    /// bind position to where it rests, by its joints' skinning matrices
    /// ([`rest::skinning`]).
    pub fn move_to_rest(&mut self, skinning: &[Affine3A]) {
        if skinning.iter().all(|matrix| *matrix == Affine3A::IDENTITY) {
            return;
        }
        for (vertex, influences) in self.influences.iter().enumerate() {
            let (Some(position), Some(normal)) =
                (self.positions.get(vertex), self.normals.get(vertex))
            else {
                continue;
            };
            let (position, normal, turn) = rest::at_rest(skinning, influences, *position, *normal);
            if let Some(slot) = self.positions.get_mut(vertex) {
                *slot = position;
            }
            if let Some(slot) = self.normals.get_mut(vertex) {
                *slot = normal;
            }
            for moves in &mut self.morph_positions {
                if let Some(slot) = moves.get_mut(vertex) {
                    *slot = turn * *slot;
                }
            }
        }
    }
}

/// Refuses the first of a primitive's values that is not a finite number
/// (glTF allows none, and the game's files would carry it silently).
fn finite<const N: usize>(values: &[[f32; N]], primitive: usize, what: &str) -> Result<(), String> {
    match values
        .iter()
        .position(|value| !value.iter().all(|x| x.is_finite()))
    {
        Some(vertex) => Err(format!(
            "vertex {vertex} of primitive {primitive} has a {what} that is not a finite number \
             ({:?})",
            values.get(vertex).copied().unwrap_or([0.0; N])
        )),
        None => Ok(()),
    }
}

/// The nodes that place a mesh, in node order; a mesh placed by more than
/// one node is refused: each becomes a file of its own in the game, and
/// copies that share one mesh would multiply it (and the memory and time
/// it takes) by the nodes, however small the asset.
pub fn placed(document: &gltf::Document) -> Result<Vec<gltf::Node<'_>>, ImportError> {
    let mut placed: HashSet<usize> = HashSet::new();
    let mut nodes = Vec::new();
    for node in document.nodes() {
        let Some(mesh) = node.mesh() else {
            continue;
        };
        if !placed.insert(mesh.index()) {
            return Err(ImportError::Mesh {
                mesh: mesh
                    .name()
                    .map_or_else(|| format!("mesh {}", mesh.index()), str::to_owned),
                problem: "more than one node places it; each copy of a mesh is a file of its own \
                          in the game: make each a mesh of its own (in Blender, Object > \
                          Relations > Make Single User)"
                    .to_owned(),
            });
        }
        nodes.push(node);
    }
    Ok(nodes)
}

/// The mesh's triangles with positions, normals, texture coordinates
/// (`TEXCOORD_0`) and joints and weights (every `JOINTS_n`/`WEIGHTS_n`
/// set), each required, for a skin of `joint_count` joints; a joint past
/// them, a negative or infinite weight, a primitive that is not triangles
/// or a corner past its vertices is an error naming the mesh.
pub fn read<'a>(
    asset: &'a Asset,
    mesh: &gltf::Mesh<'a>,
    name: &str,
    joint_count: usize,
) -> Result<MeshData<'a>, ImportError> {
    let fail = |problem: String| ImportError::Mesh {
        mesh: name.to_owned(),
        problem,
    };
    let mut read = MeshData {
        positions: Vec::new(),
        normals: Vec::new(),
        uvs: Vec::new(),
        triangles: Vec::new(),
        influences: Vec::new(),
        morph_positions: Vec::new(),
        image: None,
    };
    for (index, primitive) in mesh.primitives().enumerate() {
        if primitive.mode() != Mode::Triangles {
            return Err(fail(format!(
                "primitive {index} is {:?}, not triangles",
                primitive.mode()
            )));
        }
        let first = u32::try_from(read.positions.len())
            .map_err(|_| fail("it has more than 2^32 vertices".to_owned()))?;
        let attribute = |semantic: Semantic, what: &str| {
            primitive
                .get(&semantic)
                .ok_or_else(|| fail(format!("primitive {index} has no {what}")))
        };
        let positions = asset.floats::<3>(&attribute(Semantic::Positions, "positions")?)?;
        finite(&positions, index, "position").map_err(fail)?;
        let count = positions.len();
        let same_count = |what: &str, len: usize| {
            if len == count {
                Ok(())
            } else {
                Err(fail(format!(
                    "primitive {index} has {len} {what} for {count} positions"
                )))
            }
        };
        let normals = asset.floats::<3>(&attribute(Semantic::Normals, "normals")?)?;
        same_count("normals", normals.len())?;
        finite(&normals, index, "normal").map_err(fail)?;
        let uvs = asset.floats::<2>(&attribute(
            Semantic::TexCoords(0),
            "texture coordinates (uvs)",
        )?)?;
        same_count("uvs", uvs.len())?;
        finite(&uvs, index, "texture coordinate").map_err(fail)?;
        let mut weighted: Vec<Vec<(usize, f32)>> = vec![Vec::new(); count];
        let mut set = 0;
        while let (Some(joints), Some(weights)) = (
            primitive.get(&Semantic::Joints(set)),
            primitive.get(&Semantic::Weights(set)),
        ) {
            let joints = asset.integers::<4>(&joints)?;
            let weights = asset.floats::<4>(&weights)?;
            same_count("joint sets", joints.len())?;
            same_count("weight sets", weights.len())?;
            let primitive_index = index;
            for (index, ((vertex, joints), weights)) in
                weighted.iter_mut().zip(&joints).zip(&weights).enumerate()
            {
                for (&joint, &weight) in joints.iter().zip(weights) {
                    if !(weight.is_finite() && weight >= 0.0) {
                        return Err(fail(format!(
                            "vertex {index} of primitive {primitive_index} has the weight {weight}"
                        )));
                    }
                    if weight == 0.0 {
                        continue;
                    }
                    if joint as usize >= joint_count {
                        return Err(fail(format!(
                            "vertex {index} of primitive {primitive_index} follows joint {joint}, \
                             and the skin has {joint_count}"
                        )));
                    }
                    vertex.push((joint as usize, weight));
                }
            }
            set += 1;
        }
        if set == 0 {
            return Err(fail(format!(
                "primitive {index} has no joints and weights (JOINTS_0, WEIGHTS_0)"
            )));
        }
        read.influences.extend(weighted);
        let targets = primitive.morph_targets().len();
        if index == 0 {
            read.morph_positions = vec![Vec::new(); targets];
        } else if targets != read.morph_positions.len() {
            return Err(fail(format!(
                "primitive {index} has {targets} morph targets, primitive 0 {}",
                read.morph_positions.len()
            )));
        }
        for (target, moves) in primitive.morph_targets().zip(&mut read.morph_positions) {
            match target.positions() {
                Some(accessor) => {
                    let deltas = asset.floats::<3>(&accessor)?;
                    same_count("morph target positions", deltas.len())?;
                    finite(&deltas, index, "morph target move").map_err(fail)?;
                    moves.extend(deltas.iter().map(|&d| mirror(Vec3::from_array(d))));
                }
                None => moves.extend(std::iter::repeat_n(Vec3::ZERO, count)),
            }
        }
        read.positions
            .extend(positions.iter().map(|&p| mirror(Vec3::from_array(p))));
        read.normals
            .extend(normals.iter().map(|&n| mirror(Vec3::from_array(n))));
        read.uvs.extend(uvs);
        let corners: Vec<u32> = match primitive.indices() {
            Some(indices) => asset
                .integers::<1>(&indices)?
                .into_iter()
                .map(|[index]| index)
                .collect(),
            None => (0..u32::try_from(count).unwrap_or(u32::MAX)).collect(),
        };
        if corners.len() % 3 != 0 {
            return Err(fail(format!(
                "primitive {index} has {} corners, not a whole number of triangles",
                corners.len()
            )));
        }
        for triangle in corners.chunks_exact(3) {
            let [a, b, c] = [triangle[0], triangle[1], triangle[2]];
            if [a, b, c].iter().any(|&corner| corner as usize >= count) {
                return Err(fail(format!(
                    "primitive {index} has a triangle on a vertex past its {count}"
                )));
            }
            // Wound back as the left-handed file winds it.
            read.triangles.push([first + a, first + c, first + b]);
        }
        if read.image.is_none() {
            read.image = primitive
                .material()
                .pbr_metallic_roughness()
                .base_color_texture()
                .map(|info| info.texture().source());
        }
    }
    Ok(read)
}
