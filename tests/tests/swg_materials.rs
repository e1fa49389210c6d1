//! Star Wars Galaxies shaders (`.sht`) and palettes (`.pal`): golden bytes
//! written by hand from the layouts (for the versions the real files lack,
//! from the game's loaders), and the real files in `shared/corpus/swg`.

use formats::files::Files;
use formats::schema::{BinarySchema, RawChunk, RawString};
use formats::swg::pal::{Palette, PaletteEntry};
use formats::swg::sht::{
    tags, Choice, CustomizableShader, CustomizableShaderV0, CustomizableShaderV1,
    CustomizableShaderVersion, MaterialColour, MaterialTintEntryV0, MaterialTintEntryV1,
    MaterialTintV0, MaterialTintV1, MaterialTintsV0, MaterialTintsV1, PaletteVariableV0,
    PaletteVariableV1, Sampling, Shader, ShaderFileError, StaticShader, StaticShaderV1,
    StaticShaderVersion, StencilReference, StencilReferences, Texture, TextureScroll,
    TextureScrolls, TextureV0, TextureV2, TextureVersion, Textures, Tinted,
};

/// A palette of two entries.
#[rustfmt::skip]
const GOLDEN_PALETTE: &[u8] = &[
    b'R', b'I', b'F', b'F',
    0x18, 0x00, 0x00, 0x00,     // RIFF size: u32 LE 24 (12 + the data chunk's 12)
    b'P', b'A', b'L', b' ',
    b'd', b'a', b't', b'a',
    0x0C, 0x00, 0x00, 0x00,     // data size: u32 LE 12 (4 + 2 entries of 4)
    0x00, 0x03,                 // version: u16 LE 0x0300
    0x02, 0x00,                 // entry count: u16 LE 2
    0x10, 0x20, 0x30, 0x00,     // entry 0: red, green, blue, flags 0
    0xFF, 0x80, 0x00, 0xFF,     // entry 1: red, green, blue, flags 255
];

#[test]
fn golden_palette_reads_and_writes_back() {
    let palette = Palette::from_bytes(GOLDEN_PALETTE).unwrap();
    assert_eq!(palette.version, 0x0300);
    let entry = |red, green, blue, flags| PaletteEntry {
        red,
        green,
        blue,
        flags,
    };
    assert_eq!(
        palette.entries,
        [entry(0x10, 0x20, 0x30, 0), entry(0xFF, 0x80, 0, 0xFF)]
    );
    assert_eq!(palette, Palette::new(palette.entries.clone()).unwrap());
    assert_eq!(palette.to_bytes().unwrap(), GOLDEN_PALETTE);
}

#[test]
fn a_palette_whose_sizes_disagree_with_its_entries_is_refused() {
    // A third entry's bytes with neither size grown: the game reads the
    // RIFF chunk's two entries and leaves the rest, kept as trailing data.
    let longer = [GOLDEN_PALETTE, &[1, 2, 3, 4]].concat();
    let palette = Palette::from_bytes(&longer).unwrap();
    assert_eq!(
        (palette.entries.len(), palette.trailing.as_slice()),
        (2, &[1, 2, 3, 4][..])
    );
    let mut counted = longer.clone();
    counted[22] = 3; // entry count 3, sizes still for 2
    let error = Palette::from_bytes(&counted).unwrap_err().to_string();
    assert!(error.starts_with("byte 16: data_size: "), "{error}");
    counted[16] = 16; // the data size for 3; the RIFF size still for 2
    let error = Palette::from_bytes(&counted).unwrap_err().to_string();
    assert!(error.starts_with("byte 4: riff_size: "), "{error}");
    counted[4] = 28;
    assert_eq!(Palette::from_bytes(&counted).unwrap().entries.len(), 3);
}

