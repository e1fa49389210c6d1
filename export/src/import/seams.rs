//! A mesh whose vertices Blender split or merged, mapped back to the
//! vertices of the game's file it was exported from.
//!
//! Blender's glTF exporter writes a vertex once per distinct texture
//! coordinate and normal of its corners, so it adds vertices along seams
//! and merges vertices that share all three; the mesh then holds another
//! number of vertices than its file, in another order. Each glTF vertex
//! is the stored vertex at the same position (within [`NEAR`]) with the
//! same texture coordinates (within [`NEAR`]) and the closest normal. A
//! vertex an edit moved is a vertex of those texture coordinates; where
//! several have them (a mirrored texture gives a vertex and its mirror
//! image the same), the one whose neighbours in the triangles are most of
//! the glTF vertex's neighbours already found, then the nearest, then one
//! not taken yet, then the one of the closest normal: an edit moves only
//! what was edited. When every glTF vertex finds one and every stored
//! vertex is found, the mesh is read back in the file's vertices and order
//! (a vertex's copies agree: they are one vertex in Blender), and its
//! triangles through the same map: the mesh then keeps everything its
//! vertices carry.
//!
//! The candidates looked at are counted: a mesh whose vertices crowd one
//! place or one texture coordinate (which a file can make) would take time
//! growing with the square of its vertices, so past [`WORK_PER_VERTEX`]
//! looks a vertex on average, it is not mapped back and is read as it is.

use std::cell::Cell;
use std::collections::HashMap;

use glam::Vec3;

use super::mesh::MeshData;

/// Positions and texture coordinates this close are the same.
const NEAR: f32 = 1e-4;

/// Candidates and neighbours looked at, per vertex and triangle of the
/// two meshes, before mapping back gives up. A mesh mirrored along a seam
/// looks at a few per vertex.
const WORK_PER_VERTEX: u64 = 256;

/// A vertex as stored in the game's file, where it rests: where it is,
/// its normal's direction and its texture coordinates.
pub struct Stored {
    pub position: Vec3,
    pub normal: Vec3,
    pub uv: [f32; 2],
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

/// The vertices filed (in `cells`) in the cells around `values`, each
/// counted by `work` as it is looked at; none once too many were.
fn candidates<'a, const N: usize>(
    cells: &'a HashMap<[i64; N], Vec<usize>>,
    values: [f32; N],
    work: &'a Work,
) -> impl Iterator<Item = usize> + 'a {
    around(values)
        .into_iter()
        .filter_map(|key| cells.get(&key))
        .flatten()
        .copied()
        .take_while(|_| work.look(1))
}

