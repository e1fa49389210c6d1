//! A Star Wars Galaxies shader group whose vertices Blender split or
//! merged, mapped back to the vertices of the group in the `.mgn` it was
//! exported from.
//!
//! Blender's glTF exporter writes a vertex once per distinct texture
//! coordinate and normal of its corners, so it adds vertices along seams
//! and merges vertices that share all three; the group then holds another
//! number of vertices than its `.mgn`, in another order. Each glTF vertex
//! is the group's vertex at the same position (within [`NEAR`]) with the
//! same texture coordinates (within [`NEAR`]) and the closest normal; a
//! vertex an edit moved is the one vertex of those texture coordinates. When
//! every glTF vertex finds one and every vertex of the group is found, the
//! group is read back in the `.mgn`'s vertices and order (a vertex's
//! copies agree: they are one vertex in Blender), and its triangles
//! through the same map: the mesh then keeps everything its vertices carry.

use std::collections::HashMap;

use formats::swg::mgn::MeshBody;
use glam::Vec3;

use super::mesh::MeshData;

/// Positions and texture coordinates this close are the same.
const NEAR: f32 = 1e-4;

/// A group's vertex in its `.mgn`: where it is, its normal's direction and
/// its texture coordinates.
struct Stored {
    position: Vec3,
    normal: Vec3,
    uv: [f32; 2],
}

/// The vertices of `original`'s shader group `group`.
fn stored(original: &MeshBody, group: usize) -> Option<Vec<Stored>> {
    let shader_group = original.shader_groups.get(group)?;
    let set = shader_group
        .coordinate_dimensions
        .as_ref()?
        .iter()
        .position(|&dimension| dimension == 2)?;
    let uvs = &shader_group.coordinate_sets.as_ref()?.get(set)?.values;
    let normals = original.normals.as_ref();
    shader_group
        .position_indices
        .iter()
        .enumerate()
        .map(|(vertex, &entry)| {
            let position = original.positions.get(usize::try_from(entry).ok()?)?;
            let normal = shader_group
                .normal_indices
                .as_ref()
                .and_then(|indices| indices.get(vertex))
                .and_then(|&index| normals?.get(usize::try_from(index).ok()?))
                .copied()
                .unwrap_or_default();
            Some(Stored {
                position: Vec3::from_array(*position),
                normal: Vec3::from_array(normal).normalize_or_zero(),
                uv: [*uvs.get(vertex * 2)?, *uvs.get(vertex * 2 + 1)?],
            })
        })
        .collect()
}

/// A cell of a grid of [`NEAR`] squares or cubes.
fn cell<const N: usize>(values: [f32; N]) -> [i64; N] {
    values.map(|value| (value / NEAR).floor() as i64)
}

/// The cells around `values`' (its own among them).
fn around<const N: usize>(values: [f32; N]) -> Vec<[i64; N]> {
    let centre = cell(values);
    let mut cells = vec![centre];
    for axis in 0..N {
        let mut next = Vec::with_capacity(cells.len() * 3);
        for base in &cells {
            for step in [-1, 0, 1] {
                let mut moved = *base;
                if let Some(slot) = moved.get_mut(axis) {
                    *slot += step;
                }
                next.push(moved);
            }
        }
        cells = next;
    }
    cells
}

fn uv_distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    (a[0] - b[0]).abs().max((a[1] - b[1]).abs())
}

