//! `ossuary sprites`: an object file's frames, z-buffers and draw groups
//! as PNG images, and frames replaced from PNG images; on the sample chair
//! (its pixels written here from the sample's own definition) and, with
//! `OSSUARY_CORPUS` set, on the six corpus objects.

mod support;

use std::path::{Path, PathBuf};

use formats::objects::file::IffFile;
use formats::objects::pixels::Pixels;
use formats::schema::BinarySchema;
use support::{assert_status, files_below, fixture, ossuary, stderr, stdout, text};

/// The sample chair's palette: clear, brown, dark brown, red.
const BROWN: [u8; 4] = [120, 80, 40, 255];
const DARK: [u8; 4] = [60, 40, 20, 255];
const CLEAR: [u8; 4] = [0; 4];
/// The sample's half clear red: alpha 131 is stored as 16 of 31, which
/// reads as 16 * 255 / 31 = 131.
const HALF_RED: [u8; 4] = [200, 30, 30, 131];

/// The PNG at `path`: width, height and RGBA pixels.
fn rgba(path: &Path) -> (u32, u32, Vec<[u8; 4]>) {
    let image = image::open(path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
        .into_rgba8();
    (
        image.width(),
        image.height(),
        image.pixels().map(|pixel| pixel.0).collect(),
    )
}

/// The grey PNG at `path`, one byte a pixel.
fn grey(path: &Path) -> Vec<u8> {
    image::open(path).unwrap().into_luma8().into_raw()
}

fn names(dir: &Path) -> Vec<String> {
    files_below(dir)
        .iter()
        .map(|path| path.to_string_lossy().into_owned())
        .collect()
}

fn read_object(path: &Path) -> IffFile {
    IffFile::from_bytes(&std::fs::read(path).unwrap()).unwrap()
}

/// An RGBA PNG of `pixels`, `width` wide.
fn write_png(path: &Path, width: u32, pixels: &[[u8; 4]]) {
    let height = pixels.len() as u32 / width;
    let bytes: Vec<u8> = pixels.iter().flatten().copied().collect();
    image::save_buffer(path, &bytes, width, height, image::ExtendedColorType::Rgba8).unwrap();
}

/// A grey PNG of `depth`, `width` wide.
fn write_grey(path: &Path, width: u32, depth: &[u8]) {
    let height = depth.len() as u32 / width;
    image::save_buffer(path, depth, width, height, image::ExtendedColorType::L8).unwrap();
}

#[test]
fn the_chairs_frames_z_buffers_and_draw_group_are_written_as_the_game_draws_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("chair");
    let output = ossuary(&["sprites", &fixture("chair.iff"), "-o", &text(&out)]);
    assert_status(&output, 0);
    assert_eq!(
        stdout(&output),
        format!("5 image(s) written into {}\n", out.display())
    );
    assert_eq!(
        names(&out),
        [
            "DGRP-100-4-3.png",
            "SPR2-100-0-z.png",
            "SPR2-100-0.png",
            "SPR2-101-0-z.png",
            "SPR2-101-0.png"
        ]
    );
    // Both sprites hold the sample's one 3 x 3 frame: a clear corner,
    // brown and dark brown, a half clear red pixel.
    let frame = vec![
        CLEAR, BROWN, BROWN, //
        BROWN, DARK, HALF_RED, //
        DARK, DARK, DARK,
    ];
    for sprite in ["SPR2-100-0", "SPR2-101-0"] {
        assert_eq!(
            rgba(&out.join(format!("{sprite}.png"))),
            (3, 3, frame.clone())
        );
        assert_eq!(
            grey(&out.join(format!("{sprite}-z.png"))),
            [255, 10, 10, 10, 0, 12, 20, 20, 20]
        );
    }
    // The draw group: sprite 100's frame with its bottom left corner 2
    // pixels left of the tile's centre, on the baseline; sprite 101's at
    // the centre, 1 pixel above; 101 drawn over 100. The canvas spans x
    // -2..3 and y -4..0 of the tile: 100 at (0, 1), 101 at (2, 0).
    let (width, height, pixels) = rgba(&out.join("DGRP-100-4-3.png"));
    assert_eq!((width, height), (5, 4));
    let at = |x: usize, y: usize| pixels[y * 5 + x];
    assert_eq!(at(0, 1), CLEAR, "100's clear corner");
    assert_eq!(at(1, 1), BROWN, "100's (1, 0)");
    assert_eq!(at(2, 0), CLEAR, "101's clear corner, over nothing");
    assert_eq!(at(2, 2), DARK, "101's (0, 2) over 100's half red");
    assert_eq!(at(4, 1), HALF_RED, "101's half red, over nothing");
    assert_eq!(at(0, 3), DARK, "100's (0, 2)");
    assert_eq!(at(4, 3), CLEAR, "below 101, right of 100");
}

