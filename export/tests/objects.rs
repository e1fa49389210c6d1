//! An object file's 3D meshes (FreeSO's `FSOM`) as glTF, read back with
//! the `gltf` crate: one scene per mesh, a primitive per piece with the
//! positions, texture coordinates and triangles the mesh holds, and each
//! piece's texture (a sprite frame of its draw group's near view, or a
//! texture chunk) as the image it is. Built from the types here; the
//! corpus's FreeSO objects too, when `OSSUARY_CORPUS` is set.
//!
//! With `OSSUARY_GLTF_OUT` naming a folder, every exported file is also
//! written there, for `.ci/run` to hand to the Khronos glTF Validator.

use std::io::Cursor;
use std::path::PathBuf;

use export::objects::meshes_asset;
use export::Container;
use formats::objects::draw_group::{DrawGroup, WideDrawGroup, WideImage, WideSprite};
use formats::objects::file::{Chunk, ChunkData, IffFile, SIGNATURE};
use formats::objects::image::Image;
use formats::objects::mesh::{Geometry, GeometryGroup, Mesh, MeshData, Vertex};
use formats::objects::palette::Palette;
use formats::objects::pixels::Pixels;
use formats::objects::sprites::{Frame, FrameInfo, SizedFrame, Sprite, SpriteV1001};
use formats::schema::{BinarySchema, Block, Calc, Count, RawString, Transformed};

const COLORS: [[u8; 3]; 3] = [[0, 0, 0], [250, 20, 20], [20, 20, 250]];

/// A 2 x 2 sprite frame: red, blue, then clear, red.
fn frame_pixels() -> Pixels {
    let mut pixels = Pixels::clear(2, 2, false).unwrap();
    pixels.rgba = vec![
        [250, 20, 20, 255],
        [20, 20, 250, 255],
        [0; 4],
        [250, 20, 20, 255],
    ];
    pixels
}

/// A 1 x 2 PNG: green over white.
fn texture_png() -> Vec<u8> {
    let mut png = Vec::new();
    image::write_buffer_with_format(
        &mut Cursor::new(&mut png),
        &[0, 200, 0, 255, 255, 255, 255, 255],
        1,
        2,
        image::ExtendedColorType::Rgba8,
        image::ImageFormat::Png,
    )
    .unwrap();
    png
}

/// A square piece of mesh: two triangles at height `y`.
fn square(texture: u16, direction: u16, y: f32) -> Geometry {
    let vertex = |x: f32, z: f32, uv: [f32; 2]| Vertex {
        position: [x, y, z],
        uv,
        normal: Some([0.0, 2.0, 0.0]),
    };
    Geometry {
        texture,
        direction,
        vertex_count: Count::new(),
        vertices: vec![
            vertex(0.0, 0.0, [0.0, 0.0]),
            vertex(1.0, 0.0, [1.0, 0.0]),
            vertex(1.0, 1.0, [1.0, 1.0]),
            vertex(0.0, 1.0, [0.0, 1.0]),
        ],
        indices: vec![0, 1, 2, 0, 2, 3],
    }
}