/// A customizable shader of version `0000` around a static shader of
/// version `0001`, neither of which the real files hold: written from the
/// game's loaders. IFF sizes big-endian, payloads little-endian, no pad
/// byte after the odd-sized chunk.
#[rustfmt::skip]
const GOLDEN_CSHD_0000: &[u8] = &[
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0xB4, b'C', b'S', b'H', b'D', // 180 bytes follow the size
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0xA8, b'0', b'0', b'0', b'0', // 168
    // base: FORM SSHT, version 0001: the effect first
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x4F, b'S', b'S', b'H', b'T', // 79
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x43, b'0', b'0', b'0', b'1', // 67
    b'N', b'A', b'M', b'E', 0x00, 0x00, 0x00, 0x06,
    b'e', b'.', b'e', b'f', b't', 0x00,                                     // effect "e.eft"
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x29, b'T', b'X', b'M', b'S', // 41
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x1D, b'T', b'X', b'M', b' ', // 29
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x11, b'0', b'0', b'0', b'0', // 17: texture version 0000
    b'D', b'A', b'T', b'A', 0x00, 0x00, 0x00, 0x05,
    0x01,                                                                   // placeholder: 1
    b'M', b'V', b'N', b'E',                                                 // tag ENVM, stored backwards
    // (no NAME: a placeholder may lack one)
    // FORM MATR: version 0000 tints, without a private flag
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x30, b'M', b'A', b'T', b'R', // 48
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x24, b'E', b'N', b'T', b'R', // 36
    b'I', b'N', b'F', b'O', 0x00, 0x00, 0x00, 0x04,
    b'N', b'I', b'A', b'M',                                                 // material MAIN
    b'A', b'M', b'C', b'L', 0x00, 0x00, 0x00, 0x0C,                         // the ambient colour
    b'v', 0x00,                                                             // variable "v"
    b'p', b'.', b'p', b'a', b'l', 0x00,                                     // palette "p.pal"
    0x03, 0x00, 0x00, 0x00,                                                 // default: i32 3
    // FORM TFAC: the game skips it in version 0000; kept as found
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x0D, b'T', b'F', b'A', b'C', // 13
    b'X', b'X', b'X', b'X', 0x00, 0x00, 0x00, 0x01, 0x07,                   // an odd-sized chunk, no pad
];

fn golden_cshd_0000() -> Shader {
    Shader::Customizable(CustomizableShader {
        version: CustomizableShaderVersion::V0(CustomizableShaderV0 {
            base: StaticShader {
                version: StaticShaderVersion::V1(StaticShaderV1 {
                    effect: RawString::from("e.eft"),
                    materials: None,
                    textures: Some(Textures {
                        textures: vec![Texture {
                            version: TextureVersion::V0(TextureV0 {
                                placeholder: 1,
                                tag: tags::ENVM,
                                name: None,
                            }),
                        }],
                    }),
                    coordinate_sets: None,
                    texture_factors: None,
                    texture_scrolls: None,
                    alpha_references: None,
                    stencil_references: None,
                }),
            },
            materials: Some(MaterialTintsV0 {
                entries: vec![MaterialTintEntryV0 {
                    material: tags::MAIN,
                    tints: vec![MaterialTintV0::Ambient(PaletteVariableV0 {
                        variable: RawString::from("v"),
                        palette: RawString::from("p.pal"),
                        default: 3,
                    })],
                }],
            }),
            texture_switches: None,
            texture_factors: Some(vec![RawChunk {
                tag: *b"XXXX",
                data: vec![7],
            }]),
        }),
    })
}

#[test]
fn golden_customizable_shader_0000_reads_and_writes_back() {
    assert_eq!(GOLDEN_CSHD_0000.len(), 8 + 0xB4);
    let shader = Shader::from_bytes(GOLDEN_CSHD_0000).unwrap();
    assert_eq!(shader, golden_cshd_0000());
    assert_eq!(golden_cshd_0000().to_bytes().unwrap(), GOLDEN_CSHD_0000);

    let envm = shader.texture(tags::ENVM).unwrap();
    assert!(envm.placeholder && envm.name.is_none());
    let variables = shader.variables();
    assert_eq!(variables.len(), 1);
    assert_eq!(variables[0].name.to_text(), "v");
    // Version 0000 stores no flag; the game makes the variable private.
    assert!(variables[0].private);
    assert_eq!(
        variables[0].choice,
        Choice::Palette {
            palette: &RawString::from("p.pal"),
            tinted: Tinted::Material {
                material: tags::MAIN,
                colour: MaterialColour::Ambient,
            },
            default: 3,
        }
    );
}

