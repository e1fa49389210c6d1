//! Object files (IFF 2.5) written by hand from the layout, byte by byte,
//! never by the writer under test: the container with a palette and its
//! resource map, the two versions of a sprite, a string table with a long
//! prefixed string, and hostile variants of them.

use formats::objects::file::{Chunk, ChunkData, IffFile, SIGNATURE};
use formats::objects::names::SoundEvent;
use formats::objects::palette::Palette;
use formats::objects::resource_map::{
    PaddedLabel, ResourceEntry, ResourceId, ResourceLabel, ResourceMap, ResourceType,
};
use formats::objects::sprites::{Sprite, SpriteError};
use formats::objects::strings::{StringTable, Strings};
use formats::schema::{BinarySchema, Calc, Count, Padding, RawString};

/// A file of a palette and the resource map listing it: 278 bytes.
fn golden_file() -> Vec<u8> {
    let mut bytes = SIGNATURE.to_vec();
    bytes.extend([0, 0, 0, 0xA2]); // the map's chunk at byte 162
                                   // The palette's chunk, at byte 64: type, size 98, id 1, flags 0x10,
                                   // the label "pal" and 61 zeros.
    bytes.extend(b"PALT");
    bytes.extend([0, 0, 0, 98, 0, 1, 0, 0x10]);
    bytes.extend(b"pal");
    bytes.extend([0; 61]);
    bytes.extend([0, 0, 0, 0]); // version 0, little-endian from here
    bytes.extend([2, 0, 0, 0]); // two colours
    bytes.extend([0; 8]); // reserved
    bytes.extend([1, 2, 3, 4, 5, 6]); // the colours
                                      // The map's chunk, at byte 162: size 116, id 0, flags 0x10, no label.
    bytes.extend(b"rsmp");
    bytes.extend([0, 0, 0, 116, 0, 0, 0, 0x10]);
    bytes.extend([0; 64]);
    bytes.extend([0; 4]); // reserved
    bytes.extend([0; 4]); // version 0
    bytes.extend(b"pmsr");
    bytes.extend([0; 4]); // the size, 0 as some files hold it
    bytes.extend([1, 0, 0, 0]); // one type
    bytes.extend(b"TLAP"); // PALT backwards
    bytes.extend([1, 0, 0, 0]); // one entry
    bytes.extend([64, 0, 0, 0]); // at byte 64
    bytes.extend([1, 0, 0x10, 0]); // id 1, flags 0x10
    bytes.extend(b"pal\0"); // the label, its 0: an even length, no padding
    bytes
}

fn palette_chunk() -> Chunk {
    Chunk::new(
        b"PALT",
        1,
        "pal",
        ChunkData::Palette(Palette {
            version: 0,
            count: Count::new(),
            reserved: [0; 8],
            colors: vec![[1, 2, 3], [4, 5, 6]],
            trailing: Vec::new(),
        }),
    )
}

fn map_chunk() -> Chunk {
    Chunk::new(
        b"rsmp",
        0,
        "",
        ChunkData::ResourceMap(ResourceMap {
            reserved: 0,
            version: 0,
            signature: *b"pmsr",
            size: 0,
            types: vec![ResourceType {
                kind: *b"TLAP",
                entries: vec![ResourceEntry {
                    offset: 64,
                    id: ResourceId::Short(1),
                    flags: 0x10,
                    label: ResourceLabel::Padded(PaddedLabel {
                        text: RawString::from("pal"),
                        padding: Padding::default(),
                    }),
                }],
            }],
            trailing: Vec::new(),
        }),
    )
}

#[test]
fn a_file_reads_and_a_file_built_by_hand_writes_its_sizes_and_map_offset() {
    let bytes = golden_file();
    assert_eq!(bytes.len(), 278);
    let file = IffFile::from_bytes(&bytes).unwrap();
    assert_eq!(file.palette(1), Some(&[[1, 2, 3], [4, 5, 6]][..]));
    assert!(file.resource_map_disagreements().is_empty());
    let built = IffFile {
        signature: RawString(SIGNATURE.to_vec()),
        resource_map_offset: Calc::computed(),
        chunks: vec![palette_chunk(), map_chunk()],
    };
    assert_eq!(built.to_bytes().unwrap(), bytes);
}

