//! The Sims' object files (IFF 2.5): their pictures (a sprite's frames
//! and z-buffers, a draw group's views composed) drawn within a bound and
//! written as PNG, a PNG read back into a frame's pixels, and FreeSO's 3D
//! meshes (`FSOM`) with their textures as one glTF 2.0 asset.
//!
//! The asset has a scene for each mesh, in file order, the first the one
//! shown on opening: a mesh is one draw group, one state of the object (a
//! door closed, a quarter open...), and its states stand in the same
//! place. A scene holds the mesh's node (named after its draw group), its
//! pieces one primitive each, and a child node for each group of pieces a
//! dynamic sprite shows (FreeSO draws them when the object turns that
//! sprite on). A piece is textured with the image FreeSO gives it: a
//! texture chunk (`MTEX`, a PNG) or a sprite frame of the draw group's
//! near view, drawn with its palette; a piece whose texture the file
//! lacks gets a plain material and a warning. Materials cut out what their
//! texture's alpha clears (glTF's `MASK`), as the sprites' clear pixels.
//!
//! Axes: FreeSO's meshes are in XNA's axes, right-handed and y up, one unit
//! a tile, as glTF's: positions go as stored. Texture coordinates count v
//! from the top, as glTF's.

use std::collections::{HashMap, HashSet};
use std::io::Cursor;

use formats::objects::draw_group::{compose, Composed, View};
use formats::objects::file::{Chunk, ChunkData, IffFile};
use formats::objects::mesh::{MeshTexture, PlainMesh};
use formats::objects::old_sprites::{OldFrame, OldSprite};
use formats::objects::pixels::{Pixels, TooLarge};
use formats::objects::sprites::{Frame, Sprite, SpriteError};
use formats::schema::BinarySchema;
use gltf::json;
use image::ImageFormat;
use json::accessor::Type;
use json::buffer::Target;
use json::mesh::Semantic;
use json::validation::Checked;

use crate::buffer::Asset;
use crate::encoded::ContentKey;
use crate::texture::{self, decode};
use crate::{Container, ExportError, TextureError};

/// The most pixels drawn for one request (the `sprites` command's whole
/// output, one picture the viewer asks for): frames decoded and views
/// composed, in all. A frame or a view is at most 4,096 pixels a side,
/// but a few bytes of run-length commands can claim a frame that large,
/// and a draw group can place thousands of them: this bounds the time and
/// memory that drawing takes, at some 60 times what the largest object of
/// the corpus (a door of 2.7 MB, 720 images) draws in all (about 4 million
/// pixels).
pub const MOST_PIXELS: u64 = 1 << 28;

/// What is left of [`MOST_PIXELS`] for a request. Each picture is paid for
/// once drawn, so a request draws at most one picture (4,096 pixels
/// square) past it before it stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    left: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { left: MOST_PIXELS }
    }
}

impl Budget {
    /// The budget for drawing every frame of `file`'s sprites and more,
    /// refused at once when the frames alone, by the sizes their headers
    /// give, take more than [`MOST_PIXELS`]: a file of a few kilobytes can
    /// claim thousands of frames of 4,096 pixels square.
    pub fn for_every_frame(file: &IffFile) -> Result<Budget, PictureError> {
        let mut frames: u64 = 0;
        for chunk in first_chunks(file) {
            let Some(sprite) = SpriteFrames::of(chunk) else {
                continue;
            };
            for (width, height, _) in (0..sprite.len()).filter_map(|index| sprite.size(index)) {
                frames = frames.saturating_add(u64::from(width) * u64::from(height));
            }
        }
        if frames > MOST_PIXELS {
            return Err(PictureError::TooManyPixels);
        }
        Ok(Budget::default())
    }

    fn spend(&mut self, pixels: &Pixels) -> Result<(), PictureError> {
        let cost = u64::from(pixels.width) * u64::from(pixels.height);
        self.left = self
            .left
            .checked_sub(cost)
            .ok_or(PictureError::TooManyPixels)?;
        Ok(())
    }
}

/// Why an object's picture cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    #[error(transparent)]
    Sprite(#[from] SpriteError),
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    #[error("more than {MOST_PIXELS} pixels to draw in all, far past any real object's")]
    TooManyPixels,
}

