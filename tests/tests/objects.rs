//! The real object files: every chunk of every file in the corpus's
//! `objects` folder reads as its type and writes back byte for byte.
//! Runs when `OSSUARY_CORPUS` names the corpus folder.

use formats::objects::file::{Chunk, ChunkData};
use formats::objects::old_sprites::OldSprite;
use formats::objects::palette::Palette;
use formats::objects::sprites::{Frame, FrameInfo, Sprite};
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

#[test]
fn the_reference_decoder_reads_every_sprite() {
    let Some(chunks) = corpus_chunks() else {
        return;
    };
    let mut frames = 0;
    for chunk in &chunks {
        let palettes: tests::freeso_sprites::Palettes = chunks
            .iter()
            .filter(|other| other.file == chunk.file && &other.kind == b"PALT")
            .map(|palt| {
                (
                    palt.id,
                    palt.payload[16..]
                        .chunks(3)
                        .map(|c| [c[0], c[1], c[2]])
                        .collect(),
                )
            })
            .collect();
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
        let palettes: tests::freeso_sprites::Palettes = chunks
            .iter()
            .filter(|other| other.file == chunk.file && &other.kind == b"PALT")
            .map(|palt| (palt.id, Palette::from_bytes(&palt.payload).unwrap().colors))
            .collect();
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
        let palettes: tests::freeso_sprites::Palettes = chunks
            .iter()
            .filter(|other| other.file == chunk.file && &other.kind == b"PALT")
            .map(|palt| (palt.id, Palette::from_bytes(&palt.payload).unwrap().colors))
            .collect();
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