/// How far the stored vertex `index`'s normal turns from `normal`: less is
/// closer.
fn turn(stored: &[Stored], index: usize, normal: Vec3) -> f32 {
    stored
        .get(index)
        .map_or(f32::MAX, |s| -s.normal.dot(normal))
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

/// Looks counted against what they are allowed (see the module).
struct Work {
    done: Cell<u64>,
    allowed: u64,
}

impl Work {
    /// Counts `looks` more; false once past what is allowed.
    fn look(&self, looks: u64) -> bool {
        self.done.set(self.done.get().saturating_add(looks));
        !self.spent()
    }

    fn spent(&self) -> bool {
        self.done.get() > self.allowed
    }
}

/// `read` (a glTF mesh) in the vertices and order of `stored`, whose
/// triangles are `stored_triangles`, when its vertices are those but for
/// splits and merges (see the module); `None` when they are not.
pub fn mapped_back<'a>(
    read: &MeshData<'a>,
    stored: &[Stored],
    stored_triangles: impl Iterator<Item = [usize; 3]>,
) -> Option<MeshData<'a>> {
    let mut by_place: HashMap<[i64; 3], Vec<usize>> = HashMap::new();
    let mut by_uv: HashMap<[i64; 2], Vec<usize>> = HashMap::new();
    for (index, vertex) in stored.iter().enumerate() {
        by_place
            .entry(cell(vertex.position.to_array()))
            .or_default()
            .push(index);
        by_uv.entry(cell(vertex.uv)).or_default().push(index);
    }
    // Per glTF vertex, the stored vertex it is. Vertices in place first,
    // of the closest normal; then those an edit moved, and those a file
    // holds twice over (twins: the same place, texture coordinates and
    // normal), by their neighbours found.
    let mut taken = vec![false; stored.len()];
    let mut found: Vec<Option<usize>> = vec![None; read.positions.len()];
    let sizes = stored.len() + read.positions.len() + read.triangles.len();
    let work = Work {
        done: Cell::new(0),
        allowed: WORK_PER_VERTEX.saturating_mul(sizes as u64),
    };
    for (vertex, position) in read.positions.iter().enumerate() {
        let uv = read.uvs.get(vertex).copied().unwrap_or_default();
        let normal = read.normals.get(vertex).copied().unwrap_or_default();
        let turn = |index: usize| turn(stored, index, normal);
        let mut in_place: Vec<usize> = candidates(&by_place, position.to_array(), &work)
            .filter(|&index| {
                stored.get(index).is_some_and(|candidate| {
                    (candidate.position - *position).abs().max_element() <= NEAR
                        && uv_distance(candidate.uv, uv) <= NEAR
                })
            })
            .collect();
        if work.spent() {
            return None;
        }
        in_place.sort_by(|&a, &b| turn(a).total_cmp(&turn(b)));
        let twins = match in_place.as_slice() {
            [best, next, ..] => turn(*next) - turn(*best) <= NEAR,
            _ => false,
        };
        if let Some(&index) = in_place.first().filter(|_| !twins) {
            if let Some(slot) = taken.get_mut(index) {
                *slot = true;
            }
            if let Some(slot) = found.get_mut(vertex) {
                *slot = Some(index);
            }
        }
    }
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
                work.look(list.len() as u64);
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
        let turn = |index: usize| turn(stored, index, normal);
        let used = |index: usize| taken.get(index).copied().unwrap_or(true);
        let index = candidates(&by_uv, uv, &work)
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
            });
        let index = index.filter(|_| !work.spent())?;
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
        let twin = candidates(&by_place, vertex.position.to_array(), &work).find(|&other| {
            first.get(other).copied().flatten().is_some()
                && stored.get(other).is_some_and(|twin| {
                    (twin.position - vertex.position).abs().max_element() <= NEAR
                        && uv_distance(twin.uv, vertex.uv) <= NEAR
                        && twin.normal.dot(vertex.normal) >= 1.0 - NEAR
                })
        });
        if work.spent() {
            return None;
        }
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
    use super::*;

    /// Two squares side by side that a file stores with their shared edge
    /// twice over (vertices 1 and 4 are twins, 2 and 5 too): the left
    /// square's triangles use 1 and 2, the right one's 4 and 5.
    fn twins() -> (Vec<Stored>, Vec<[usize; 3]>) {
        let places = [
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (0.0, 1.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (2.0, 0.0),
            (2.0, 1.0),
        ];
        let stored = places
            .iter()
            .map(|&(x, y)| Stored {
                position: Vec3::new(x, y, 0.0),
                normal: Vec3::Z,
                uv: [x / 2.0, y],
            })
            .collect();
        let triangles = vec![[0, 1, 2], [0, 2, 3], [4, 6, 7], [4, 7, 5]];
        (stored, triangles)
    }

    #[test]
    fn vertices_crowding_one_place_are_not_mapped_back() {
        // 3,000 stored vertices and 3,001 read ones, all at one place with
        // one texture coordinate: each read vertex has every stored one as
        // a candidate, which would be nine million looks.
        let vertex = || Stored {
            position: Vec3::ONE,
            normal: Vec3::Z,
            uv: [0.5, 0.5],
        };
        let stored: Vec<Stored> = (0..3000).map(|_| vertex()).collect();
        let read = MeshData {
            positions: vec![Vec3::ONE; 3001],
            normals: vec![Vec3::Z; 3001],
            uvs: vec![[0.5, 0.5]; 3001],
            triangles: Vec::new(),
            influences: vec![Vec::new(); 3001],
            morph_positions: Vec::new(),
            image: None,
        };
        // Mapped back they would be (each read vertex to a stored one not
        // taken yet), but only past the looks allowed.
        const { assert!(WORK_PER_VERTEX * (3000 + 3001) < 3000 * 3001) };
        assert!(mapped_back(&read, &stored, std::iter::empty()).is_none());
    }

    #[test]
    fn twins_a_file_holds_are_told_apart_by_their_neighbours() {
        let (stored, triangles) = twins();
        // Blender's order: reversed, so each twin comes before the vertex
        // the file stores first, and the right square's 4 split in two by
        // a normal a hair off.
        let order: Vec<usize> = vec![7, 6, 5, 4, 4, 3, 2, 1, 0];
        let at = |vertex: usize| order.iter().position(|&v| v == vertex).unwrap() as u32;
        let mut normals = vec![Vec3::Z; order.len()];
        normals[4] = Vec3::new(0.0, 0.001, 1.0).normalize();
        let read = MeshData {
            positions: order.iter().map(|&v| stored[v].position).collect(),
            normals,
            uvs: order.iter().map(|&v| stored[v].uv).collect(),
            triangles: triangles
                .iter()
                .map(|triangle| triangle.map(at))
                // A triangle of the second copy of 4 (at 4 in Blender's
                // order), with 6 and 7 (at 1 and 0).
                .chain([[4, 1, 0]])
                .collect(),
            influences: order.iter().map(|&v| vec![(v, 1.0)]).collect(),
            morph_positions: Vec::new(),
            image: None,
        };
        let mapped = mapped_back(&read, &stored, triangles.iter().copied()).expect("mapped back");
        let expected: Vec<[u32; 3]> = triangles
            .iter()
            .map(|triangle| triangle.map(|corner| corner as u32))
            .chain([[4, 6, 7]])
            .collect();
        assert_eq!(mapped.triangles, expected);
        let joints: Vec<usize> = mapped.influences.iter().map(|own| own[0].0).collect();
        assert_eq!(joints, (0..8).collect::<Vec<_>>());
    }
}