/// The written pictures equal what the library draws: every SPR2 frame
/// ([`IffFile::frame_pixels`]) and every view ([`IffFile::compose_draw_group`]).
fn assert_pictures_are_the_librarys(file: &IffFile, out: &Path) {
    for chunk in &file.chunks {
        match &chunk.data {
            formats::objects::file::ChunkData::Sprite(sprite) => {
                for index in 0..sprite.frames().len() {
                    let pixels = file.frame_pixels(chunk.id, index).unwrap();
                    let path = out.join(format!("SPR2-{}-{index}.png", chunk.id));
                    if pixels.width == 0 || pixels.height == 0 {
                        assert!(!path.exists());
                        continue;
                    }
                    assert_eq!(rgba(&path), (pixels.width, pixels.height, pixels.rgba));
                    let depth = out.join(format!("SPR2-{}-{index}-z.png", chunk.id));
                    match pixels.depth {
                        Some(expected) => assert_eq!(grey(&depth), expected),
                        None => assert!(!depth.exists()),
                    }
                }
            }
            formats::objects::file::ChunkData::DrawGroup(_) => {
                for (view, composed) in file.compose_draw_group(chunk.id).unwrap() {
                    let name = format!("DGRP-{}-{}-{}.png", chunk.id, view.direction, view.zoom);
                    let Pixels {
                        width,
                        height,
                        rgba: expected,
                        ..
                    } = composed.pixels;
                    assert_eq!(rgba(&out.join(&name)), (width, height, expected), "{name}");
                }
            }
            _ => {}
        }
    }
}

/// The corpus objects, with how many images each gives.
fn corpus_objects() -> Option<Vec<(PathBuf, usize)>> {
    let corpus = tests::corpus_dir()?.join("objects");
    Some(
        [
            ("freeso/Chair_fso_Bouncy_Beach_Ball.iff", 72),
            ("freeso/fso_game_door.iff", 720),
            ("freeso/k8esshallpainttints.iff", 36),
            ("freeso/stp_wfloveseat.iff", 48),
            ("sims1/martianh2o_3x3_287695.iff", 324),
            ("sims1/robots_2x3_352636.iff", 216),
        ]
        .into_iter()
        .map(|(name, images)| (corpus.join(name), images))
        .collect(),
    )
}

#[test]
fn every_corpus_objects_pictures_are_what_the_library_draws() {
    let Some(objects) = corpus_objects() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (path, images) in objects {
        let out = dir.path().join(path.file_stem().unwrap());
        let output = ossuary(&["sprites", &text(&path), "-o", &text(&out)]);
        assert_status(&output, 0);
        assert_eq!(names(&out).len(), images, "{}", path.display());
        assert_pictures_are_the_librarys(&read_object(&path), &out);
        // The door's older sprites name a palette it lacks (65535): drawn
        // in black, as FreeSO draws them, with one warning.
        let said = stderr(&output);
        if path.ends_with("fso_game_door.iff") {
            assert_eq!(said.lines().count(), 1, "{said}");
            assert!(said.contains(
                "palette 65535 is not in the file: the frames of SPR#-900, SPR#-901, SPR#-902, \
                 SPR#-903, SPR#-904, SPR#-905 that name it are drawn in black"
            ));
            let (_, _, pixels) = rgba(&out.join("SPR#-900-0.png"));
            assert!(pixels.contains(&[0, 0, 0, 255]));
            assert!(pixels
                .iter()
                .all(|pixel| [[0, 0, 0, 255], CLEAR].contains(pixel)));
        } else {
            assert_eq!(said, "");
        }
    }
}

#[test]
fn the_output_folder_follows_the_command_lines_rules() {
    let dir = tempfile::tempdir().unwrap();
    let chair = fixture("chair.iff");
    // -o names a folder, never a file or standard output.
    let file = support::write(dir.path(), "a-file", b"");
    for out in [file.as_str(), "-"] {
        let output = ossuary(&["sprites", &chair, "-o", out]);
        assert_status(&output, 2);
        assert!(
            stderr(&output).contains("-o names the folder"),
            "{}",
            stderr(&output)
        );
    }
    // A file that is not an object file.
    let output = ossuary(&[
        "sprites",
        &fixture("humanoid.skel"),
        "-o",
        &text(dir.path()),
    ]);
    assert_status(&output, 1);
    assert!(
        stderr(&output).contains("which has no sprites: an object file (.iff) has them"),
        "{}",
        stderr(&output)
    );
    // Missing folders are made.
    let nested = dir.path().join("a/b/c");
    assert_status(&ossuary(&["sprites", &chair, "-o", &text(&nested)]), 0);
    assert_eq!(names(&nested).len(), 5);
}

