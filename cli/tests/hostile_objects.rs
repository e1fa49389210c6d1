//! Object files made by an attacker, around what `sprites` and `convert`
//! make of them: frames claiming huge sizes, and thousands of them; a
//! sprite whose palette is missing; a mesh claiming absurd counts; numbers
//! from the file in the images' names. Each is one sentence (or one
//! warning), no panic, in bounded time. The files are written byte by
//! byte from the layout ([`support::objects`]); the viewer's answers to
//! them are in `view.rs`.

mod support;

use std::path::Path;

use support::objects::{
    absurd_mesh, clear_frame, draw_group, object_file, palette, sprite, two_pixels,
};
use support::{assert_status, files_below, ossuary, stderr, text, within};

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
