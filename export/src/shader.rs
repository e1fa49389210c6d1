//! Star Wars Galaxies materials: what a mesh's shader (`shader/*.sht`)
//! describes, made into pixels glTF and the renderer can show.
//!
//! A shader names its textures by tag and the effect (`effect\*.eft`) that
//! combines them; a customizable shader adds variables that choose palette
//! entries (texture factors) and textures. The game's effects are pixel
//! programs that are not public, so the combination is taken from what the
//! client's sources show of them (SWG-Source/client-tools:
//! `Direct3d9_StaticShaderData` hands an effect pass two texture factors,
//! `textureFactor` and `textureFactor2`, each the ARGB a shader's `TFAC`
//! gives its tag, which `CustomizableShaderTemplate`'s
//! `TextureFactorIntOperation` sets to the palette entry a variable
//! chooses) and from the real textures, and applied here, in
//! [`base_colour`]:
//!
//! - a "color2" effect (`h_color2_specmap_cbmp`, `h_alpha_color2_...`)
//!   blends the two factors, `MAIN`'s and `HUEB`'s, by a mask: the alpha
//!   of the `HUEB` texture where the shader has one (the eyes: the iris
//!   takes the eye colour), else the alpha of the `MAIN` texture (a
//!   Twi'lek's head-tail pattern: the plain pattern 00 is opaque, all
//!   skin); the main texture's colour is multiplied by the blend;
//! - any other effect multiplies the main texture's colour by `MAIN`'s
//!   factor (white where the shader has none);
//! - an "alpha" effect keeps the main texture's alpha as transparency (the
//!   eyelashes); the others are opaque (their main alpha is a mask).
//!
//! The environment map (`ENVM`, which the game supplies: `env_theed.dds`
//! is not public) only adds reflections, and the specular map (`SPEC`)
//! only highlights: both are left out, so eyes and teeth show their main
//! texture. The compressed normal map (`CNRM`, DXT5 with x in alpha and y
//! in green, Direct3D's y down) becomes glTF's normal texture (x, y up, z).

use std::path::PathBuf;

use formats::files::{Files, FindError, FoundFile};
use formats::schema::{BinarySchema, RawString};
use formats::swg::pal::Palette;
use formats::swg::sht::{tags, Choice, Shader, Tag, Tinted};

use crate::encoded::ContentKey;
use crate::texture;
use crate::texture::{Pixels, ShaderMaterial};

/// Customization variables' values by name (`index_color_skin`, 12), as
/// `--custom NAME=INDEX` gives them; the last given for a name counts.
pub type Customization = [(String, i32)];

/// A customization as people give it, `NAME=INDEX` (the command line's
/// `--custom`): the index a whole number.
pub fn custom_value(text: &str) -> Result<(String, i32), String> {
    let (name, value) = text
        .rsplit_once('=')
        .filter(|(name, _)| !name.is_empty())
        .ok_or_else(|| {
            format!(
                "`{}` is not NAME=INDEX, e.g. index_color_skin=12",
                crate::quoted(text)
            )
        })?;
    let value = value.trim().parse().map_err(|_| {
        format!(
            "`{}` in `{}` is not a whole number",
            crate::quoted(value),
            crate::quoted(text)
        )
    })?;
    Ok((name.to_owned(), value))
}

/// Whether a mesh's texture names a Star Wars Galaxies shader (`.sht`).
pub fn names_shader(texture: &str) -> bool {
    texture
        .rsplit_once('.')
        .is_some_and(|(_, extension)| extension.eq_ignore_ascii_case("sht"))
}