#[test]
fn a_chunk_grown_moves_the_map_and_update_resource_map_follows() {
    let mut file = IffFile::from_bytes(&golden_file()).unwrap();
    // A third colour: the palette's chunk grows by 3 bytes.
    if let ChunkData::Palette(palette) = &mut file.chunks[0].data {
        palette.colors.push([7, 8, 9]);
    }
    // Written as it is, the header follows the map (computed), the map's
    // entry still says 64, which is still right.
    let written = file.to_bytes().unwrap();
    assert_eq!(written[60..64], [0, 0, 0, 0xA5]);
    // A chunk added before the palette moves it: the map's entry is
    // brought up to date.
    let sound = SoundEvent {
        name: RawString::from("door_open"),
        trailing: Vec::new(),
    };
    file.chunks
        .insert(0, Chunk::new(b"FWAV", 5, "", ChunkData::SoundEvent(sound)));
    // The entry at byte 64, the palette and the sound no longer listed.
    assert_eq!(file.resource_map_disagreements().len(), 3);
    file.update_resource_map();
    assert!(file.resource_map_disagreements().is_empty());
    let read = IffFile::from_bytes(&file.to_bytes().unwrap()).unwrap();
    assert!(read.resource_map_disagreements().is_empty());
}

#[test]
fn a_chunk_whose_size_is_short_of_its_header_or_past_the_file_is_refused() {
    let mut bytes = golden_file();
    bytes[64 + 7] = 70; // the palette's size: 70, less than its header
    let error = IffFile::from_bytes(&bytes).unwrap_err().to_string();
    assert!(error.starts_with("byte 140: chunks[0].data:"), "{error}");
    let mut bytes = golden_file();
    bytes[64 + 6] = 0x10; // the palette's size: 4,194 bytes, past the end
    let error = IffFile::from_bytes(&bytes).unwrap_err().to_string();
    assert!(error.starts_with("byte 140: chunks[0].data:"), "{error}");
}

#[test]
fn a_file_with_another_signature_is_refused_at_it() {
    let mut bytes = golden_file();
    bytes[9] = b'3';
    let error = IffFile::from_bytes(&bytes).unwrap_err().to_string();
    assert!(
        error.starts_with("byte 0: signature: not an IFF 2.5 file"),
        "{error}"
    );
}

/// A 2 x 2 frame: its header (16 bytes), a row of two depth and colour
/// pixels, a row of a colour-only pixel and a clear one, the end.
#[rustfmt::skip]
const FRAME: &[u8] = &[
    2, 0, 2, 0,             // width 2, height 2
    3, 0, 0, 0,             // flags: colours and a z-buffer
    0, 0, 0, 0,             // palette 0 (the default), transparent index 0
    0, 0, 0, 0,             // position y 0, x 0
    0x08, 0x00,             // a row (command 0) of 8 bytes
    0x02, 0x20,             //   2 pixels of depth and colour (command 1)
    5, 1, 6, 2,             //   depth 5 colour 1, depth 6 colour 2
    0x08, 0x00,             // a row of 8 bytes
    0x01, 0xC0, 3, 0xEE,    //   1 pixel of colour only (command 6): 3, a pad byte 0xEE
    0x01, 0x60,             //   1 clear pixel (command 3)
    0x00, 0xA0,             // the end (command 5)
];

const COLORS: [[u8; 3]; 4] = [[0, 0, 0], [10, 0, 0], [20, 0, 0], [30, 0, 0]];

fn version_1001() -> Vec<u8> {
    let mut bytes = vec![0xE9, 3, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]; // 1001, palette 1, one frame
    bytes.extend([0xE9, 3, 0, 0, 34, 0, 0, 0]); // the frame's version, its size 34
    bytes.extend(FRAME);
    bytes
}

#[test]
fn a_version_1001_sprite_draws_its_frame() {
    let bytes = version_1001();
    let sprite = Sprite::from_bytes(&bytes).unwrap();
    assert_eq!(sprite.to_bytes().unwrap(), bytes);
    let frame = sprite.frames()[0];
    assert_eq!(sprite.palette_of(frame), 1);
    let pixels = frame.pixels(&COLORS).unwrap();
    assert_eq!(
        pixels.rgba,
        [
            [10, 0, 0, 255],
            [20, 0, 0, 255],
            [30, 0, 0, 255],
            [0, 0, 0, 0]
        ]
    );
    assert_eq!(pixels.depth, Some(vec![5, 6, 0, 255]));
}

