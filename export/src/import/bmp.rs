//! Textures as The Sims reads them: 8-bit indexed BMPs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use formats::files::Files;
use formats::rig::{self, RigError};

use image::codecs::bmp::BmpEncoder;
use image::{ExtendedColorType, ImageError, RgbaImage};

/// How many colours an 8-bit palette holds.
const PALETTE_SIZE: usize = 256;

/// NeuQuant's sampling factor: 1 reads every pixel, 30 the fewest; 10 is
/// its authors' default balance of quality and time.
const NEUQUANT_SAMPLING: i32 = 10;

/// The images skins' textures name, as 8-bit BMPs named `<texture>.bmp`
/// (as the game and ts1-blender-io look for them beside the skins), and
/// the textures no image was found for.
#[derive(Debug, Default)]
pub struct SkinTextures {
    pub images: Vec<(String, Vec<u8>)>,
    /// The texture names no image was found for.
    pub missing: Vec<String>,
}

/// Why a skin's texture cannot be written as a BMP.
#[derive(Debug, thiserror::Error)]
pub enum BmpError {
    #[error(transparent)]
    Find(#[from] RigError),
    #[error("{}: cannot read the image: {source}", .path.display())]
    Decode {
        path: PathBuf,
        source: crate::TextureError,
    },
}

/// Each texture `skins` name (once), found as `export::find_texture` finds
/// it (beside the files, or in a `Textures` folder beside them), as an
/// 8-bit BMP.
pub fn skin_textures(skins: &[rig::Skin], files: &Files) -> Result<SkinTextures, BmpError> {
    let mut textures = SkinTextures::default();
    for skin in skins {
        let Some(name) = &skin.texture else {
            continue;
        };
        let file = format!("{name}.bmp");
        let known = textures
            .images
            .iter()
            .any(|(known, _)| known.eq_ignore_ascii_case(&file))
            || textures.missing.contains(name);
        if known {
            continue;
        }
        match crate::find_texture(skin, files)? {
            Some(found) => {
                let bytes = indexed_bmp(&found.bytes, Some(&found.path)).map_err(|source| {
                    BmpError::Decode {
                        path: found.path.clone(),
                        source,
                    }
                })?;
                textures.images.push((file, bytes));
            }
            None => textures.missing.push(name.clone()),
        }
    }
    Ok(textures)
}

/// An image file's bytes (any format the image crate reads here: BMP, PNG,
/// TGA, DDS; told by the name it was found under, where there is one, else
/// by its first bytes), decoded within the bounds every
/// texture is held to, as an 8-bit indexed BMP. An image of at most 256
/// colours keeps them exactly; a larger palette is chosen by NeuQuant, each
/// pixel taking its nearest entry. Alpha is dropped: the game's textures
/// have none.
pub fn indexed_bmp(bytes: &[u8], found_as: Option<&Path>) -> Result<Vec<u8>, crate::TextureError> {
    let format = match found_as.map(image::ImageFormat::from_path) {
        Some(Ok(format)) => format,
        _ => image::guess_format(bytes)?,
    };
    let image = crate::texture::decode(bytes, format)?.to_rgba8();
    Ok(indexed_bmp_of(&image)?)
}

/// An image as an 8-bit indexed BMP (see [`indexed_bmp`]).
pub fn indexed_bmp_of(image: &RgbaImage) -> Result<Vec<u8>, ImageError> {
    let (palette, indices) = match exact_palette(image) {
        Some(exact) => exact,
        None => quantized(image),
    };
    let mut bytes = Vec::new();
    BmpEncoder::new(&mut bytes).encode_with_palette(
        &indices,
        image.width(),
        image.height(),
        ExtendedColorType::L8,
        Some(&palette),
    )?;
    Ok(bytes)
}

/// The image's own colours and each pixel's, when it has at most 256.
fn exact_palette(image: &RgbaImage) -> Option<(Vec<[u8; 3]>, Vec<u8>)> {
    let mut entries: BTreeMap<[u8; 3], u8> = BTreeMap::new();
    let mut indices = Vec::with_capacity(image.as_raw().len() / 4);
    for pixel in image.pixels() {
        let [r, g, b, _] = pixel.0;
        let next = entries.len();
        let index = match entries.get(&[r, g, b]) {
            Some(&index) => index,
            None => {
                let index = u8::try_from(next).ok()?;
                entries.insert([r, g, b], index);
                index
            }
        };
        indices.push(index);
    }
    let mut palette = vec![[0u8; 3]; entries.len()];
    for (colour, index) in entries {
        if let Some(slot) = palette.get_mut(usize::from(index)) {
            *slot = colour;
        }
    }
    Some((palette, indices))
}

/// 256 colours NeuQuant chooses, and each pixel's nearest.
fn quantized(image: &RgbaImage) -> (Vec<[u8; 3]>, Vec<u8>) {
    // Opaque, so that alpha plays no part in the choice.
    let opaque: Vec<u8> = image
        .pixels()
        .flat_map(|pixel| [pixel.0[0], pixel.0[1], pixel.0[2], u8::MAX])
        .collect();
    let quantizer = color_quant::NeuQuant::new(NEUQUANT_SAMPLING, PALETTE_SIZE, &opaque);
    let palette = quantizer
        .color_map_rgb()
        .chunks_exact(3)
        .map(|colour| [colour[0], colour[1], colour[2]])
        .collect();
    let indices = opaque
        .chunks_exact(4)
        .map(|pixel| u8::try_from(quantizer.index_of(pixel)).unwrap_or(u8::MAX))
        .collect();
    (palette, indices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// The header fields a BMP reader goes by, read at their offsets in
    /// the BMP layout: bits per pixel (28), palette entries (46), and the
    /// first palette entry (blue, green, red, reserved), which follows the
    /// 14-byte file header and the info header (its size at 14).
    fn header(bytes: &[u8]) -> (u16, u32, [u8; 4]) {
        let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let palette = 14 + u32_at(14) as usize;
        (
            u16_at(28),
            u32_at(46),
            bytes[palette..palette + 4].try_into().unwrap(),
        )
    }

    #[test]
    fn an_image_of_few_colours_keeps_them_exactly() {
        let mut image = RgbaImage::new(3, 2);
        image.put_pixel(0, 0, Rgba([200, 10, 20, 255]));
        image.put_pixel(2, 1, Rgba([1, 2, 3, 0]));
        let bytes = indexed_bmp_of(&image).unwrap();
        assert_eq!(&bytes[..2], b"BM");
        let (bits, colours, first) = header(&bytes);
        // Three colours, in the order the pixels (from the top left) first
        // show them: red, transparent black, the dark one; stored BGR0.
        assert_eq!((bits, colours), (8, 3));
        assert_eq!(first, [20, 10, 200, 0]);
        let back = image::load_from_memory(&bytes).unwrap().to_rgb8();
        assert_eq!(back.get_pixel(0, 0).0, [200, 10, 20]);
        assert_eq!(back.get_pixel(2, 1).0, [1, 2, 3]);
        assert_eq!(back.get_pixel(1, 1).0, [0, 0, 0]);
    }

    #[test]
    fn an_image_of_many_colours_gets_256_near_ones() {
        let image = RgbaImage::from_fn(64, 64, |x, y| {
            Rgba([(x * 4) as u8, (y * 4) as u8, ((x + y) * 2) as u8, 255])
        });
        let bytes = indexed_bmp_of(&image).unwrap();
        let (bits, colours, _) = header(&bytes);
        assert_eq!((bits, colours), (8, 256));
        let back = image::load_from_memory(&bytes).unwrap().to_rgb8();
        let errors: Vec<u32> = image
            .pixels()
            .zip(back.pixels())
            .flat_map(|(a, b)| (0..3).map(move |c| u32::from(a.0[c].abs_diff(b.0[c]))))
            .collect();
        let mean = errors.iter().sum::<u32>() as f32 / errors.len() as f32;
        let worst = errors.iter().max().unwrap();
        // 4096 colours in 256 entries: on average a few steps off, none
        // far (a palette of one grey would be ~50 off on average).
        assert!(mean < 8.0 && *worst <= 48, "mean {mean}, worst {worst}");
    }
}
