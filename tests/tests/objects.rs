//! The real object files: every chunk of every file in the corpus's
//! `objects` folder reads as its type and writes back byte for byte.
//! Runs when `OSSUARY_CORPUS` names the corpus folder.

use formats::explain::{explain, SpanKind};
use formats::objects::file::{Chunk, ChunkData, IffFile};
use formats::objects::old_sprites::OldSprite;
use formats::objects::sprites::{Frame, FrameInfo, Sprite};
use formats::objects::FORMAT;
use formats::schema::BinarySchema;

/// One chunk of a corpus file: its type, id, bytes and payload.
struct RawChunk {
    file: String,
    kind: [u8; 4],
    id: u16,
    bytes: Vec<u8>,
    payload: Vec<u8>,
}

/// Every chunk of every corpus object file, split by the chunk headers'
/// sizes (76 bytes of header, big-endian size first after the type).
fn corpus_chunks() -> Option<Vec<RawChunk>> {
    let files = tests::corpus_files("objects", "iff")?;
    let mut chunks = Vec::new();
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let mut at = 64;
        while at < bytes.len() {
            let kind: [u8; 4] = bytes[at..at + 4].try_into().unwrap();
            let size = u32::from_be_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
            let id = u16::from_be_bytes(bytes[at + 8..at + 10].try_into().unwrap());
            chunks.push(RawChunk {
                file: path.file_name().unwrap().to_string_lossy().into_owned(),
                kind,
                id,
                bytes: bytes[at..at + size].to_vec(),
                payload: bytes[at + 76..at + size].to_vec(),
            });
            at += size;
        }
    }
    Some(chunks)
}

#[test]
fn every_chunk_comes_back_byte_for_byte() {
    let Some(chunks) = corpus_chunks() else {
        return;
    };
    let mut read = 0;
    for chunk in &chunks {
        let what = format!(
            "{} {} {}",
            chunk.file,
            String::from_utf8_lossy(&chunk.kind),
            chunk.id
        );
        let value =
            Chunk::from_bytes(&chunk.bytes).unwrap_or_else(|error| panic!("{what}: {error}"));
        let written = value
            .to_bytes()
            .unwrap_or_else(|error| panic!("{what}: {error}"));
        assert!(written == chunk.bytes, "{what}: written differently");
        if !matches!(value.data, ChunkData::Unknown(_)) {
            read += 1;
        }
    }
    eprintln!("{read} chunks of {} described", chunks.len());
}

/// The colours of every palette of `file`, by id, read from the chunks'
/// bytes as FreeSO reads them (after the 16-byte header).
fn palettes_of(chunks: &[RawChunk], file: &str) -> tests::freeso_sprites::Palettes {
    chunks
        .iter()
        .filter(|chunk| chunk.file == file && &chunk.kind == b"PALT")
        .map(|palt| {
            let colors = palt.payload[16..]
                .chunks_exact(3)
                .map(|c| [c[0], c[1], c[2]])
                .collect();
            (palt.id, colors)
        })
        .collect()
}

#[test]
fn the_reference_decoder_reads_every_sprite() {
    let Some(chunks) = corpus_chunks() else {
        return;
    };
    let mut frames = 0;
    for chunk in &chunks {
        let palettes = palettes_of(&chunks, &chunk.file);
        let decoded = match &chunk.kind {
            b"SPR2" => tests::freeso_sprites::spr2_frames(&chunk.payload, &palettes),
            b"SPR#" => tests::freeso_sprites::spr_frames(&chunk.payload, &palettes),
            _ => continue,
        };
        frames += decoded
            .unwrap_or_else(|e| panic!("{} {}: {e}", chunk.file, chunk.id))
            .len();
    }
    eprintln!("{frames} frames");
}

/// FreeSO keeps the palette's colour under alpha 0; a clear pixel is
/// clear whatever its colour.
fn cleared(rgba: &[[u8; 4]]) -> Vec<[u8; 4]> {
    rgba.iter()
        .map(|&pixel| if pixel[3] == 0 { [0; 4] } else { pixel })
        .collect()
}