#[test]
fn a_version_1000_sprite_keeps_the_room_after_its_offset_table() {
    let mut bytes = vec![0xE8, 3, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]; // 1000, one frame, palette 1
    bytes.extend([20, 0, 0, 0]); // the frame at byte 20
    bytes.extend([0xA3; 4]); // room the tools leave
    bytes.extend(FRAME);
    let sprite = Sprite::from_bytes(&bytes).unwrap();
    let Sprite::V1000(table) = &sprite else {
        panic!("{sprite:?}");
    };
    assert_eq!(
        (table.frames[0].offset, table.frames[0].gap.as_slice()),
        (Some(20), &[0xA3; 4][..])
    );
    assert_eq!(sprite.to_bytes().unwrap(), bytes);
    // Its offset pointing past the payload is refused at the offset.
    let mut past = bytes.clone();
    past[12] = 200;
    let error = Sprite::from_bytes(&past).unwrap_err().to_string();
    assert!(error.starts_with("byte 12: "), "{error}");
}

#[test]
fn run_length_commands_past_a_row_or_the_frame_are_refused_at_their_byte() {
    // The first row's run of 2 pixels made 3: past the width of 2.
    let mut bytes = version_1001();
    bytes[20 + 18] = 0x03;
    bytes[20 + 16] = 0x0A; // the row's size grown by the pixel's 2 bytes
    bytes.splice(20 + 24..20 + 24, [7, 3]);
    bytes[16] = 36; // the frame's size
    let error = Sprite::from_bytes(&bytes).unwrap_err().to_string();
    assert_eq!(
        error,
        "byte 38: V1001.frames[0].frame.rows[0]: row 0 has 3 pixels, past the frame's width of 2"
    );
    // A third row, of 1 clear row, past the height of 2.
    let mut bytes = version_1001();
    bytes.splice(20 + 32..20 + 32, [0x01, 0x80]);
    bytes[16] = 36;
    let error = Sprite::from_bytes(&bytes).unwrap_err().to_string();
    assert_eq!(
        error,
        "byte 52: V1001.frames[0].frame.rows[2]: rows 2 to 2 are past the frame's 2"
    );
}

#[test]
fn a_frame_too_large_to_draw_or_without_its_palette_is_an_error() {
    let mut bytes = version_1001();
    bytes[20..24].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF]); // 65,535 x 65,535
                                                              // Only the two rows' commands: readable, but never drawn.
    let sprite = Sprite::from_bytes(&bytes).unwrap();
    let error = sprite.frames()[0].pixels(&COLORS).unwrap_err();
    assert!(matches!(error, SpriteError::TooLarge(_)), "{error}");
    // A colour past a palette of one.
    let error = Sprite::from_bytes(&version_1001()).unwrap().frames()[0]
        .pixels(&COLORS[..1])
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "row 0: palette index 1 is past the palette's 1 colours"
    );
    // In a file, a palette it lacks.
    let file = IffFile {
        signature: RawString(SIGNATURE.to_vec()),
        resource_map_offset: Calc::computed(),
        chunks: vec![Chunk::new(
            b"SPR2",
            7,
            "",
            ChunkData::Sprite(Sprite::from_bytes(&version_1001()).unwrap()),
        )],
    };
    assert_eq!(
        file.frame_pixels(7, 0).unwrap_err().to_string(),
        "palette 1 is not in the file"
    );
}

#[test]
fn a_long_string_has_a_two_byte_length_prefix() {
    let mut bytes = vec![0xFC, 0xFF, 1, 1, 0, 0]; // -4, one set of one entry, language 0
    bytes.extend([0x81, 0x01]); // 129: 1 and the next group's 1 (128)
    bytes.extend([b'a'; 129]);
    bytes.push(0); // an empty comment
    let table = StringTable::from_bytes(&bytes).unwrap();
    assert_eq!(table.strings().first().map(|text| text.len()), Some(129));
    assert!(matches!(
        table.strings.as_slice(),
        [Strings::LanguageSets(_)]
    ));
    assert_eq!(table.to_bytes().unwrap(), bytes);
}