/// The material of the shader `name` (a mesh's texture), its files found
/// through `files` (under the folder holding `appearance/`, or the root,
/// without regard to case or slash direction), customized by `custom`
/// (a variable not given: palette entry 0 and the texture the shader
/// names). Each problem is a warning given to `warn` with the file (or
/// variable) it is about, so that a caller can say each once: it names the
/// shader and the file looked for; what can be had is still made. `None`
/// when the shader itself cannot be had.
pub fn material(
    name: &str,
    files: &Files,
    custom: &Customization,
    warn: &mut dyn FnMut(&str, String),
) -> Option<ShaderMaterial> {
    let shader_path = RawString::from(name);
    let shader = match Shader::find_file(files, &shader_path) {
        Ok(found) => match Shader::from_bytes(&found.bytes) {
            Ok(shader) => shader,
            Err(error) => {
                warn(
                    name,
                    format!(
                        "{}: cannot read the shader: {error}; its meshes get a plain material",
                        shown_path(&found.path)
                    ),
                );
                return None;
            }
        },
        Err(error) => {
            warn(
                name,
                format!(
                    "the shader {}: {}; its meshes get a plain material",
                    crate::quoted(name),
                    missing(&error)
                ),
            );
            return None;
        }
    };
    let mut problem = |file: &str, what: String| {
        warn(
            file,
            format!("{}: {}: {what}", crate::quoted(name), crate::quoted(file)),
        )
    };
    let chosen = Chosen::new(&shader, custom, &mut problem);
    let main = chosen.texture(&shader, files, tags::MAIN, &mut problem);
    let hue_mask = chosen.texture(&shader, files, tags::HUEB, &mut problem);
    let normal = chosen.texture(&shader, files, tags::CNRM, &mut problem);
    let factor = |tag: Tag, problem: &mut dyn FnMut(&str, String)| {
        chosen
            .factor(&shader, files, tag, problem)
            .unwrap_or([255; 3])
    };
    let main_factor = factor(tags::MAIN, &mut problem);
    let hue_factor = factor(tags::HUEB, &mut problem);
    let effect = Effect::of(&shader.base().effect().to_text());
    let hue_mask = hue_mask.map(|(_, pixels)| pixels);
    let (main_texture, base_colour) = match main {
        Some((path, main)) => (
            Some(path),
            Some(base_colour(
                &main,
                hue_mask.as_ref(),
                effect,
                [main_factor, hue_factor],
            )),
        ),
        None => (None, None),
    };
    Some(ShaderMaterial {
        name: name.to_owned(),
        main_texture,
        base_colour,
        normal: normal.map(|(_, normal)| gltf_normal(&normal)),
        blend: effect.alpha,
        variables: shader
            .variables()
            .iter()
            .map(|variable| variable.name.to_text())
            .collect(),
    })
}

/// A customization variable of a character's shaders, as a control that
/// sets it shows it (the viewer's): a name whose value, `0..choices`,
/// chooses a palette entry or a texture.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Variable {
    /// As the shaders name it, and `--custom` takes it (`index_color_skin`).
    pub name: String,
    /// How many values it takes.
    pub choices: u32,
    /// The value drawn when none is chosen: palette entry 0, or the
    /// texture the shader itself names.
    pub default: u32,
    pub chooses: Chooses,
}

/// What a variable's value chooses.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Chooses {
    /// An entry of `palette`, whose colours are `#rrggbb` in entry order.
    Palette {
        palette: String,
        colours: Vec<String>,
    },
    /// One of `textures`, for the shaders' texture of `tag` (`MAIN`).
    Texture { tag: String, textures: Vec<String> },
}

