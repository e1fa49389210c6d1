//! `ossuary sprites FILE.iff -o DIR`: an object file's pictures as PNG
//! images, every sprite frame (and its z-buffer) and every view of every
//! draw group composed as the game draws it; and with `--replace`, the
//! object file written again with frames made from PNG images.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use export::objects::{self, Budget, DrawGroupViews, SpriteFrames};
use formats::objects::file::{ChunkData, IffFile};
use formats::objects::pixels::Pixels;
use formats::schema::BinarySchema;

use crate::error::{CliError, Problem};
use crate::{input, names, output, Context};

/// `ossuary sprites`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The object file (`.iff`, `.spf`, `.wll`, `.flr`; `-` for standard input).
    #[arg(value_name = "FILE")]
    pub input: PathBuf,
    /// The folder the images are written into (made if missing); with
    /// --replace, the object file to write (`-` for standard output).
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Replace a frame of an SPR2 sprite by an image: `SPR2-<id>-<frame>=IMAGE.png`, as the
    /// frame's image is named (repeatable). Its z-buffer comes from `IMAGE-z.png` beside it,
    /// else, where the image keeps the frame's size, from the frame as it was.
    #[arg(long, value_name = "FRAME=IMAGE")]
    pub replace: Vec<String>,
}

pub fn run(context: &mut Context, args: &Args) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    let input = input::load(&catalogue, &args.input, None)?;
    let Some(file) = input.document.as_any().downcast_ref::<IffFile>() else {
        return Err(CliError::WrongKind {
            path: args.input.clone(),
            kind: export::input::kind_of_file(input.format),
            lacks: "sprites: an object file (.iff) has them",
            format_never_has: true,
        });
    };
    if args.replace.is_empty() {
        write_pictures(context, &args.input, file, &args.output)
    } else {
        replace(context, args, file.clone())
    }
}

/// Every picture of `file` written into `folder`, all of them or none.
fn write_pictures(
    context: &mut Context,
    path: &Path,
    file: &IffFile,
    folder: &Path,
) -> Result<bool, CliError> {
    if folder.as_os_str() == "-" || folder.is_file() {
        return Err(CliError::Usage(format!(
            "-o names the folder the images are written into (made if missing), not {}",
            crate::error::shown(folder)
        )));
    }
    let pictures = pictures(context, path, file)?;
    let paths = pictures
        .iter()
        .map(|(name, _)| {
            names::plain_file_name("the image", name)
                .map(|name| folder.join(name))
                .map_err(|unsafe_name| CliError::input(path, unsafe_name))
        })
        .collect::<Result<Vec<PathBuf>, CliError>>()?;
    let made = output::folders_inside(folder, folder)?;
    let group: Vec<(&Path, &[u8])> = paths
        .iter()
        .zip(&pictures)
        .map(|(path, (_, png))| (path.as_path(), png.as_slice()))
        .collect();
    let written = output::write_files(&group);
    if written.is_err() {
        for made in made.iter().rev() {
            let _ = std::fs::remove_dir(made);
        }
    }
    written?;
    context.print(&format!(
        "{} image(s) written into {}\n",
        pictures.len(),
        folder.display()
    ))?;
    Ok(true)
}

