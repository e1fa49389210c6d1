//! The Sims' object files as the page shows them: what a file holds (its
//! objects, draw groups and sprites, and the facts `info` gives), a draw
//! group's view or a sprite's frame as PNG, and a draw group's 3D mesh as
//! glTF, each made by the code `ossuary sprites` and `convert` use
//! ([`export::objects`]). The file last read is kept while it is
//! unchanged: the page asks for its pictures one by one.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use export::input::{self, Reading};
use export::objects::{self, Budget, DrawGroupViews, SpriteFrames};
use export::Container;
use formats::catalogue::Catalogue;
use formats::objects::file::{Chunk, ChunkData, IffFile};
use formats::schema::{quoted, RawString};
use serde::Serialize;

use crate::{Made, Refused};

/// What the page is told of an object file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObjectFacts {
    /// `info`'s summary, one line each.
    pub facts: Vec<String>,
    pub objects: Vec<ObjectShown>,
    pub groups: Vec<GroupShown>,
    pub sprites: Vec<SpriteShown>,
    /// What is drawn otherwise than the file says (a palette it lacks).
    pub warnings: Vec<String>,
}

/// An object the file defines (`OBJD`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObjectShown {
    pub id: u16,
    pub guid: u32,
    /// Its catalogue name, at most 60 characters.
    pub name: String,
    /// The draw groups of its graphics that the file has, in order.
    pub groups: Vec<u16>,
}

/// A draw group (`DGRP`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupShown {
    pub id: u16,
    /// Its chunk's label, at most 60 characters.
    pub label: String,
    /// Its views' directions and zooms, each once, in file order.
    pub views: Vec<[u32; 2]>,
    /// Whether FreeSO rebuilt it in 3D (an `FSOM` of its id with
    /// triangles).
    pub mesh: bool,
}

/// A sprite (`SPR2` or `SPR#`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpriteShown {
    /// `SPR2-100`, as `ossuary sprites` names its frames' images.
    pub name: String,
    pub label: String,
    pub frames: Vec<FrameShown>,
}

/// A sprite frame's size, and whether it has a z-buffer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FrameShown {
    pub width: u16,
    pub height: u16,
    pub depth: bool,
}

/// The object files read as the command line reads them, the last one
/// kept.
pub struct Objects {
    catalogue: Catalogue,
    reading: Reading,
    last: Mutex<Option<Kept>>,
}

/// A file decoded, and its identity (length and modification time) when
/// it was read.
struct Kept {
    path: PathBuf,
    identity: Option<(u64, Option<SystemTime>)>,
    file: Arc<IffFile>,
}

fn identity(path: &Path) -> Option<(u64, Option<SystemTime>)> {
    let metadata = std::fs::metadata(path).ok()?;
    Some((metadata.len(), metadata.modified().ok()))
}

/// A request for something the file does not have.
fn missing(message: String) -> Refused {
    Refused {
        message,
        usage: true,
    }
}

/// A file's failure to draw what it has.
fn failed(path: &Path, message: impl std::fmt::Display) -> Refused {
    Refused {
        message: format!("{}: {message}", path.display()),
        usage: false,
    }
}

/// Text from a file as the page shows it: at most 60 characters.
fn shown(bytes: &[u8]) -> String {
    quoted(RawString(bytes.to_vec()).to_text().as_bytes())
}

impl Objects {
    pub fn new(catalogue: Catalogue, reading: Reading) -> Objects {
        Objects {
            catalogue,
            reading,
            last: Mutex::new(None),
        }
    }

    /// The object file at `path`, decoded, or the one kept when it is
    /// that file unchanged.
    fn file(&self, path: &Path) -> Result<Arc<IffFile>, Refused> {
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        let now = identity(path);
        if let Some(kept) = last.as_ref() {
            if kept.path == path && now.is_some() && kept.identity == now {
                return Ok(Arc::clone(&kept.file));
            }
        }
        let input = input::load(&self.catalogue, path, None, &self.reading)?;
        let Some(file) = input.document.as_any().downcast_ref::<IffFile>() else {
            return Err(missing(format!(
                "{} is {}, not an object file",
                path.display(),
                input::kind_of_file(input.format)
            )));
        };
        let file = Arc::new(file.clone());
        *last = Some(Kept {
            path: path.to_path_buf(),
            identity: now,
            file: Arc::clone(&file),
        });
        Ok(file)
    }

