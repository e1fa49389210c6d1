//! Materials: the image a mesh's texture names, PNG-encoded into the
//! asset, or a plain material where there is none.

use std::collections::HashMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use formats::files::{Files, FindError, FoundFile};
use formats::rig::{self, RigError};
use gltf::json;
use image::ImageFormat;
use json::validation::Checked;

use crate::buffer::Asset;
use crate::shader::{Pixels, ShaderMaterial};
use crate::{Mesh, MeshProblem, TextureError};

/// The image files looked for under a texture's name, as the image crate
/// reads them.
const IMAGE_EXTENSIONS: [&str; 4] = ["bmp", "png", "tga", "dds"];

/// The folder beside the meshes where the Sims 1998 prototype keeps its
/// textures (matched without regard to case).
const TEXTURES_FOLDER: &str = "Textures";

/// The image `skin`'s texture names, looked up through `files` (beside the
/// mesh's file, ignoring case): the name as given when it ends in an image
/// extension, then the name with each of `.bmp`, `.png`, `.tga`, `.dds`;
/// then the same names in a `Textures` folder beside the file, where the
/// Sims 1998 prototype keeps its images. `None` when the skin names no
/// texture or no such image exists.
pub fn find_texture(skin: &rig::Skin, files: &Files) -> Result<Option<FoundFile>, RigError> {
    let Some(name) = &skin.texture else {
        return Ok(None);
    };
    let named_with_extension = Path::new(name)
        .extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| {
            IMAGE_EXTENSIONS
                .iter()
                .any(|known| known.eq_ignore_ascii_case(extension))
        });
    let mut names = Vec::new();
    if named_with_extension {
        names.push(name.clone());
    }
    names.extend(
        IMAGE_EXTENSIONS
            .iter()
            .map(|extension| format!("{name}.{extension}")),
    );
    let what = format!("the texture {name}");
    let in_textures: Vec<String> = names
        .iter()
        .map(|name| format!("{TEXTURES_FOLDER}/{name}"))
        .collect();
    let found = match files.find(&what, &names) {
        Err(FindError::Missing { .. }) => files.find_beside(&what, &in_textures),
        other => other,
    };
    match found {
        Ok(found) => Ok(Some(found)),
        Err(FindError::Missing { .. }) => Ok(None),
        Err(other) => Err(other.into()),
    }
}

/// The materials made so far: one per image (meshes sharing a texture
/// share it) and one plain material for every mesh without an image.
#[derive(Default)]
pub struct Materials {
    by_image: HashMap<PathBuf, json::Index<json::Material>>,
    /// Star Wars Galaxies materials, by shader name.
    by_shader: HashMap<String, json::Index<json::Material>>,
    plain: Option<json::Index<json::Material>>,
}

impl Materials {
    /// The material for `mesh`, adding it (and its image) when new.
    pub fn material(
        &mut self,
        asset: &mut Asset,
        mesh: &Mesh,
    ) -> Result<json::Index<json::Material>, MeshProblem> {
        if let Some(shader) = mesh.shader {
            return self.shader_material(asset, shader);
        }
        let Some(found) = &mesh.texture else {
            return Ok(*self
                .plain
                .get_or_insert_with(|| asset.root.push(material(None, None))));
        };
        if let Some(&material) = self.by_image.get(&found.path) {
            return Ok(material);
        }
        let png = png(found).map_err(|source| MeshProblem::Texture {
            path: found.path.clone(),
            source,
        })?;
        let name = found
            .path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned());
        let texture = png_texture(asset, png, name.clone());
        let material = asset.root.push(material(name, Some(texture)));
        self.by_image.insert(found.path.clone(), material);
        Ok(material)
    }

    /// The material of a Star Wars Galaxies shader, named by the shader's
    /// path: its base colour and normal map as PNG textures, blended where
    /// the effect draws the alpha as transparency.
    fn shader_material(
        &mut self,
        asset: &mut Asset,
        shader: &ShaderMaterial,
    ) -> Result<json::Index<json::Material>, MeshProblem> {
        if let Some(&material) = self.by_shader.get(&shader.name) {
            return Ok(material);
        }
        let texture = |asset: &mut Asset, pixels: &Pixels, what: &str| {
            let png = pixels_png(pixels).map_err(|source| MeshProblem::Texture {
                path: PathBuf::from(&shader.name),
                source,
            })?;
            Ok::<_, MeshProblem>(png_texture(
                asset,
                png,
                Some(format!("{} {what}", shader.name)),
            ))
        };
        let base_colour = match &shader.base_colour {
            Some(pixels) => Some(texture(asset, pixels, "base colour")?),
            None => None,
        };
        let normal = match &shader.normal {
            Some(pixels) => Some(texture(asset, pixels, "normal")?),
            None => None,
        };
        let mut made = material(Some(shader.name.clone()), base_colour);
        made.normal_texture = normal.map(|index| json::material::NormalTexture {
            index,
            scale: 1.0,
            tex_coord: 0,
            extensions: None,
            extras: Default::default(),
        });
        if shader.blend {
            made.alpha_mode = Checked::Valid(json::material::AlphaMode::Blend);
        }
        let material = asset.root.push(made);
        self.by_shader.insert(shader.name.clone(), material);
        Ok(material)
    }
}