#[cfg(unix)]
#[test]
fn a_link_in_an_images_place_is_replaced_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let outside = support::write(dir.path(), "outside.png", b"kept");
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink(&outside, out.join("SPR2-100-0.png")).unwrap();
    assert_status(
        &ossuary(&["sprites", &fixture("chair.iff"), "-o", &text(&out)]),
        0,
    );
    assert_eq!(std::fs::read(&outside).unwrap(), b"kept");
    let placed = std::fs::symlink_metadata(out.join("SPR2-100-0.png")).unwrap();
    assert!(placed.file_type().is_file());
}

#[test]
fn a_failed_write_leaves_no_image() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // A folder in the place of the last image.
    std::fs::create_dir_all(out.join("SPR2-101-0.png")).unwrap();
    let output = ossuary(&["sprites", &fixture("chair.iff"), "-o", &text(&out)]);
    assert_status(&output, 1);
    assert!(
        stderr(&output).contains("SPR2-101-0.png"),
        "{}",
        stderr(&output)
    );
    assert_eq!(names(&out), Vec::<String>::new());
}

/// The chair's pictures, written into `dir/chair`.
fn chair_pictures(dir: &Path) -> PathBuf {
    let out = dir.join("chair");
    assert_status(
        &ossuary(&["sprites", &fixture("chair.iff"), "-o", &text(&out)]),
        0,
    );
    out
}

#[test]
fn a_frame_replaced_from_a_png_reads_back_as_that_png() {
    let dir = tempfile::tempdir().unwrap();
    let pictures = chair_pictures(dir.path());
    // Sprite 100 (version 1000, frames by offset table): its frame edited
    // in place, the corner now dark and nearer, the half red opaque.
    let edited = vec![
        DARK,
        BROWN,
        BROWN, //
        BROWN,
        DARK,
        [200, 30, 30, 255], //
        DARK,
        DARK,
        CLEAR,
    ];
    write_png(&dir.path().join("edited.png"), 3, &edited);
    let depth = [5, 10, 10, 10, 0, 12, 20, 20, 255];
    write_grey(&dir.path().join("edited-z.png"), 3, &depth);
    // Sprite 101 (version 1001, frames one after another by size): a
    // larger frame, with its z-buffer beside it.
    let larger: Vec<[u8; 4]> = (0..20)
        .map(|index| [BROWN, DARK, HALF_RED, CLEAR][index % 4])
        .collect();
    write_png(&dir.path().join("larger.png"), 5, &larger);
    let larger_depth: Vec<u8> = (0..20)
        .map(|index| if index % 4 == 3 { 255 } else { index as u8 })
        .collect();
    write_grey(&dir.path().join("larger-z.png"), 5, &larger_depth);
    let written = dir.path().join("chair-new.iff");
    let output = ossuary(&[
        "sprites",
        &fixture("chair.iff"),
        "--replace",
        &format!("SPR2-100-0={}", text(&dir.path().join("edited.png"))),
        "--replace",
        &format!("SPR2-101-0={}", text(&dir.path().join("larger.png"))),
        "-o",
        &text(&written),
    ]);
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    let file = read_object(&written);
    let read = file.frame_pixels(100, 0).unwrap();
    assert_eq!((read.width, read.height, &read.rgba), (3, 3, &edited));
    assert_eq!(read.depth.as_deref(), Some(&depth[..]));
    let read = file.frame_pixels(101, 0).unwrap();
    assert_eq!((read.width, read.height, &read.rgba), (5, 4, &larger));
    assert_eq!(read.depth, Some(larger_depth));
    // Offsets, sizes and the resource map are written to match: the file
    // reads back byte for byte, its map agreeing with its chunks.
    assert_status(&ossuary(&["check", &text(&written)]), 0);
    let info = stdout(&ossuary(&["info", &text(&written)]));
    assert!(
        info.contains("resource map: agrees with the chunks"),
        "{info}"
    );
    // The frame's own image with its own z-buffer gives the file back.
    let same = dir.path().join("same.iff");
    let output = ossuary(&[
        "sprites",
        &fixture("chair.iff"),
        "--replace",
        &format!("SPR2-101-0={}", text(&pictures.join("SPR2-101-0.png"))),
        "-o",
        &text(&same),
    ]);
    assert_status(&output, 0);
    assert_eq!(
        std::fs::read(&same).unwrap(),
        support::fixture_bytes("chair.iff")
    );
}