/// The customization variables of the shaders `names` (meshes' textures;
/// names of other files are passed over), each name once (the first shader
/// declaring it says what it chooses), in the order met, as the materials
/// apply them: palette entries tinting a texture factor, and texture
/// switches. A variable that changes nothing drawn (a material's lighting
/// colour) or has no choices is left out; a shader or palette that cannot
/// be had gives none, silently: the export says so.
pub fn variables<'a>(names: impl IntoIterator<Item = &'a str>, files: &Files) -> Vec<Variable> {
    let mut variables: Vec<Variable> = Vec::new();
    let mut shaders: Vec<&str> = Vec::new();
    for name in names.into_iter().filter(|name| names_shader(name)) {
        if shaders.contains(&name) {
            continue;
        }
        shaders.push(name);
        let Some(shader) = Shader::find_file(files, &RawString::from(name))
            .ok()
            .and_then(|found| Shader::from_bytes(&found.bytes).ok())
        else {
            continue;
        };
        for variable in shader.variables() {
            let name = variable.name.to_text();
            if variables
                .iter()
                .any(|known| known.name.eq_ignore_ascii_case(&name))
            {
                continue;
            }
            if let Some(variable) = shown_variable(&shader, files, name, variable.choice) {
                variables.push(variable);
            }
        }
    }
    variables
}

/// A variable named `name` choosing `choice`, as the materials apply it;
/// `None` when it changes nothing drawn or has no choices.
fn shown_variable(
    shader: &Shader,
    files: &Files,
    name: String,
    choice: Choice<'_>,
) -> Option<Variable> {
    let (default, chooses) = match choice {
        Choice::Palette {
            palette,
            tinted: Tinted::TextureFactor(_),
            ..
        } => {
            let found = Shader::find_file(files, palette).ok()?;
            let colours: Vec<String> = Palette::from_bytes(&found.bytes)
                .ok()?
                .entries
                .iter()
                .map(|entry| format!("#{:02x}{:02x}{:02x}", entry.red, entry.green, entry.blue))
                .collect();
            // Tinted with entry 0 unless told.
            let chooses = Chooses::Palette {
                palette: palette.to_text(),
                colours,
            };
            (0, chooses)
        }
        // Material colours tint lighting, which the materials do not take
        // from a palette.
        Choice::Palette { .. } => return None,
        Choice::Texture { tag, textures, .. } => {
            // Unless told, the texture the shader itself names.
            let own = shader.texture(tag).and_then(|texture| texture.name);
            let default = own
                .and_then(|own| textures.iter().position(|one| same_path(one, own)))
                .unwrap_or(0);
            let chooses = Chooses::Texture {
                tag: tag.to_string(),
                textures: textures.iter().map(RawString::to_text).collect(),
            };
            (u32::try_from(default).ok()?, chooses)
        }
    };
    let count = match &chooses {
        Chooses::Palette { colours, .. } => colours.len(),
        Chooses::Texture { textures, .. } => textures.len(),
    };
    let choices = u32::try_from(count).unwrap_or(u32::MAX);
    (choices > 0).then_some(Variable {
        name,
        choices,
        default,
        chooses,
    })
}

/// Whether two paths a shader gives name the same file, as the game finds
/// files: without regard to case or slash direction.
fn same_path(one: &RawString, other: &RawString) -> bool {
    let normal = |path: &RawString| path.to_text().replace('\\', "/").to_ascii_lowercase();
    normal(one) == normal(other)
}

/// What an effect's name says of how it combines textures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Effect {
    /// Two texture factors blended by a mask (`color2`).
    pub two_colours: bool,
    /// The main texture's alpha is transparency (`alpha`).
    pub alpha: bool,
}

impl Effect {
    /// The effect of the path a shader names (`effect\h_color2_specmap_cbmp.eft`).
    pub fn of(path: &str) -> Effect {
        let stem = path
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(path)
            .to_ascii_lowercase();
        Effect {
            two_colours: stem.contains("color2"),
            alpha: stem.contains("alpha"),
        }
    }
}

