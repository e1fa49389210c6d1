//! A `.mgn` brought back from the file it was exported from (carried in
//! the glTF, see [`super::carried`]) and the mesh the glTF holds now.
//!
//! When the glTF's groups still have the original's vertices (the same
//! groups, each vertex at the same position entry), the original is kept
//! and each value glTF holds that an edit changed is taken from the glTF:
//! a position, a position's weights, a normal, texture coordinates, a
//! group's triangles, a blend target's moves, a group's shader. A value
//! is unchanged when it lies within [`SAME`] of the original's (export
//! poses the mesh at rest and scales weights to sum to 1, which moves
//! values by far less), so an unchanged mesh comes back byte for byte.
//!
//! Otherwise (vertices added, removed or reordered) the mesh is the one
//! read from the glTF, keeping of the original what does not depend on
//! its vertices: its version, the `INFO` integers, the joints' order,
//! occlusion zones, hardpoints, texture renderers and unknown chunks;
//! what does (lighting vectors, vertex colours, occluded triangle lists,
//! blend targets' normal moves) is said to be lost.

use std::collections::{BTreeMap, HashMap};

use formats::schema::RawString;
use formats::swg::mgn::{BlendTarget, Mesh, MeshBody, MeshVersion, Offset, TriangleList, Weight};

use super::carried::{near, same_direction, unit, SAME};

/// The mesh of `original`'s version holding `body`.
fn versioned(original: &Mesh, body: MeshBody) -> Mesh {
    Mesh {
        version: match original.version {
            MeshVersion::V2(_) => MeshVersion::V2(body),
            MeshVersion::V3(_) => MeshVersion::V3(body),
            MeshVersion::V4(_) => MeshVersion::V4(body),
        },
    }
}

/// `derived` (the mesh read from the glTF) made from `original` as the
/// module says, with a sentence for what could not be kept.
pub fn merged(original: &Mesh, derived: MeshBody) -> (Mesh, Option<String>) {
    let kept = original.body();
    let same_vertices = kept.positions.len() == derived.positions.len()
        && kept.shader_groups.len() == derived.shader_groups.len()
        && kept
            .shader_groups
            .iter()
            .zip(&derived.shader_groups)
            .all(|(a, b)| a.position_indices == b.position_indices);
    if same_vertices {
        (versioned(original, edited(kept.clone(), &derived)), None)
    } else {
        let (body, lost) = rebuilt(kept, derived);
        (versioned(original, body), lost)
    }
}

/// Each joint's name in lower case, as SWG compares them.
fn lowered(body: &MeshBody) -> Vec<String> {
    body.joints
        .iter()
        .map(|joint| joint.to_text().to_lowercase())
        .collect()
}

/// Each position's weights as (joint name in lower case, from `names`,
/// share of the position's total), without zero weights, sorted.
fn shares<'a>(body: &MeshBody, names: &'a [String]) -> Vec<Vec<(&'a str, f32)>> {
    let mut weights = body.weights.iter();
    body.weights_per_position
        .iter()
        .map(|&count| {
            let own: Vec<&Weight> = weights
                .by_ref()
                .take(usize::try_from(count).unwrap_or(0))
                .collect();
            let total: f32 = own.iter().map(|weight| weight.weight).sum();
            let mut named: Vec<(&str, f32)> = own
                .iter()
                .filter(|weight| weight.weight != 0.0)
                .map(|weight| {
                    let joint = usize::try_from(weight.joint)
                        .ok()
                        .and_then(|joint| names.get(joint))
                        .map_or("", String::as_str);
                    let share = if total > 0.0 {
                        weight.weight / total
                    } else {
                        weight.weight
                    };
                    (joint, share)
                })
                .collect();
            named.sort_by(|a, b| a.0.cmp(b.0));
            named
        })
        .collect()
}

/// The influences an exporter keeps of a vertex by default: Blender's
/// glTF exporter keeps each vertex's four heaviest joints, renormalised.
const GLTF_INFLUENCES: usize = 4;

/// `shares` cut to its `count` heaviest, renormalised, sorted by name: what
/// an exporter that keeps `count` influences makes of them.
fn heaviest<'a>(shares: &[(&'a str, f32)], count: usize) -> Vec<(&'a str, f32)> {
    let mut kept = shares.to_vec();
    kept.sort_by(|a, b| b.1.total_cmp(&a.1));
    kept.truncate(count);
    let total: f32 = kept.iter().map(|(_, share)| share).sum();
    if total > 0.0 {
        for (_, share) in &mut kept {
            *share /= total;
        }
    }
    kept.sort_by(|a, b| a.0.cmp(b.0));
    kept
}

