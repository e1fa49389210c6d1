//! Object files made by an attacker, around what `sprites`, `convert` and
//! the viewer draw of them: frames claiming huge sizes, and thousands of
//! them; a sprite whose palette is missing; a mesh claiming absurd counts;
//! numbers from the file in the images' names. Each is one sentence (or
//! one warning), no panic, in bounded time. The files are written here
//! byte by byte from the layout.

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use formats::schema::{Gzip, Transform};
use support::{assert_status, files_below, ossuary, stderr, text};

/// An object file of `chunks` (type, id, payload): the 64-byte header
/// (the signature, then 0: no resource map), then each chunk's 76-byte
/// big-endian header (type, size with the header, id, flags 0x10, a label
/// of 64 zero bytes) before its payload.
fn object_file(chunks: &[(&[u8; 4], u16, Vec<u8>)]) -> Vec<u8> {
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
fn palette(colors: &[[u8; 3]]) -> Vec<u8> {
    let mut bytes = 0u32.to_le_bytes().to_vec();
    bytes.extend_from_slice(&(colors.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&[0; 8]);
    bytes.extend(colors.iter().flatten());
    bytes
}

/// A 16-bit command word: the command in the top 3 bits, the count in
/// the low 13.
fn word(command: u16, count: u16) -> [u8; 2] {
    ((command << 13) | count).to_le_bytes()
}

/// A frame's header: width, height, flags 0x1 (colours), its palette, the
/// transparent index 0, its position (0, 0).
fn frame_header(width: u16, height: u16, palette: u16) -> Vec<u8> {
    let mut bytes = width.to_le_bytes().to_vec();
    bytes.extend_from_slice(&height.to_le_bytes());
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&palette.to_le_bytes());
    bytes.extend_from_slice(&[0; 6]);
    bytes
}

/// A frame of `width` x `height` left clear: one clear-rows command
/// (4) for every row, then the end (5).
fn clear_frame(width: u16, height: u16) -> Vec<u8> {
    let mut bytes = frame_header(width, height, 1);
    bytes.extend(word(4, height));
    bytes.extend(word(5, 0));
    bytes
}

/// A 2 x 1 frame naming `palette`: a row (command 0, its 6 bytes) of two
/// colour-only pixels (command 6) of indices 1 and 2, then the end.
fn two_pixels(palette: u16) -> Vec<u8> {
    let mut bytes = frame_header(2, 1, palette);
    bytes.extend(word(0, 6));
    bytes.extend(word(6, 2));
    bytes.extend([1, 2]);
    bytes.extend(word(5, 0));
    bytes
}

/// A sprite (`SPR2`) of version 1001: the version, its default palette
/// (1), the count, then each frame after its version (1001) and size.
fn sprite(frames: &[Vec<u8>]) -> Vec<u8> {
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
fn draw_group(direction: u32) -> Vec<u8> {
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

/// Runs `args` in `dir` and waits at most `seconds`; a command that takes
/// longer is killed and the test fails.
fn within(seconds: u64, dir: &Path, args: &[&str]) -> Output {
    let mut child = support::command(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(seconds) {
            child.kill().unwrap();
            panic!("{args:?} still runs after {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_frame_too_large_or_too_many_large_frames_are_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let colors = palette(&[[0; 3], [255, 0, 0], [0, 0, 255]]);
    let huge = object_file(&[
        (b"PALT", 1, colors.clone()),
        (b"SPR2", 1, sprite(&[clear_frame(5000, 5000)])),
    ]);
    let huge = support::write(dir.path(), "huge.iff", &huge);
    let output = ossuary(&["sprites", &huge, "-o", &text(&dir.path().join("huge"))]);
    assert_status(&output, 1);
    assert_eq!(
        stderr(&output),
        format!(
            "ossuary: {huge}: SPR2 1 frame 0: an image of 5000 x 5000 pixels is larger than \
             4096 x 4096\n"
        )
    );
    // 10,000 frames of 4,096 pixels square in 280 KB: refused before any
    // is drawn.
    let many = object_file(&[
        (b"PALT", 1, colors),
        (b"SPR2", 1, sprite(&vec![clear_frame(4096, 4096); 10_000])),
    ]);
    let many = support::write(dir.path(), "many.iff", &many);
    let out = dir.path().join("many");
    let output = within(60, dir.path(), &["sprites", &many, "-o", &text(&out)]);
    assert_status(&output, 1);
    assert_eq!(
        stderr(&output),
        format!(
            "ossuary: {many}: the frames of its sprites: more than 268435456 pixels to draw in \
             all, far past any real object's\n"
        )
    );
    assert!(!out.exists());
}

#[test]
fn a_sprite_without_its_palette_is_drawn_black_with_one_warning() {
    let dir = tempfile::tempdir().unwrap();
    let file = object_file(&[
        (b"SPR2", 1, sprite(&[two_pixels(9)])),
        (b"DGRP", 1, draw_group(4)),
    ]);
    let file = support::write(dir.path(), "no-palette.iff", &file);
    let out = dir.path().join("out");
    let output = ossuary(&["sprites", &file, "-o", &text(&out)]);
    assert_status(&output, 0);
    assert_eq!(
        stderr(&output),
        format!(
            "ossuary: warning: {file}: palette 9 is not in the file: the frames of SPR2-1 that \
             name it are drawn in black\n"
        )
    );
    for name in ["SPR2-1-0.png", "DGRP-1-4-3.png"] {
        let image = image::open(out.join(name)).unwrap().into_rgba8();
        assert_eq!(image.into_raw(), [0, 0, 0, 255, 0, 0, 0, 255], "{name}");
    }
}

#[test]
fn numbers_from_the_file_name_the_images_and_nothing_else_does() {
    let dir = tempfile::tempdir().unwrap();
    // A draw group's direction of 2^32 - 1, which no game writes.
    let file = object_file(&[
        (b"PALT", 1, palette(&[[0; 3], [255, 0, 0], [0, 0, 255]])),
        (b"SPR2", 1, sprite(&[two_pixels(1)])),
        (b"DGRP", 65535, draw_group(u32::MAX)),
    ]);
    let file = support::write(dir.path(), "odd.iff", &file);
    let out = dir.path().join("out");
    assert_status(&ossuary(&["sprites", &file, "-o", &text(&out)]), 0);
    assert_eq!(
        files_below(dir.path()),
        [
            "odd.iff",
            "out/DGRP-65535-4294967295-3.png",
            "out/SPR2-1-0.png"
        ]
        .map(std::path::PathBuf::from)
    );
}

/// A mesh (`FSOM`) whose one piece claims 2^31 - 1 vertices and holds
/// none: its gzip stream of `FSOm`, version 3, reconstruction 0, an empty
/// name, one group of one piece (texture 1, direction 65535), the count,
/// and an index count of 0.
fn absurd_mesh() -> Vec<u8> {
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

#[test]
fn a_mesh_claiming_absurd_counts_is_one_sentence_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let file = object_file(&[(b"FSOM", 100, absurd_mesh())]);
    let file = support::write(dir.path(), "absurd.iff", &file);
    let glb = text(&dir.path().join("absurd.glb"));
    for args in [
        vec!["convert", &file, "-o", &glb],
        vec!["sprites", &file, "-o", &glb],
        vec!["info", &file],
    ] {
        let output = within(60, dir.path(), &args);
        assert_status(&output, 1);
        let said = stderr(&output);
        let first = said.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&format!("ossuary: {file}: byte ")) && first.contains(".Mesh.mesh."),
            "{args:?}: {said}"
        );
        assert!(first.contains("2147483647"), "{args:?}: {said}");
        assert!(!Path::new(&glb).exists());
    }
}

#[test]
fn the_viewer_answers_a_hostile_object_with_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let colors = palette(&[[0; 3], [255, 0, 0], [0, 0, 255]]);
    support::write(
        dir.path(),
        "huge.iff",
        &object_file(&[
            (b"PALT", 1, colors),
            (b"SPR2", 1, sprite(&[clear_frame(5000, 5000)])),
        ]),
    );
    support::write(
        dir.path(),
        "absurd.iff",
        &object_file(&[(b"FSOM", 100, absurd_mesh())]),
    );
    let mut served = Served(
        Command::new(env!("CARGO_BIN_EXE_ossuary"))
            .args(["view", &text(dir.path()), "--port", "0"])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(served.0.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let address = line
        .trim()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let get = |target: &str| {
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        std::io::Write::write_all(
            &mut stream,
            format!("GET {target} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
        .unwrap();
        let mut response = String::new();
        std::io::Read::read_to_string(&mut stream, &mut response).unwrap();
        response
    };
    let frame = get("/api/object/frame?open=huge.iff&sprite=SPR2-1&frame=0");
    assert!(frame.starts_with("HTTP/1.1 422"), "{frame}");
    assert!(
        frame.contains("SPR2-1 frame 0: an image of 5000 x 5000 pixels is larger than 4096 x 4096"),
        "{frame}"
    );
    let listing = get("/api/list");
    assert!(listing.contains(r#""file":"absurd.iff""#), "{listing}");
    assert!(listing.contains("2147483647"), "{listing}");
    let _ = Command::new("kill")
        .args(["-INT", &served.0.id().to_string()])
        .status();
    assert!(served.0.wait().unwrap().success());
}

/// A running `ossuary view`, killed if the test fails before it stops it.
struct Served(std::process::Child);

impl Drop for Served {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}
