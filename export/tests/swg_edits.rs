//! A Star Wars Galaxies mesh exported, changed as Blender changes it (its
//! vertices in another order, one written twice, one moved by an edit) and
//! imported back with its original carried: it comes back as the original
//! with the edit alone.

use std::path::Path;

use export::import::carried::Original;
use export::import::{swg, Asset};
use export::{Character, Container, Mesh as ExportMesh};
use formats::catalogue::Catalogue;
use formats::files::Files;
use formats::rig::{self, RigOptions};
use formats::schema::{BinarySchema, Count, RawString};
use formats::swg::mgn::{
    CoordinateSet, IndexedTriangles, Mesh, MeshBody, MeshVersion, Primitives, ShaderGroup,
    TriangleList, Weight,
};
use skinning::Composition;

const MESH_PATH: &str = "appearance/mesh/strip_l0.mgn";

fn skeleton() -> rig::Skeleton {
    let path = tests::fixtures_dir().join("humanoid.skt");
    let bytes = std::fs::read(&path).unwrap();
    let format = Catalogue::default()
        .detect(&path.to_string_lossy(), &bytes)
        .unwrap();
    (format.decode)(&bytes)
        .unwrap()
        .rig()
        .skeleton(&Files::beside(Path::new(&path)), RigOptions { lod: 0 })
        .unwrap()
        .unwrap()
}

/// A strip of two squares left and right of x = 0 under a mirrored
/// texture (a vertex and its mirror image share their texture
/// coordinates): `order` gives, per vertex, the position it stands at,
/// and each triangle names its corners by position; `moved` is added to position 2 (x = 1, y = 0). Positions
/// 0..3 lie along y = 0 (x = -1, 0, 1), 3..6 along y = 1.
fn strip(order: &[usize], triangles: &[[usize; 3]], moved: [f32; 3]) -> Mesh {
    let mut positions = vec![
        [-1.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [-1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ];
    for (axis, by) in moved.iter().enumerate() {
        positions[2][axis] += by;
    }
    let uv_of = |position: usize| [[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]][position % 3];
    let uvs: Vec<f32> = order
        .iter()
        .flat_map(|&position| {
            let [u, v] = uv_of(position);
            [u, v + (position / 3) as f32]
        })
        .collect();
    // A position written twice is its first vertex in the left square, its
    // last in the right one (x > 0: positions 2 and 5).
    let corners = |triangle: &[usize; 3]| {
        let right = triangle.iter().any(|&position| position % 3 == 2);
        triangle.map(|position| {
            let mut at = order.iter().enumerate().filter(|(_, &p)| p == position);
            let vertex = if right { at.next_back() } else { at.next() };
            vertex.unwrap().0 as i32
        })
    };
    let body = MeshBody {
        skeletons: vec![RawString::from("appearance/skeleton/humanoid.skt")],
        joints: vec![RawString::from("root")],
        positions,
        weights_per_position: vec![1; 6],
        weights: vec![
            Weight {
                joint: 0,
                weight: 1.0,
            };
            6
        ],
        normals: Some(vec![[0.0, 0.0, -1.0]]),
        shader_groups: vec![ShaderGroup {
            shader: RawString::from("shader/strip.sht"),
            vertex_count: Count::new(),
            position_indices: order.iter().map(|&position| position as i32).collect(),
            normal_indices: Some(vec![0; order.len()]),
            lighting_vector_indices: None,
            colors: None,
            coordinate_dimensions: Some(vec![2]),
            coordinate_sets: Some(vec![CoordinateSet { values: uvs }]),
            primitives: Primitives {
                list_count: Count::new(),
                lists: vec![TriangleList::Indexed(IndexedTriangles {
                    triangles: triangles.iter().map(corners).collect(),
                })],
            },
        }],
        ..MeshBody::default()
    };
    Mesh {
        version: MeshVersion::V4(body),
    }
}

const TRIANGLES: [[usize; 3]; 4] = [[0, 1, 3], [1, 4, 3], [1, 2, 4], [2, 5, 4]];

#[test]
fn a_vertex_moved_on_a_mirrored_texture_comes_back_alone() {
    let skeleton = skeleton();
    let original = strip(&[0, 1, 2, 3, 4, 5], &TRIANGLES, [0.0; 3]);
    let originals = [Original {
        path: MESH_PATH.to_owned(),
        bytes: original.to_bytes().unwrap(),
    }];
    // As Blender writes it back: another order, the centre of the lower
    // edge written twice (as along a seam), position 2 moved; the glTF
    // extras still name the original's six vertices.
    let moved = [0.0, 0.0, 0.01];
    let edited = strip(&[5, 4, 3, 2, 1, 0, 1], &TRIANGLES, moved);
    let skins = edited.skins(MESH_PATH).unwrap();
    let character = Character {
        skeleton: &skeleton,
        meshes: vec![ExportMesh {
            skin: &skins[0],
            texture: None,
            suit: None,
            shader: None,
        }],
        animations: &[],
        sims_skills: &[],
        blend_weights: &[],
        composition: Composition::Hierarchy,
        originals: &originals,
    };
    let bytes = export::export(&character, Container::Gltf).unwrap();
    let mut json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let extras = &mut json["meshes"][0]["extras"][swg::GROUP_EXTRAS];
    assert_eq!(extras["entries"].as_array().unwrap().len(), 7);
    extras["entries"] = serde_json::json!([0, 1, 2, 3, 4, 5]);
    let gltf = serde_json::to_vec(&json).unwrap();

    let asset = Asset::read(&gltf, &|_| None).unwrap();
    let joints = match swg::skeleton_of(&asset)
        .unwrap()
        .levels()
        .into_iter()
        .next()
        .unwrap()
        .skeleton()
    {
        Ok(skeleton) => skeleton
            .joints
            .into_iter()
            .map(|joint| joint.name)
            .collect(),
        Err(error) => panic!("{error}"),
    };
    let files = [swg::SkeletonFile {
        attachment: swg::skeleton_at_root("humanoid.skt"),
        joints,
    }];
    let character = swg::import(&asset, &files, &originals).unwrap();
    assert_eq!(character.warnings, Vec::<String>::new());
    let back = character.meshes[0].mesh.body();
    let expected = strip(&[0, 1, 2, 3, 4, 5], &TRIANGLES, moved);
    assert_eq!(back.shader_groups, expected.body().shader_groups);
    assert_eq!(back.positions.len(), 6);
    for (position, (got, wanted)) in back
        .positions
        .iter()
        .zip(&expected.body().positions)
        .enumerate()
    {
        let gap = (0..3)
            .map(|axis| (got[axis] - wanted[axis]).abs())
            .fold(0.0, f32::max);
        assert!(gap < 1e-5, "position {position}: {got:?}, not {wanted:?}");
    }
    // Unmoved positions are the original's own values.
    for position in [0, 1, 3, 4, 5] {
        assert_eq!(
            back.positions[position],
            original.body().positions[position]
        );
    }
}
