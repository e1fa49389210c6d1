//! Star Wars Galaxies meshes (`.mgn`), mesh lists (`.lmg`) and appearances
//! (`.sat`): golden bytes written by hand from the layout, corrupted files,
//! and the real files when `OSSUARY_CORPUS` is set.

use formats::rig;
use formats::schema::{BinarySchema, Count, RawString};
use formats::swg::lmg::MeshLevels;
use formats::swg::mgn::{self, Mesh, MeshVersion};
use formats::swg::sat::Appearance;

fn f(value: f32) -> [u8; 4] {
    value.to_le_bytes()
}

fn i(value: i32) -> [u8; 4] {
    value.to_le_bytes()
}

fn size(value: u32) -> [u8; 4] {
    value.to_be_bytes()
}

/// A three-position mesh on two joints, one shader group with one
/// triangle, one blend target; sizes added up by hand (a chunk is 8 header
/// bytes and its payload, a FORM's size counts its type and its children).
fn small_mgn() -> Vec<u8> {
    [
        &b"FORM"[..],
        &size(482), // 4 (SKMG) + 478 (FORM 0004)
        b"SKMG",
        b"FORM",
        &size(470), // 4 (0004) + 466 (children: 52+14+17+44+20+40+20+74+185)
        b"0004",
        // INFO: two maxima, nine counts, three i16 counts, the layer.
        b"INFO",
        &size(44),
        &i(0),
        &i(0),
        &i(1),                     // skeletons
        &i(2),                     // joints
        &i(3),                     // positions
        &i(4),                     // weights
        &i(1),                     // normals
        &i(1),                     // shader groups
        &i(1),                     // blend targets
        &[0, 0, 0, 0, 0, 0, 0, 0], // zones, combinations, occluded zones, layer
        b"SKTM",
        &size(6),
        b"a.skt\0",
        b"XFNM",
        &size(9),
        b"root\0hip\0",
        b"POSN",
        &size(36),
        &f(0.0),
        &f(0.0),
        &f(0.0),
        &f(1.0),
        &f(0.0),
        &f(0.0),
        &f(0.0),
        &f(1.0),
        &f(0.0),
        b"TWHD",
        &size(12),
        &i(1),
        &i(2),
        &i(1),
        b"TWDT",
        &size(32),
        &i(0),
        &f(1.0),
        &i(0),
        &f(0.5),
        &i(1),
        &f(0.5),
        &i(1),
        &f(1.0),
        b"NORM",
        &size(12),
        &f(0.0),
        &f(0.0),
        &f(1.0),
        b"FORM",
        &size(66), // 4 (BLTS) + 62 (FORM BLT )
        b"BLTS",
        b"FORM",
        &size(54), // 4 (BLT ) + 26 (INFO) + 24 (POSN)
        b"BLT ",
        b"INFO",
        &size(18),
        &i(1), // positions
        &i(0), // normals
        b"blend_fat\0",
        b"POSN",
        &size(16),
        &i(2),
        &f(0.0),
        &f(0.5),
        &f(0.0),
        b"FORM",
        &size(177), // 4 (PSDT) + 21 + 24 + 20 + 16 + 44 + 48
        b"PSDT",
        b"NAME",
        &size(13),
        b"shader/a.sht\0",
        b"PIDX",
        &size(16),
        &i(3),
        &i(0),
        &i(1),
        &i(2),
        b"NIDX",
        &size(12),
        &i(0),
        &i(0),
        &i(0),
        b"TXCI",
        &size(8),
        &i(1),
        &i(2),
        b"FORM",
        &size(36), // 4 (TCSF) + 32 (TCSD)
        b"TCSF",
        b"TCSD",
        &size(24),
        &f(0.0),
        &f(0.0),
        &f(1.0),
        &f(0.0),
        &f(0.0),
        &f(1.0),
        b"FORM",
        &size(40), // 4 (PRIM) + 12 (INFO) + 24 (ITL )
        b"PRIM",
        b"INFO",
        &size(4),
        &i(1),
        b"ITL ",
        &size(16),
        &i(1),
        &i(0),
        &i(1),
        &i(2),
    ]
    .concat()
}

