//! Skins as skinned glTF meshes: bind positions from ossuary's own
//! deformation at rest, and each vertex's joints and weights.

use std::collections::BTreeMap;

use formats::rig::{self, Binding};
use glam::{Affine3A, Mat4, Vec3};
use gltf::json;
use json::accessor::Type;
use json::buffer::Target;
use json::mesh::Semantic;
use json::validation::Checked;
use skinning::{BlendRule, BoundSkin, Skeleton};

use crate::axes::Change;
use crate::buffer::Asset;
use crate::MeshProblem;

/// The joint that carries a vertex no joint of the skin carries.
const FIRST_JOINT: usize = 0;

/// The one glTF skin all meshes share: every joint of the skeleton, in its
/// order (so a vertex's joint indices are skeleton joint indices), with the
/// inverse of each joint's rest model matrix.
pub fn shared_skin(
    asset: &mut Asset,
    joints: &[json::Index<json::Node>],
    rest_model: &[Affine3A],
    change: &Change,
) -> json::Index<json::Skin> {
    let inverse_binds: Vec<[f32; 16]> = rest_model
        .iter()
        .map(|model| Mat4::from(change.transform(model).inverse()).to_cols_array())
        .collect();
    let inverse_bind_matrices = asset.floats(&inverse_binds, Type::Mat4, None, false);
    asset.root.push(json::Skin {
        extensions: None,
        extras: Default::default(),
        inverse_bind_matrices: Some(inverse_bind_matrices),
        joints: joints.to_vec(),
        name: None,
        skeleton: None,
    })
}

/// What every mesh is bound with: the skeleton, its rest pose, the change
/// of axes and the shared glTF skin (`None` when the skeleton has no joints).
pub struct Bind<'a> {
    pub skeleton: &'a Skeleton,
    pub rest_model: &'a [Affine3A],
    pub change: &'a Change,
    pub skin: Option<json::Index<json::Skin>>,
}

/// Refuses the first value of `values` (one per vertex) that is not finite.
fn finite<const N: usize>(what: &'static str, values: &[[f32; N]]) -> Result<(), MeshProblem> {
    match values
        .iter()
        .position(|value| !value.iter().all(|x| x.is_finite()))
    {
        Some(vertex) => Err(MeshProblem::NotFinite {
            vertex,
            what,
            value: values
                .get(vertex)
                .map_or_else(Vec::new, |value| value.to_vec()),
        }),
        None => Ok(()),
    }
}

