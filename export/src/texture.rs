//! Materials: the image a mesh's texture names, PNG-encoded into the
//! asset, or a plain material where there is none.

use std::collections::HashMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use formats::files::{Files, FindError, FoundFile};
use formats::rig::{self, RigError};
use gltf::json;
use image::ImageFormat;
use json::validation::Checked;

use crate::buffer::Asset;
use crate::encoded::{kept_or_made, ContentKey};
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

/// Decoded pixels: 8-bit RGBA, rows from the top.
#[derive(Debug, Clone, PartialEq)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    /// A digest of what the pixels were made from (the source file's
    /// bytes, and what changed them), by which their encoding is kept.
    pub content: ContentKey,
}

impl Pixels {
    /// The pixel at `(x, y)` of an image `width` x `height` scaled onto
    /// this one (nearest), so that a mask of another size lines up.
    pub(crate) fn scaled_alpha(&self, x: u32, y: u32, width: u32, height: u32) -> u8 {
        let sx = (u64::from(x) * u64::from(self.width) / u64::from(width.max(1))) as usize;
        let sy = (u64::from(y) * u64::from(self.height) / u64::from(height.max(1))) as usize;
        let at = (sy * self.width as usize + sx) * 4 + 3;
        self.rgba.get(at).copied().unwrap_or(255)
    }
}

