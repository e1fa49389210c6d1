//! Star Wars Galaxies characters in their own colours: `convert` to glTF
//! and `render` give each mesh the material its shader describes (the
//! main texture, decoded from DDS, coloured by the palette entries the
//! customization chooses, as the shader's effect combines them); a missing
//! texture or palette is one warning, and the rest is drawn. On the real
//! Twi'lek in `../shared/corpus/swg`, when `OSSUARY_CORPUS` is set.

mod support;

use std::path::{Path, PathBuf};

use support::{assert_status, gltf_parts, ossuary, stderr, text};

/// The corpus's `swg/` folder, when `OSSUARY_CORPUS` is set.
fn swg() -> Option<PathBuf> {
    tests::corpus_dir().map(|corpus| corpus.join("swg"))
}

/// The shaders the Twi'lek's meshes name.
const SHADERS: [&str; 6] = [
    "shader/hum_f_teeth.sht",
    "shader/twk_f_body.sht",
    "shader/twk_f_face.sht",
    "shader/twk_f_leccu.sht",
    "shader/twk_f_mouth.sht",
    "shader/twk_f_skull.sht",
];

/// The Twi'lek of `folder` (which holds `appearance/`) converted to
/// `out` with `extra` options: the asset's JSON, its buffer and what was
/// said on standard error.
fn convert(folder: &Path, out: &Path, extra: &[&str]) -> (serde_json::Value, Vec<u8>, String) {
    let appearance = text(&folder.join("appearance/twk_f.sat"));
    let mut args = vec!["convert", &appearance, "-o"];
    let out_text = text(out);
    args.push(&out_text);
    args.extend(extra);
    let output = ossuary(&args);
    assert_status(&output, 0);
    let (json, buffer) = gltf_parts(out);
    (json, buffer, stderr(&output))
}