/// A skin as a mesh and the node that places it, with one morph target per
/// frame of each of `morphs` (vertex animations' frames: every vertex's
/// position, in the file's axes), then one per blend shape of the skin, at
/// the weights `blend_weights` gives by name. A skin without triangles (a
/// BonesPro structure's vertices) is a cloud of points.
pub fn skinned_mesh(
    asset: &mut Asset,
    bind: &Bind,
    skin: &rig::Skin,
    material: json::Index<json::Material>,
    morphs: &[&[Vec<[f32; 3]>]],
    blend_weights: &[(String, f32)],
) -> Result<json::Index<json::Node>, MeshProblem> {
    let (skeleton, change) = (bind.skeleton, bind.change);
    let bound = BoundSkin::bind(skin, skeleton)?;
    let at_rest = bound.deform(bind.rest_model, BlendRule::Game)?;
    let gltf_skin = bind.skin.ok_or(MeshProblem::NoJoints)?;
    let influences = influences(skin, skeleton)?;
    let sets = vertex_sets(&influences);

    let positions: Vec<[f32; 3]> = at_rest
        .positions
        .iter()
        .map(|&position| change.point(position).to_array())
        .collect();
    // A normal that cannot be made unit length (zero in the file) would be
    // invalid glTF; such a mesh goes without normals and viewers make their own.
    let normals: Option<Vec<[f32; 3]>> = at_rest
        .normals
        .iter()
        .map(|&normal| {
            change
                .point(normal)
                .try_normalize()
                .map(|unit| unit.to_array())
        })
        .collect();
    finite("position", &positions)?;
    finite("texture coordinate", &skin.uvs)?;
    let corners: Vec<u32> = skin
        .triangles
        .iter()
        .flat_map(|&triangle| change.triangle(triangle))
        .collect();

    let vertex_data = Some(Target::ArrayBuffer);
    let mut attributes = vec![(
        Semantic::Positions,
        asset.floats(&positions, Type::Vec3, vertex_data, true),
    )];
    if let Some(normals) = normals.filter(|normals| !normals.is_empty()) {
        let accessor = asset.floats(&normals, Type::Vec3, vertex_data, false);
        attributes.push((Semantic::Normals, accessor));
    }
    if !skin.uvs.is_empty() {
        let accessor = asset.floats(&skin.uvs, Type::Vec2, vertex_data, false);
        attributes.push((Semantic::TexCoords(0), accessor));
    }
    for (set, (joints, weights)) in (0u32..).zip(sets.joints.iter().zip(&sets.weights)) {
        attributes.push((Semantic::Joints(set), asset.joints(joints)));
        let accessor = asset.floats(weights, Type::Vec4, vertex_data, false);
        attributes.push((Semantic::Weights(set), accessor));
    }
    // A target holds each vertex's move from its bind position to the
    // frame's, or to where the blend shape at weight 1 puts it at rest.
    let frames = morphs.iter().flat_map(|frames| frames.iter());
    let mut shapes = Vec::with_capacity(skin.morph_targets.len());
    // By index: a skin can hold two targets of one name (the Twi'lek's
    // head has two `blend_jaw_1`), and each target holds its own moves.
    for target in 0..skin.morph_targets.len() {
        let shaped = bound
            .morphed_target(target)
            .deform(bind.rest_model, BlendRule::Game)?;
        let positions: Vec<[f32; 3]> = shaped
            .positions
            .iter()
            .map(|position| position.to_array())
            .collect();
        shapes.push(positions);
    }
    let mut targets = Vec::new();
    for to in frames.chain(&shapes) {
        let moves: Vec<[f32; 3]> = to
            .iter()
            .zip(&positions)
            .map(|(&to, &from)| {
                (change.point(Vec3::from_array(to)) - Vec3::from_array(from)).to_array()
            })
            .collect();
        finite("move in a morph target", &moves)?;
        targets.push(json::mesh::MorphTarget {
            positions: Some(asset.floats(&moves, Type::Vec3, vertex_data, true)),
            normals: None,
            tangents: None,
        });
    }
    let frame_count: usize = morphs.iter().map(|frames| frames.len()).sum();
    let blend_weight = |name: &str| {
        blend_weights
            .iter()
            .rev()
            .find(|(given, _)| given == name)
            .map_or(0.0, |&(_, weight)| weight)
    };
    let weights: Vec<f32> = std::iter::repeat_n(0.0, frame_count)
        .chain(
            skin.morph_targets
                .iter()
                .map(|target| blend_weight(&target.name)),
        )
        .collect();
    // Blend shapes are named for clients (a frame of a vertex animation by
    // its number); what glTF cannot hold of a Sims skin travels beside them.
    let mut extras = serde_json::Map::new();
    if !skin.morph_targets.is_empty() {
        let names: Vec<String> = (0..frame_count)
            .map(|frame| format!("frame {frame}"))
            .chain(skin.morph_targets.iter().map(|target| target.name.clone()))
            .collect();
        extras.insert("targetNames".to_owned(), serde_json::json!(names));
    }
    if let Some(shared) = &skin.shared_positions {
        extras.insert(
            crate::import::swg::GROUP_EXTRAS.to_owned(),
            crate::import::swg::group_extras(shared),
        );
    }
    if let Binding::BoneSpace(bone_space) = &skin.binding {
        extras.insert(
            crate::import::sims::SKIN_EXTRAS.to_owned(),
            crate::import::sims::skin_extras(skin, bone_space),
        );
    }
    // Plain JSON always serializes: `ok` drops nothing.
    let extras = (!extras.is_empty())
        .then(|| serde_json::value::to_raw_value(&extras).ok())
        .flatten();
    let (mode, indices) = if corners.is_empty() {
        (json::mesh::Mode::Points, None)
    } else {
        (json::mesh::Mode::Triangles, Some(asset.indices(&corners)))
    };
    let mesh = asset.root.push(json::Mesh {
        extensions: None,
        extras,
        name: Some(skin.name.clone()),
        primitives: vec![json::mesh::Primitive {
            attributes: attributes
                .into_iter()
                .map(|(semantic, accessor)| (Checked::Valid(semantic), accessor))
                .collect(),
            extensions: None,
            extras: Default::default(),
            indices,
            material: Some(material),
            mode: Checked::Valid(mode),
            targets: (!targets.is_empty()).then_some(targets),
        }],
        weights: (!weights.is_empty()).then_some(weights),
    });
    Ok(asset.root.push(json::Node {
        name: Some(skin.name.clone()),
        mesh: Some(mesh),
        skin: Some(gltf_skin),
        ..Default::default()
    }))
}

