//! The promise every reader makes about any input, checked by the random-input
//! tests, the fuzz targets (`fuzz/`) and the replay of the fuzzer's findings:
//! bytes decode to a value or an error, never a panic, and a value encodes
//! back to exactly the bytes it came from, directly and through JSON.

use formats::catalogue::FORMATS;
use formats::files::Files;
use formats::format::Format;
use formats::objects;
use formats::objects::file::{ChunkData, IffFile};
use formats::objects::pixels::Pixels;
use formats::objects::sprites::{Frame, FrameInfo, Sprite};
use formats::rig::RigOptions;
use formats::schema::BinarySchema;
use formats::sims::bin::{self, Keys, KeysContext};
use formats::sims::cfp::{self, Streams, StreamsContext, ValueCount};
use formats::sims::msh::{self, Msh};

/// Decodes `bytes` as `format`; if that succeeds, requires the value to
/// encode back to `bytes` exactly, the same through `to_json` ->
/// `from_json` -> encode, and its summary and rig to come without a panic.
/// A format whose full reading needs a context from another file also
/// reads with one built from the first bytes ([`CONTEXT_READERS`]).
///
/// Panics when the promise is broken: the fuzzer's finding, a test's failure.
pub fn fails_or_round_trips(format: &Format, bytes: &[u8]) {
    // Detection by content runs on any file a person names.
    (format.sniff)(bytes);
    if let Some(reader) = CONTEXT_READERS
        .iter()
        .find(|reader| reader.format == format.name)
    {
        (reader.fails_or_round_trips)(bytes);
    }
    let Ok(document) = (format.decode)(bytes) else {
        return;
    };
    let encoded = document.encode().expect("a decoded value re-encodes");
    assert!(
        encoded == bytes,
        "{}: a decoded file did not re-encode byte for byte",
        format.name
    );
    let json = document.to_json().expect("a decoded value becomes JSON");
    let from_json = (format.from_json)(&json).expect("a value's own JSON reads back");
    let encoded = from_json
        .encode()
        .expect("a value read from JSON re-encodes");
    assert!(
        encoded == bytes,
        "{}: a decoded file did not re-encode byte for byte through JSON",
        format.name
    );
    // What `ossuary info`, `joints`, `skin` and `render` ask of any file.
    document.describe();
    let rig = document.rig();
    let files = Files::nowhere();
    rig.skeleton(&files, RigOptions::default());
    rig.skins(&files, RigOptions::default());
    rig.animations(&files);
}

/// [`fails_or_round_trips`] for the format with this `--format` name, as
/// each fuzz target calls it.
pub fn fails_or_round_trips_as(format_name: &str, bytes: &[u8]) {
    let format = FORMATS
        .iter()
        .find(|format| format.name == format_name)
        .unwrap_or_else(|| panic!("no format is named {format_name}"));
    fails_or_round_trips(format, bytes);
}

/// A reader for a format whose full reading takes a context from another
/// file: it builds that context from the input's first bytes and reads the
/// rest with it.
pub struct ContextReader {
    pub format: &'static str,
    pub fails_or_round_trips: fn(&[u8]),
}

/// Every format's [`ContextReader`], if it has one.
pub const CONTEXT_READERS: &[ContextReader] = &[
    ContextReader {
        format: cfp::FORMAT.name,
        fails_or_round_trips: cfp_streams_fail_or_round_trip,
    },
    ContextReader {
        format: bin::FORMAT.name,
        fails_or_round_trips: bin_keys_fail_or_round_trip,
    },
    ContextReader {
        format: msh::FORMAT.name,
        fails_or_round_trips: msh_skin_fails_or_builds,
    },
    ContextReader {
        format: objects::FORMAT.name,
        fails_or_round_trips: objects_draw_and_encode_again,
    },
];