/// The mesh the golden bytes hold.
fn small_mesh() -> Mesh {
    Mesh {
        version: MeshVersion::V4(mgn::MeshBody {
            skeletons: vec![RawString::from("a.skt")],
            joints: vec![RawString::from("root"), RawString::from("hip")],
            positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            weights_per_position: vec![1, 2, 1],
            weights: [(0, 1.0), (0, 0.5), (1, 0.5), (1, 1.0)]
                .map(|(joint, weight)| mgn::Weight { joint, weight })
                .to_vec(),
            normals: Some(vec![[0.0, 0.0, 1.0]]),
            blend_targets: Some(vec![mgn::BlendTarget {
                position_count: Count::new(),
                normal_count: Count::new(),
                name: RawString::from("blend_fat"),
                positions: Some(vec![mgn::Offset {
                    index: 2,
                    offset: [0.0, 0.5, 0.0],
                }]),
                normals: None,
                lighting_vectors: None,
                hardpoints: None,
            }]),
            shader_groups: vec![mgn::ShaderGroup {
                shader: RawString::from("shader/a.sht"),
                vertex_count: Count::new(),
                position_indices: vec![0, 1, 2],
                normal_indices: Some(vec![0, 0, 0]),
                lighting_vector_indices: None,
                colors: None,
                coordinate_dimensions: Some(vec![2]),
                coordinate_sets: Some(vec![mgn::CoordinateSet {
                    values: vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
                }]),
                primitives: mgn::Primitives {
                    list_count: Count::new(),
                    lists: vec![mgn::TriangleList::Indexed(mgn::IndexedTriangles {
                        triangles: vec![[0, 1, 2]],
                    })],
                },
            }],
            ..mgn::MeshBody::default()
        }),
    }
}

#[test]
fn golden_mgn_decodes_to_known_values_and_encodes_back() {
    let bytes = small_mgn();
    assert_eq!(bytes.len(), 490);
    assert_eq!(Mesh::from_bytes(&bytes).unwrap(), small_mesh());
    assert_eq!(small_mesh().to_bytes().unwrap(), bytes);
}

/// The golden mesh's one shader group as a skin: vertices from the
/// positions, their weights by position, the blend target as a morph
/// target of the vertex at position 2.
#[test]
fn golden_mgn_skin() {
    let skins = small_mesh().skins("a.mgn").unwrap();
    let [skin] = skins.as_slice() else {
        panic!("one skin per shader group, got {}", skins.len());
    };
    assert_eq!(skin.name, "shader/a.sht");
    assert_eq!(skin.texture.as_deref(), Some("shader/a.sht"));
    assert_eq!(skin.triangles, vec![[0, 1, 2]]);
    assert_eq!(skin.uvs, vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]);
    let rig::Binding::Weighted(weights) = &skin.binding else {
        panic!("SWG skins are weighted");
    };
    assert_eq!(weights.joints, vec!["root", "hip"]);
    assert_eq!(weights.counts, vec![1, 2, 1]);
    let [target] = skin.morph_targets.as_slice() else {
        panic!("one morph target");
    };
    assert_eq!(target.name, "blend_fat");
    assert_eq!(
        target.positions,
        vec![rig::MorphOffset {
            vertex: 2,
            offset: [0.0, 0.5, 0.0]
        }]
    );
    let shared = skin.shared_positions.as_ref().unwrap();
    assert_eq!((shared.list.as_str(), shared.count), ("a.mgn", 3));
    assert_eq!(shared.entries, vec![0, 1, 2]);
}

#[test]
fn indices_past_their_lists_are_errors_with_the_tag_path() {
    // Offsets into the golden bytes: TWDT's first joint, the blend
    // target's position index, the second PIDX entry, the triangle's
    // last corner. Each is refused at its own entry's first byte (the
    // triangle at the triangle's).
    let cases = [
        (
            tests::patched(small_mgn(), 179, i(2)),
            "byte 179: SKMG/0004/TWDT[0]: index 2 is outside the 2 joints of XFNM",
        ),
        (
            tests::patched(small_mgn(), 289, i(3)),
            "byte 289: SKMG/0004/BLTS/BLT [0]/POSN[0]: index 3 is outside the 3 positions of POSN",
        ),
        (
            tests::patched(small_mgn(), 354, i(-1)),
            "byte 354: SKMG/0004/PSDT[0]/PIDX[1]: index -1 is outside the 3 positions of POSN",
        ),
        (
            tests::patched(small_mgn(), 486, i(3)),
            "byte 478: SKMG/0004/PSDT[0]/PRIM/ITL [0][0]: index 3 is outside the 3 vertices of the shader group",
        ),
        (
            tests::patched(small_mgn(), 167, i(2)),
            "byte 159: SKMG/0004/TWHD: the positions' weight counts add up to 5, but TWDT holds 4",
        ),
    ];
    for (bytes, message) in cases {
        let error = Mesh::from_bytes(&bytes).unwrap_err();
        assert_eq!(error.to_string(), message);
    }
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = small_mgn();
    for len in 0..bytes.len() {
        assert!(
            Mesh::from_bytes(&bytes[..len]).is_err(),
            "{len} of {} bytes decoded",
            bytes.len()
        );
    }
}

/// The versions share one layout: the golden mesh as version 2 or 3 is the
/// same bytes but for the version form's type.
#[test]
fn older_versions_keep_their_version() {
    for (version, tag) in [(b"0002", 2u8), (b"0003", 3)] {
        let mut bytes = small_mgn();
        bytes.splice(20..24, *version);
        let mesh = Mesh::from_bytes(&bytes).unwrap();
        assert_eq!(mesh.version_tag(), *version, "version {tag}");
        assert_eq!(mesh.body(), small_mesh().body());
        assert_eq!(mesh.to_bytes().unwrap(), bytes);
    }
}