/// The main texture coloured as `effect` colours it: each pixel's colour
/// times `factors[0]` (`MAIN`'s), or, for a two-colour effect, times the
/// blend from `factors[0]` to `factors[1]` (`HUEB`'s) by the mask (the
/// alpha of `hue_mask`, else of the main texture); the alpha kept for an
/// alpha effect, else opaque. Rounded to the nearest.
pub fn base_colour(
    main: &Pixels,
    hue_mask: Option<&Pixels>,
    effect: Effect,
    factors: [[u8; 3]; 2],
) -> Pixels {
    let [first, second] = factors.map(|factor| factor.map(f32::from));
    // Each channel's every value as the effect colours it, under each mask
    // (one for a one-colour effect): worked out once, not per pixel.
    let masks = if effect.two_colours { 256 } else { 1 };
    let coloured: Vec<[[u8; 256]; 3]> = (0..masks)
        .map(|mask| {
            let mask = mask as f32 / 255.0;
            let factor: [f32; 3] = if effect.two_colours {
                std::array::from_fn(|channel| {
                    first[channel] + (second[channel] - first[channel]) * mask
                })
            } else {
                first
            };
            factor.map(|factor| {
                std::array::from_fn(|value| (value as f32 * factor / 255.0).round() as u8)
            })
        })
        .collect();
    let mut rgba = main.rgba.clone();
    let width = main.width.max(1);
    for (index, pixel) in rgba.chunks_exact_mut(4).enumerate() {
        let main_alpha = pixel.get(3).copied().unwrap_or(255);
        let mask = match (effect.two_colours, hue_mask) {
            (false, _) => 0,
            (true, Some(mask)) => {
                let (x, y) = (index as u32 % width, index as u32 / width);
                mask.scaled_alpha(x, y, main.width, main.height)
            }
            (true, None) => main_alpha,
        };
        if let Some(table) = coloured.get(usize::from(mask)) {
            for (value, channel) in pixel.iter_mut().zip(table) {
                *value = channel[usize::from(*value)];
            }
        }
        if let Some(alpha) = pixel.get_mut(3) {
            *alpha = if effect.alpha { main_alpha } else { 255 };
        }
    }
    let flags = [u8::from(effect.two_colours), u8::from(effect.alpha)];
    let mask_content = hue_mask.map(|mask| mask.content.bytes());
    let content = ContentKey::of(&[
        b"base colour",
        &main.content.bytes(),
        mask_content.as_ref().map_or(&[][..], |bytes| &bytes[..]),
        &flags,
        &factors.concat(),
    ]);
    Pixels {
        width: main.width,
        height: main.height,
        rgba,
        content,
    }
}

/// A compressed normal map (x in alpha, y in green, Direct3D's y down) as
/// glTF's normal texture: x, y up and the z that makes the normal whole.
fn gltf_normal(compressed: &Pixels) -> Pixels {
    let unit = |value: u8| f32::from(value) / 127.5 - 1.0;
    let byte = |value: f32| ((value + 1.0) * 127.5).round().clamp(0.0, 255.0) as u8;
    // x's byte for each alpha, y's for each green, z's for each pair:
    // worked out once, not per pixel.
    let x_bytes: [u8; 256] = std::array::from_fn(|alpha| byte(unit(alpha as u8)));
    let y_bytes: [u8; 256] = std::array::from_fn(|green| byte(-unit(green as u8)));
    let z_bytes: Vec<[u8; 256]> = (0..=u8::MAX)
        .map(|alpha| {
            std::array::from_fn(|green| {
                let (x, y) = (unit(alpha), -unit(green as u8));
                byte((1.0 - x * x - y * y).max(0.0).sqrt())
            })
        })
        .collect();
    let mut rgba = Vec::with_capacity(compressed.rgba.len());
    for pixel in compressed.rgba.chunks_exact(4) {
        if let [_, green, _, alpha] = *pixel {
            let (x, y) = (usize::from(alpha), usize::from(green));
            let z = z_bytes.get(x).map_or(0, |row| row[y]);
            rgba.extend_from_slice(&[x_bytes[x], y_bytes[y], z, 255]);
        }
    }
    Pixels {
        width: compressed.width,
        height: compressed.height,
        rgba,
        content: ContentKey::of(&[b"glTF normal", &compressed.content.bytes()]),
    }
}

