//! A retail Sim assembled from the real files (when `OSSUARY_CORPUS` names
//! them): dressed by its suits' codes and a skin tone, textured in glTF.

use std::path::{Path, PathBuf};

use export::assembly::{Assembly, Dressing, Tone};
use export::Container;
use formats::catalogue::Catalogue;
use formats::files::Files;
use formats::format::Document;
use formats::rig::RigOptions;
use skinning::Composition;

fn decode(path: &Path) -> Box<dyn Document> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let format = Catalogue::default()
        .detect(&path.to_string_lossy(), &bytes)
        .unwrap_or_else(|| panic!("{}: unknown format", path.display()));
    (format.decode)(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The adult skeleton and `meshes` (in `sims1/`), dressed with `dressing`.
fn assemble(sims: &Path, meshes: &[&str], dressing: Dressing) -> Assembly {
    let mut assembly = Assembly::new(dressing);
    let skeleton_path = sims.join("adult-skeleton.cmx");
    let skeleton = decode(&skeleton_path)
        .rig()
        .skeleton(&Files::beside(&skeleton_path), RigOptions::default())
        .unwrap()
        .unwrap();
    assert!(assembly.offer_skeleton(&skeleton_path, skeleton));
    for mesh in meshes {
        let path = sims.join(mesh);
        let files = Files::beside(&path);
        let skins = decode(&path)
            .rig()
            .skins(&files, RigOptions::default())
            .unwrap()
            .unwrap();
        assembly.add_skins(&path, &files, skins, &[]).unwrap();
    }
    assembly
}

fn image_names(assembly: &Assembly) -> Vec<String> {
    assembly
        .meshes
        .iter()
        .map(|dressed| {
            dressed.texture.as_ref().map_or_else(String::new, |found| {
                found
                    .path
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
        })
        .collect()
}

const ROSS: [&str; 5] = [
    "xskin-b001mafit_01-PELVIS-BODY.skn",
    "xskin-C001MA_Ross-HEAD-HEADB.skn",
    "xskin-hmlo-L_HAND-HANDML.skn",
    "xskin-hmro-R_HAND-HANDMR.skn",
    "xskin-c005ma_hipster-HEAD-SPECS.skn",
];

#[test]
fn a_retail_sim_is_dressed_by_suit_code_and_skin_tone() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let sims = corpus.join("sims1");
    for (tone, body, head, hands) in [
        (
            Tone::Light,
            "B001MAFitlgt_relax.bmp",
            "C001MAlgt_Ross.bmp",
            "HUAOlgt.bmp",
        ),
        (
            Tone::Dark,
            "B001MAFitdrk_relax.bmp",
            "C001MAdrk_Ross.bmp",
            "HUAOdrk.bmp",
        ),
    ] {
        let dressing = Dressing {
            tone,
            images: Vec::new(),
        };
        let assembly = assemble(&sims, &ROSS, dressing);
        // The glasses name their own texture, whatever the tone.
        assert_eq!(
            image_names(&assembly),
            [body, head, hands, hands, "C005MA_HipSpecs.bmp"]
        );
        assert!(assembly.warnings.is_empty(), "{:?}", assembly.warnings);
    }

    // An image chosen by name wins; the skin's own texture field is kept.
    let chosen: PathBuf = sims.join("B001FAFatmed_summer01.bmp");
    let dressing = Dressing {
        tone: Tone::Light,
        images: vec![("XSKIN-B001MAFIT_01-PELVIS-BODY".to_owned(), chosen)],
    };
    let assembly = assemble(&sims, &ROSS[..1], dressing);
    assert_eq!(image_names(&assembly), ["B001FAFatmed_summer01.bmp"]);
    assert_eq!(
        assembly.meshes[0].skin.texture.as_deref(),
        Some("extrememlgt_01")
    );

    // The textures go into the asset, one image each.
    let assembly = assemble(&sims, &ROSS, Dressing::default());
    let glb = assembly
        .export(&[], &[], &[], Composition::Hierarchy, Container::Glb)
        .unwrap()
        .unwrap();
    let gltf = gltf::Gltf::from_slice(&glb).unwrap();
    let images: Vec<&str> = gltf.images().filter_map(|image| image.name()).collect();
    assert_eq!(
        images,
        [
            "B001MAFitlgt_relax.bmp",
            "C001MAlgt_Ross.bmp",
            "HUAOlgt.bmp",
            "C005MA_HipSpecs.bmp"
        ]
    );
}

#[test]
fn each_suit_finds_its_image_in_the_tone_chosen() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let sims = corpus.join("sims1");
    // Lisa's head and the fat body have an image in each tone, under
    // outfit names that differ from tone to tone.
    let dressing = Dressing {
        tone: Tone::Medium,
        images: Vec::new(),
    };
    let assembly = assemble(
        &sims,
        &[
            "xskin-c002fc_lisa-HEAD-HEAD.skn",
            "xskin-b001fafat_01-PELVIS-BODY.skn",
        ],
        dressing,
    );
    assert_eq!(
        image_names(&assembly),
        ["C002FCmed_Lisa02.bmp", "B001FAFatmed_summer01.bmp"]
    );
    assert!(assembly.warnings.is_empty(), "{:?}", assembly.warnings);
}

/// The Twi'lek assembled afresh, as the viewer assembles a character for
/// each view, and exported: the glTF asset's bytes and how many images
/// this thread made for it.
fn twilek_exported(appearance: &Path) -> (Vec<u8>, u64) {
    let before = export::encoded::images_made_on_this_thread();
    let files = Files::beside(appearance);
    let document = decode(appearance);
    let mut assembly = Assembly::new(Dressing::default());
    let skeleton = document
        .rig()
        .skeleton(&files, RigOptions::default())
        .unwrap()
        .unwrap();
    assert!(assembly.offer_skeleton(appearance, skeleton));
    let skins = document
        .rig()
        .skins(&files, RigOptions::default())
        .unwrap()
        .unwrap();
    assembly.add_skins(appearance, &files, skins, &[]).unwrap();
    let glb = assembly
        .export(&[], &[], &[], Composition::Hierarchy, Container::Glb)
        .unwrap()
        .unwrap();
    (glb, export::encoded::images_made_on_this_thread() - before)
}

#[test]
fn a_second_export_of_the_twilek_encodes_no_texture_again() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let appearance = corpus.join("swg/appearance/twk_f.sat");
    let (first, made) = twilek_exported(&appearance);
    let images = gltf::Gltf::from_slice(&first).unwrap().images().count();
    // Its seven shaders' base colours and normal maps; no other test in
    // this file exports it, so this thread is the first to make them.
    assert!(images >= 7, "{images}");
    assert_eq!(made, images as u64);
    let (second, made_again) = twilek_exported(&appearance);
    assert_eq!(made_again, 0);
    assert_eq!(first, second);
}