/// Each picture's file name and PNG: every frame with pixels of every
/// sprite (`SPR2-<id>-<frame>.png`, `SPR#-<id>-<frame>.png`) and its
/// z-buffer (`...-z.png`), then every view of every draw group
/// (`DGRP-<id>-<direction>-<zoom>.png`). A chunk whose type and id repeat
/// an earlier one's, and a view whose direction and zoom repeat an
/// earlier one's in its draw group, are left out with a warning: the game
/// finds the first.
fn pictures(
    context: &mut Context,
    path: &Path,
    file: &IffFile,
) -> Result<Vec<(String, Vec<u8>)>, CliError> {
    let failed = |problem: Problem| CliError::input(path, problem);
    let png =
        |made: Result<Vec<u8>, export::TextureError>| made.map_err(|error| failed(error.into()));
    for (palette, sprites) in objects::missing_palettes(file) {
        context.warn(&format!(
            "{}: {}",
            path.display(),
            objects::missing_palette_warning(palette, &sprites)
        ));
    }
    let mut budget = Budget::for_every_frame(file).map_err(|source| {
        failed(Problem::Picture {
            place: "the frames of its sprites".to_owned(),
            source,
        })
    })?;
    let mut seen = HashSet::new();
    let mut pictures = Vec::new();
    for chunk in &file.chunks {
        let is_picture = SpriteFrames::of(chunk).is_some() || &chunk.kind.tag == b"DGRP";
        if !is_picture {
            continue;
        }
        if !seen.insert((chunk.kind, chunk.id)) {
            context.warn(&format!(
                "{}: a second {} {} is left out: the game reads the first",
                path.display(),
                chunk.kind,
                chunk.id
            ));
            continue;
        }
        let kind = chunk.kind;
        let id = chunk.id;
        let in_chunk = |error: objects::PictureError| {
            failed(Problem::Picture {
                place: format!("{kind} {id}"),
                source: error,
            })
        };
        if let Some(frames) = SpriteFrames::of(chunk) {
            for index in 0..frames.len() {
                let drawn = frames.pixels(file, index, &mut budget).map_err(|error| {
                    failed(Problem::Picture {
                        place: format!("{kind} {id} frame {index}"),
                        source: error,
                    })
                })?;
                let Some(pixels) = drawn.filter(|pixels| pixels.width > 0 && pixels.height > 0)
                else {
                    continue;
                };
                let name = format!("{kind}-{id}-{index}");
                pictures.push((format!("{name}.png"), png(objects::png(&pixels))?));
                if let Some(depth) = objects::depth_png(&pixels) {
                    pictures.push((format!("{name}-z.png"), png(depth)?));
                }
            }
        } else if let ChunkData::DrawGroup(group) = &chunk.data {
            let mut views = DrawGroupViews::new(file);
            let mut placed = HashSet::new();
            for view in group.views() {
                if !placed.insert((view.direction, view.zoom)) {
                    context.warn(&format!(
                        "{}: DGRP {id}: a second view of direction {} and zoom {} is left out: \
                         the game draws the first",
                        path.display(),
                        view.direction,
                        view.zoom
                    ));
                    continue;
                }
                let composed = views.compose(&view, &mut budget).map_err(in_chunk)?;
                if composed.pixels.width == 0 || composed.pixels.height == 0 {
                    continue;
                }
                pictures.push((
                    format!("DGRP-{id}-{}-{}.png", view.direction, view.zoom),
                    png(objects::png(&composed.pixels))?,
                ));
            }
        }
    }
    Ok(pictures)
}

/// A frame to replace and the image to replace it with, from
/// `SPR2-<id>-<frame>=IMAGE`.
struct Replacement {
    sprite: u16,
    frame: usize,
    image: PathBuf,
}

/// Reads `--replace`'s value.
fn replacement(text: &str) -> Result<Replacement, CliError> {
    let usage = |why: &str| {
        CliError::Usage(format!(
            "--replace {}: {why}",
            formats::schema::quoted(text.as_bytes())
        ))
    };
    let (frame, image) = text
        .split_once('=')
        .filter(|(_, image)| !image.is_empty())
        .ok_or_else(|| usage("not FRAME=IMAGE, e.g. SPR2-100-0=SPR2-100-0.png"))?;
    if frame.starts_with("SPR#-") {
        return Err(usage(
            "ossuary writes frames of SPR2 sprites only; an SPR# frame cannot be replaced",
        ));
    }
    let numbers = frame
        .strip_prefix("SPR2-")
        .and_then(|rest| rest.split_once('-'))
        .and_then(|(sprite, frame)| Some((sprite.parse().ok()?, frame.parse().ok()?)));
    let Some((sprite, frame)) = numbers else {
        return Err(usage(
            "the frame is named SPR2-<sprite id>-<frame index>, e.g. SPR2-100-0",
        ));
    };
    Ok(Replacement {
        sprite,
        frame,
        image: PathBuf::from(image),
    })
}