/// The base colour image of the material named `name`, decoded.
fn base_colour(json: &serde_json::Value, buffer: &[u8], name: &str) -> Option<image::RgbaImage> {
    let material = json["materials"]
        .as_array()?
        .iter()
        .find(|material| material["name"] == name)?;
    let texture = material["pbrMetallicRoughness"]["baseColorTexture"]["index"].as_u64()?;
    let image = json["textures"][texture as usize]["source"].as_u64()?;
    let view =
        &json["bufferViews"][json["images"][image as usize]["bufferView"].as_u64()? as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let end = start + view["byteLength"].as_u64()? as usize;
    Some(
        image::load_from_memory(&buffer[start..end])
            .ok()?
            .into_rgba8(),
    )
}

/// A texture of the corpus decoded by image-rs's own DDS decoder.
fn texture_by_image_rs(swg: &Path, name: &str) -> image::RgbaImage {
    let bytes = std::fs::read(swg.join("texture").join(name)).unwrap();
    image::load_from_memory_with_format(&bytes, image::ImageFormat::Dds)
        .unwrap()
        .into_rgba8()
}

/// Entry `index` of a palette, read from the file by hand: the entries
/// start at byte 24 (RIFF header, `data` chunk header, version, count),
/// four bytes each, red, green, blue first.
fn palette_entry(swg: &Path, name: &str, index: usize) -> [f32; 3] {
    let bytes = std::fs::read(swg.join("palette").join(name)).unwrap();
    let at = 24 + 4 * index;
    [bytes[at], bytes[at + 1], bytes[at + 2]].map(f32::from)
}

/// Asserts that every pixel of `made` is `expected` of the same pixel of
/// `main` within `tolerance`.
fn assert_pixels(
    made: &image::RgbaImage,
    main: &image::RgbaImage,
    tolerance: f32,
    expected: impl Fn(&image::Rgba<u8>) -> [f32; 4],
) {
    assert_eq!(made.dimensions(), main.dimensions());
    for ((x, y, ours), source) in made.enumerate_pixels().zip(main.pixels()) {
        let expected = expected(source);
        for channel in 0..4 {
            let difference = (f32::from(ours[channel]) - expected[channel]).abs();
            assert!(
                difference <= tolerance,
                "pixel ({x}, {y}) channel {channel}: {ours:?}, expected {expected:?}"
            );
        }
    }
}

#[test]
fn the_twilek_exports_every_shaders_material_with_its_main_texture() {
    let Some(swg) = swg() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("twk_f.gltf");
    let (json, buffer, said) = convert(&swg, &out, &[]);
    assert_eq!(said, "", "every file the shaders name is there");
    let mut names: Vec<&str> = json["materials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|material| material["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, SHADERS);
    for mesh in json["meshes"].as_array().unwrap() {
        for primitive in mesh["primitives"].as_array().unwrap() {
            let material = &json["materials"][primitive["material"].as_u64().unwrap() as usize];
            let name = material["name"].as_str().unwrap();
            let image = base_colour(&json, &buffer, name)
                .unwrap_or_else(|| panic!("{name} has no base colour"));
            assert!(image.width() >= 64, "{name}");
        }
    }
    // Normal maps where the shader has one (the teeth and mouth have none).
    for material in json["materials"].as_array().unwrap() {
        let name = material["name"].as_str().unwrap();
        let bumped = !name.contains("teeth") && !name.contains("mouth");
        assert_eq!(material["normalTexture"].is_object(), bumped, "{name}");
        // The eyes' lashes are transparent.
        let alpha = if name.contains("mouth") {
            "BLEND"
        } else {
            "OPAQUE"
        };
        assert_eq!(material["alphaMode"], alpha, "{name}");
    }
    if let Some(folder) = std::env::var_os("OSSUARY_GLTF_OUT") {
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(&out, Path::new(&folder).join("swg-twk_f-textured.gltf")).unwrap();
    }
}

/// The skull's shader (`h_specmap_cbmp`) multiplies its main texture by
/// the skin palette's entry; the head-tail's (`h_color2_specmap_cbmp`)
/// blends the pattern palette's entry into the skin's by the pattern
/// texture's alpha.
#[test]
fn a_chosen_customization_tints_as_the_shader_says() {
    let Some(swg) = swg() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let head = texture_by_image_rs(&swg, "twk_f_head.dds");
    let times = |colour: [f32; 3]| {
        move |pixel: &image::Rgba<u8>| {
            let [r, g, b] = std::array::from_fn(|channel| {
                (f32::from(pixel[channel]) * colour[channel] / 255.0).round()
            });
            [r, g, b, 255.0]
        }
    };
    // Without a customization, entry 0.
    let (json, buffer, _) = convert(&swg, &dir.path().join("default.gltf"), &[]);
    let skull = base_colour(&json, &buffer, "shader/twk_f_skull.sht").unwrap();
    let skin = palette_entry(&swg, "pc_skin_twk.pal", 0);
    // image_dds and image-rs round DXT's blended colours apart by one.
    assert_pixels(&skull, &head, 1.0, times(skin));

    let (json, buffer, said) = convert(
        &swg,
        &dir.path().join("custom.gltf"),
        &[
            "--custom",
            "index_color_skin=12",
            "--custom",
            "index_texture_1=3",
            "--custom",
            "index_color_pattern=2",
        ],
    );
    assert_eq!(said, "");
    let skull = base_colour(&json, &buffer, "shader/twk_f_skull.sht").unwrap();
    let skin = palette_entry(&swg, "pc_skin_twk.pal", 12);
    assert_eq!(skin, [115.0, 168.0, 164.0]);
    assert_pixels(&skull, &head, 1.0, times(skin));

    // The head-tails: pattern 03, its factor (MAIN) the pattern colour,
    // HUEB's the skin colour, blended by the pattern's alpha.
    let leccu = base_colour(&json, &buffer, "shader/twk_f_leccu.sht").unwrap();
    let pattern = texture_by_image_rs(&swg, "twk_f_leccu_pattern03.dds");
    let pattern_colour = palette_entry(&swg, "pc_skin_twk_leccu.pal", 2);
    // One unit for the colour, one for the alpha that blends.
    assert_pixels(&leccu, &pattern, 2.0, |pixel| {
        let mask = f32::from(pixel[3]) / 255.0;
        let [r, g, b] = std::array::from_fn(|channel| {
            let factor = pattern_colour[channel] + (skin[channel] - pattern_colour[channel]) * mask;
            (f32::from(pixel[channel]) * factor / 255.0).round()
        });
        [r, g, b, 255.0]
    });
}

#[test]
fn render_draws_the_twilek_in_its_chosen_skin_colour() {
    let Some(swg) = swg() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let appearance = text(&swg.join("appearance/twk_f.sat"));
    let picture = |name: &str, extra: &[&str]| {
        let out = text(&dir.path().join(name));
        let mut args = vec!["render", &appearance, "--no-bones", "-o", &out];
        args.extend(extra);
        let output = ossuary(&args);
        assert_status(&output, 0);
        assert_eq!(stderr(&output), "");
        image::open(&out).unwrap().into_rgb8()
    };
    // Entry 12 of the skin palette is a blue green: no pixel of the
    // background, of the rulers or of an untextured mesh has green and
    // blue both well above red.
    let teal = |image: &image::RgbImage| {
        image
            .pixels()
            .filter(|pixel| {
                let [red, green, blue] = pixel.0.map(i32::from);
                green > red + 20 && blue > red + 20
            })
            .count()
    };
    let default = picture("default.png", &[]);
    let custom = picture("custom.png", &["--custom", "index_color_skin=12"]);
    // A name no shader declares is said, and changes nothing.
    let out = text(&dir.path().join("mistyped.png"));
    let output = ossuary(&[
        "render",
        &appearance,
        "--no-bones",
        "--custom",
        "index_colour_skin=12",
        "-o",
        &out,
    ]);
    assert_status(&output, 0);
    assert_eq!(
        stderr(&output),
        "ossuary: warning: no shader of the character has the customization variable \"index_colour_skin\"\n"
    );
    assert_eq!(image::open(&out).unwrap().into_rgb8(), default);
    assert_eq!(teal(&default), 0);
    assert!(teal(&custom) > 10_000, "{}", teal(&custom));
}

#[test]
fn a_missing_texture_or_palette_is_one_warning_and_the_rest_is_drawn() {
    let Some(swg) = swg() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for folder in [
        "appearance/mesh",
        "appearance/skeleton",
        "shader",
        "texture",
        "palette",
    ] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        for entry in std::fs::read_dir(swg.join(folder)).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name();
            if name != "pc_skin_twk.pal" && name != "twk_f_head.dds" {
                std::fs::copy(entry.path(), dir.path().join(folder).join(name)).unwrap();
            }
        }
    }
    std::fs::copy(
        swg.join("appearance/twk_f.sat"),
        dir.path().join("appearance/twk_f.sat"),
    )
    .unwrap();
    let (json, buffer, said) = convert(dir.path(), &dir.path().join("out.gltf"), &[]);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 2, "{said}");
    // Four shaders name the palette: the first to need it says so.
    assert!(
        lines
            .iter()
            .any(|line| line.contains("shader/twk_f_body.sht: palette/pc_skin_twk.pal: not found")),
        "{said}"
    );
    assert!(
        lines
            .iter()
            .any(|line| line.contains("shader/twk_f_skull.sht: texture/twk_f_head.dds: not found")),
        "{said}"
    );
    // The skull keeps its material (its normal map), without a base colour;
    // the body is drawn with its texture, untinted.
    assert!(base_colour(&json, &buffer, "shader/twk_f_skull.sht").is_none());
    let body = base_colour(&json, &buffer, "shader/twk_f_body.sht").unwrap();
    let body_texture = texture_by_image_rs(&swg, "hum_f_body.dds");
    let pattern = palette_entry(&swg, "pc_skin_twk_leccu.pal", 0);
    assert_pixels(&body, &body_texture, 1.0, |pixel| {
        let mask = f32::from(pixel[3]) / 255.0;
        let [r, g, b] = std::array::from_fn(|channel| {
            let factor = 255.0 + (pattern[channel] - 255.0) * mask;
            (f32::from(pixel[channel]) * factor / 255.0).round()
        });
        [r, g, b, 255.0]
    });
    let out = text(&dir.path().join("out.png"));
    let appearance = text(&dir.path().join("appearance/twk_f.sat"));
    let output = ossuary(&["render", &appearance, "-o", &out]);
    assert_status(&output, 0);
    assert_eq!(stderr(&output).lines().count(), 2, "{}", stderr(&output));
}

/// OBJ has no place for palette colours: `skin`'s MTL names each shader's
/// main texture, as the customization chooses it.
#[test]
fn skin_names_each_shaders_main_texture_in_the_mtl() {
    let Some(swg) = swg() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("head.obj");
    let output = ossuary(&[
        "skin",
        &text(&swg.join("appearance/mesh/twk_f_head_l0.mgn")),
        "--skeleton",
        &text(&swg.join("all_b.skt")),
        "--skeleton",
        &text(&swg.join("hum_f_face.skt")),
        "--custom",
        "index_texture_1=7",
        "-o",
        &text(&out),
    ]);
    assert_status(&output, 0);
    assert_eq!(stderr(&output), "");
    let mtl = std::fs::read_to_string(dir.path().join("head.mtl")).unwrap();
    let texture = |name: &str| format!("map_Kd {}", text(&swg.join("texture").join(name)));
    for expected in [
        "newmtl shader/twk_f_skull.sht".to_owned(),
        texture("twk_f_head.dds"),
        texture("twk_f_leccu_pattern07.dds"),
    ] {
        assert!(mtl.contains(&expected), "{expected:?} not in:\n{mtl}");
    }
}