/// A Star Wars Galaxies shader's material, as [`crate::shader::material`]
/// makes it and [`Materials`] puts it in the asset.
#[derive(Debug, Clone, PartialEq)]
pub struct ShaderMaterial {
    /// The shader's path as the mesh names it (`shader/twk_f_skull.sht`).
    pub name: String,
    /// Where the main texture (as the customization chose it) was found.
    pub main_texture: Option<PathBuf>,
    /// The main texture with the palette colours applied as the effect
    /// applies them; `None` when the main texture is missing.
    pub base_colour: Option<Pixels>,
    /// The normal map as glTF wants it (x, y up, z); `None` when there is
    /// none.
    pub normal: Option<Pixels>,
    /// Whether the base colour's alpha is transparency.
    pub blend: bool,
    /// The names of the shader's customization variables.
    pub variables: Vec<String>,
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
        let texture = png_texture(asset, &png, name.clone());
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
                &png,
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
pub(crate) fn png_texture(
    asset: &mut Asset,
    png: &[u8],
    name: Option<String>,
) -> json::Index<json::Texture> {
    let view = asset.png_view(png);
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

/// Decoded pixels as PNG, encoded once per content (see [`crate::encoded`]).
pub(crate) fn pixels_png(pixels: &Pixels) -> Result<Arc<[u8]>, TextureError> {
    kept_or_made(pixels.content, || {
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
    })
}

/// A matte, non-metallic material (the games had no other kind), coloured
/// by `texture` or plain white.
pub(crate) fn material(
    name: Option<String>,
    texture: Option<json::Index<json::Texture>>,
) -> json::Material {
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

/// The digest of an image file's content as it is decoded: its format
/// and its bytes.
pub(crate) fn file_key(found: &FoundFile) -> Result<ContentKey, TextureError> {
    Ok(image_key(&found.bytes, format_of(found)?))
}

/// The digest of an image's bytes decoded as `format`.
fn image_key(bytes: &[u8], format: ImageFormat) -> ContentKey {
    let format = format!("{format:?}");
    ContentKey::of(&[b"image file", format.as_bytes(), bytes])
}

/// The image as PNG (see [`image_png`]).
fn png(found: &FoundFile) -> Result<Arc<[u8]>, TextureError> {
    image_png(&found.bytes, format_of(found)?)
}

/// An image of `format` as PNG, made once per content (see
/// [`crate::encoded`]): a PNG as it is when glTF takes it as it is
/// ([`plain_png`]), else its pixels encoded again. Either way it is
/// decoded first (see [`decode`]), so that what goes into the asset is an
/// image that decodes whole.
pub(crate) fn image_png(bytes: &[u8], format: ImageFormat) -> Result<Arc<[u8]>, TextureError> {
    kept_or_made(image_key(bytes, format), || {
        let decoded = decode(bytes, format)?;
        if format == ImageFormat::Png && plain_png(bytes) {
            return Ok(bytes.to_vec());
        }
        let mut png = Vec::new();
        decoded.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)?;
        Ok(png)
    })
}

/// The chunks a PNG may have before its pixel data for glTF to take it as
/// it is: what the Khronos validator reads without a word, and nothing that
/// says how to show the colours (an ICC profile, gamma or primaries other
/// than sRGB's, which glTF ignores and the validator warns of), an
/// animation (`acTL`) or non-square pixels. Every other chunk before the
/// pixels has the image encoded again, which leaves them out.
const PLAIN_CHUNKS: [&[u8; 4]; 15] = [
    b"IHDR", b"PLTE", b"tRNS", b"sRGB", b"gAMA", b"cHRM", b"pHYs", b"bKGD", b"sBIT", b"hIST",
    b"sPLT", b"tEXt", b"zTXt", b"iTXt", b"tIME",
];

/// sRGB's gamma in a `gAMA` chunk (1 / 2.2, times 100,000).
const SRGB_GAMMA: [u8; 4] = 45_455u32.to_be_bytes();

/// sRGB's white point and primaries in a `cHRM` chunk (x, y of white, red,
/// green, blue, times 100,000).
const SRGB_PRIMARIES: [u32; 8] = [
    31_270, 32_900, 64_000, 33_000, 30_000, 60_000, 15_000, 6_000,
];

/// Whether a PNG file goes into glTF as it is: its signature, then a
/// 13-byte `IHDR` first, then only [`PLAIN_CHUNKS`] up to the first `IDAT`,
/// each whole and of the length the PNG specification gives it, `gAMA` and
/// `cHRM` giving sRGB's values, `pHYs` square pixels.
fn plain_png(bytes: &[u8]) -> bool {
    const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
    let Some(mut rest) = bytes.strip_prefix(&SIGNATURE) else {
        return false;
    };
    let mut first = true;
    loop {
        let Some((PngChunk { kind, data, .. }, after)) = png_chunk(rest) else {
            return false;
        };
        if first && kind != b"IHDR" {
            return false;
        }
        first = false;
        if kind == b"IDAT" {
            return true;
        }
        let fits = match kind {
            b"IHDR" => data.len() == 13,
            b"sRGB" => data.len() == 1,
            b"gAMA" => data == SRGB_GAMMA,
            b"cHRM" => {
                data.len() == 32
                    && data
                        .chunks_exact(4)
                        .zip(SRGB_PRIMARIES)
                        .all(|(value, srgb)| value == srgb.to_be_bytes())
            }
            b"pHYs" => data.len() == 9 && data.get(..4) == data.get(4..8),
            other => PLAIN_CHUNKS.contains(&other),
        };
        if !fits {
            return false;
        }
        rest = after;
    }
}

/// One chunk of a PNG file, as it lies.
pub(crate) struct PngChunk<'a> {
    pub kind: &'a [u8; 4],
    pub data: &'a [u8],
    /// The checksum stored after the data (see [`png_chunk_checksum`]).
    pub checksum: u32,
}

/// A PNG chunk at the start of `bytes`, and the bytes after it; `None`
/// when it is cut short.
pub(crate) fn png_chunk(bytes: &[u8]) -> Option<(PngChunk<'_>, &[u8])> {
    let (length, rest) = bytes.split_first_chunk::<4>()?;
    let length = usize::try_from(u32::from_be_bytes(*length)).ok()?;
    let (kind, rest) = rest.split_first_chunk::<4>()?;
    let (data, rest) = rest.split_at_checked(length)?;
    let (checksum, after) = rest.split_first_chunk::<4>()?;
    let checksum = u32::from_be_bytes(*checksum);
    Some((
        PngChunk {
            kind,
            data,
            checksum,
        },
        after,
    ))
}

/// A whole PNG chunk of `kind` holding `data`: its length, kind, data and
/// checksum.
pub(crate) fn png_chunk_bytes(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let length = u32::try_from(data.len()).unwrap_or(u32::MAX);
    [
        &length.to_be_bytes()[..],
        kind,
        data,
        &png_chunk_checksum(kind, data).to_be_bytes(),
    ]
    .concat()
}

/// A PNG chunk's checksum: the CRC-32 of its kind and data.
pub(crate) fn png_chunk_checksum(kind: &[u8; 4], data: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(kind);
    crc.update(data);
    crc.sum()
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

    /// A PNG of `pixels` (RGB, `width` wide) with `chunk` (kind, data)
    /// put before its pixel data, checksums and all.
    fn png_with_chunk(width: u32, pixels: &[u8], chunk: Option<(&[u8; 4], &[u8])>) -> Vec<u8> {
        let mut plain = Vec::new();
        image::write_buffer_with_format(
            &mut Cursor::new(&mut plain),
            pixels,
            width,
            pixels.len() as u32 / 3 / width,
            image::ExtendedColorType::Rgb8,
            ImageFormat::Png,
        )
        .unwrap();
        let Some((kind, data)) = chunk else {
            return plain;
        };
        // After the signature and IHDR (8 + 25 bytes).
        let (head, tail) = plain.split_at(33);
        let mut checked = kind.to_vec();
        checked.extend(data);
        let mut bytes = head.to_vec();
        bytes.extend((data.len() as u32).to_be_bytes());
        bytes.extend(&checked);
        bytes.extend(crc32(&checked).to_be_bytes());
        bytes.extend(tail);
        bytes
    }

    /// PNG's CRC-32 (ISO 3309), bit by bit.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for byte in bytes {
            crc ^= u32::from(*byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xedb8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn a_plain_png_goes_as_it_is_and_one_gltf_would_warn_of_is_encoded_again() {
        let pixels: Vec<u8> = noise(3 * 4 * 3, 11);
        let found = |bytes: Vec<u8>| FoundFile {
            path: PathBuf::from("skin.png"),
            bytes,
        };
        let srgb_gamma = 45_455u32.to_be_bytes();
        let square = [0, 0, 11, 19, 0, 0, 11, 19, 1];
        for chunk in [
            None,
            Some((b"gAMA", &srgb_gamma[..])),
            Some((b"pHYs", &square[..])),
            Some((b"tEXt", &b"Comment\0hi"[..])),
        ] {
            let bytes = png_with_chunk(4, &pixels, chunk);
            assert!(plain_png(&bytes), "{chunk:?}");
            assert_eq!(
                &*png(&found(bytes.clone())).unwrap(),
                &bytes[..],
                "{chunk:?}"
            );
        }
        let linear = 100_000u32.to_be_bytes();
        let oblong = [0, 0, 11, 19, 0, 0, 22, 38, 1];
        for chunk in [
            (b"gAMA", &linear[..]),
            (b"pHYs", &oblong[..]),
            (b"iCCP", &b"profile\0\0x"[..]),
            (b"acTL", &[0, 0, 0, 1, 0, 0, 0, 0][..]),
        ] {
            let bytes = png_with_chunk(4, &pixels, Some(chunk));
            assert!(!plain_png(&bytes), "{chunk:?}");
            let encoded = png(&found(bytes.clone())).unwrap();
            assert_ne!(&*encoded, &bytes[..]);
            let decoded = image::load_from_memory(&encoded).unwrap().into_rgb8();
            assert_eq!(decoded.into_raw(), pixels, "{chunk:?}");
        }
        // Cut short anywhere before the pixels, or not a PNG: never as it is.
        let bytes = png_with_chunk(4, &pixels, None);
        for length in [0, 8, 20, 33, 40] {
            assert!(!plain_png(&bytes[..length]), "{length}");
        }
        // A PNG of a size past the limit is refused from its header.
        let mut huge = bytes.clone();
        huge[16..20].copy_from_slice(&5000u32.to_be_bytes());
        let checksum = crc32(&huge[12..29]);
        huge[29..33].copy_from_slice(&checksum.to_be_bytes());
        assert!(matches!(
            png(&found(huge)),
            Err(TextureError::TooLarge { width: 5000, .. })
        ));
    }

    #[test]
    fn the_prototypes_png_textures_go_into_gltf_as_they_are() {
        let Some(corpus) = ::tests::corpus_dir() else {
            return;
        };
        let folder = corpus.join("sims1-prototype/Textures");
        let mut passed = 0;
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if !path
                .extension()
                .is_some_and(|extension| extension.eq_ignore_ascii_case("png"))
            {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let made = png(&FoundFile {
                path: path.clone(),
                bytes: bytes.clone(),
            })
            .unwrap();
            assert_eq!(&*made, &bytes[..], "{}", path.display());
            passed += 1;
        }
        assert!(passed >= 13, "{passed}");
    }

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