/// A customizable shader of version `0001` (as the real files) whose
/// material tint and static shader hold what no real file does: a texture
/// of version `0002`, texture scrolling and a stencil reference, written
/// from the game's loaders.
#[rustfmt::skip]
const GOLDEN_CSHD_0001: &[u8] = &[
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0xF5, b'C', b'S', b'H', b'D', // 245
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0xE9, b'0', b'0', b'0', b'1', // 233
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0xA4, b'S', b'S', b'H', b'T', // 164
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x98, b'0', b'0', b'0', b'1', // 152
    b'N', b'A', b'M', b'E', 0x00, 0x00, 0x00, 0x02, b'e', 0x00,             // effect "e"
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x3E, b'T', b'X', b'M', b'S', // 62
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x32, b'T', b'X', b'M', b' ', // 50
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x26, b'0', b'0', b'0', b'2', // 38: texture version 0002
    b'D', b'A', b'T', b'A', 0x00, 0x00, 0x00, 0x0C,
    b'C', b'E', b'P', b'S',                                                 // tag SPEC
    0x00,                                                                   // placeholder: 0
    0x01, 0x01, 0x01,                                                       // addressing u, v, w
    0x02, 0x02, 0x02,                                                       // mip, min, mag filters
    0x04,                                                                   // max anisotropy
    b'N', b'A', b'M', b'E', 0x00, 0x00, 0x00, 0x06,
    b's', b'.', b'd', b'd', b's', 0x00,                                     // "s.dds"
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x20, b'T', b'S', b'N', b'S', // 32
    b'0', b'0', b'0', b'0', 0x00, 0x00, 0x00, 0x14,
    b'N', b'I', b'A', b'M',                                                 // tag MAIN
    0x00, 0x00, 0x00, 0x3F,                                                 // u1: f32 0.5
    0x00, 0x00, 0x00, 0x00,                                                 // v1: 0.0
    0x00, 0x00, 0x00, 0x00,                                                 // u2: 0.0
    0x00, 0x00, 0x80, 0xBE,                                                 // v2: -0.25
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x14, b'S', b'R', b'V', b'S', // 20
    b'0', b'0', b'0', b'0', 0x00, 0x00, 0x00, 0x08,
    b'N', b'I', b'A', b'M',                                                 // tag MAIN
    0x01, 0x00, 0x00, 0x00,                                                 // stencil reference: u32 1
    // FORM MATR: version 0001 tints, with a private flag
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x31, b'M', b'A', b'T', b'R', // 49
    b'F', b'O', b'R', b'M', 0x00, 0x00, 0x00, 0x25, b'E', b'N', b'T', b'R', // 37
    b'I', b'N', b'F', b'O', 0x00, 0x00, 0x00, 0x04,
    b'N', b'I', b'A', b'M',                                                 // material MAIN
    b'D', b'F', b'C', b'L', 0x00, 0x00, 0x00, 0x0D,                         // the diffuse colour, 13 bytes
    b'd', 0x00,                                                             // variable "d"
    0x01,                                                                   // private: 1
    b'p', b'.', b'p', b'a', b'l', 0x00,                                     // palette "p.pal"
    0x05, 0x00, 0x00, 0x00,                                                 // default: i32 5
];

fn golden_cshd_0001() -> Shader {
    Shader::Customizable(CustomizableShader {
        version: CustomizableShaderVersion::V1(CustomizableShaderV1 {
            base: StaticShader {
                version: StaticShaderVersion::V1(StaticShaderV1 {
                    effect: RawString::from("e"),
                    materials: None,
                    textures: Some(Textures {
                        textures: vec![Texture {
                            version: TextureVersion::V2(TextureV2 {
                                tag: tags::SPEC,
                                placeholder: 0,
                                sampling: Sampling {
                                    address_u: 1,
                                    address_v: 1,
                                    address_w: 1,
                                    mip_filter: 2,
                                    minification_filter: 2,
                                    magnification_filter: 2,
                                },
                                max_anisotropy: 4,
                                name: Some(RawString::from("s.dds")),
                            }),
                        }],
                    }),
                    coordinate_sets: None,
                    texture_factors: None,
                    texture_scrolls: Some(TextureScrolls {
                        scrolls: vec![TextureScroll {
                            tag: tags::MAIN,
                            u1: 0.5,
                            v1: 0.0,
                            u2: 0.0,
                            v2: -0.25,
                        }],
                    }),
                    alpha_references: None,
                    stencil_references: Some(StencilReferences {
                        references: vec![StencilReference {
                            tag: tags::MAIN,
                            value: 1,
                        }],
                    }),
                }),
            },
            materials: Some(MaterialTintsV1 {
                entries: vec![MaterialTintEntryV1 {
                    material: tags::MAIN,
                    tints: vec![MaterialTintV1::Diffuse(PaletteVariableV1 {
                        variable: RawString::from("d"),
                        private: 1,
                        palette: RawString::from("p.pal"),
                        default: 5,
                    })],
                }],
            }),
            texture_switches: None,
            palette_tints: None,
        }),
    })
}

#[test]
fn golden_customizable_shader_0001_reads_and_writes_back() {
    assert_eq!(GOLDEN_CSHD_0001.len(), 8 + 0xF5);
    let shader = Shader::from_bytes(GOLDEN_CSHD_0001).unwrap();
    assert_eq!(shader, golden_cshd_0001());
    assert_eq!(golden_cshd_0001().to_bytes().unwrap(), GOLDEN_CSHD_0001);
    let spec = shader.texture(tags::SPEC).unwrap();
    assert_eq!(spec.name, Some(&RawString::from("s.dds")));
    let variables = shader.variables();
    assert_eq!(variables.len(), 1);
    assert!(variables[0].private);
    assert_eq!(
        variables[0].choice,
        Choice::Palette {
            palette: &RawString::from("p.pal"),
            tinted: Tinted::Material {
                material: tags::MAIN,
                colour: MaterialColour::Diffuse,
            },
            default: 5,
        }
    );
}