/// An object with a palette, a sprite of one frame, a draw group whose
/// near right back view places it, a texture chunk, and a mesh of that
/// draw group: one piece textured by the sprite, one by the texture
/// chunk, one by a texture chunk the file lacks.
fn object() -> IffFile {
    let palette = Palette {
        version: 0,
        count: Count::new(),
        reserved: [0; 8],
        colors: COLORS.to_vec(),
        trailing: Vec::new(),
    };
    let info = FrameInfo {
        palette: 7,
        transparent_index: 0,
        position: [0, 0],
    };
    let frame: Frame = Frame::from_pixels(&frame_pixels(), &COLORS, info).unwrap();
    let sprite = Sprite::V1001(SpriteV1001 {
        default_palette: 7,
        frames: vec![SizedFrame {
            version: 1001,
            size: Calc::computed(),
            frame: Block::new(frame),
        }],
        trailing: Vec::new(),
    });
    let group = DrawGroup::V20004(WideDrawGroup {
        images: vec![WideImage {
            direction: 1,
            zoom: 3,
            sprites: vec![WideSprite {
                sprite: 300,
                frame: 0,
                offset: [0, 0],
                depth: 0.0,
                flags: 0,
                object_offset: Some([0.0, 0.0]),
            }],
        }],
        trailing: Vec::new(),
    });
    let mesh = Mesh {
        mesh: Transformed::new(MeshData {
            signature: *b"FSOm",
            version: 2,
            reconstruction_version: 0,
            name: RawString::from("thing_iff_100"),
            groups: vec![GeometryGroup {
                pieces: vec![
                    square(0, 0, 0.0),
                    square(1, 0xFFFF, 1.0),
                    square(9, 0xFFFF, 2.0),
                ],
            }],
            depth_mask: None,
            bounds: [0.0, 0.0, 0.0, 1.0, 2.0, 1.0],
        }),
    };
    let texture = Image::from_bytes(&texture_png()).unwrap();
    IffFile {
        signature: RawString(SIGNATURE.to_vec()),
        resource_map_offset: Calc::computed(),
        chunks: vec![
            Chunk::new(b"PALT", 7, "", ChunkData::Palette(palette)),
            Chunk::new(b"SPR2", 300, "thing", ChunkData::Sprite(sprite)),
            Chunk::new(b"DGRP", 100, "thing", ChunkData::DrawGroup(group)),
            Chunk::new(b"MTEX", 1, "", ChunkData::Image(texture)),
            Chunk::new(b"FSOM", 100, "", ChunkData::Mesh(mesh)),
        ],
    }
}

/// The asset, also kept in `OSSUARY_GLTF_OUT`.
fn exported(file: &IffFile, name: &str, container: Container) -> (Vec<u8>, Vec<String>) {
    let mut warnings = Vec::new();
    let bytes = meshes_asset(file, None, container, &mut |warning| warnings.push(warning))
        .unwrap_or_else(|error| panic!("{name}: {error}"));
    if let Some(folder) = std::env::var_os("OSSUARY_GLTF_OUT") {
        let folder = PathBuf::from(folder);
        std::fs::create_dir_all(&folder).unwrap();
        let extension = match container {
            Container::Gltf => "gltf",
            Container::Glb => "glb",
        };
        std::fs::write(folder.join(format!("{name}.{extension}")), &bytes).unwrap();
    }
    (bytes, warnings)
}

/// The image a primitive's material shows: its size, format and pixels.
fn texture_of(
    primitive: &gltf::Primitive,
    images: &[gltf::image::Data],
) -> Option<(u32, u32, gltf::image::Format, Vec<u8>)> {
    let info = primitive
        .material()
        .pbr_metallic_roughness()
        .base_color_texture()?;
    let image = &images[info.texture().source().index()];
    Some((
        image.width,
        image.height,
        image.format,
        image.pixels.clone(),
    ))
}