#[test]
fn colours_the_palette_lacks_take_its_nearest_and_the_z_buffer_stays() {
    let dir = tempfile::tempdir().unwrap();
    let pictures = chair_pictures(dir.path());
    // The frame's own image, one pixel a brown the palette lacks, with no
    // z-buffer beside it: the frame keeps its own.
    let (_, _, mut pixels) = rgba(&pictures.join("SPR2-100-0.png"));
    pixels[4] = [62, 41, 19, 255];
    write_png(&dir.path().join("near.png"), 3, &pixels);
    let written = dir.path().join("near.iff");
    let output = ossuary(&[
        "sprites",
        &fixture("chair.iff"),
        "--replace",
        &format!("SPR2-100-0={}", text(&dir.path().join("near.png"))),
        "-o",
        &text(&written),
    ]);
    assert_status(&output, 0);
    assert!(stderr(&output).contains(
        "1 pixel(s) of 1 colour(s) that palette 1 lacks take its nearest colours (the first at \
         (1, 1): #3e2913 became #3c2814)"
    ));
    let read = read_object(&written).frame_pixels(100, 0).unwrap();
    pixels[4] = DARK;
    assert_eq!(read.rgba, pixels);
    assert_eq!(read.depth, Some(vec![255, 10, 10, 10, 0, 12, 20, 20, 20]));
}

#[test]
fn a_replacement_that_cannot_be_made_is_refused_and_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    chair_pictures(dir.path());
    // Larger than the frame, with no z-buffer beside it.
    write_png(&dir.path().join("wide.png"), 4, &[BROWN; 8]);
    let written = dir.path().join("out.iff");
    let wide = format!("SPR2-100-0={}", text(&dir.path().join("wide.png")));
    for (replace, status, said) in [
        (
            wide.as_str(),
            1,
            "SPR2-100-0 has a z-buffer of 3 x 3 pixels and the image is another size",
        ),
        (
            "SPR#-100-0=x.png",
            2,
            "ossuary writes frames of SPR2 sprites only",
        ),
        ("SPR2-7-0=x.png", 1, "no sprite (SPR2 or SPR#) has the id 7"),
        (
            "SPR2-100-3=x.png",
            1,
            "sprite 100 has 1 frame(s), not a frame 3",
        ),
        ("SPR2-100-0=missing.png", 1, "missing.png: cannot read"),
    ] {
        let output = ossuary(&[
            "sprites",
            &fixture("chair.iff"),
            "--replace",
            replace,
            "-o",
            &text(&written),
        ]);
        assert_status(&output, status);
        assert!(
            stderr(&output).contains(said),
            "{replace}: {}",
            stderr(&output)
        );
        assert!(!written.exists());
    }
}

/// A frame of a corpus sprite of each version, replaced by its own image
/// with two of its palette's colours swapped, reads back as that image.
#[test]
fn corpus_frames_replaced_read_back_as_their_images() {
    let Some(objects) = corpus_objects() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (path, sprite) in [(&objects[4].0, "SPR2-503-2"), (&objects[1].0, "SPR2-201-5")] {
        let out = dir.path().join(path.file_stem().unwrap());
        assert_status(&ossuary(&["sprites", &text(path), "-o", &text(&out)]), 0);
        let image = out.join(format!("{sprite}.png"));
        let (width, _, mut pixels) = rgba(&image);
        let opaque: Vec<[u8; 4]> = pixels.iter().copied().filter(|p| p[3] == 255).collect();
        let (one, other) = (
            opaque[0],
            *opaque.iter().find(|p| **p != opaque[0]).unwrap(),
        );
        for pixel in &mut pixels {
            if *pixel == one {
                *pixel = other;
            } else if *pixel == other {
                *pixel = one;
            }
        }
        std::fs::copy(
            out.join(format!("{sprite}-z.png")),
            dir.path().join("swapped-z.png"),
        )
        .unwrap();
        write_png(&dir.path().join("swapped.png"), width, &pixels);
        let written = dir.path().join("swapped.iff");
        let output = ossuary(&[
            "sprites",
            &text(path),
            "--replace",
            &format!("{sprite}={}", text(&dir.path().join("swapped.png"))),
            "-o",
            &text(&written),
        ]);
        assert_status(&output, 0);
        let mut parts = sprite.split('-').skip(1);
        let id: u16 = parts.next().unwrap().parse().unwrap();
        let frame: usize = parts.next().unwrap().parse().unwrap();
        let read = read_object(&written).frame_pixels(id, frame).unwrap();
        assert_eq!(read.rgba, pixels, "{sprite}");
        assert_status(&ossuary(&["check", &text(&written)]), 0);
        let info = stdout(&ossuary(&["info", &text(&written)]));
        assert!(
            info.contains("resource map: agrees with the chunks"),
            "{info}"
        );
    }
}