/// `read` (a glTF mesh, one shader group) in the vertices and order of
/// `original`'s shader group `group`, when its vertices are those but for
/// splits and merges (see the module); `None` when they are not.
pub fn mapped_back<'a>(
    read: &MeshData<'a>,
    original: &MeshBody,
    group: usize,
) -> Option<MeshData<'a>> {
    let stored = stored(original, group)?;
    let mut by_place: HashMap<[i64; 3], Vec<usize>> = HashMap::new();
    let mut by_uv: HashMap<[i64; 2], Vec<usize>> = HashMap::new();
    for (index, vertex) in stored.iter().enumerate() {
        by_place
            .entry(cell(vertex.position.to_array()))
            .or_default()
            .push(index);
        by_uv.entry(cell(vertex.uv)).or_default().push(index);
    }
    // Per glTF vertex, the stored vertex it is: of equally good ones, one
    // not taken yet (a file can hold a vertex twice over).
    let mut taken = vec![false; stored.len()];
    let mut map = Vec::with_capacity(read.positions.len());
    for (vertex, position) in read.positions.iter().enumerate() {
        let uv = read.uvs.get(vertex).copied().unwrap_or_default();
        let normal = read.normals.get(vertex).copied().unwrap_or_default();
        let in_place = around(position.to_array())
            .iter()
            .filter_map(|key| by_place.get(key))
            .flatten()
            .copied()
            .filter(|&index| {
                stored.get(index).is_some_and(|candidate| {
                    (candidate.position - *position).abs().max_element() <= NEAR
                        && uv_distance(candidate.uv, uv) <= NEAR
                })
            })
            .min_by(|&a, &b| {
                let turn = |index: usize| {
                    stored
                        .get(index)
                        .map_or(f32::MAX, |s| -s.normal.dot(normal))
                };
                let used = |index: usize| taken.get(index).copied().unwrap_or(true);
                used(a).cmp(&used(b)).then(turn(a).total_cmp(&turn(b)))
            });
        // Moved by an edit: the one stored vertex of its texture coordinates.
        let moved = || {
            let mut of_uv = around(uv)
                .iter()
                .filter_map(|key| by_uv.get(key))
                .flatten()
                .copied()
                .filter(|&index| {
                    stored
                        .get(index)
                        .is_some_and(|s| uv_distance(s.uv, uv) <= NEAR)
                })
                .collect::<Vec<_>>();
            of_uv.sort_unstable();
            of_uv.dedup();
            match of_uv.as_slice() {
                [one] => Some(*one),
                _ => None,
            }
        };
        let index = in_place.or_else(moved)?;
        if let Some(slot) = taken.get_mut(index) {
            *slot = true;
        }
        map.push(index);
    }
    // Each stored vertex found, by its first glTF vertex.
    let mut first: Vec<Option<usize>> = vec![None; stored.len()];
    for (vertex, &index) in map.iter().enumerate() {
        if let Some(slot) = first.get_mut(index) {
            slot.get_or_insert(vertex);
        }
    }
    // A vertex Blender merged with its twin (the same position, texture
    // coordinates and normal) is where its twin is.
    for index in 0..first.len() {
        if first.get(index).copied().flatten().is_some() {
            continue;
        }
        let vertex = stored.get(index)?;
        let twin = around(vertex.position.to_array())
            .iter()
            .filter_map(|key| by_place.get(key))
            .flatten()
            .copied()
            .find(|&other| {
                first.get(other).copied().flatten().is_some()
                    && stored.get(other).is_some_and(|twin| {
                        (twin.position - vertex.position).abs().max_element() <= NEAR
                            && uv_distance(twin.uv, vertex.uv) <= NEAR
                            && twin.normal.dot(vertex.normal) >= 1.0 - NEAR
                    })
            });
        let found = twin.and_then(|twin| first.get(twin).copied().flatten());
        if let Some(slot) = first.get_mut(index) {
            *slot = found;
        }
    }
    let first: Vec<usize> = first.into_iter().collect::<Option<_>>()?;
    let pick = |list: &[Vec3]| -> Vec<Vec3> {
        first
            .iter()
            .map(|&vertex| list.get(vertex).copied().unwrap_or_default())
            .collect()
    };
    let triangles = read
        .triangles
        .iter()
        .map(|triangle| {
            let corner = |at: usize| {
                let vertex = triangle.get(at).copied().unwrap_or_default() as usize;
                map.get(vertex)
                    .copied()
                    .and_then(|index| u32::try_from(index).ok())
            };
            Some([corner(0)?, corner(1)?, corner(2)?])
        })
        .collect::<Option<Vec<_>>>()?;
    Some(MeshData {
        positions: pick(&read.positions),
        normals: pick(&read.normals),
        uvs: first
            .iter()
            .map(|&vertex| read.uvs.get(vertex).copied().unwrap_or_default())
            .collect(),
        triangles,
        influences: first
            .iter()
            .map(|&vertex| read.influences.get(vertex).cloned().unwrap_or_default())
            .collect(),
        morph_positions: read
            .morph_positions
            .iter()
            .map(|moves| pick(moves))
            .collect(),
        image: read.image.clone(),
    })
}
