//! A Star Wars Galaxies shader group whose vertices Blender split or
//! merged, mapped back to the vertices of the group in the `.mgn` it was
//! exported from.
//!
//! Blender's glTF exporter writes a vertex once per distinct texture
//! coordinate and normal of its corners, so it adds vertices along seams
//! and merges vertices that share all three; the group then holds another
//! number of vertices than its `.mgn`, in another order. Each glTF vertex
//! is the group's vertex at the same position (within [`NEAR`]) with the
//! same texture coordinates (within [`NEAR`]) and the closest normal. A
//! vertex an edit moved is a vertex of those texture coordinates; where
//! several have them (a mirrored texture gives a vertex and its mirror
//! image the same), the one whose neighbours in the triangles are most of
//! the glTF vertex's neighbours already found, then the nearest, then one
//! not taken yet, then the one of the closest normal: an edit moves only
//! what was edited. When
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

/// Per vertex, the vertices it shares a triangle with.
fn neighbours(triangles: impl Iterator<Item = [usize; 3]>, vertices: usize) -> Vec<Vec<usize>> {
    let mut lists = vec![Vec::new(); vertices];
    for [a, b, c] in triangles {
        for (from, to) in [(a, b), (a, c), (b, a), (b, c), (c, a), (c, b)] {
            if let Some(list) = lists.get_mut(from) {
                list.push(to);
            }
        }
    }
    for list in &mut lists {
        list.sort_unstable();
        list.dedup();
    }
    lists
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
    // not taken yet (a file can hold a vertex twice over). Vertices in
    // place first; then those an edit moved, by their neighbours found.
    let mut taken = vec![false; stored.len()];
    let mut found: Vec<Option<usize>> = vec![None; read.positions.len()];
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
        if let Some(index) = in_place {
            if let Some(slot) = taken.get_mut(index) {
                *slot = true;
            }
            if let Some(slot) = found.get_mut(vertex) {
                *slot = Some(index);
            }
        }
    }
    let stored_triangles = original
        .shader_groups
        .get(group)?
        .triangles()
        .map(|triangle| triangle.map(|corner| usize::try_from(corner).unwrap_or(usize::MAX)));
    let stored_neighbours = neighbours(stored_triangles, stored.len());
    let read_triangles = read
        .triangles
        .iter()
        .map(|triangle| triangle.map(|corner| corner as usize));
    let read_neighbours = neighbours(read_triangles, read.positions.len());
    for vertex in 0..found.len() {
        if found.get(vertex).copied().flatten().is_some() {
            continue;
        }
        let position = read.positions.get(vertex).copied().unwrap_or_default();
        let uv = read.uvs.get(vertex).copied().unwrap_or_default();
        let normal = read.normals.get(vertex).copied().unwrap_or_default();
        // Its neighbours found, as stored vertices.
        let mut around_it: Vec<usize> = read_neighbours
            .get(vertex)
            .into_iter()
            .flatten()
            .filter_map(|&neighbour| found.get(neighbour).copied().flatten())
            .collect();
        around_it.sort_unstable();
        around_it.dedup();
        let shared = |index: usize| {
            stored_neighbours.get(index).map_or(0, |list| {
                list.iter()
                    .filter(|n| around_it.binary_search(n).is_ok())
                    .count()
            })
        };
        // Distances within NEAR of each other are equally near.
        let steps = |index: usize| {
            stored.get(index).map_or(i64::MAX, |s| {
                (s.position.distance(position) / NEAR).round() as i64
            })
        };
        let turn = |index: usize| {
            stored
                .get(index)
                .map_or(f32::MAX, |s| -s.normal.dot(normal))
        };
        let used = |index: usize| taken.get(index).copied().unwrap_or(true);
        let index = around(uv)
            .iter()
            .filter_map(|key| by_uv.get(key))
            .flatten()
            .copied()
            .filter(|&index| {
                stored
                    .get(index)
                    .is_some_and(|s| uv_distance(s.uv, uv) <= NEAR)
            })
            .min_by(|&a, &b| {
                shared(b)
                    .cmp(&shared(a))
                    .then(steps(a).cmp(&steps(b)))
                    .then(used(a).cmp(&used(b)))
                    .then(turn(a).total_cmp(&turn(b)))
            })?;
        if let Some(slot) = taken.get_mut(index) {
            *slot = true;
        }
        if let Some(slot) = found.get_mut(vertex) {
            *slot = Some(index);
        }
    }
    let map: Vec<usize> = found.into_iter().collect::<Option<_>>()?;
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