/// A PNG image in the asset's buffer and the texture that shows it.
fn png_texture(
    asset: &mut Asset,
    png: Vec<u8>,
    name: Option<String>,
) -> json::Index<json::Texture> {
    let view = asset.view(&png, None);
    let image = asset.root.push(json::Image {
        buffer_view: Some(view),
        mime_type: Some(json::image::MimeType("image/png".to_owned())),
        name: name.clone(),
        uri: None,
        extensions: None,
        extras: Default::default(),
    });
    asset.root.push(json::Texture {
        name,
        sampler: None,
        source: image,
        extensions: None,
        extras: Default::default(),
    })
}

/// Decoded pixels as PNG.
fn pixels_png(pixels: &Pixels) -> Result<Vec<u8>, TextureError> {
    let mut png = Vec::new();
    image::write_buffer_with_format(
        &mut Cursor::new(&mut png),
        &pixels.rgba,
        pixels.width,
        pixels.height,
        image::ExtendedColorType::Rgba8,
        ImageFormat::Png,
    )?;
    Ok(png)
}

/// A matte, non-metallic material (the games had no other kind), coloured
/// by `texture` or plain white.
fn material(name: Option<String>, texture: Option<json::Index<json::Texture>>) -> json::Material {
    json::Material {
        name,
        alpha_mode: Checked::Valid(json::material::AlphaMode::Opaque),
        pbr_metallic_roughness: json::material::PbrMetallicRoughness {
            base_color_texture: texture.map(|index| json::texture::Info {
                index,
                tex_coord: 0,
                extensions: None,
                extras: Default::default(),
            }),
            metallic_factor: json::material::StrengthFactor(0.0),
            roughness_factor: json::material::StrengthFactor(1.0),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// The widest and tallest image decoded, in pixels: well past any texture
/// the games ship, and a bound on the memory one texture takes (64 MiB of
/// 8-bit RGBA), whatever its file claims.
pub const MAX_SIDE: u32 = 4096;

/// The most bytes the decoder may allocate for one image: the largest
/// image of [`MAX_SIDE`] squared as 8-bit RGBA.
const MAX_DECODED: u64 = MAX_SIDE as u64 * MAX_SIDE as u64 * 4;

/// The format of an image file: from its extension (TGA has no signature
/// to tell it by), else from its first bytes.
fn format_of(found: &FoundFile) -> Result<ImageFormat, TextureError> {
    match ImageFormat::from_path(&found.path) {
        Ok(format) => Ok(format),
        Err(_) => Ok(image::guess_format(&found.bytes)?),
    }
}

/// The image as 8-bit RGBA, rows from the top: width, height and pixels,
/// decoded within the same limits as for glTF, for the renderer.
pub fn rgba(found: &FoundFile) -> Result<(u32, u32, Vec<u8>), TextureError> {
    let decoded = decode(&found.bytes, format_of(found)?)?.into_rgba8();
    Ok((decoded.width(), decoded.height(), decoded.into_raw()))
}

/// The image as PNG (see [`decode`]).
fn png(found: &FoundFile) -> Result<Vec<u8>, TextureError> {
    let decoded = decode(&found.bytes, format_of(found)?)?;
    let mut png = Vec::new();
    decoded.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)?;
    Ok(png)
}

/// An image file's pixels. The format comes from the file's extension (TGA
/// has no signature to tell it by), else from its first bytes. The image's
/// size is read from its header and checked before its pixels are decoded,
/// and the decoder is held to [`MAX_DECODED`] bytes besides.
pub(crate) fn decode(
    bytes: &[u8],
    format: ImageFormat,
) -> Result<image::DynamicImage, TextureError> {
    if format == ImageFormat::Dds {
        return Ok(image::DynamicImage::ImageRgba8(decode_dds(bytes)?));
    }
    let reader = || image::ImageReader::with_format(Cursor::new(bytes), format);
    let (width, height) = reader().into_dimensions()?;
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(TextureError::TooLarge { width, height });
    }
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODED);
    let mut decoder = reader();
    decoder.limits(limits);
    Ok(decoder.decode()?)
}