#[test]
fn every_sprite_frame_draws_as_freeso_draws_it() {
    let Some(chunks) = corpus_chunks() else {
        return;
    };
    let mut compared = 0;
    for chunk in chunks.iter().filter(|chunk| &chunk.kind == b"SPR2") {
        let palettes = palettes_of(&chunks, &chunk.file);
        let reference = tests::freeso_sprites::spr2_frames(&chunk.payload, &palettes).unwrap();
        let sprite = Sprite::from_bytes(&chunk.payload).unwrap();
        for (index, (frame, expected)) in sprite.frames().into_iter().zip(&reference).enumerate() {
            let palette = sprite.palette_of(frame);
            let pixels = frame.pixels(&palettes[&palette]).unwrap();
            let what = format!("{} SPR2 {} frame {index}", chunk.file, chunk.id);
            assert_eq!(
                (pixels.width as usize, pixels.height as usize),
                (expected.width, expected.height),
                "{what}"
            );
            assert!(
                cleared(&pixels.rgba) == cleared(&expected.rgba),
                "{what}: colours"
            );
            assert!(pixels.depth == expected.z, "{what}: depth");
            let info = FrameInfo {
                palette: frame.palette,
                transparent_index: frame.transparent_index,
                position: frame.position,
            };
            let colors = &palettes[&palette];
            let again = Frame::from_pixels(&pixels, colors, info).unwrap();
            let again = Frame::from_bytes(&again.to_bytes().unwrap()).unwrap();
            assert!(
                again.pixels(colors).unwrap() == pixels,
                "{what}: encoded again"
            );
            compared += 1;
        }
    }
    eprintln!("{compared} SPR2 frames compared");
    let mut compared = 0;
    for chunk in chunks.iter().filter(|chunk| &chunk.kind == b"SPR#") {
        let palettes = palettes_of(&chunks, &chunk.file);
        let reference = tests::freeso_sprites::spr_frames(&chunk.payload, &palettes).unwrap();
        let sprite = OldSprite::from_bytes(&chunk.payload).unwrap();
        // A missing palette is black, as FreeSO draws it.
        let black = vec![[0; 3]; 256];
        let colors = palettes.get(&sprite.palette()).unwrap_or(&black);
        assert_eq!(sprite.frames().len(), reference.len());
        for (index, (frame, expected)) in sprite.frames().into_iter().zip(&reference).enumerate() {
            let pixels = frame.pixels(colors).unwrap();
            let what = format!("{} SPR# {} frame {index}", chunk.file, chunk.id);
            assert_eq!(
                (pixels.width as usize, pixels.height as usize),
                (expected.width, expected.height),
                "{what}"
            );
            assert!(pixels.rgba == expected.rgba, "{what}: colours");
            compared += 1;
        }
    }
    eprintln!("{compared} SPR# frames compared");
}

/// Every corpus object file.
fn corpus_files() -> Option<Vec<(String, Vec<u8>)>> {
    let files = tests::corpus_files("objects", "iff")?;
    Some(
        files
            .into_iter()
            .map(|path| {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&path).unwrap())
            })
            .collect(),
    )
}

#[test]
fn every_file_comes_back_byte_for_byte_directly_and_through_json() {
    let Some(files) = corpus_files() else {
        return;
    };
    for (name, bytes) in files {
        let document = (FORMAT.decode)(&bytes).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert!(
            document.encode().unwrap() == bytes,
            "{name}: written differently"
        );
        let json = document.to_json().unwrap();
        let back = (FORMAT.from_json)(&json).unwrap();
        assert!(back.encode().unwrap() == bytes, "{name}: through JSON");
    }
}

#[test]
fn every_byte_is_described_but_the_room_after_old_sprites_offset_tables() {
    let Some(files) = corpus_files() else {
        return;
    };
    for (name, bytes) in files {
        let explanation = explain(&FORMAT, &bytes).unwrap();
        let misses = explanation.misses();
        assert!(
            misses.uncovered.is_empty() && misses.overlapping.is_empty(),
            "{name}: {misses:?}"
        );
        for span in explanation
            .spans()
            .filter(|span| span.kind != SpanKind::Field)
        {
            // The 0xA3 filler The Sims' tools leave after a version-1000
            // sprite's offset table, kept as the first frame's gap.
            assert_eq!(span.type_name, "gap", "{name}: {} kept as found", span.path);
            assert!(
                bytes[span.start as usize..span.end as usize]
                    .iter()
                    .all(|&b| b == 0xA3),
                "{name}: {}",
                span.path
            );
        }
    }
}

#[test]
fn the_objects_are_named_by_their_catalogue_strings() {
    let Some(files) = corpus_files() else {
        return;
    };
    let names: Vec<String> = files
        .iter()
        .flat_map(|(_, bytes)| IffFile::from_bytes(bytes).unwrap().objects())
        .map(|object| object.name.to_text())
        .collect();
    for expected in [
        "Misty the Wonder Bot",
        "The 'Essential' Beach Ball",
        "\"Game Door\" by One",
    ] {
        assert!(
            names.iter().any(|name| name.contains(expected)),
            "{expected} in {names:?}"
        );
    }
}