/// A sprite chunk's frames: `SPR2`'s, or the older `SPR#`'s.
pub enum SpriteFrames<'a> {
    Sprite(&'a Sprite, Vec<&'a Frame>),
    Old(&'a OldSprite, Vec<&'a OldFrame>),
}

impl<'a> SpriteFrames<'a> {
    /// The frames of a sprite chunk; `None` for another chunk.
    pub fn of(chunk: &'a Chunk) -> Option<SpriteFrames<'a>> {
        match &chunk.data {
            ChunkData::Sprite(sprite) => Some(SpriteFrames::Sprite(sprite, sprite.frames())),
            ChunkData::OldSprite(sprite) => Some(SpriteFrames::Old(sprite, sprite.frames())),
            _ => None,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            SpriteFrames::Sprite(_, frames) => frames.len(),
            SpriteFrames::Old(_, frames) => frames.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Frame `index`'s width and height, and whether it has a z-buffer.
    pub fn size(&self, index: usize) -> Option<(u16, u16, bool)> {
        match self {
            SpriteFrames::Sprite(_, frames) => frames
                .get(index)
                .map(|frame| (frame.width, frame.height, frame.has_depth())),
            SpriteFrames::Old(_, frames) => frames
                .get(index)
                .map(|frame| (frame.width, frame.height, false)),
        }
    }

    /// The palette (`PALT` id) frame `index` is drawn with.
    pub fn palette(&self, index: usize) -> Option<u16> {
        match self {
            SpriteFrames::Sprite(sprite, frames) => {
                frames.get(index).map(|frame| sprite.palette_of(frame))
            }
            SpriteFrames::Old(sprite, frames) => frames.get(index).map(|_| sprite.palette()),
        }
    }

    /// Frame `index` drawn with its palette from `file`, as the game draws
    /// it ([`Frame::pixels`]), paid for from `budget`; `None` past the
    /// last frame. A frame whose palette the file lacks is drawn in black
    /// (as FreeSO draws an `SPR#` frame without its palette; [`Self::palette`]
    /// tells which it names).
    pub fn pixels(
        &self,
        file: &IffFile,
        index: usize,
        budget: &mut Budget,
    ) -> Result<Option<Pixels>, PictureError> {
        let Some(palette) = self.palette(index) else {
            return Ok(None);
        };
        let colors = file.palette(palette).unwrap_or(&BLACK);
        let pixels = match self {
            SpriteFrames::Sprite(_, frames) => frames.get(index).map(|frame| frame.pixels(colors)),
            SpriteFrames::Old(_, frames) => frames.get(index).map(|frame| frame.pixels(colors)),
        };
        let Some(pixels) = pixels.transpose()? else {
            return Ok(None);
        };
        budget.spend(&pixels)?;
        Ok(Some(pixels))
    }
}

/// The chunks the game finds: the first of each type and id.
pub fn first_chunks(file: &IffFile) -> impl Iterator<Item = &Chunk> {
    let mut seen = HashSet::new();
    file.chunks
        .iter()
        .filter(move |chunk| seen.insert((chunk.kind, chunk.id)))
}

/// Each palette a sprite names that `file` lacks, with the sprites naming
/// it (`SPR#-900`), in file order: their frames are drawn in black.
pub fn missing_palettes(file: &IffFile) -> Vec<(u16, Vec<String>)> {
    let mut missing: Vec<(u16, Vec<String>)> = Vec::new();
    for chunk in first_chunks(file) {
        let Some(frames) = SpriteFrames::of(chunk) else {
            continue;
        };
        let name = format!("{}-{}", chunk.kind, chunk.id);
        for palette in (0..frames.len()).filter_map(|index| frames.palette(index)) {
            if file.palette(palette).is_some() {
                continue;
            }
            match missing.iter_mut().find(|(id, _)| *id == palette) {
                Some((_, sprites)) if sprites.last() != Some(&name) => sprites.push(name.clone()),
                Some(_) => {}
                None => missing.push((palette, vec![name.clone()])),
            }
        }
    }
    missing
}

/// What [`missing_palettes`] tells, as a sentence: `palette 7 is not in the
/// file: the frames of SPR2-100 that name it are drawn in black`.
pub fn missing_palette_warning(palette: u16, sprites: &[String]) -> String {
    format!(
        "palette {palette} is not in the file: the frames of {} that name it are drawn in black",
        sprites.join(", ")
    )
}

/// The colours of a palette the file lacks.
const BLACK: [[u8; 3]; 256] = [[0; 3]; 256];

/// The sprite chunk of this id as the game looks it up: the `SPR2`, else
/// the `SPR#`.
pub fn sprite_chunk(file: &IffFile, id: u16) -> Option<&Chunk> {
    file.chunk(b"SPR2", id).or_else(|| file.chunk(b"SPR#", id))
}

/// A draw group's views composed one at a time, the frames they place
/// drawn once each and kept for the next view.
pub struct DrawGroupViews<'a> {
    file: &'a IffFile,
    /// By sprite id and frame index; `None` for one the file lacks.
    frames: HashMap<(u32, u32), Option<Pixels>>,
}

impl<'a> DrawGroupViews<'a> {
    pub fn new(file: &'a IffFile) -> DrawGroupViews<'a> {
        DrawGroupViews {
            file,
            frames: HashMap::new(),
        }
    }

    /// `view` composed as the game draws it ([`compose`]): each frame it
    /// places drawn with its palette (the sprite of that id, [`sprite_chunk`];
    /// see [`SpriteFrames::pixels`]), one the file lacks left out as the
    /// game leaves it out; all paid for from `budget`.
    pub fn compose(&mut self, view: &View, budget: &mut Budget) -> Result<Composed, PictureError> {
        for placed in &view.sprites {
            let key = (placed.sprite, placed.frame);
            if self.frames.contains_key(&key) {
                continue;
            }
            let frames = u16::try_from(placed.sprite)
                .ok()
                .and_then(|sprite| sprite_chunk(self.file, sprite))
                .and_then(SpriteFrames::of);
            let frame = match (frames, usize::try_from(placed.frame)) {
                (Some(frames), Ok(index)) => frames.pixels(self.file, index, budget)?,
                _ => None,
            };
            self.frames.insert(key, frame);
        }
        let frames = &self.frames;
        let composed = compose(view, |sprite, frame| {
            frames.get(&(sprite, frame)).and_then(Option::as_ref)
        })?;
        budget.spend(&composed.pixels)?;
        Ok(composed)
    }
}

/// A frame or a composed view as an RGBA PNG.
pub fn png(pixels: &Pixels) -> Result<Vec<u8>, TextureError> {
    let rgba: Vec<u8> = pixels.rgba.iter().flatten().copied().collect();
    encode(
        &rgba,
        pixels.width,
        pixels.height,
        image::ExtendedColorType::Rgba8,
    )
}

/// A frame's z-buffer as a grey PNG (0 nearest, black); `None` for a
/// frame without one.
pub fn depth_png(pixels: &Pixels) -> Option<Result<Vec<u8>, TextureError>> {
    let depth = pixels.depth.as_ref()?;
    Some(encode(
        depth,
        pixels.width,
        pixels.height,
        image::ExtendedColorType::L8,
    ))
}

fn encode(
    bytes: &[u8],
    width: u32,
    height: u32,
    kind: image::ExtendedColorType,
) -> Result<Vec<u8>, TextureError> {
    let mut png = Vec::new();
    image::write_buffer_with_format(
        &mut Cursor::new(&mut png),
        bytes,
        width,
        height,
        kind,
        ImageFormat::Png,
    )?;
    Ok(png)
}

/// A PNG's pixels as RGBA (any colour type, 8 or 16 bits, taken to 8-bit
/// RGBA), without a z-buffer; refused, before its pixels are decoded,
/// past 4,096 pixels a side, as every texture is.
pub fn read_png(bytes: &[u8]) -> Result<Pixels, TextureError> {
    let decoded = decode(bytes, ImageFormat::Png)?.into_rgba8();
    Ok(Pixels {
        width: decoded.width(),
        height: decoded.height(),
        rgba: decoded
            .pixels()
            .map(|pixel| pixel.0)
            .collect::<Vec<[u8; 4]>>(),
        depth: None,
    })
}

/// A grey PNG (a z-buffer as [`depth_png`] writes it): its width, height
/// and one byte a pixel (a coloured image taken as its luminance).
pub fn read_depth_png(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), TextureError> {
    let decoded = decode(bytes, ImageFormat::Png)?.into_luma8();
    Ok((decoded.width(), decoded.height(), decoded.into_raw()))
}

/// Why an object's meshes cannot be made into an asset.
#[derive(Debug, thiserror::Error)]
pub enum MeshesError {
    #[error("it has no 3D mesh (FSOM, which FreeSO adds to the objects it rebuilt in 3D) with triangles")]
    NoMeshes,
    #[error("it has no 3D mesh (FSOM) of id {0} with triangles")]
    NoMesh(u16),
    /// glTF allows only finite numbers.
    #[error("FSOM {mesh}: vertex {vertex}'s {what} is not a finite number")]
    NotFinite {
        mesh: u16,
        vertex: usize,
        what: &'static str,
    },
    #[error("FSOM {mesh}: its texture, {texture}: {source}")]
    Texture {
        mesh: u16,
        texture: String,
        source: TextureError,
    },
    #[error("FSOM {mesh}: its texture, {texture}: {source}")]
    Sprite {
        mesh: u16,
        texture: String,
        source: SpriteError,
    },
    /// Boxed: decoding errors are large and this one is all but
    /// impossible (a value read from a file writes back).
    #[error("FSOM {mesh}: its texture, {texture}, cannot be written back: {source}")]
    Write {
        mesh: u16,
        texture: String,
        source: Box<formats::schema::Error>,
    },
    #[error(transparent)]
    Export(#[from] ExportError),
}

/// The meshes (`FSOM`) of `file` as one asset, every one or only the one
/// of the draw group `only`; each warning (a texture the file lacks) given
/// to `warn`.
pub fn meshes_asset(
    file: &IffFile,
    only: Option<u16>,
    container: Container,
    warn: &mut dyn FnMut(String),
) -> Result<Vec<u8>, MeshesError> {
    let mut asset = Asset::new();
    let mut materials = ObjectMaterials::default();
    for (id, pieces) in file.meshes() {
        if only.is_some_and(|only| only != id)
            || pieces.iter().all(|piece| piece.triangles.is_empty())
        {
            continue;
        }
        let name = draw_group_name(file, id);
        let groups = pieces.iter().map(|piece| piece.group).max().unwrap_or(0);
        let mut nodes = Vec::new();
        for group in 0..=groups {
            let mut primitives = Vec::new();
            for piece in pieces
                .iter()
                .filter(|piece| piece.group == group && !piece.triangles.is_empty())
            {
                let material = materials.material(&mut asset, file, id, piece.texture, warn)?;
                primitives.push(primitive(&mut asset, id, piece, material)?);
            }
            let node_name = match group {
                0 => name.clone(),
                group => format!("{name} dynamic sprite {group}"),
            };
            let mesh = (!primitives.is_empty()).then(|| {
                asset.root.push(json::Mesh {
                    extensions: None,
                    extras: Default::default(),
                    name: Some(node_name.clone()),
                    primitives,
                    weights: None,
                })
            });
            nodes.push(json::Node {
                name: Some(node_name),
                mesh,
                ..Default::default()
            });
        }
        let mut nodes = nodes.into_iter();
        let Some(mut root) = nodes.next() else {
            continue;
        };
        let children: Vec<_> = nodes.map(|node| asset.root.push(node)).collect();
        root.children = (!children.is_empty()).then_some(children);
        let root = asset.root.push(root);
        asset.root.push(json::Scene {
            extensions: None,
            extras: Default::default(),
            name: Some(name),
            nodes: vec![root],
        });
    }
    if asset.root.scenes.is_empty() {
        return Err(only.map_or(MeshesError::NoMeshes, MeshesError::NoMesh));
    }
    asset.root.scene = Some(json::Index::new(0));
    Ok(asset.finish(container)?)
}

/// `DGRP 100 Door Jamb`: the draw group a mesh rebuilds, by its id and
/// label.
fn draw_group_name(file: &IffFile, id: u16) -> String {
    let label = file
        .chunk(b"DGRP", id)
        .map(|chunk| formats::schema::RawString(chunk.label_text().to_vec()).to_text())
        .unwrap_or_default();
    format!("DGRP {id} {label}").trim_end().to_owned()
}

/// One piece of a mesh: its positions, normals where they can all be made
/// unit length (else none, and viewers make their own), texture
/// coordinates and triangles.
fn primitive(
    asset: &mut Asset,
    mesh: u16,
    piece: &PlainMesh,
    material: json::Index<json::Material>,
) -> Result<json::mesh::Primitive, MeshesError> {
    finite(mesh, "position", &piece.positions)?;
    finite(mesh, "texture coordinate", &piece.uvs)?;
    let vertex_data = Some(Target::ArrayBuffer);
    let mut attributes = vec![(
        Semantic::Positions,
        asset.floats(&piece.positions, Type::Vec3, vertex_data, true),
    )];
    let normals: Option<Vec<[f32; 3]>> = piece.normals.as_ref().and_then(|normals| {
        normals
            .iter()
            .map(|&normal| {
                glam::Vec3::from_array(normal)
                    .try_normalize()
                    .map(|unit| unit.to_array())
            })
            .collect()
    });
    if let Some(normals) = normals {
        let accessor = asset.floats(&normals, Type::Vec3, vertex_data, false);
        attributes.push((Semantic::Normals, accessor));
    }
    let accessor = asset.floats(&piece.uvs, Type::Vec2, vertex_data, false);
    attributes.push((Semantic::TexCoords(0), accessor));
    let corners: Vec<u32> = piece.triangles.iter().flatten().copied().collect();
    Ok(json::mesh::Primitive {
        attributes: attributes
            .into_iter()
            .map(|(semantic, accessor)| (Checked::Valid(semantic), accessor))
            .collect(),
        extensions: None,
        extras: Default::default(),
        indices: Some(asset.indices(&corners)),
        material: Some(material),
        mode: Checked::Valid(json::mesh::Mode::Triangles),
        targets: None,
    })
}

fn finite<const N: usize>(
    mesh: u16,
    what: &'static str,
    values: &[[f32; N]],
) -> Result<(), MeshesError> {
    match values
        .iter()
        .position(|value| !value.iter().all(|v| v.is_finite()))
    {
        Some(vertex) => Err(MeshesError::NotFinite { mesh, vertex, what }),
        None => Ok(()),
    }
}

/// The materials made so far, one per texture (and one plain material
/// for the pieces whose texture the file lacks).
#[derive(Default)]
struct ObjectMaterials {
    /// By the mesh whose draw group holds the sprite (0 for a texture
    /// chunk, which is the file's), and the texture as FSOM stores it: a
    /// rotation and a sprite's index, or 65535 and the chunk's id.
    by_texture: HashMap<(u16, u16, u16), json::Index<json::Material>>,
    plain: Option<json::Index<json::Material>>,
}

impl ObjectMaterials {
    /// The material of a piece of mesh `mesh` textured by `texture`.
    fn material(
        &mut self,
        asset: &mut Asset,
        file: &IffFile,
        mesh: u16,
        texture: MeshTexture,
        warn: &mut dyn FnMut(String),
    ) -> Result<json::Index<json::Material>, MeshesError> {
        let key = match texture {
            MeshTexture::Chunk(id) => (0, 0xFFFF, id),
            MeshTexture::Sprite { direction, index } => (mesh, direction, index),
        };
        if let Some(&material) = self.by_texture.get(&key) {
            return Ok(material);
        }
        let name = texture_name(mesh, texture);
        let Some(png) = texture_png(file, mesh, texture, &name)? else {
            warn(format!(
                "FSOM {mesh}: its texture, {name}, is not in the file: a plain material instead"
            ));
            return Ok(*self.plain.get_or_insert_with(|| {
                asset
                    .root
                    .push(cut_out(texture::material(Some("plain".to_owned()), None)))
            }));
        };
        let image = texture::png_texture(asset, &png, Some(name.clone()));
        let material = asset
            .root
            .push(cut_out(texture::material(Some(name), Some(image))));
        self.by_texture.insert(key, material);
        Ok(material)
    }
}

/// A material whose texture's clear pixels are cut out.
fn cut_out(material: json::Material) -> json::Material {
    json::Material {
        alpha_mode: Checked::Valid(json::material::AlphaMode::Mask),
        alpha_cutoff: Some(json::material::AlphaCutoff(0.5)),
        ..material
    }
}

/// How a texture is named: `MTEX 1`, `DGRP 100 direction 1 sprite 0`.
fn texture_name(mesh: u16, texture: MeshTexture) -> String {
    match texture {
        MeshTexture::Chunk(id) => format!("MTEX {id}"),
        MeshTexture::Sprite { direction, index } => {
            format!("DGRP {mesh} rotation {direction} sprite {index}")
        }
    }
}

/// The PNG of a piece's texture; `None` when the file lacks it.
fn texture_png(
    file: &IffFile,
    mesh: u16,
    texture: MeshTexture,
    name: &str,
) -> Result<Option<std::sync::Arc<[u8]>>, MeshesError> {
    let texture_error = |source| MeshesError::Texture {
        mesh,
        texture: name.to_owned(),
        source,
    };
    match texture {
        MeshTexture::Chunk(id) => {
            let Some(ChunkData::Image(image)) = file.chunk(b"MTEX", id).map(|chunk| &chunk.data)
            else {
                return Ok(None);
            };
            // Written back as read: the image's own bytes.
            let bytes = image.to_bytes().map_err(|source| MeshesError::Write {
                mesh,
                texture: name.to_owned(),
                source: Box::new(source),
            })?;
            let format = image::guess_format(&bytes)
                .map_err(|error| texture_error(TextureError::Decode(error)))?;
            texture::image_png(&bytes, format)
                .map(Some)
                .map_err(texture_error)
        }
        MeshTexture::Sprite { direction, index } => {
            let Some(placed) = sprite_of(file, mesh, direction, index) else {
                return Ok(None);
            };
            let pixels = match file.frame_pixels(placed.0, placed.1) {
                Ok(pixels) => pixels,
                Err(SpriteError::NoSprite(_) | SpriteError::NoFrame { .. }) => return Ok(None),
                Err(source) => {
                    return Err(MeshesError::Sprite {
                        mesh,
                        texture: name.to_owned(),
                        source,
                    })
                }
            };
            let rgba: Vec<u8> = pixels.rgba.iter().flatten().copied().collect();
            let pixels = texture::Pixels {
                content: ContentKey::of(&[b"sprite frame", &pixels.width.to_le_bytes(), &rgba]),
                width: pixels.width,
                height: pixels.height,
                rgba,
            };
            texture::pixels_png(&pixels)
                .map(Some)
                .map_err(texture_error)
        }
    }
}

/// The sprite and frame FreeSO textures a piece with: sprite `index` of
/// the near view of the draw group `mesh` turned `rotation` quarter turns
/// from its right back view (direction 0x01, then 0x04, 0x10, 0x40), the
/// turn found as FreeSO finds it (its bits shifted round within a byte).
fn sprite_of(file: &IffFile, mesh: u16, rotation: u16, index: u16) -> Option<(u16, usize)> {
    let turned = 1u32.wrapping_shl(2 * u32::from(rotation));
    let direction = (turned & 0xFF) | (turned >> 8);
    let group = file.draw_group(mesh)?;
    let view = group
        .views()
        .into_iter()
        .find(|view| view.direction == direction && view.zoom == 3)?;
    let placed = view.sprites.get(usize::from(index))?;
    Some((
        u16::try_from(placed.sprite).ok()?,
        usize::try_from(placed.frame).ok()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_are_paid_for_until_the_budget_is_spent() {
        let picture = Pixels::clear(4096, 4096, false).unwrap();
        let mut budget = Budget::default();
        // 2^28 pixels: sixteen pictures of 4,096 square, not seventeen.
        for _ in 0..16 {
            budget.spend(&picture).unwrap();
        }
        assert_eq!(budget.spend(&picture), Err(PictureError::TooManyPixels));
        assert_eq!(
            PictureError::TooManyPixels.to_string(),
            "more than 268435456 pixels to draw in all, far past any real object's"
        );
    }

    #[test]
    fn a_picture_and_its_z_buffer_come_back_from_their_png() {
        let mut pixels = Pixels::clear(3, 2, true).unwrap();
        pixels.rgba[1] = [10, 20, 30, 255];
        pixels.rgba[4] = [200, 100, 0, 132];
        pixels.depth = Some(vec![255, 0, 7, 255, 90, 255]);
        let read = read_png(&png(&pixels).unwrap()).unwrap();
        assert_eq!(read.rgba, pixels.rgba);
        assert_eq!(read.depth, None);
        let depth = read_depth_png(&depth_png(&pixels).unwrap().unwrap()).unwrap();
        assert_eq!(depth, (3, 2, vec![255, 0, 7, 255, 90, 255]));
        assert!(depth_png(&Pixels::clear(1, 1, false).unwrap()).is_none());
    }
}