/// A DDS file's first image (its largest mipmap; of a cube map or an
/// array, the first face or layer) as 8-bit RGBA, by image_dds, which reads
/// every kind the games ship (DXT1, DXT3, DXT5, uncompressed 32-bit), where
/// the image crate reads the block-compressed kinds only. The size is read
/// from the header and checked before anything is decoded; the container
/// holds no more pixel data than the file's bytes.
fn decode_dds(bytes: &[u8]) -> Result<image::RgbaImage, TextureError> {
    let dds = image_dds::ddsfile::Dds::read(bytes)
        .map_err(|error| TextureError::Dds(error.to_string()))?;
    let (width, height) = (dds.get_width(), dds.get_height());
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(TextureError::TooLarge { width, height });
    }
    // A volume texture decodes every slice: one is all a mesh shows.
    if dds.get_depth() > 1 {
        return Err(TextureError::Dds(format!(
            "a volume texture of {} slices; ossuary reads flat textures",
            dds.get_depth()
        )));
    }
    let surface = image_dds::Surface::from_dds(&dds)
        .and_then(|surface| surface.decode_layers_mipmaps_rgba8(0..1, 0..1))
        .map_err(|error| TextureError::Dds(error.to_string()))?;
    image::RgbaImage::from_raw(width, height, surface.data)
        .ok_or_else(|| TextureError::Dds(format!("the decoder gave no {width} x {height} image")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textures_are_found_beside_the_file_then_in_its_textures_folder_any_case() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        std::fs::create_dir_all(dir.join("textures")).unwrap();
        std::fs::write(dir.join("textures/MfemHead.PNG"), b"in the folder").unwrap();
        std::fs::write(dir.join("mfemhand.bmp"), b"beside").unwrap();
        std::fs::write(dir.join("textures/mfemhand.png"), b"in the folder").unwrap();
        let files = Files::beside(&dir.join("samnud.cmx"));
        let found = |texture: &str| {
            find_texture(
                &crate::tests::skin_without_vertices("xskin-samnud-HEAD-HEAD", texture),
                &files,
            )
            .unwrap()
            .map(|found| found.bytes)
        };
        assert_eq!(found("mfemhead"), Some(b"in the folder".to_vec()));
        // Beside the file comes first.
        assert_eq!(found("mfemhand"), Some(b"beside".to_vec()));
        assert_eq!(found("mfemfoot"), None);
    }

    /// A DDS file: the header for `width` x `height` with the pixel format
    /// `format` (32 bytes: size, flags, FourCC, bit count, four masks),
    /// then `data`.
    fn dds(width: u32, height: u32, format: [u32; 8], data: &[u8]) -> Vec<u8> {
        let mut header = vec![124, 0x1007, height, width, 0, 0, 0];
        header.extend([0; 11]);
        header.extend(format);
        header.extend([0x1000, 0, 0, 0, 0]);
        let mut bytes = b"DDS ".to_vec();
        bytes.extend(header.iter().flat_map(|word| word.to_le_bytes()));
        bytes.extend(data);
        bytes
    }

    /// Bytes that look like nothing in particular, the same every run.
    fn noise(count: usize, seed: u32) -> Vec<u8> {
        let mut state = seed;
        (0..count)
            .map(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 24) as u8
            })
            .collect()
    }

    const BLOCK_FORMATS: [(&[u8; 4], usize); 3] = [(b"DXT1", 8), (b"DXT3", 16), (b"DXT5", 16)];

    /// DDS's uncompressed 32-bit A8R8G8B8: RGB and alpha flags, 32 bits,
    /// the masks of red, green, blue and alpha.
    const A8R8G8B8: [u32; 8] = [
        32,
        0x41,
        0,
        32,
        0x00ff_0000,
        0x0000_ff00,
        0x0000_00ff,
        0xff00_0000,
    ];

    /// Pixels by a reader independent of image_dds: image-rs's own DDS
    /// decoder for the block-compressed kinds; for uncompressed 32-bit,
    /// each pixel's little-endian word split by the header's masks.
    fn independent(bytes: &[u8]) -> Vec<u8> {
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let (format_flags, fourcc) = (word(80), &bytes[84..88]);
        if format_flags & 0x4 != 0 {
            assert!(BLOCK_FORMATS.iter().any(|(known, _)| *known == fourcc));
            return image::load_from_memory_with_format(bytes, ImageFormat::Dds)
                .unwrap()
                .into_rgba8()
                .into_raw();
        }
        let (width, height) = (word(16) as usize, word(12) as usize);
        let masks = [word(92), word(96), word(100), word(104)];
        (0..width * height)
            .flat_map(|pixel| {
                let value = word(128 + pixel * 4);
                masks.map(|mask| ((value & mask) >> mask.trailing_zeros()) as u8)
            })
            .collect()
    }

    /// The largest difference between two images' bytes.
    fn largest_difference(a: &[u8], b: &[u8]) -> u8 {
        assert_eq!(a.len(), b.len());
        a.iter()
            .zip(b)
            .map(|(a, b)| a.abs_diff(*b))
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn dds_pixels_equal_an_independent_decoders_within_dxt_rounding() {
        for (seed, (fourcc, block_bytes)) in BLOCK_FORMATS.into_iter().enumerate() {
            let fourcc = u32::from_le_bytes(*fourcc);
            let bytes = dds(
                8,
                8,
                [32, 0x4, fourcc, 0, 0, 0, 0, 0],
                &noise(4 * block_bytes, seed as u32),
            );
            let decoded = decode(&bytes, ImageFormat::Dds).unwrap().into_rgba8();
            assert_eq!(decoded.dimensions(), (8, 8));
            let (mut ours, mut theirs) = (decoded.into_raw(), independent(&bytes));
            if seed == 0 {
                // DXT1's fourth colour in three-colour blocks is transparent
                // black, which image-rs reads as opaque black (it gives DXT1
                // no alpha): compare the colours, and the alpha as 0 exactly
                // where the colour is black.
                for pixel in ours.chunks_exact(4) {
                    assert!(pixel[3] == 255 || pixel == [0, 0, 0, 0], "{pixel:?}");
                }
                for pixel in ours.chunks_exact_mut(4).chain(theirs.chunks_exact_mut(4)) {
                    pixel[3] = 255;
                }
            }
            let difference = largest_difference(&ours, &theirs);
            assert!(difference <= 1, "{fourcc:#x}: {difference}");
        }
        let bytes = dds(4, 2, A8R8G8B8, &noise(4 * 4 * 2, 7));
        let decoded = decode(&bytes, ImageFormat::Dds).unwrap().into_rgba8();
        assert_eq!(decoded.as_raw(), &independent(&bytes));
    }

    #[test]
    fn the_real_dds_textures_decode_as_an_independent_decoder_reads_them() {
        let Some(corpus) = ::tests::corpus_dir() else {
            return;
        };
        let folder = corpus.join("swg/texture");
        let (mut compressed, mut uncompressed) = (0, 0);
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            let decoded = decode(&bytes, ImageFormat::Dds)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
                .into_rgba8();
            let difference = largest_difference(decoded.as_raw(), &independent(&bytes));
            assert!(difference <= 1, "{}: {difference}", path.display());
            if bytes[80] & 0x4 != 0 {
                compressed += 1;
            } else {
                uncompressed += 1;
            }
        }
        assert_eq!((compressed, uncompressed), (35, 3));
    }

    #[test]
    fn a_dds_claiming_a_huge_image_or_cut_short_is_refused_without_decoding() {
        let huge = dds(5000, 5000, A8R8G8B8, &[0; 64]);
        assert!(matches!(
            decode(&huge, ImageFormat::Dds),
            Err(TextureError::TooLarge {
                width: 5000,
                height: 5000
            })
        ));
        let short = dds(64, 64, A8R8G8B8, &[0; 64]);
        assert!(matches!(
            decode(&short, ImageFormat::Dds),
            Err(TextureError::Dds(_))
        ));
        for length in [0, 4, 100, 127] {
            assert!(
                decode(&huge[..length], ImageFormat::Dds).is_err(),
                "{length}"
            );
        }
    }
}