/// Each vertex's joints (skeleton indices) and weights, summing to 1,
/// heaviest first.
///
/// Weighted skins give theirs, scaled to sum to 1 (the bind positions, from
/// ossuary's deformation at rest, carry the same sum, so every pose deforms
/// alike). A bone-space vertex follows the bone whose range holds it (the
/// last such range, as in the deformation); each blend then pulling it by
/// `w` leaves `1 - w` of every share it had and adds `w` for the blend
/// vertex's bone. A vertex left without a joint follows the first joint.
fn influences(
    skin: &rig::Skin,
    skeleton: &Skeleton,
) -> Result<Vec<Vec<(usize, f32)>>, MeshProblem> {
    let vertices = skin.positions.len();
    let raw: Vec<Vec<(usize, f32)>> = match &skin.binding {
        Binding::Weighted(weights) => {
            let joints = find_joints(&weights.joints, skeleton);
            let mut listed = weights.influences.iter();
            weights
                .counts
                .iter()
                .map(|&count| {
                    listed
                        .by_ref()
                        .take(count as usize)
                        .filter_map(|influence| {
                            let joint = joints.get(influence.joint as usize).copied().flatten()?;
                            Some((joint, influence.weight))
                        })
                        .collect()
                })
                .collect()
        }
        Binding::BoneSpace(bone_space) => {
            let joints = find_joints(&bone_space.bones, skeleton);
            let mut carriers = vec![FIRST_JOINT; vertices];
            let mut blend_carriers = vec![FIRST_JOINT; bone_space.blends.len()];
            for range in &bone_space.ranges {
                let Some(joint) = joints.get(range.bone as usize).copied().flatten() else {
                    continue;
                };
                for slot in range_slots(&mut carriers, &range.vertices) {
                    *slot = joint;
                }
                for slot in range_slots(&mut blend_carriers, &range.blends) {
                    *slot = joint;
                }
            }
            let mut influences: Vec<Vec<(usize, f32)>> =
                carriers.iter().map(|&joint| vec![(joint, 1.0)]).collect();
            for (blend, carrier) in bone_space.blends.iter().zip(blend_carriers) {
                if let Some(vertex) = influences.get_mut(blend.vertex as usize) {
                    for (_, weight) in vertex.iter_mut() {
                        *weight *= 1.0 - blend.weight;
                    }
                    vertex.push((carrier, blend.weight));
                }
            }
            influences
        }
    };
    raw.into_iter()
        .enumerate()
        .map(|(vertex, influences)| normalized(vertex, influences, skeleton))
        .collect()
}

/// Each name's joint in the skeleton (binding the skin found them all).
fn find_joints(names: &[String], skeleton: &Skeleton) -> Vec<Option<usize>> {
    names.iter().map(|name| skeleton.find(name)).collect()
}

/// The entries of `slots` a rig range covers (none past the end).
fn range_slots<'a>(
    slots: &'a mut [usize],
    range: &std::ops::Range<u32>,
) -> impl Iterator<Item = &'a mut usize> {
    let start = range.start as usize;
    let count = (range.end as usize).saturating_sub(start);
    slots.iter_mut().skip(start).take(count)
}

/// One entry per joint, weights summing to 1, heaviest first; no weight at
/// all means the first joint. glTF has no negative weights.
fn normalized(
    vertex: usize,
    influences: Vec<(usize, f32)>,
    skeleton: &Skeleton,
) -> Result<Vec<(usize, f32)>, MeshProblem> {
    let mut merged: BTreeMap<usize, f32> = BTreeMap::new();
    for (joint, weight) in influences {
        *merged.entry(joint).or_default() += weight;
    }
    if let Some((&joint, &weight)) = merged
        .iter()
        .find(|(_, weight)| !weight.is_finite() || **weight < 0.0)
    {
        return Err(MeshProblem::Weight {
            vertex,
            joint: skeleton.names().get(joint).cloned().unwrap_or_default(),
            weight,
        });
    }
    let total: f32 = merged.values().sum();
    if total <= 0.0 {
        return Ok(vec![(FIRST_JOINT, 1.0)]);
    }
    let mut shares: Vec<(usize, f32)> = merged
        .into_iter()
        .filter(|&(_, weight)| weight > 0.0)
        .map(|(joint, weight)| (joint, weight / total))
        .collect();
    shares.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(shares)
}

/// `JOINTS_n` and `WEIGHTS_n`: per set, four joints and weights per vertex.
struct VertexSets {
    joints: Vec<Vec<[u16; 4]>>,
    weights: Vec<Vec<[f32; 4]>>,
}

