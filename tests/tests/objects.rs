//! The real object files: every chunk of every file in the corpus's
//! `objects` folder reads as its type and writes back byte for byte.
//! Runs when `OSSUARY_CORPUS` names the corpus folder.

use formats::objects::behavior::{ConstantLabels, Constants, Routine, RoutineLabels, RoutineTree};
use formats::objects::definition::{EventHandlers, ObjectDefinition, ObjectDefinitionContext};
use formats::objects::draw_group::DrawGroup;
use formats::objects::image::Image;
use formats::objects::interactions::{Interactions, InteractionsContext};
use formats::objects::mesh::Reconstruction;
use formats::objects::names::{SemiGlobal, SoundEvent};
use formats::objects::palette::Palette;
use formats::objects::resource_map::ResourceMap;
use formats::objects::slots::Slots;
use formats::objects::sprites::{Frame, FrameInfo, Sprite};
use formats::objects::strings::{StringTable, StringTableContext};
use formats::objects::{Filler, Undescribed};
use formats::schema::{BinarySchema, Error};

/// One chunk of a corpus file: its type, id and payload.
struct RawChunk {
    file: String,
    kind: [u8; 4],
    id: u16,
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
                payload: bytes[at + 76..at + size].to_vec(),
            });
            at += size;
        }
    }
    Some(chunks)
}

fn round_trip<T: BinarySchema + formats::schema::HasContext<Context = ()>>(
    chunk: &RawChunk,
) -> Result<Vec<u8>, Error> {
    T::from_bytes(&chunk.payload)?.to_bytes()
}

#[test]
fn every_chunk_comes_back_byte_for_byte() {
    let Some(chunks) = corpus_chunks() else {
        return;
    };
    let mut read = 0;
    for chunk in &chunks {
        let written = match &chunk.kind {
            b"OBJD" => {
                let context = ObjectDefinitionContext {
                    len: chunk.payload.len() as u32,
                };
                ObjectDefinition::from_bytes_with(&chunk.payload, &context)
                    .and_then(|value| value.to_bytes_with(&context))
            }
            b"STR#" | b"CTSS" | b"TTAs" => {
                let context = StringTableContext {
                    len: chunk.payload.len() as u32,
                };
                StringTable::from_bytes_with(&chunk.payload, &context)
                    .and_then(|value| value.to_bytes_with(&context))
            }
            b"OBJf" => round_trip::<EventHandlers>(chunk),
            b"BHAV" => round_trip::<Routine>(chunk),
            b"BCON" => round_trip::<Constants>(chunk),
            b"DGRP" => round_trip::<DrawGroup>(chunk),
            b"MTEX" | b"BMP_" => round_trip::<Image>(chunk),
            b"TTAB" => {
                let context = InteractionsContext {
                    len: chunk.payload.len() as u32,
                };
                Interactions::from_bytes_with(&chunk.payload, &context)
                    .and_then(|value| value.to_bytes_with(&context))
            }
            b"TPRP" => round_trip::<RoutineLabels>(chunk),
            b"TREE" => round_trip::<RoutineTree>(chunk),
            b"TRCN" => round_trip::<ConstantLabels>(chunk),
            b"GLOB" => round_trip::<SemiGlobal>(chunk),
            b"rsmp" => round_trip::<ResourceMap>(chunk),
            b"SPR2" if chunk.payload[..4] == 1001u32.to_le_bytes() => round_trip::<Sprite>(chunk),
            b"POSI" => round_trip::<Undescribed>(chunk),
            b"FSOR" => round_trip::<Reconstruction>(chunk),
            b"FWAV" => round_trip::<SoundEvent>(chunk),
            b"PALT" => round_trip::<Palette>(chunk),
            b"SLOT" => round_trip::<Slots>(chunk),
            b"XXXX" => round_trip::<Filler>(chunk),
            _ => continue,
        };
        let what = format!(
            "{} {} {}",
            chunk.file,
            String::from_utf8_lossy(&chunk.kind),
            chunk.id
        );
        let written = written.unwrap_or_else(|error| panic!("{what}: {error}"));
        assert!(written == chunk.payload, "{what}: written differently");
        read += 1;
    }
    assert!(read > 0);
    eprintln!("{read} chunks of {} read", chunks.len());
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
        let Ok(Sprite::V1001(sprite)) = Sprite::from_bytes(&chunk.payload) else {
            continue;
        };
        for (index, (sized, expected)) in sprite.frames.iter().zip(&reference).enumerate() {
            let frame = &sized.frame;
            let palette = match frame.palette {
                0 | 0xA3A3 => sprite.default_palette as u16,
                id => id,
            };
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
    eprintln!("{compared} frames compared");
}