#[cfg(test)]
mod tests {
    use formats::schema::{Count, RawString};
    use formats::swg::mgn::TriangleList;
    use formats::swg::mgn::{CoordinateSet, IndexedTriangles, Primitives, ShaderGroup};

    use super::*;

    /// A strip of two squares, left and right of x = 0, under a mirrored
    /// texture: a vertex and its mirror image (x and -x) share their
    /// texture coordinates. Vertices 0..3 along y = 0 (x = -1, 0, 1), 3..6
    /// along y = 1.
    fn mirrored_strip() -> MeshBody {
        let positions = vec![
            [-1.0, 0.0, 0.0],
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [-1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
        ];
        let uvs = vec![0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0];
        MeshBody {
            positions,
            normals: Some(vec![[0.0, 0.0, 1.0]]),
            shader_groups: vec![ShaderGroup {
                shader: RawString::from("shader/strip.sht"),
                vertex_count: Count::new(),
                position_indices: (0..6).collect(),
                normal_indices: Some(vec![0; 6]),
                lighting_vector_indices: None,
                colors: None,
                coordinate_dimensions: Some(vec![2]),
                coordinate_sets: Some(vec![CoordinateSet { values: uvs }]),
                primitives: Primitives {
                    list_count: Count::new(),
                    lists: vec![TriangleList::Indexed(IndexedTriangles {
                        triangles: vec![[0, 1, 3], [1, 4, 3], [1, 2, 4], [2, 5, 4]],
                    })],
                },
            }],
            ..MeshBody::default()
        }
    }

    /// The strip as Blender writes it back: its vertices in reverse order,
    /// vertex 2 (the right-hand corner at y = 0) moved by `by`, in the mesh
    /// and in its one morph target.
    fn written_back(original: &MeshBody, by: Vec3) -> MeshData<'static> {
        let group = &original.shader_groups[0];
        let order: Vec<usize> = (0..6).rev().collect();
        let at = |stored: usize| order.iter().position(|&v| v == stored).unwrap() as u32;
        let mut positions: Vec<Vec3> = order
            .iter()
            .map(|&v| Vec3::from_array(original.positions[v]))
            .collect();
        positions[at(2) as usize] += by;
        let uvs = group.uvs();
        let mut moves = vec![Vec3::ZERO; 6];
        moves[at(2) as usize] = Vec3::new(0.0, 0.5, 0.0);
        MeshData {
            positions,
            normals: vec![Vec3::Z; 6],
            uvs: order.iter().map(|&v| uvs[v]).collect(),
            triangles: group
                .triangles()
                .map(|triangle| triangle.map(|corner| at(corner as usize)))
                .collect(),
            influences: order.iter().map(|&v| vec![(v, 1.0)]).collect(),
            morph_positions: vec![moves],
            image: None,
        }
    }

    #[test]
    fn a_moved_vertex_of_a_mirrored_texture_is_its_own_stored_vertex() {
        let original = mirrored_strip();
        // A small move, and one that leaves it nearer its mirror image: its
        // neighbours still say which vertex it is.
        for by in [Vec3::new(0.0, 0.0, 0.01), Vec3::new(-1.9, 0.0, 0.0)] {
            let read = written_back(&original, by);
            let mapped = mapped_back(&read, &original, 0).expect("mapped back");
            let expected: Vec<Vec3> = (0..6)
                .map(|v| {
                    Vec3::from_array(original.positions[v]) + if v == 2 { by } else { Vec3::ZERO }
                })
                .collect();
            assert_eq!(mapped.positions, expected, "moved by {by}");
            let joints: Vec<usize> = mapped.influences.iter().map(|own| own[0].0).collect();
            assert_eq!(joints, [0, 1, 2, 3, 4, 5]);
            let moved: Vec<bool> = mapped.morph_positions[0]
                .iter()
                .map(|m| *m != Vec3::ZERO)
                .collect();
            assert_eq!(moved, [false, false, true, false, false, false]);
            let triangles: Vec<[u32; 3]> = original.shader_groups[0]
                .triangles()
                .map(|triangle| triangle.map(|corner| corner as u32))
                .collect();
            assert_eq!(mapped.triangles, triangles);
        }
    }
}
