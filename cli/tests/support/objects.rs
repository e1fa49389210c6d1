//! Object files (IFF 2.5) written byte by byte from the layout, for the
//! tests of what the command line and the viewer make of hostile ones.

use formats::schema::{Gzip, Transform};

/// An object file of `chunks` (type, id, payload): the 64-byte header
/// (the signature, then 0: no resource map), then each chunk's 76-byte
/// big-endian header (type, size with the header, id, flags 0x10, a label
/// of 64 zero bytes) before its payload.
pub fn object_file(chunks: &[(&[u8; 4], u16, Vec<u8>)]) -> Vec<u8> {
    let mut bytes = formats::objects::file::SIGNATURE.to_vec();
    bytes.extend_from_slice(&[0; 4]);
    for (kind, id, payload) in chunks {
        bytes.extend_from_slice(*kind);
        bytes.extend_from_slice(&(payload.len() as u32 + 76).to_be_bytes());
        bytes.extend_from_slice(&id.to_be_bytes());
        bytes.extend_from_slice(&0x10u16.to_be_bytes());
        bytes.extend_from_slice(&[0; 64]);
        bytes.extend_from_slice(payload);
    }
    bytes
}

/// A palette (`PALT`): version 0, the count, 8 reserved bytes, the
/// colours.
pub fn palette(colors: &[[u8; 3]]) -> Vec<u8> {
    let mut bytes = 0u32.to_le_bytes().to_vec();
    bytes.extend_from_slice(&(colors.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&[0; 8]);
    bytes.extend(colors.iter().flatten());
    bytes
}

/// A 16-bit command word: the command in the top 3 bits, the count in
/// the low 13.
pub fn word(command: u16, count: u16) -> [u8; 2] {
    ((command << 13) | count).to_le_bytes()
}

/// A frame's header: width, height, flags 0x1 (colours), its palette, the
/// transparent index 0, its position (0, 0).
pub fn frame_header(width: u16, height: u16, palette: u16) -> Vec<u8> {
    let mut bytes = width.to_le_bytes().to_vec();
    bytes.extend_from_slice(&height.to_le_bytes());
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&palette.to_le_bytes());
    bytes.extend_from_slice(&[0; 6]);
    bytes
}

/// A frame of `width` x `height` left clear: one clear-rows command
/// (4) for every row, then the end (5).
pub fn clear_frame(width: u16, height: u16) -> Vec<u8> {
    let mut bytes = frame_header(width, height, 1);
    bytes.extend(word(4, height));
    bytes.extend(word(5, 0));
    bytes
}

/// A 2 x 1 frame naming `palette`: a row (command 0, its 6 bytes) of two
/// colour-only pixels (command 6) of indices 1 and 2, then the end.
pub fn two_pixels(palette: u16) -> Vec<u8> {
    let mut bytes = frame_header(2, 1, palette);
    bytes.extend(word(0, 6));
    bytes.extend(word(6, 2));
    bytes.extend([1, 2]);
    bytes.extend(word(5, 0));
    bytes
}

/// A sprite (`SPR2`) of version 1001: the version, its default palette
/// (1), the count, then each frame after its version (1001) and size.
pub fn sprite(frames: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = 1001u32.to_le_bytes().to_vec();
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&(frames.len() as u32).to_le_bytes());
    for frame in frames {
        bytes.extend_from_slice(&1001u32.to_le_bytes());
        bytes.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        bytes.extend_from_slice(frame);
    }
    bytes
}

/// A draw group (`DGRP`) of version 20004 with one view, of `direction`
/// and zoom 3, placing frame 0 of sprite 1 at the tile's centre.
pub fn draw_group(direction: u32) -> Vec<u8> {
    let mut bytes = 20004u16.to_le_bytes().to_vec();
    for value in [1, direction, 3, 1, 1, 0, 0, 0] {
        // The view count, direction, zoom, sprite count; the sprite's id,
        // frame and offset.
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    // Its depth, flags and offset in the object's frame.
    bytes.extend_from_slice(&[0; 16]);
    bytes
}

/// A mesh (`FSOM`) whose one piece claims 2^31 - 1 vertices and holds
/// none: its gzip stream of `FSOm`, version 3, reconstruction 0, an empty
/// name, one group of one piece (texture 1, direction 65535), the count,
/// and an index count of 0.
pub fn absurd_mesh() -> Vec<u8> {
    let mut mesh = b"FSOm".to_vec();
    for value in [3i32, 0] {
        mesh.extend_from_slice(&value.to_le_bytes());
    }
    mesh.push(0);
    for value in [1i32, 1] {
        mesh.extend_from_slice(&value.to_le_bytes());
    }
    mesh.extend_from_slice(&1u16.to_le_bytes());
    mesh.extend_from_slice(&0xFFFFu16.to_le_bytes());
    mesh.extend_from_slice(&i32::MAX.to_le_bytes());
    mesh.extend_from_slice(&0i32.to_le_bytes());
    Gzip::encode(&mesh).unwrap()
}