fn same_shares(a: &[(&str, f32)], b: &[(&str, f32)]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((p, x), (q, y))| p == q && (x - y).abs() <= SAME)
}

/// A mesh's joints, to which more are added by name: each name found once.
struct JointList {
    joints: Vec<RawString>,
    /// Each joint's index by its name in ASCII lower case (SWG finds
    /// joints without regard to case).
    by_name: HashMap<String, i32>,
}

impl JointList {
    fn new(joints: Vec<RawString>) -> JointList {
        let mut by_name = HashMap::with_capacity(joints.len());
        for (index, joint) in joints.iter().enumerate() {
            by_name
                .entry(joint.to_text().to_ascii_lowercase())
                .or_insert(i32::try_from(index).unwrap_or(i32::MAX));
        }
        JointList { joints, by_name }
    }

    /// The index of the joint named `name`, added when missing.
    fn index(&mut self, name: &RawString) -> i32 {
        let key = name.to_text().to_ascii_lowercase();
        if let Some(&index) = self.by_name.get(&key) {
            return index;
        }
        let index = i32::try_from(self.joints.len()).unwrap_or(i32::MAX);
        self.joints.push(name.clone());
        self.by_name.insert(key, index);
        index
    }
}

/// Each position's weights as stored.
fn weight_lists(body: &MeshBody) -> Vec<Vec<Weight>> {
    let mut weights = body.weights.iter();
    body.weights_per_position
        .iter()
        .map(|&count| {
            weights
                .by_ref()
                .take(usize::try_from(count).unwrap_or(0))
                .copied()
                .collect()
        })
        .collect()
}

/// `derived`'s weights of one position, naming `joints` (joints it names
/// that `joints` lacks are added).
fn renamed(derived: &MeshBody, own: &[Weight], joints: &mut JointList) -> Vec<Weight> {
    own.iter()
        .filter_map(|weight| {
            let name = derived.joints.get(usize::try_from(weight.joint).ok()?)?;
            Some(Weight {
                joint: joints.index(name),
                weight: weight.weight,
            })
        })
        .collect()
}

/// Sets the weights from per-position lists.
fn set_weights(body: &mut MeshBody, lists: Vec<Vec<Weight>>) {
    body.weights_per_position = lists
        .iter()
        .map(|own| i32::try_from(own.len()).unwrap_or(i32::MAX))
        .collect();
    body.weights = lists.into_iter().flatten().collect();
}

/// A blend target's position moves by entry, without zero moves.
fn moves(offsets: Option<&Vec<Offset>>) -> BTreeMap<i32, [f32; 3]> {
    offsets
        .into_iter()
        .flatten()
        .filter(|offset| offset.offset != [0.0; 3])
        .map(|offset| (offset.index, offset.offset))
        .collect()
}

