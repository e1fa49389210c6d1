//! The real The Sims Online files: every `.mesh`, `.anim`, `.apr` and
//! `.bnd` reads and writes back byte for byte, directly and through JSON,
//! and gives its rig data. Runs when `OSSUARY_CORPUS` names the corpus
//! folder (with a `tso` folder inside); skips quietly when it is unset.
//! The files are never copied here.

use std::path::Path;

use formats::catalogue::Catalogue;
use formats::files::Files;
use formats::rig::{Binding, RigOptions};

fn round_trip(path: &Path, format_name: &str) -> Box<dyn formats::format::Document> {
    let catalogue = Catalogue::default();
    let bytes = std::fs::read(path).unwrap();
    let format = catalogue
        .detect(&path.to_string_lossy(), &bytes)
        .unwrap_or_else(|| panic!("{}: no format", path.display()));
    assert_eq!(format.name, format_name, "{}", path.display());
    let document = (format.decode)(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        document.encode().unwrap() == bytes,
        "{}: written back differently",
        path.display()
    );
    let json = document.to_json().unwrap();
    let again = (format.from_json)(&json).unwrap();
    assert!(
        again.encode().unwrap() == bytes,
        "{}: through JSON, written back differently",
        path.display()
    );
    document
}

#[test]
fn every_real_file_comes_back_byte_for_byte_also_through_json() {
    for (extension, format) in [
        ("mesh", "tso-mesh"),
        ("anim", "tso-anim"),
        ("apr", "tso-apr"),
        ("bnd", "tso-bnd"),
    ] {
        let Some(files) = tests::corpus_files("tso", extension) else {
            return;
        };
        for path in files {
            round_trip(&path, format);
        }
    }
}

#[test]
fn every_real_animation_gives_one_animation_keyed_by_name() {
    let Some(files) = tests::corpus_files("tso", "anim") else {
        return;
    };
    for path in files {
        let document = round_trip(&path, "tso-anim");
        let animations = document
            .rig()
            .animations(&Files::beside(&path))
            .unwrap()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(animations.len(), 1, "{}", path.display());
        let animation = &animations[0];
        assert!(!animation.times.is_empty(), "{}", path.display());
        assert!(
            animation.times.windows(2).all(|pair| pair[0] < pair[1]),
            "{}: times increase",
            path.display()
        );
    }
}

#[test]
fn every_real_appearance_finds_its_meshes_and_textures_by_id() {
    let Some(files) = tests::corpus_files("tso", "apr") else {
        return;
    };
    for path in files {
        let document = round_trip(&path, "tso-apr");
        let skins = document
            .rig()
            .skins(&Files::beside(&path), RigOptions::default())
            .unwrap()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!skins.is_empty(), "{}", path.display());
        for skin in skins {
            let texture = skin.texture.as_deref().unwrap_or_default();
            assert!(
                texture.starts_with("Textures/") && texture.ends_with(".png"),
                "{}: texture {texture:?}",
                path.display()
            );
            assert!(matches!(skin.binding, Binding::BoneSpace(_)));
            assert_eq!(skin.positions.len(), skin.uvs.len());
        }
    }
}