#[test]
fn a_truncated_golden_shader_fails_at_every_length() {
    for golden in [GOLDEN_CSHD_0000, GOLDEN_CSHD_0001] {
        for len in 0..golden.len() {
            assert!(Shader::from_bytes(&golden[..len]).is_err(), "{len} bytes");
        }
    }
}

#[test]
fn real_shaders_and_palettes_round_trip_byte_for_byte() {
    let shaders = tests::corpus_files("swg", "sht").unwrap_or_default();
    let palettes = tests::corpus_files("swg", "pal").unwrap_or_default();
    for path in &shaders {
        let bytes = std::fs::read(path).unwrap();
        let name = path.display();
        let shader = Shader::from_bytes(&bytes).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(shader.to_bytes().unwrap(), bytes, "{name}");
        let json = serde_json::to_string(&shader).unwrap();
        let back: Shader = serde_json::from_str(&json).unwrap();
        assert_eq!(back.to_bytes().unwrap(), bytes, "{name} through JSON");
    }
    for path in &palettes {
        let bytes = std::fs::read(path).unwrap();
        let name = path.display();
        let palette = Palette::from_bytes(&bytes).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(palette.to_bytes().unwrap(), bytes, "{name}");
    }
    if tests::corpus_dir().is_some() {
        assert_eq!((shaders.len(), palettes.len()), (7, 4));
    }
}

fn corpus_shader(name: &str) -> Option<(Shader, Files)> {
    let path = tests::corpus_dir()?.join("swg/shader").join(name);
    let shader = Shader::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
    Some((shader, Files::beside(&path)))
}

#[test]
fn the_twilek_face_switches_its_wrinkle_map_by_age() {
    let Some((face, _)) = corpus_shader("twk_f_face.sht") else {
        return;
    };
    let variables = face.variables();
    assert_eq!(variables.len(), 1);
    assert_eq!(variables[0].name.to_text(), "index_age");
    let Choice::Texture {
        tag,
        textures,
        default,
    } = &variables[0].choice
    else {
        panic!("index_age switches a texture");
    };
    assert_eq!((*tag, *default), (tags::CNRM, 0));
    let names: Vec<String> = textures.iter().map(RawString::to_text).collect();
    assert_eq!(
        names,
        (1..=4)
            .map(|age| format!("texture/twk_wrinkles_f_s0{age}_cn.dds"))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        face.texture(tags::MAIN).unwrap().name.unwrap().to_text(),
        "texture/twk_f_face.dds"
    );
}

#[test]
fn the_twilek_head_tails_choose_one_of_21_patterns_and_two_palettes() {
    let Some((leccu, _)) = corpus_shader("twk_f_leccu.sht") else {
        return;
    };
    let variables = leccu.variables();
    let described: Vec<String> = variables
        .iter()
        .map(|variable| match &variable.choice {
            Choice::Palette {
                palette,
                tinted,
                default,
            } => format!("{} {palette} {tinted} {default}", variable.name),
            Choice::Texture {
                tag,
                textures,
                default,
            } => format!("{} {tag} {} {default}", variable.name, textures.len()),
        })
        .collect();
    assert_eq!(
        described,
        [
            "index_texture_1 MAIN 21 0",
            "index_color_pattern palette/pc_skin_twk_leccu.pal the MAIN texture factor 0",
            "index_color_skin palette/pc_skin_twk.pal the HUEB texture factor 0",
        ]
    );
}

/// Every file the real shaders name is found as the game finds it (beside
/// the folder holding `shader/`, any case, either slash), but the
/// environment map the game supplies itself; every palette decodes and
/// holds its variables' defaults.
#[test]
fn the_files_real_shaders_name_are_found() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let mut found = 0;
    for path in tests::files_with_extension(&corpus.join("swg/shader"), "sht") {
        let shader = Shader::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let files = Files::beside(&path);
        for texture in shader.base().textures() {
            match shader.find_texture(&files, texture.tag) {
                Ok(_) => found += 1,
                Err(ShaderFileError::Placeholder(tag)) => assert_eq!(tag, tags::ENVM),
                Err(error) => panic!("{}: {error}", path.display()),
            }
        }
        for variable in shader.variables() {
            match variable.choice {
                Choice::Palette {
                    palette, default, ..
                } => {
                    let file = Shader::find_file(&files, palette).unwrap();
                    let palette = Palette::from_bytes(&file.bytes).unwrap();
                    let default = usize::try_from(default).unwrap();
                    assert!(palette.color(default).is_some(), "{}", path.display());
                }
                Choice::Texture { textures, .. } => {
                    for texture in textures {
                        Shader::find_file(&files, texture).unwrap();
                        found += 1;
                    }
                }
            }
        }
    }
    assert!(found > 38, "{found} textures found");
}