#[test]
fn a_mesh_is_a_scene_its_pieces_textured_by_sprite_frame_or_texture_chunk() {
    let file = object();
    for container in [Container::Glb, Container::Gltf] {
        let (bytes, warnings) = exported(&file, "object-thing", container);
        assert_eq!(
            warnings,
            ["FSOM 100: its texture, MTEX 9, is not in the file: a plain material instead"]
        );
        let (document, buffers, images) = gltf::import_slice(&bytes).unwrap();
        let scenes: Vec<_> = document.scenes().collect();
        assert_eq!(scenes.len(), 1);
        assert_eq!(document.default_scene().unwrap().index(), 0);
        let node = scenes[0].nodes().next().unwrap();
        assert_eq!(node.name(), Some("DGRP 100 thing"));
        let primitives: Vec<_> = node.mesh().unwrap().primitives().collect();
        assert_eq!(primitives.len(), 3);
        for (index, primitive) in primitives.iter().enumerate() {
            let reader = primitive.reader(|buffer| Some(&buffers[buffer.index()]));
            let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
            assert_eq!(positions[2], [1.0, index as f32, 1.0]);
            let uvs: Vec<[f32; 2]> = reader.read_tex_coords(0).unwrap().into_f32().collect();
            assert_eq!(uvs[1], [1.0, 0.0]);
            // Normals are written unit length.
            let normals: Vec<[f32; 3]> = reader.read_normals().unwrap().collect();
            assert_eq!(normals[0], [0.0, 1.0, 0.0]);
            let corners: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
            assert_eq!(corners, [0, 1, 2, 0, 2, 3]);
            assert_eq!(
                primitive.material().alpha_mode(),
                gltf::material::AlphaMode::Mask
            );
        }
        // The sprite frame, as drawn with its palette.
        let frame: Vec<u8> = frame_pixels().rgba.into_iter().flatten().collect();
        let rgba = gltf::image::Format::R8G8B8A8;
        assert_eq!(
            texture_of(&primitives[0], &images),
            Some((2, 2, rgba, frame))
        );
        assert_eq!(
            texture_of(&primitives[1], &images),
            Some((1, 2, rgba, vec![0, 200, 0, 255, 255, 255, 255, 255]))
        );
        assert_eq!(texture_of(&primitives[2], &images), None);
    }
}

#[test]
fn an_object_without_meshes_or_without_that_mesh_says_so() {
    let mut file = object();
    let error = meshes_asset(&file, Some(101), Container::Glb, &mut |_| {}).unwrap_err();
    assert_eq!(
        error.to_string(),
        "it has no 3D mesh (FSOM) of id 101 with triangles"
    );
    file.chunks.retain(|chunk| &chunk.kind.tag != b"FSOM");
    let error = meshes_asset(&file, None, Container::Glb, &mut |_| {}).unwrap_err();
    assert!(
        error.to_string().starts_with("it has no 3D mesh (FSOM"),
        "{error}"
    );
}

#[test]
fn a_position_that_is_not_a_number_makes_no_asset() {
    let mut file = object();
    if let Some(ChunkData::Mesh(mesh)) = file.chunks.last_mut().map(|chunk| &mut chunk.data) {
        mesh.mesh.value.groups[0].pieces[0].vertices[3].position[1] = f32::NAN;
    }
    let error = meshes_asset(&file, None, Container::Glb, &mut |_| {}).unwrap_err();
    assert_eq!(
        error.to_string(),
        "FSOM 100: vertex 3's position is not a finite number"
    );
}

/// FreeSO's objects of the corpus with meshes: every mesh with triangles
/// a scene, every piece a textured primitive with the mesh's vertices.
#[test]
fn the_corpus_freeso_meshes_read_back_textured() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    for (name, scenes) in [("Chair_fso_Bouncy_Beach_Ball", 2), ("fso_game_door", 5)] {
        let path = corpus.join("objects/freeso").join(format!("{name}.iff"));
        let file = IffFile::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let (bytes, warnings) = exported(&file, &format!("object-{name}"), Container::Glb);
        assert!(warnings.is_empty(), "{warnings:?}");
        let (document, buffers, images) = gltf::import_slice(&bytes).unwrap();
        assert_eq!(document.scenes().count(), scenes, "{name}");
        let with_triangles: Vec<_> = file
            .meshes()
            .into_iter()
            .filter(|(_, pieces)| pieces.iter().any(|piece| !piece.triangles.is_empty()))
            .collect();
        for ((id, pieces), scene) in with_triangles.iter().zip(document.scenes()) {
            let node = scene.nodes().next().unwrap();
            assert!(
                node.name().unwrap().starts_with(&format!("DGRP {id}")),
                "{:?}",
                node.name()
            );
            let primitives: Vec<_> = node.mesh().unwrap().primitives().collect();
            assert_eq!(primitives.len(), pieces.len());
            for (piece, primitive) in pieces.iter().zip(&primitives) {
                let reader = primitive.reader(|buffer| Some(&buffers[buffer.index()]));
                let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
                assert_eq!(positions, piece.positions);
                assert!(texture_of(primitive, &images).is_some());
            }
        }
    }
}
