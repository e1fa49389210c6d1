//! A small object file built from the types: the project's sample.

use super::behavior::{Instruction, Routine, RoutineV8002};
use super::definition::{ObjectDefinition, Ratings, TypeAttributes};
use super::draw_group::{DrawGroup, WideDrawGroup, WideImage, WideSprite};
use super::file::{Chunk, ChunkData, IffFile, Nothing, SIGNATURE};
use super::palette::Palette;
use super::pixels::Pixels;
use super::resource_map::ResourceMap;
use super::sprites::{Frame, FrameInfo, SizedFrame, Sprite, SpriteV1000, SpriteV1001};
use super::strings::{
    LanguageSet, LanguageSets, LanguageString, LanguageStrings, SetString, StringTable, Strings,
};
use super::Filler;
use crate::schema::{At, Block, Calc, Count, RawString};

/// The sample's palette: clear, brown, dark brown, red.
const COLORS: [[u8; 3]; 4] = [[255, 0, 255], [120, 80, 40], [60, 40, 20], [200, 30, 30]];

/// A one-tile chair: its definition and catalogue name, a label string
/// table, a routine, a palette, two sprites (one of each version) of a
/// 3 x 3 frame, a draw group placing them, a filler, a chunk of a type no
/// layout describes, and the resource map listing them.
pub fn chair() -> IffFile {
    let definition = ObjectDefinition {
        version: 138,
        stack_size: 1,
        base_graphic: 100,
        graphic_count: 1,
        main_routine: 4096,
        object_type: 4,
        sub_index: -1,
        guid: 0x1234_5678,
        price: 120,
        catalog_strings: 2000,
        ratings: Some(Ratings {
            comfort: 3,
            ..Ratings::default()
        }),
        type_attributes: Some(TypeAttributes::default()),
        ..ObjectDefinition::default()
    };
    let catalog = StringTable {
        format: -4,
        strings: vec![Strings::LanguageSets(LanguageSets {
            sets: vec![LanguageSet {
                entries: vec![set_string("Chair"), set_string("A chair to sit on.")],
            }],
            trailing: Vec::new(),
        })],
    };
    let labels = StringTable {
        format: -3,
        strings: vec![Strings::Languages(LanguageStrings {
            entries: vec![LanguageString {
                language: 1,
                value: RawString::from("Sit"),
                comment: RawString::from(""),
            }],
            // One 0xA3 per entry, as The Sims' tools write them.
            trailing: vec![0xA3],
        })],
    };
    let routine = Routine::V8002(RoutineV8002 {
        instruction_count: Count::new(),
        kind: 0,
        argument_count: 0,
        local_count: 0,
        routine_version: 0,
        reserved: 0,
        instructions: vec![Instruction {
            opcode: 2,
            on_true: 254,
            on_false: 255,
            operands: [0; 8],
        }],
        trailing: Vec::new(),
    });
    let palette = Palette {
        version: 0,
        count: Count::new(),
        reserved: [0; 8],
        colors: COLORS.to_vec(),
        trailing: Vec::new(),
    };
    let frame = frame();
    let old_sprite = Sprite::V1000(SpriteV1000 {
        count: Count::new(),
        default_palette: 1,
        frames: vec![At::new(frame.clone())],
    });
    let new_sprite = Sprite::V1001(SpriteV1001 {
        default_palette: 1,
        frames: vec![SizedFrame {
            version: 1001,
            size: Calc::computed(),
            frame: Block::new(frame),
        }],
        trailing: Vec::new(),
    });
    let view = |sprite: u32, offset: [i32; 2]| WideSprite {
        sprite,
        frame: 0,
        offset,
        depth: 0.0,
        flags: 0,
        object_offset: Some([0.0, 0.0]),
    };
    let draw_group = DrawGroup::V20004(WideDrawGroup {
        images: vec![WideImage {
            direction: 0x04,
            zoom: 3,
            sprites: vec![view(100, [-2, 0]), view(101, [0, -1])],
        }],
        trailing: Vec::new(),
    });
    let mut chair = IffFile {
        signature: RawString(SIGNATURE.to_vec()),
        resource_map_offset: Calc::computed(),
        chunks: vec![
            Chunk::new(b"OBJD", 128, "Chair", ChunkData::Definition(definition)),
            Chunk::new(b"CTSS", 2000, "", ChunkData::Strings(catalog)),
            Chunk::new(b"STR#", 300, "labels", ChunkData::Strings(labels)),
            Chunk::new(b"BHAV", 4096, "main", ChunkData::Routine(routine)),
            Chunk::new(b"PALT", 1, "", ChunkData::Palette(palette)),
            Chunk::new(b"SPR2", 100, "chair", ChunkData::Sprite(old_sprite)),
            Chunk::new(b"SPR2", 101, "cushion", ChunkData::Sprite(new_sprite)),
            Chunk::new(b"DGRP", 100, "chair", ChunkData::DrawGroup(draw_group)),
            Chunk::new(
                b"XXXX",
                0,
                "",
                ChunkData::Filler(Filler {
                    bytes: vec![0xA3; 4],
                }),
            ),
            Chunk::new(
                b"ZZZZ",
                1,
                "unknown",
                ChunkData::Unknown(Block {
                    value: Nothing {},
                    rest: vec![1, 2, 3],
                }),
            ),
            Chunk::new(b"rsmp", 0, "", ChunkData::ResourceMap(empty_map())),
        ],
    };
    chair.update_resource_map();
    chair
}

fn set_string(text: &str) -> SetString {
    SetString {
        language: 0,
        value: RawString::from(text).into(),
        comment: RawString::from("").into(),
    }
}

/// A 3 x 3 frame: a clear corner, the rest brown and dark brown, one
/// pixel half clear.
fn frame() -> Frame {
    let mut image = Pixels::clear(3, 3, true).unwrap_or_else(|_| unreachable!("3 x 3"));
    let brown = [120, 80, 40, 255];
    let dark = [60, 40, 20, 255];
    image.rgba = vec![
        [0; 4],
        brown,
        brown, //
        brown,
        dark,
        [200, 30, 30, 131], //
        dark,
        dark,
        dark,
    ];
    image.depth = Some(vec![255, 10, 10, 10, 0, 12, 20, 20, 20]);
    let info = FrameInfo {
        palette: 1,
        transparent_index: 0,
        position: [0, 0],
    };
    Frame::from_pixels(&image, &COLORS, info)
        .unwrap_or_else(|error| unreachable!("the sample's colours are in its palette: {error}"))
}

/// A resource map of version 0 listing nothing yet.
fn empty_map() -> ResourceMap {
    ResourceMap {
        reserved: 0,
        version: 0,
        signature: *b"pmsr",
        size: 0,
        types: Vec::new(),
        trailing: Vec::new(),
    }
}