/// `kept` (the original, with the same vertices as `derived`) with every
/// value `derived` changed.
fn edited(mut kept: MeshBody, derived: &MeshBody) -> MeshBody {
    let mut used = vec![false; kept.positions.len()];
    for group in &derived.shader_groups {
        for &entry in &group.position_indices {
            if let Some(used) = usize::try_from(entry).ok().and_then(|e| used.get_mut(e)) {
                *used = true;
            }
        }
    }
    for ((position, new), used) in kept.positions.iter_mut().zip(&derived.positions).zip(&used) {
        if *used && !near(position, new) {
            *position = *new;
        }
    }
    let (kept_names, derived_names) = (lowered(&kept), lowered(derived));
    let (kept_shares, derived_shares) =
        (shares(&kept, &kept_names), shares(derived, &derived_names));
    let mut lists = weight_lists(&kept);
    let derived_lists = weight_lists(derived);
    let mut joints = JointList::new(kept.joints.clone());
    for (entry, list) in lists.iter_mut().enumerate() {
        let (Some(old), Some(new), Some(true)) = (
            kept_shares.get(entry),
            derived_shares.get(entry),
            used.get(entry),
        ) else {
            continue;
        };
        if !same_shares(old, new) && !same_shares(&heaviest(old, GLTF_INFLUENCES), new) {
            let own = derived_lists.get(entry).map_or(&[][..], Vec::as_slice);
            *list = renamed(derived, own, &mut joints);
        }
    }
    kept.joints = joints.joints;
    set_weights(&mut kept, lists);
    let derived_normal = |group: &formats::swg::mgn::ShaderGroup, vertex: usize| {
        let index = group.normal_indices.as_ref()?.get(vertex)?;
        derived.normals.as_ref()?.get(usize::try_from(*index).ok()?)
    };
    for (group, new) in kept.shader_groups.iter_mut().zip(&derived.shader_groups) {
        if group.shader != new.shader {
            group.shader = new.shader.clone();
        }
        if let (Some(normals), Some(indices)) = (kept.normals.as_mut(), &group.normal_indices) {
            for (vertex, &index) in indices.iter().enumerate() {
                let (Some(normal), Some(new)) = (
                    usize::try_from(index)
                        .ok()
                        .and_then(|index| normals.get_mut(index)),
                    derived_normal(new, vertex),
                ) else {
                    continue;
                };
                // glTF holds unit normals: an unchanged one is the
                // original's direction.
                if !same_direction(&unit(*normal), new) {
                    *normal = *new;
                }
            }
        }
        // The first two-dimensional set is the one glTF holds.
        let uvs = new.coordinate_sets.as_ref().and_then(|sets| sets.first());
        let set = group
            .coordinate_dimensions
            .as_ref()
            .and_then(|dimensions| dimensions.iter().position(|&dimension| dimension == 2));
        if let (Some(uvs), Some(set)) = (uvs, set) {
            if let Some(values) = group
                .coordinate_sets
                .as_mut()
                .and_then(|sets| sets.get_mut(set))
            {
                for (old, new) in values
                    .values
                    .chunks_exact_mut(2)
                    .zip(uvs.values.chunks_exact(2))
                {
                    if !near(old, new) {
                        old.copy_from_slice(new);
                    }
                }
            }
        }
        if !group.triangles().eq(new.triangles()) {
            group.primitives = new.primitives.clone();
        }
    }
    kept.blend_targets = edited_targets(kept.blend_targets.take(), derived);
    kept
}

/// Each target with how many targets before it have its name: a `.mgn`
/// can hold two of one name, and the n-th of a name is the glTF's n-th.
fn repeats(targets: &[BlendTarget]) -> Vec<(&RawString, usize)> {
    targets
        .iter()
        .enumerate()
        .map(|(index, target)| {
            let before = targets
                .iter()
                .take(index)
                .filter(|other| other.name == target.name)
                .count();
            (&target.name, before)
        })
        .collect()
}

/// The original's blend targets with the glTF's moves where they changed,
/// its targets the glTF no longer has left out, new ones added.
fn edited_targets(kept: Option<Vec<BlendTarget>>, derived: &MeshBody) -> Option<Vec<BlendTarget>> {
    let new_targets = derived.blend_targets.as_deref().unwrap_or_default();
    let new_keys = repeats(new_targets);
    let kept = kept.unwrap_or_default();
    let kept_keys: Vec<(RawString, usize)> = repeats(&kept)
        .into_iter()
        .map(|(name, repeat)| (name.clone(), repeat))
        .collect();
    let mut targets: Vec<BlendTarget> = Vec::new();
    for (mut target, (name, repeat)) in kept.into_iter().zip(&kept_keys) {
        let Some((new, _)) = new_targets
            .iter()
            .zip(&new_keys)
            .find(|(_, key)| **key == (name, *repeat))
        else {
            continue;
        };
        let (old_moves, new_moves) = (
            moves(target.positions.as_ref()),
            moves(new.positions.as_ref()),
        );
        let same = old_moves.len() == new_moves.len()
            && old_moves
                .iter()
                .zip(&new_moves)
                .all(|((a, x), (b, y))| a == b && near(x, y));
        if !same {
            target.positions = new.positions.clone();
        }
        targets.push(target);
    }
    for (new, key) in new_targets.iter().zip(&new_keys) {
        if !kept_keys
            .iter()
            .any(|(name, repeat)| (name, *repeat) == *key)
        {
            targets.push(new.clone());
        }
    }
    (!targets.is_empty()).then_some(targets)
}