/// `file` written to `-o` with each frame `--replace` names made from its
/// image.
fn replace(context: &mut Context, args: &Args, mut file: IffFile) -> Result<bool, CliError> {
    let mut done = HashSet::new();
    for text in &args.replace {
        let replacement = replacement(text)?;
        if !done.insert((replacement.sprite, replacement.frame)) {
            return Err(CliError::Usage(format!(
                "--replace names SPR2-{}-{} twice",
                replacement.sprite, replacement.frame
            )));
        }
        let image = frame_image(context, &args.input, &file, &replacement)?;
        file.replace_frame(replacement.sprite, replacement.frame, &image)
            .map_err(|error| CliError::input(&replacement.image, Problem::Sprite(error)))?;
    }
    let bytes = file.to_bytes().map_err(|source| {
        CliError::input(
            &args.input,
            Problem::Encode {
                format: "sims-iff",
                source,
            },
        )
    })?;
    output::write(context, &args.output, &bytes)?;
    Ok(true)
}

/// The image to put in the frame's place: the PNG's pixels, each colour
/// the frame's palette lacks replaced by the palette's nearest (with a
/// warning), and the z-buffer the frame keeps.
fn frame_image(
    context: &mut Context,
    path: &Path,
    file: &IffFile,
    replacement: &Replacement,
) -> Result<Pixels, CliError> {
    let Replacement {
        sprite: id,
        frame: index,
        image: image_path,
    } = replacement;
    let in_file = |error| CliError::input(path, Problem::Sprite(error));
    let sprite = file
        .sprite(*id)
        .ok_or(formats::objects::sprites::SpriteError::NoSprite(*id))
        .map_err(in_file)?;
    let frames = sprite.frames();
    let frame = frames
        .get(*index)
        .ok_or(formats::objects::sprites::SpriteError::NoFrame {
            sprite: *id,
            frame: *index,
            frames: frames.len(),
        })
        .map_err(in_file)?;
    let palette = sprite.palette_of(frame);
    let colors = file
        .palette(palette)
        .ok_or(formats::objects::sprites::SpriteError::MissingPalette(
            palette,
        ))
        .map_err(in_file)?;
    let in_image = |problem: Problem| CliError::input(image_path, problem);
    let mut image =
        objects::read_png(&input::read(image_path)?).map_err(|error| in_image(error.into()))?;
    if frame.has_depth() {
        image.depth = Some(depth(path, file, replacement, &image)?);
    }
    // Clear pixels are stored clear, whatever colour the image gives them.
    if let Some(depth) = image.depth.as_mut() {
        for (z, pixel) in depth.iter_mut().zip(&image.rgba) {
            if pixel[3] == 0 {
                *z = 255;
            }
        }
    }
    let moved = to_palette(&mut image, colors);
    if let Some(first) = moved.first() {
        let count: usize = moved.iter().map(|moved| moved.pixels).sum();
        let shown: Vec<String> = moved
            .iter()
            .take(3)
            .map(|moved| format!("{} became {}", hex(moved.from), hex(moved.to)))
            .collect();
        let more = if moved.len() > 3 { ", ..." } else { "" };
        context.warn(&format!(
            "{}: {count} pixel(s) of {} colour(s) that palette {palette} lacks take its nearest \
             colours (the first at ({}, {}): {}{more})",
            image_path.display(),
            moved.len(),
            first.at.0,
            first.at.1,
            shown.join(", ")
        ));
    }
    Ok(image)
}

/// The z-buffer a replaced frame keeps: the grey image beside the image
/// (`IMAGE-z.png`, as `sprites` writes it), else the frame's own where
/// the image keeps its size.
fn depth(
    path: &Path,
    file: &IffFile,
    replacement: &Replacement,
    image: &Pixels,
) -> Result<Vec<u8>, CliError> {
    let beside = depth_image_path(&replacement.image);
    if let Some(beside) = beside.filter(|beside| beside.is_file()) {
        let (width, height, depth) = objects::read_depth_png(&input::read(&beside)?)
            .map_err(|error| CliError::input(&beside, Problem::Image(error)))?;
        if (width, height) != (image.width, image.height) {
            return Err(CliError::input(
                &beside,
                Problem::DepthSize {
                    depth: (width, height),
                    image: (image.width, image.height),
                },
            ));
        }
        return Ok(depth);
    }
    let drawn = file
        .frame_pixels(replacement.sprite, replacement.frame)
        .map_err(|error| CliError::input(path, Problem::Sprite(error)))?;
    match drawn.depth {
        Some(depth) if (drawn.width, drawn.height) == (image.width, image.height) => Ok(depth),
        _ => Err(CliError::input(
            &replacement.image,
            Problem::NoDepth {
                frame: format!("SPR2-{}-{}", replacement.sprite, replacement.frame),
                size: (drawn.width, drawn.height),
            },
        )),
    }
}