/// Influences as sets of four, as many sets as the most influenced vertex
/// needs (at least one); unused slots are joint 0 with weight 0.
fn vertex_sets(influences: &[Vec<(usize, f32)>]) -> VertexSets {
    let most = influences.iter().map(Vec::len).max().unwrap_or(0);
    let sets = most.div_ceil(4).max(1);
    let mut joints = vec![vec![[0u16; 4]; influences.len()]; sets];
    let mut weights = vec![vec![[0f32; 4]; influences.len()]; sets];
    for (vertex, shares) in influences.iter().enumerate() {
        for (slot, &(joint, weight)) in shares.iter().enumerate() {
            let (set, lane) = (slot / 4, slot % 4);
            // The exporter refuses skeletons with more joints than u16 numbers.
            let joint = u16::try_from(joint).unwrap_or(u16::MAX);
            if let Some(entry) = joints.get_mut(set).and_then(|set| set.get_mut(vertex)) {
                entry[lane] = joint;
            }
            if let Some(entry) = weights.get_mut(set).and_then(|set| set.get_mut(vertex)) {
                entry[lane] = weight;
            }
        }
    }
    VertexSets { joints, weights }
}

#[cfg(test)]
mod tests {
    use rig::{Axes, Blend, BoneRange, BoneSpace, Joint, Transform};

    use super::*;

    fn skeleton() -> Skeleton {
        let joint = |name: &str| Joint {
            name: name.to_owned(),
            parent: None,
            rest: Transform::IDENTITY,
        };
        Skeleton::new(&rig::Skeleton {
            joints: vec![joint("A"), joint("B"), joint("C")],
            axes: Axes::RightHandedYUp,
        })
        .unwrap()
    }

    /// Vertices 0..3 on B, vertex 3 on no bone; blend vertices 0 and 1 on C.
    fn skin(blends: Vec<Blend>) -> rig::Skin {
        rig::Skin {
            name: "test".to_owned(),
            texture: None,
            morph_targets: Vec::new(),
            shared_positions: None,
            positions: vec![[0.0; 3]; 4],
            normals: Vec::new(),
            uvs: Vec::new(),
            triangles: Vec::new(),
            binding: Binding::BoneSpace(BoneSpace {
                bones: vec!["B".to_owned(), "C".to_owned()],
                ranges: vec![
                    BoneRange {
                        bone: 0,
                        vertices: 0..3,
                        blends: 0..0,
                    },
                    BoneRange {
                        bone: 1,
                        vertices: 0..0,
                        blends: 0..2,
                    },
                ],
                blend_positions: vec![[0.0; 3]; blends.len()],
                blend_normals: Vec::new(),
                blends,
            }),
        }
    }

    #[test]
    fn blended_vertices_share_between_their_bones() {
        let blends = vec![
            Blend {
                vertex: 1,
                weight: 0.25,
            },
            Blend {
                vertex: 2,
                weight: 1.0,
            },
        ];
        let influences = influences(&skin(blends), &skeleton()).unwrap();
        assert_eq!(
            influences,
            vec![
                vec![(1, 1.0)],
                vec![(1, 0.75), (2, 0.25)],
                vec![(2, 1.0)],
                vec![(FIRST_JOINT, 1.0)],
            ]
        );
    }

    #[test]
    fn two_pulls_on_one_vertex_compose_in_order() {
        let blends = vec![
            Blend {
                vertex: 0,
                weight: 0.5,
            },
            Blend {
                vertex: 0,
                weight: 0.5,
            },
        ];
        // (1/2 B + 1/2 C) pulled half way to C again: 1/4 B + 3/4 C.
        let influences = influences(&skin(blends), &skeleton()).unwrap();
        assert_eq!(influences[0], vec![(2, 0.75), (1, 0.25)]);
    }

    #[test]
    fn a_pull_past_the_blend_vertex_is_an_error() {
        let blends = vec![Blend {
            vertex: 0,
            weight: 1.5,
        }];
        let error = influences(&skin(blends), &skeleton()).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"vertex 0 would follow joint "B" by -0.5; glTF weights cannot be negative or infinite"#
        );
    }

    #[test]
    fn five_influences_take_two_sets() {
        let shares: Vec<(usize, f32)> = (0..5).map(|joint| (joint, 0.2)).collect();
        let VertexSets { joints, weights } = vertex_sets(&[shares, vec![(3, 1.0)]]);
        assert_eq!(joints.len(), 2);
        assert_eq!(joints[0], vec![[0, 1, 2, 3], [3, 0, 0, 0]]);
        assert_eq!(joints[1], vec![[4, 0, 0, 0], [0, 0, 0, 0]]);
        assert_eq!(weights[1], vec![[0.2, 0.0, 0.0, 0.0], [0.0; 4]]);
    }
}