/// `derived` with what of `kept` does not depend on its vertices, and a
/// sentence naming what was lost, if anything.
fn rebuilt(kept: &MeshBody, mut derived: MeshBody) -> (MeshBody, Option<String>) {
    // The original's joints first, in its order.
    let lists = weight_lists(&derived);
    let mut joints = JointList::new(kept.joints.clone());
    let renamed_lists: Vec<Vec<Weight>> = lists
        .iter()
        .map(|own| renamed(&derived, own, &mut joints))
        .collect();
    derived.joints = joints.joints;
    set_weights(&mut derived, renamed_lists);
    let mut lost = Vec::new();
    if kept.lighting_vectors.is_some() {
        lost.push("lighting vectors (DOT3)");
    }
    if kept
        .shader_groups
        .iter()
        .any(|group| group.colors.is_some())
    {
        lost.push("vertex colours");
    }
    let occluded = kept.shader_groups.iter().any(|group| {
        group
            .primitives
            .lists
            .iter()
            .any(|list| matches!(list, TriangleList::Occluded(_)))
    });
    if occluded {
        lost.push("triangles' occlusion");
    }
    if kept
        .blend_targets
        .iter()
        .flatten()
        .any(|target| target.normals.is_some() || target.hardpoints.is_some())
    {
        lost.push("blend targets' normal and hardpoint moves");
    }
    let same_groups = kept.shader_groups.len() == derived.shader_groups.len();
    let body = MeshBody {
        max_joints_per_position: kept.max_joints_per_position,
        max_joints_per_shader: kept.max_joints_per_shader,
        occlusion_layer: kept.occlusion_layer,
        hardpoints: kept.hardpoints.clone(),
        zones: kept.zones.clone(),
        fully_occluded_by: kept.fully_occluded_by.clone(),
        combinations: kept.combinations.clone(),
        occludes: kept.occludes.clone(),
        // Renderers fill slots of groups by index.
        texture_renderers: if same_groups {
            kept.texture_renderers.clone()
        } else {
            None
        },
        unknown: kept.unknown.clone(),
        ..derived
    };
    if !same_groups && kept.texture_renderers.is_some() {
        lost.push("texture renderers");
    }
    let sentence = (!lost.is_empty()).then(|| {
        format!(
            "its vertices are not those it was exported with, so its {} could not be kept",
            lost.join(", ")
        )
    });
    (body, sentence)
}

#[cfg(test)]
mod tests {
    use super::*;
    use formats::schema::BinarySchema;

    fn humanoid() -> Mesh {
        let path = ::tests::workspace_root().join("tests/fixtures/humanoid.mgn");
        Mesh::from_bytes(&std::fs::read(path).unwrap()).unwrap()
    }

    #[test]
    fn an_unchanged_mesh_is_its_original_and_an_edit_is_taken() {
        let original = humanoid();
        let (back, lost) = merged(&original, original.body().clone());
        assert_eq!((back, lost), (original.clone(), None));
        // A move within SAME is no edit; one past it is taken.
        let mut derived = original.body().clone();
        derived.positions[0][1] += SAME / 2.0;
        derived.positions[1][1] += 0.5;
        let (back, _) = merged(&original, derived.clone());
        assert_eq!(back.body().positions[0], original.body().positions[0]);
        assert_eq!(back.body().positions[1], derived.positions[1]);
    }

    #[test]
    fn two_targets_of_one_name_are_each_matched_to_their_own() {
        let mut original = humanoid();
        let MeshVersion::V4(body) = &mut original.version else {
            panic!("the humanoid is version 4");
        };
        let targets = body.blend_targets.as_mut().unwrap();
        let mut twin = targets[0].clone();
        twin.positions = Some(vec![Offset {
            index: 1,
            offset: [0.0, 0.25, 0.0],
        }]);
        targets.push(twin);
        // The glTF changed the second target of the name only.
        let mut derived = original.body().clone();
        let twin = derived.blend_targets.as_mut().unwrap().last_mut().unwrap();
        twin.positions = Some(vec![Offset {
            index: 1,
            offset: [0.0, 0.5, 0.0],
        }]);
        let (back, _) = merged(&original, derived.clone());
        assert_eq!(back.body().blend_targets, derived.blend_targets);
    }

    #[test]
    fn other_vertices_keep_what_does_not_depend_on_them_and_say_what_is_lost() {
        let mut original = humanoid();
        let MeshVersion::V4(body) = &mut original.version else {
            panic!("the humanoid is version 4");
        };
        body.occlusion_layer = 3;
        body.zones = Some(vec![RawString::from("chest")]);
        body.lighting_vectors = Some(Vec::new());
        let mut derived = original.body().clone();
        derived.occlusion_layer = 0;
        derived.zones = None;
        derived.lighting_vectors = None;
        derived.positions.push([0.0; 3]);
        derived.weights_per_position.push(0);
        let (back, lost) = merged(&original, derived);
        assert_eq!(back.body().occlusion_layer, 3);
        assert_eq!(back.body().zones, Some(vec![RawString::from("chest")]));
        assert_eq!(
            back.body().positions.len(),
            original.body().positions.len() + 1
        );
        let lost = lost.unwrap();
        assert!(lost.contains("lighting vectors (DOT3)"), "{lost}");
    }
}
