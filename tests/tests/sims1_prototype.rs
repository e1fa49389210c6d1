//! The real files of The Sims' 1998 prototype: every `.msh` and `.bin`
//! reads and writes back byte for byte, directly and through JSON, and a
//! mesh's JSON shows its positions, texture coordinates and normals as
//! numbers. Runs when `OSSUARY_CORPUS` names the corpus folder (with a
//! `sims1-prototype` folder inside); skips quietly when it is unset. The
//! files are never copied here.

use formats::catalogue::Catalogue;

/// Every file of the extension, its format found as the CLI finds it.
fn round_trip_every(extension: &str, format_name: &str) -> usize {
    let Some(files) = tests::corpus_files("sims1-prototype", extension) else {
        return 0;
    };
    let catalogue = Catalogue::default();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.to_string_lossy();
        let format = catalogue.detect(&name, &bytes).unwrap();
        assert_eq!(format.name, format_name, "{name}");
        let document = (format.decode)(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            document.encode().unwrap() == bytes,
            "{name}: decode -> encode"
        );
        let json = document.to_json().unwrap();
        let from_json = (format.from_json)(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            from_json.encode().unwrap() == bytes,
            "{name}: decode -> JSON -> encode"
        );
    }
    files.len()
}

#[test]
fn every_msh_comes_back_byte_for_byte_and_shows_its_numbers() {
    let count = round_trip_every("msh", "sims-msh");
    if count == 0 {
        return;
    }
    assert!(count >= 23, "{count} meshes");
    let path = tests::corpus_dir()
        .unwrap()
        .join("sims1-prototype/xskin-samnud-HEAD-HEAD.msh");
    let format = Catalogue::default().by_name("sims-msh").unwrap();
    let document = (format.decode)(&std::fs::read(&path).unwrap()).unwrap();
    let json: serde_json::Value = serde_json::from_str(&document.to_json().unwrap()).unwrap();
    assert!(json["positions"][0][0].is_f64(), "{}", json["positions"][0]);
    assert!(json["uvs"][0][1].is_f64(), "{}", json["uvs"][0]);
    assert!(json["vertices"][0]["normal"][2].is_f64());
    assert_eq!(json["texture"], "mfemhead");
    let facts = document.describe().facts;
    assert_eq!(facts[0], ("texture", "mfemhead".to_owned()));
}

#[test]
fn every_bin_comes_back_byte_for_byte() {
    let count = round_trip_every("bin", "sims-bin");
    if count == 0 {
        return;
    }
    // The greeting's keys: 182 translations and 2,275 rotations.
    let path = tests::corpus_dir()
        .unwrap()
        .join("sims1-prototype/xskill-adult-greet01.bin");
    let bytes = std::fs::read(path).unwrap();
    let counts = formats::sims::bin::KeysContext {
        position_count: 182,
        rotation_count: 2275,
    };
    let keys = formats::sims::bin::Keys::split(&bytes, &counts).unwrap();
    assert_eq!(keys.translations.len(), 182);
    // Rotations are unit quaternions, within the float error of the tool
    // that wrote them.
    for rotation in &keys.rotations {
        let length = rotation.iter().map(|c| c * c).sum::<f32>().sqrt();
        assert!((length - 1.0).abs() < 1e-3, "{rotation:?}");
    }
}
