//! A Star Wars Galaxies shader group whose vertices Blender split or
//! merged ([`super::seams`]), mapped back to the vertices of the group in
//! the `.mgn` it was exported from.

use formats::swg::mgn::MeshBody;
use glam::Vec3;

use super::mesh::MeshData;
use super::seams::Stored;

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

/// `read` (a glTF mesh, one shader group) in the vertices and order of
/// `original`'s shader group `group`, when its vertices are those but for
/// splits and merges; `None` when they are not.
pub fn mapped_back<'a>(
    read: &MeshData<'a>,
    original: &MeshBody,
    group: usize,
) -> Option<MeshData<'a>> {
    let stored = stored(original, group)?;
    let triangles = original
        .shader_groups
        .get(group)?
        .triangles()
        .map(|triangle| triangle.map(|corner| usize::try_from(corner).unwrap_or(usize::MAX)));
    super::seams::mapped_back(read, &stored, triangles)
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