    /// What `path` holds, for the page.
    pub fn facts(&self, path: &Path) -> Result<ObjectFacts, Refused> {
        let file = self.file(path)?;
        let summary = export::summary::summary(
            &path.display().to_string(),
            formats::objects::FORMAT.title,
            formats::objects::FORMAT.name,
            &formats::format::Describe::describe(file.as_ref()),
        );
        let draw_groups = chunks_of(&file, b"DGRP");
        let objects = file
            .objects()
            .into_iter()
            .map(|object| {
                let (base, count) = match file.chunk(b"OBJD", object.id).map(|chunk| &chunk.data) {
                    Some(ChunkData::Definition(definition)) => {
                        (definition.base_graphic, definition.graphic_count)
                    }
                    _ => (0, 0),
                };
                let groups = (0..count)
                    .filter_map(|offset| base.checked_add(offset))
                    .filter(|id| draw_groups.iter().any(|group| group.id == *id))
                    .collect();
                ObjectShown {
                    id: object.id,
                    guid: object.guid,
                    name: shown(&object.name.0),
                    groups,
                }
            })
            .collect();
        let meshes: Vec<u16> = file
            .meshes()
            .into_iter()
            .filter(|(_, pieces)| pieces.iter().any(|piece| !piece.triangles.is_empty()))
            .map(|(id, _)| id)
            .collect();
        let groups = draw_groups
            .iter()
            .filter_map(|chunk| match &chunk.data {
                ChunkData::DrawGroup(group) => Some((chunk, group)),
                _ => None,
            })
            .map(|(chunk, group)| {
                let mut views: Vec<[u32; 2]> = Vec::new();
                for view in group.views() {
                    if !views.contains(&[view.direction, view.zoom]) {
                        views.push([view.direction, view.zoom]);
                    }
                }
                GroupShown {
                    id: chunk.id,
                    label: shown(chunk.label_text()),
                    views,
                    mesh: meshes.contains(&chunk.id),
                }
            })
            .collect();
        let sprites = objects::first_chunks(&file)
            .filter_map(|chunk| Some((chunk, SpriteFrames::of(chunk)?)))
            .map(|(chunk, frames)| SpriteShown {
                name: format!("{}-{}", chunk.kind, chunk.id),
                label: shown(chunk.label_text()),
                frames: (0..frames.len())
                    .filter_map(|index| frames.size(index))
                    .map(|(width, height, depth)| FrameShown {
                        width,
                        height,
                        depth,
                    })
                    .collect(),
            })
            .collect();
        let warnings = objects::missing_palettes(&file)
            .iter()
            .map(|(palette, sprites)| objects::missing_palette_warning(*palette, sprites))
            .collect();
        Ok(ObjectFacts {
            facts: summary.lines().map(str::to_owned).collect(),
            objects,
            groups,
            sprites,
            warnings,
        })
    }

    /// The view of draw group `group` from `direction` at `zoom`, composed
    /// as the game draws it, as PNG.
    pub fn view(
        &self,
        path: &Path,
        group: u16,
        direction: u32,
        zoom: u32,
    ) -> Result<Vec<u8>, Refused> {
        let file = self.file(path)?;
        let found = file
            .draw_group(group)
            .ok_or_else(|| missing(format!("{} has no draw group {group}", path.display())))?;
        let view = found
            .views()
            .into_iter()
            .find(|view| view.direction == direction && view.zoom == zoom)
            .ok_or_else(|| {
                missing(format!(
                    "draw group {group} has no view of direction {direction} and zoom {zoom}"
                ))
            })?;
        let composed = DrawGroupViews::new(&file)
            .compose(&view, &mut Budget::default())
            .map_err(|error| failed(path, format!("DGRP {group}: {error}")))?;
        objects::png(&composed.pixels).map_err(|error| failed(path, error))
    }

    /// Frame `index` of the sprite `name` (`SPR2-100`, `SPR#-900`) as PNG,
    /// or its z-buffer.
    pub fn frame(
        &self,
        path: &Path,
        name: &str,
        index: usize,
        depth: bool,
    ) -> Result<Vec<u8>, Refused> {
        let file = self.file(path)?;
        let no_sprite = || missing(format!("{} has no sprite {name}", path.display()));
        let (kind, id) = name.split_once('-').ok_or_else(no_sprite)?;
        let tag: [u8; 4] = kind.as_bytes().try_into().map_err(|_| no_sprite())?;
        let id: u16 = id.parse().map_err(|_| no_sprite())?;
        let frames = file
            .chunk(&tag, id)
            .and_then(SpriteFrames::of)
            .ok_or_else(no_sprite)?;
        let pixels = frames
            .pixels(&file, index, &mut Budget::default())
            .map_err(|error| failed(path, format!("{name} frame {index}: {error}")))?
            .ok_or_else(|| {
                missing(format!(
                    "{name} has {} frame(s), not a frame {index}",
                    frames.len()
                ))
            })?;
        if pixels.width == 0 || pixels.height == 0 {
            return Err(missing(format!(
                "{name} frame {index} has no pixels (0 x 0)"
            )));
        }
        let png = if depth {
            objects::depth_png(&pixels)
                .ok_or_else(|| missing(format!("{name} frame {index} has no z-buffer")))?
        } else {
            objects::png(&pixels)
        };
        png.map_err(|error| failed(path, error))
    }

    /// The 3D mesh FreeSO made of draw group `group`, as a `.glb`, and the
    /// warnings made with it.
    pub fn mesh(&self, path: &Path, group: u16) -> Result<Made, Refused> {
        let file = self.file(path)?;
        let mut warnings = Vec::new();
        let glb = objects::meshes_asset(&file, Some(group), Container::Glb, &mut |warning| {
            warnings.push(warning)
        })
        .map_err(|error| match error {
            objects::MeshesError::NoMesh(_) => missing(format!("{}: {error}", path.display())),
            error => failed(path, error),
        })?;
        Ok(Made { glb, warnings })
    }
}

/// The chunks of type `tag`, the first of each id (the one the game
/// finds).
fn chunks_of<'a>(file: &'a IffFile, tag: &[u8; 4]) -> Vec<&'a Chunk> {
    objects::first_chunks(file)
        .filter(|chunk| &chunk.kind.tag == tag)
        .collect()
}