#[test]
fn every_draw_group_composes_and_every_mesh_is_whole() {
    let Some(files) = corpus_files() else {
        return;
    };
    let (mut views, mut meshes) = (0, 0);
    for (name, bytes) in files {
        let file = IffFile::from_bytes(&bytes).unwrap();
        for chunk in file
            .chunks
            .iter()
            .filter(|chunk| &chunk.kind.tag == b"DGRP")
        {
            for (view, composed) in file.compose_draw_group(chunk.id).unwrap() {
                assert!(
                    composed.pixels.rgba.iter().any(|pixel| pixel[3] > 0),
                    "{name} DGRP {} {view:?}: nothing drawn",
                    chunk.id
                );
                views += 1;
            }
        }
        for (id, pieces) in file.meshes() {
            for piece in pieces {
                assert!(!piece.triangles.is_empty(), "{name} FSOM {id}");
                let within = |index: u32| (index as usize) < piece.positions.len();
                assert!(piece.triangles.iter().flatten().all(|&index| within(index)));
                assert_eq!(piece.uvs.len(), piece.positions.len());
                meshes += 1;
            }
        }
    }
    eprintln!("{views} views composed, {meshes} mesh pieces");
}

/// A frame replaced by an image of the same size and other colours of its
/// palette, in a version-1000 sprite (offset table) and a version-1001
/// one (sizes): the file writes with every offset, size and the resource
/// map right, and the frame reads back as the image.
#[test]
fn a_replaced_frame_reads_as_its_image_with_the_offsets_and_map_right() {
    let Some(files) = corpus_files() else {
        return;
    };
    for (name, sprite_id) in [("k8esshallpainttints.iff", 100), ("fso_game_door.iff", 400)] {
        let (_, bytes) = files.iter().find(|(file, _)| file == name).unwrap();
        let mut file = IffFile::from_bytes(bytes).unwrap();
        let original = file.frame_pixels(sprite_id, 1).unwrap();
        let colors = file
            .palette(
                file.sprite(sprite_id)
                    .unwrap()
                    .palette_of(file.sprite(sprite_id).unwrap().frames()[1]),
            )
            .unwrap()
            .to_vec();
        // A larger image: the frame grows, moving the frames and chunks after it.
        let mut image =
            formats::objects::pixels::Pixels::clear(original.width + 3, original.height + 2, true)
                .unwrap();
        for (index, pixel) in image.rgba.iter_mut().enumerate() {
            let [r, g, b] = colors[index % 7 + 1];
            *pixel = [r, g, b, 255];
        }
        image
            .depth
            .as_mut()
            .unwrap()
            .iter_mut()
            .enumerate()
            .for_each(|(index, z)| *z = (index % 200) as u8 + 1);
        file.replace_frame(sprite_id, 1, &image).unwrap();
        let written = file.to_bytes().unwrap();
        assert!(written.len() > bytes.len(), "{name}");
        let read = IffFile::from_bytes(&written).unwrap();
        assert!(
            read.frame_pixels(sprite_id, 1).unwrap() == image,
            "{name}: the frame"
        );
        assert!(
            read.frame_pixels(sprite_id, 2).unwrap() == file.frame_pixels(sprite_id, 2).unwrap(),
            "{name}: the next frame"
        );
        assert_eq!(
            read.resource_map_disagreements(),
            Vec::<String>::new(),
            "{name}"
        );
        let map_at = u32::from_be_bytes(written[60..64].try_into().unwrap()) as usize;
        assert_eq!(
            &written[map_at..map_at + 4],
            b"rsmp",
            "{name}: the header's map offset"
        );
    }
}

/// The smallest corpus object damaged at 128 places spread through it
/// (each byte there made 0x00, then 0xFF) and cut at as many lengths:
/// each a value that writes back exactly, or an error; never a panic
/// (`tests::round_trip`, which also draws every frame and composes every
/// draw group).
#[test]
fn a_damaged_object_fails_or_round_trips() {
    let Some(files) = corpus_files() else {
        return;
    };
    let (_, bytes) = files.iter().min_by_key(|(_, bytes)| bytes.len()).unwrap();
    for step in 0..128 {
        let at = step * bytes.len() / 128;
        for value in [0x00, 0xFF] {
            let mut damaged = bytes.clone();
            damaged[at] = value;
            tests::round_trip::fails_or_round_trips(&FORMAT, &damaged);
        }
        tests::round_trip::fails_or_round_trips(&FORMAT, &bytes[..at]);
    }
}
