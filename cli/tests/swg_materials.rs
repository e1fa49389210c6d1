//! Star Wars Galaxies shaders (`.sht`) and palettes (`.pal`) through the
//! CLI: `info` shows a shader's textures by tag, its palettes and its
//! customization variables; `check`, `dump` and `encode` give the files
//! back byte for byte; on the samples and, when `OSSUARY_CORPUS` is set, on
//! the real files in `../shared/corpus/swg`.

mod support;

use std::path::PathBuf;

use support::{assert_status, fixture, ossuary, stderr, stdout, write};

/// The corpus's `swg/` folder, when `OSSUARY_CORPUS` is set.
fn swg() -> Option<PathBuf> {
    tests::corpus_dir().map(|corpus| corpus.join("swg"))
}

fn info(path: &str) -> String {
    let output = ossuary(&["info", path]);
    assert_status(&output, 0);
    stdout(&output)
}

#[test]
fn info_shows_a_sample_shaders_textures_palettes_and_variables() {
    let shown = info(&fixture("humanoid.sht"));
    let expected = [
        "Star Wars Galaxies shader (swg-sht)",
        "  kind: customizable shader (FORM CSHD 0001) over a static shader (FORM SSHT 0000)",
        "  effect: effect\\h_specmap_cbmp.eft",
        "  textures: CNRM texture/humanoid_age0_cn.dds, MAIN texture/humanoid.dds, \
         ENVM texture\\env_theed.dds (placeholder)",
        "  palettes: palette/humanoid.pal",
        "  customization variables: \
         private index_color_glow: an entry of palette/humanoid.pal tints the diffuse colour of material MAIN (default 2); \
         private index_age: one of 2 CNRM textures, from texture/humanoid_age0_cn.dds (default 0); \
         index_color_skin: an entry of palette/humanoid.pal tints the MAIN texture factor (default 1)",
    ];
    for line in expected {
        assert!(shown.contains(line), "{line:?} not in:\n{shown}");
    }
    let shown = info(&fixture("humanoid-static.sht"));
    assert!(
        shown.contains("  kind: static shader (FORM SSHT 0001)\n"),
        "{shown}"
    );
    assert!(!shown.contains("customization variables"), "{shown}");
    let shown = info(&fixture("humanoid.pal"));
    assert!(shown.contains("  entries: 3\n"), "{shown}");
}

#[test]
fn samples_come_back_byte_for_byte_through_check_and_json() {
    let dir = tempfile::tempdir().unwrap();
    for (name, format) in [
        ("humanoid.sht", "swg-sht"),
        ("humanoid-static.sht", "swg-sht"),
        ("humanoid.pal", "swg-pal"),
    ] {
        let path = fixture(name);
        let output = ossuary(&["check", &path]);
        assert_status(&output, 0);
        assert!(stdout(&output).contains(": ok"), "{}", stdout(&output));
        let dumped = ossuary(&["dump", &path]);
        assert_status(&dumped, 0);
        let json = write(dir.path(), &format!("{name}.json"), &dumped.stdout);
        let out = dir.path().join(name);
        let out = out.to_str().unwrap();
        let encoded = ossuary(&["encode", &json, "--format", format, "-o", out]);
        assert_status(&encoded, 0);
        assert_eq!(
            std::fs::read(out).unwrap(),
            std::fs::read(&path).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn a_shader_is_known_by_its_content_under_any_name() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(fixture("humanoid.sht")).unwrap();
    let path = write(dir.path(), "material", &bytes);
    assert!(info(&path).contains("(swg-sht)"));
    let bytes = std::fs::read(fixture("humanoid.pal")).unwrap();
    let path = write(dir.path(), "colours", &bytes);
    assert!(info(&path).contains("(swg-pal)"));
}

#[test]
fn a_palette_whose_size_is_wrong_is_bad_input_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(fixture("humanoid.pal")).unwrap();
    bytes[16] += 4;
    let path = write(dir.path(), "bad.pal", &bytes);
    let output = ossuary(&["info", &path]);
    assert_status(&output, 1);
    let said = stderr(&output);
    assert!(
        said.contains("bad.pal: byte 16: data_size: the data chunk's size is 20"),
        "{said}"
    );
}

#[test]
fn real_shaders_and_palettes_check_and_show_what_they_name() {
    let Some(swg) = swg() else {
        return;
    };
    let shaders = swg.join("shader");
    let palettes = swg.join("palette");
    let output = ossuary(&[
        "check",
        shaders.to_str().unwrap(),
        palettes.to_str().unwrap(),
    ]);
    assert_status(&output, 0);
    assert!(
        stdout(&output).contains("11 ok, 0 differ, 0 failed, 0 not supported"),
        "{}",
        stdout(&output)
    );

    let shown = info(shaders.join("twk_f_mouth.sht").to_str().unwrap());
    for line in [
        "  kind: customizable shader (FORM CSHD 0001) over a static shader (FORM SSHT 0000)",
        "  effect: effect\\h_alpha_color2_envmask_specmap.eft",
        "  textures: ENVM texture\\env_theed.dds (placeholder), HUEB texture/hum_f_mouth_hue.dds, \
         MAIN texture/hum_f_mouth.dds, SPEC texture/hum_f_mouth_spec.dds",
        "  palettes: palette/pc_eye_twk.pal, palette/white.pal",
        "  customization variables: \
         private index_color_2: an entry of palette/pc_eye_twk.pal tints the MAIN texture factor (default 1); \
         private index_color_0: an entry of palette/white.pal tints the HUEB texture factor (default 0)",
    ] {
        assert!(shown.contains(line), "{line:?} not in:\n{shown}");
    }
    let shown = info(shaders.join("twk_f_leccu.sht").to_str().unwrap());
    assert!(
        shown.contains(
            "index_texture_1: one of 21 MAIN textures, from texture/twk_f_leccu_pattern00.dds (default 0)"
        ),
        "{shown}"
    );
    let shown = info(shaders.join("hum_f_teeth.sht").to_str().unwrap());
    assert!(
        shown.contains("  kind: static shader (FORM SSHT 0000)\n"),
        "{shown}"
    );
    let shown = info(palettes.join("pc_skin_twk.pal").to_str().unwrap());
    assert!(shown.contains("  entries: 256\n"), "{shown}");
}