/// A file that cannot be had, briefly: the paths looked at (each made of
/// a name from a file, so quoted as a message quotes input).
fn missing(error: &FindError) -> String {
    match error {
        FindError::Missing { tried, .. } => format!(
            "not found (looked for {})",
            tried
                .iter()
                .map(|path| shown_path(path))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        FindError::Unreadable { path, source } => format!("{}: {source}", shown_path(path)),
    }
}

/// A path made of a name from a file, as a message shows it: at most 60
/// characters, nothing raw.
fn shown_path(path: &std::path::Path) -> String {
    crate::quoted(&path.display().to_string())
}

/// The customization as it applies to one shader: per tag, the texture a
/// switch chooses and the palette entry that tints its factor.
struct Chosen {
    /// (tag, texture path) chosen by a texture switch.
    textures: Vec<(Tag, RawString)>,
    /// (tag, palette path, entry) for a texture factor tinted by a palette.
    factors: Vec<(Tag, RawString, usize)>,
}

impl Chosen {
    fn new(
        shader: &Shader,
        custom: &Customization,
        problem: &mut dyn FnMut(&str, String),
    ) -> Chosen {
        let mut chosen = Chosen {
            textures: Vec::new(),
            factors: Vec::new(),
        };
        for variable in shader.variables() {
            let name = variable.name.to_text();
            let value = custom
                .iter()
                .rev()
                .find(|(given, _)| given.eq_ignore_ascii_case(&name))
                .map(|&(_, value)| value);
            match variable.choice {
                Choice::Palette {
                    palette,
                    tinted: Tinted::TextureFactor(tag),
                    ..
                } => {
                    let entry = match value.map(usize::try_from) {
                        None => 0,
                        Some(Ok(entry)) => entry,
                        Some(Err(_)) => {
                            problem(
                                &name,
                                format!(
                                    "{} is not a palette entry; entry 0 is used",
                                    value.unwrap_or_default()
                                ),
                            );
                            0
                        }
                    };
                    chosen.factors.push((tag, palette.clone(), entry));
                }
                // Material colours tint lighting, which glTF's material does not take from a palette.
                Choice::Palette { .. } => {}
                Choice::Texture { tag, textures, .. } => {
                    let Some(value) = value else { continue };
                    match usize::try_from(value).ok().and_then(|index| textures.get(index)) {
                        Some(texture) => chosen.textures.push((tag, texture.clone())),
                        None => problem(
                            &name,
                            format!(
                                "{value} chooses none of its {} textures; the shader's own {tag} texture is used",
                                textures.len()
                            ),
                        ),
                    }
                }
            }
        }
        chosen
    }

    /// The texture of `tag`, where it was found and decoded: the one a
    /// switch chose, else the one the shader names; `None` (with a warning when it is missing or
    /// unreadable) when there is none to show.
    fn texture(
        &self,
        shader: &Shader,
        files: &Files,
        tag: Tag,
        problem: &mut dyn FnMut(&str, String),
    ) -> Option<(PathBuf, Pixels)> {
        let path = match self
            .textures
            .iter()
            .rev()
            .find(|(chosen, _)| *chosen == tag)
        {
            Some((_, path)) => path.clone(),
            None => {
                let texture = shader.texture(tag).filter(|texture| !texture.placeholder)?;
                texture.name?.clone()
            }
        };
        let found = find(files, &path, problem)?;
        let decoded =
            texture::file_key(&found).and_then(|content| Ok((content, texture::rgba(&found)?)));
        match decoded {
            Ok((content, (width, height, rgba))) => Some((
                found.path,
                Pixels {
                    width,
                    height,
                    rgba,
                    content,
                },
            )),
            Err(error) => {
                problem(&found.path.display().to_string(), error.to_string());
                None
            }
        }
    }

    /// The texture factor of `tag` (red, green, blue): the palette entry a
    /// variable chooses, else the shader's own `TFAC`; `None` when neither
    /// gives one.
    fn factor(
        &self,
        shader: &Shader,
        files: &Files,
        tag: Tag,
        problem: &mut dyn FnMut(&str, String),
    ) -> Option<[u8; 3]> {
        let Some((_, palette, entry)) = self
            .factors
            .iter()
            .rev()
            .find(|(chosen, ..)| *chosen == tag)
        else {
            let argb = shader.base().texture_factor(tag)?;
            return Some([(argb >> 16) as u8, (argb >> 8) as u8, argb as u8]);
        };
        let found = find(files, palette, problem)?;
        let path = found.path.display().to_string();
        let palette = match Palette::from_bytes(&found.bytes) {
            Ok(palette) => palette,
            Err(error) => {
                problem(&path, format!("cannot read the palette: {error}"));
                return None;
            }
        };
        palette.color(*entry).or_else(|| {
            problem(
                &path,
                format!(
                    "entry {entry} is past its {} entries; entry 0 is used",
                    palette.entries.len()
                ),
            );
            palette.color(0)
        })
    }
}

/// Reads a file a shader names; a warning when it cannot be had.
fn find(
    files: &Files,
    path: &RawString,
    problem: &mut dyn FnMut(&str, String),
) -> Option<FoundFile> {
    match Shader::find_file(files, path) {
        Ok(found) => Some(found),
        Err(error) => {
            problem(&path.to_text(), missing(&error));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixels(width: u32, rgba: &[[u8; 4]]) -> Pixels {
        Pixels {
            width,
            height: rgba.len() as u32 / width,
            rgba: rgba.concat(),
            content: ContentKey::of(&[&rgba.concat()]),
        }
    }

    #[test]
    fn one_colour_effects_multiply_the_main_texture_by_mains_factor() {
        let main = pixels(2, &[[200, 100, 50, 30], [255, 255, 255, 255]]);
        let effect = Effect::of("effect\\h_specmap_cbmp.eft");
        assert_eq!(
            effect,
            Effect {
                two_colours: false,
                alpha: false
            }
        );
        let coloured = base_colour(&main, None, effect, [[128, 64, 255], [0, 0, 0]]);
        // 200 * 128 / 255 = 100.4, 100 * 64 / 255 = 25.1, 50 * 255 / 255;
        // the main alpha is a mask, not transparency.
        assert_eq!(coloured.rgba, [100, 25, 50, 255, 128, 64, 255, 255]);
    }

    #[test]
    fn two_colour_effects_blend_the_factors_by_the_hue_mask_or_else_the_main_alpha() {
        let main = pixels(2, &[[255, 255, 255, 0], [255, 255, 255, 255]]);
        let effect = Effect::of("effect/h_color2_specmap_cbmp.eft");
        assert!(effect.two_colours && !effect.alpha);
        let factors = [[200, 0, 100], [0, 200, 50]];
        // By the main alpha: 0 gives the first factor, 255 the second.
        let coloured = base_colour(&main, None, effect, factors);
        assert_eq!(coloured.rgba, [200, 0, 100, 255, 0, 200, 50, 255]);
        // By a hue mask of half the size, stretched: alpha 51 is a fifth.
        let mask = pixels(1, &[[0, 0, 0, 51]]);
        let alpha = Effect::of("effect\\h_alpha_color2_envmask_specmap.eft");
        assert!(alpha.two_colours && alpha.alpha);
        let coloured = base_colour(&main, Some(&mask), alpha, factors);
        assert_eq!(coloured.rgba, [160, 40, 90, 0, 160, 40, 90, 255]);
    }

    #[test]
    fn the_worked_out_tables_give_what_each_pixels_own_arithmetic_gives() {
        // Every (green, alpha) pair, and every value under every mask.
        let all: Vec<[u8; 4]> = (0..=255u8)
            .flat_map(|first| (0..=255u8).map(move |second| [second, first, second, first]))
            .collect();
        let image = pixels(256, &all);
        let unit = |value: u8| f32::from(value) / 127.5 - 1.0;
        let byte = |value: f32| ((value + 1.0) * 127.5).round().clamp(0.0, 255.0) as u8;
        for (pixel, normal) in all.iter().zip(gltf_normal(&image).rgba.chunks_exact(4)) {
            let (x, y) = (unit(pixel[3]), -unit(pixel[1]));
            let z = (1.0 - x * x - y * y).max(0.0).sqrt();
            assert_eq!(normal, [byte(x), byte(y), byte(z), 255], "{pixel:?}");
        }
        let factors = [[201, 13, 255], [7, 180, 99]];
        let effect = Effect::of("effect/h_color2_specmap_cbmp.eft");
        let coloured = base_colour(&image, None, effect, factors);
        for (pixel, colour) in all.iter().zip(coloured.rgba.chunks_exact(4)) {
            let mask = f32::from(pixel[3]) / 255.0;
            let expected: Vec<u8> = (0..3)
                .map(|channel| {
                    let [first, second] = factors.map(|factor| f32::from(factor[channel]));
                    let factor = first + (second - first) * mask;
                    (f32::from(pixel[channel]) * factor / 255.0).round() as u8
                })
                .chain([255])
                .collect();
            assert_eq!(colour, expected, "{pixel:?}");
        }
    }

    #[test]
    fn compressed_normals_become_gltfs_with_y_up() {
        // x in alpha, y in green (down); flat is (0, 0, 1).
        let compressed = pixels(2, &[[0, 128, 0, 128], [0, 255, 0, 128]]);
        let normal = gltf_normal(&compressed);
        assert_eq!(&normal.rgba[..4], [128, 127, 255, 255]);
        // Green full is y down: glTF's y is then -1.
        assert_eq!(&normal.rgba[4..], [128, 0, 128, 255]);
    }

    #[test]
    fn the_twileks_variables_have_their_palettes_and_runs_ranges() {
        let Some(corpus) = ::tests::corpus_dir() else {
            return;
        };
        let files = Files::beside(&corpus.join("swg/appearance/twk_f.sat"));
        let shaders = [
            "shader/twk_f_body.sht",
            "shader/twk_f_leccu.sht",
            "shader/twk_f_face.sht",
            "shader/twk_f_body.sht",
            "texture/twk_f_head.dds",
        ];
        let found: Vec<(String, &str, u32, u32)> = variables(shaders, &files)
            .into_iter()
            .map(|variable| {
                let kind = match variable.chooses {
                    Chooses::Palette { .. } => "palette",
                    Chooses::Texture { .. } => "texture",
                };
                (variable.name, kind, variable.choices, variable.default)
            })
            .collect();
        // Defaults as drawn: palette entry 0, the head-tail pattern and
        // wrinkle map the shaders themselves name (20, s04).
        assert_eq!(
            found,
            [
                ("index_color_skin".to_owned(), "palette", 256, 0),
                ("index_color_pattern".to_owned(), "palette", 256, 0),
                ("index_texture_1".to_owned(), "texture", 21, 20),
                ("index_age".to_owned(), "texture", 4, 3),
            ]
        );
    }

    #[test]
    fn customizations_are_name_equals_whole_number() {
        assert_eq!(
            custom_value("index_color_skin=12"),
            Ok(("index_color_skin".to_owned(), 12))
        );
        assert_eq!(custom_value("a=b=-1"), Ok(("a=b".to_owned(), -1)));
        assert!(custom_value("=1").is_err());
        assert!(custom_value("index_color_skin").is_err());
        assert_eq!(
            custom_value("index_age=old"),
            Err("`old` in `index_age=old` is not a whole number".to_owned())
        );
        assert!(names_shader("shader/twk_f_body.SHT"));
        assert!(!names_shader("twk_f_body.dds"));
    }
}