/// An object file's library on any input: every frame drawn, every draw
/// group composed and every mesh made plain without a panic, and each
/// frame drawn, encoded again from its pixels (where its colours are in
/// its palette) and drawn again, the same. The input also as an `SPR2`
/// chunk's payload alone: read, written back byte for byte, its frames
/// drawn with a palette of 256 greys and encoded again alike.
fn objects_draw_and_encode_again(bytes: &[u8]) {
    if let Ok(file) = IffFile::from_bytes(bytes) {
        for chunk in &file.chunks {
            match &chunk.data {
                ChunkData::Sprite(sprite) => {
                    let colors = file.palette(0).map(<[_]>::to_vec);
                    for (index, frame) in sprite.frames().into_iter().enumerate() {
                        let colors = file
                            .palette(sprite.palette_of(frame))
                            .map(<[_]>::to_vec)
                            .or_else(|| colors.clone());
                        let drawn = file.frame_pixels(chunk.id, index);
                        if let (Ok(pixels), Some(colors)) = (drawn, colors) {
                            frame_draws_the_same_encoded_again(frame, &pixels, &colors);
                        }
                    }
                }
                ChunkData::OldSprite(sprite) => {
                    for index in 0..sprite.frames().len() {
                        let _ = file.frame_pixels(chunk.id, index);
                    }
                }
                ChunkData::DrawGroup(_) => {
                    let _ = file.compose_draw_group(chunk.id);
                }
                _ => {}
            }
        }
        file.meshes();
        file.objects();
        file.resource_map_disagreements();
    }
    let Ok(sprite) = Sprite::from_bytes(bytes) else {
        return;
    };
    let encoded = sprite.to_bytes().expect("a sprite read re-encodes");
    assert!(
        encoded == bytes,
        "SPR2: a sprite did not re-encode byte for byte"
    );
    let greys: Vec<[u8; 3]> = (0..=255u8).map(|grey| [grey; 3]).collect();
    for frame in sprite.frames() {
        if let Ok(pixels) = frame.pixels(&greys) {
            frame_draws_the_same_encoded_again(frame, &pixels, &greys);
        }
    }
}

/// A frame drawn as `pixels` and encoded again from them draws the same
/// (where every colour is in `colors`).
fn frame_draws_the_same_encoded_again(frame: &Frame, pixels: &Pixels, colors: &[[u8; 3]]) {
    let info = FrameInfo {
        palette: frame.palette,
        transparent_index: frame.transparent_index,
        position: frame.position,
    };
    let Ok(again) = Frame::from_pixels(pixels, colors, info) else {
        return;
    };
    let bytes = again.to_bytes().expect("an encoded frame writes");
    let read = Frame::from_bytes(&bytes).expect("an encoded frame reads");
    assert!(
        read.pixels(colors).ok().as_ref() == Some(pixels),
        "SPR2: a frame encoded again from its pixels draws otherwise"
    );
}

/// A `.bin` split by its skill's counts, given as for a `.cfp`: two
/// little-endian u16s before the file.
fn bin_keys_fail_or_round_trip(bytes: &[u8]) {
    let [p0, p1, r0, r1, ..] = *bytes else {
        return;
    };
    let file = &bytes[4..];
    let counts = KeysContext {
        position_count: u32::from(u16::from_le_bytes([p0, p1])),
        rotation_count: u32::from(u16::from_le_bytes([r0, r1])),
    };
    let Ok(keys) = Keys::split(file, &counts) else {
        return;
    };
    assert_eq!(
        keys.counts().expect("split keys count themselves"),
        counts,
        "sims-bin: split keys hold other counts than they were split by"
    );
    let encoded = keys.to_bytes_with(&counts).expect("split keys re-encode");
    assert!(
        encoded == file,
        "sims-bin: split keys did not re-encode byte for byte"
    );
}

/// A `.msh` made a skin on the bone its suit would name: a mesh that
/// reads (its indices checked) always makes one, with a vertex per record.
fn msh_skin_fails_or_builds(bytes: &[u8]) {
    let Ok(mesh) = Msh::from_bytes(bytes) else {
        return;
    };
    let skin = mesh
        .skin("mesh", "BONE")
        .expect("a mesh whose indices were checked makes a skin");
    assert_eq!(
        skin.positions.len(),
        mesh.vertices.len(),
        "sims-msh: vertices"
    );
    assert_eq!(
        skin.triangles.len(),
        mesh.faces.len(),
        "sims-msh: triangles"
    );
}

/// A `.cfp` split by its skill's counts: the first two bytes give the
/// translations' count, the next two the rotations' (little-endian), as a
/// `.cmx` skill would; the rest is the file.
fn cfp_streams_fail_or_round_trip(bytes: &[u8]) {
    let [p0, p1, r0, r1, ..] = *bytes else {
        return;
    };
    let file = &bytes[4..];
    let counts = StreamsContext {
        position_count: ValueCount(u32::from(u16::from_le_bytes([p0, p1]))),
        rotation_count: ValueCount(u32::from(u16::from_le_bytes([r0, r1]))),
    };
    let Ok(streams) = Streams::split(file, &counts) else {
        return;
    };
    assert_eq!(
        streams.counts().expect("split streams count their values"),
        counts,
        "sims-cfp: split streams hold other counts than they were split by"
    );
    let encoded = streams
        .to_bytes_with(&counts)
        .expect("split streams re-encode");
    assert!(
        encoded == file,
        "sims-cfp: split streams did not re-encode byte for byte"
    );
    // The values fail on a delta code past the table: an error, never a panic.
    let _ = streams.values();
}