/// A version gates the parts later versions added: version 2 holds no
/// lighting vectors (`DOT3`, version 4) and no hardpoints (`HPTS`,
/// version 3), version 3 no lighting vectors; reading refuses them at the
/// chunk, and writing refuses the same values.
#[test]
fn a_version_refuses_the_parts_later_versions_added() {
    let with_dot3 = |version: &[u8; 4]| {
        let mut mesh = small_mesh();
        let mgn::MeshVersion::V4(body) = &mut mesh.version else {
            unreachable!("the golden mesh is version 4");
        };
        body.lighting_vectors = Some(vec![mgn::LightingVector {
            vector: [1.0, 0.0, 0.0],
            flip: 1.0,
        }]);
        let mut bytes = mesh.to_bytes().unwrap();
        bytes.splice(20..24, *version);
        bytes
    };
    let dot3 = with_dot3(b"0004");
    assert!(Mesh::from_bytes(&dot3).is_ok());
    for version in [b"0002", b"0003"] {
        let bytes = with_dot3(version);
        let error = Mesh::from_bytes(&bytes).unwrap_err();
        let number = char::from(version[3]);
        assert_eq!(
            error.to_string(),
            format!(
                "byte 231: SKMG/{}/DOT3: a version {number} mesh holds none: this part came \
                 with version 4",
                String::from_utf8_lossy(version)
            )
        );
        let refused = formats::schema::without_checks(|| Mesh::from_bytes(&bytes)).unwrap();
        assert_eq!(
            refused.to_bytes().unwrap_err().to_string(),
            error.to_string()
        );
    }
    let with_hardpoints = |version: &[u8; 4]| {
        let mut mesh = small_mesh();
        let mgn::MeshVersion::V4(body) = &mut mesh.version else {
            unreachable!("the golden mesh is version 4");
        };
        body.hardpoints = Some(mgn::Hardpoints {
            fixed: None,
            morphing: None,
        });
        let mut bytes = mesh.to_bytes().unwrap();
        bytes.splice(20..24, *version);
        bytes
    };
    assert!(Mesh::from_bytes(&with_hardpoints(b"0003")).is_ok());
    assert_eq!(
        Mesh::from_bytes(&with_hardpoints(b"0002"))
            .unwrap_err()
            .to_string(),
        "byte 231: SKMG/0002/HPTS: a version 2 mesh holds none: this part came with version 3"
    );
}

#[test]
fn real_meshes_lists_and_appearances_round_trip_byte_for_byte() {
    for extension in ["mgn", "lmg", "sat"] {
        for path in tests::corpus_files("swg", extension).unwrap_or_default() {
            let bytes = std::fs::read(&path).unwrap();
            let name = path.display();
            let encoded = match extension {
                "mgn" => {
                    let mesh =
                        Mesh::from_bytes(&bytes).unwrap_or_else(|error| panic!("{name}: {error}"));
                    let json = serde_json::to_string(&mesh).unwrap();
                    let back: Mesh = serde_json::from_str(&json).unwrap();
                    assert_eq!(back.to_bytes().unwrap(), bytes, "{name} through JSON");
                    mesh.to_bytes().unwrap()
                }
                "lmg" => MeshLevels::from_bytes(&bytes)
                    .unwrap_or_else(|error| panic!("{name}: {error}"))
                    .to_bytes()
                    .unwrap(),
                _ => Appearance::from_bytes(&bytes)
                    .unwrap_or_else(|error| panic!("{name}: {error}"))
                    .to_bytes()
                    .unwrap(),
            };
            assert_eq!(encoded, bytes, "{name}");
        }
    }
}

/// Every truncation of the real lists, appearance and smallest meshes fails.
#[test]
fn truncated_real_files_fail() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let appearance = corpus.join("swg/appearance");
    let small = [
        "twk_f.sat",
        "mesh/twk_f_body.lmg",
        "mesh/twk_f_head_l3.mgn",
        "mesh/twk_f_body_l3.mgn",
    ];
    for name in small {
        let bytes = std::fs::read(appearance.join(name)).unwrap();
        for len in 0..bytes.len() {
            let decoded = match name.rsplit_once('.').map(|(_, extension)| extension) {
                Some("sat") => Appearance::from_bytes(&bytes[..len]).is_ok(),
                Some("lmg") => MeshLevels::from_bytes(&bytes[..len]).is_ok(),
                _ => Mesh::from_bytes(&bytes[..len]).is_ok(),
            };
            assert!(!decoded, "{name}: {len} of {} bytes decoded", bytes.len());
        }
    }
}