/// `IMAGE-z.png` beside `IMAGE.png`.
fn depth_image_path(image: &Path) -> Option<PathBuf> {
    let stem = image.file_stem()?.to_string_lossy();
    Some(image.with_file_name(format!("{stem}-z.png")))
}

/// A colour the palette lacks, the palette's colour nearest it, how many
/// pixels have it and where the first is.
struct Moved {
    from: [u8; 3],
    to: [u8; 3],
    pixels: usize,
    at: (u32, u32),
}

/// Gives each pixel of `image` that is not clear a colour of `colors`:
/// its own where the palette holds it, else the nearest (by the sum of
/// the channels' squared differences; the first of equals). The colours
/// moved come back, in the order first met.
fn to_palette(image: &mut Pixels, colors: &[[u8; 3]]) -> Vec<Moved> {
    let held: HashSet<[u8; 3]> = colors.iter().copied().collect();
    let mut moved: Vec<Moved> = Vec::new();
    let width = image.width.max(1);
    for (at, pixel) in image.rgba.iter_mut().enumerate() {
        let color = [pixel[0], pixel[1], pixel[2]];
        if pixel[3] == 0 || held.contains(&color) {
            continue;
        }
        let index = moved.iter().position(|moved| moved.from == color);
        let to = match index {
            Some(index) => {
                moved[index].pixels += 1;
                moved[index].to
            }
            None => {
                let Some(&to) = colors
                    .iter()
                    .min_by_key(|candidate| distance(**candidate, color))
                else {
                    continue;
                };
                let at = at as u32;
                moved.push(Moved {
                    from: color,
                    to,
                    pixels: 1,
                    at: (at % width, at / width),
                });
                to
            }
        };
        pixel[..3].copy_from_slice(&to);
    }
    moved
}

fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    a.iter()
        .zip(b)
        .map(|(&a, b)| (i32::from(a) - i32::from(b)).pow(2) as u32)
        .sum()
}

fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replacements_are_named_as_the_images_are() {
        let read = replacement("SPR2-100-3=a/b=c.png").unwrap();
        assert_eq!(
            (read.sprite, read.frame, read.image),
            (100, 3, PathBuf::from("a/b=c.png"))
        );
        for (text, why) in [
            ("SPR2-100-3", "not FRAME=IMAGE"),
            ("SPR2-100-3=", "not FRAME=IMAGE"),
            ("SPR2-100=x.png", "SPR2-<sprite id>-<frame index>"),
            ("SPR2-70000-0=x.png", "SPR2-<sprite id>-<frame index>"),
            ("DGRP-100-1-3=x.png", "SPR2-<sprite id>-<frame index>"),
            ("SPR#-100-0=x.png", "SPR2 sprites only"),
        ] {
            let error = replacement(text).err().unwrap().to_string();
            assert!(error.contains(why), "{text}: {error}");
        }
    }

    #[test]
    fn colours_the_palette_lacks_take_the_nearest_and_are_counted() {
        let colors = [[0, 0, 0], [200, 0, 0], [0, 0, 200]];
        let mut image = Pixels::clear(4, 1, false).unwrap();
        image.rgba = vec![
            [200, 0, 0, 255],
            [190, 10, 0, 255],
            [190, 10, 0, 128],
            [9, 9, 9, 0],
        ];
        let moved = to_palette(&mut image, &colors);
        assert_eq!(image.rgba[1], [200, 0, 0, 255]);
        assert_eq!(image.rgba[2], [200, 0, 0, 128]);
        // A clear pixel keeps what it had: it is stored clear.
        assert_eq!(image.rgba[3], [9, 9, 9, 0]);
        assert_eq!(moved.len(), 1);
        assert_eq!(
            (moved[0].from, moved[0].to, moved[0].pixels, moved[0].at),
            ([190, 10, 0], [200, 0, 0], 2, (1, 0))
        );
    }
}
