//! The 1998 prototype converted with `convert --to sims-cmx`, held to what
//! the released game's tools require of the files (ts1-blender-io's
//! importer, `import_ts1.py`, read for it): skeletons named `adult` or
//! `child` (it binds meshes to an armature of that name), skill names of
//! the released kinds (it refuses a name not starting with `a2`, `c2`,
//! `k2`, `d2`, `f2` or `effects-`), animation files without skeletons, keys
//! in the `.cfp` the skill names, and textures as `.bmp` beside the skins,
//! named by the skins' texture lines. On every prototype file of the
//! corpus (OSSUARY_CORPUS).

mod support;

use std::path::Path;
use std::process::Output;

use formats::schema::BinarySchema;
use formats::sims::cmx::Cmx;
use formats::sims::skn::Skn;
use support::{assert_status, ossuary, stderr, text};

const RELEASED_SKILL_PREFIXES: [&str; 6] = ["a2", "c2", "k2", "d2", "f2", "effects-"];

/// `ossuary convert INPUT --to FAMILY -o OUT`.
fn convert_to(family: &str, input: &Path, out: &Path) -> Output {
    ossuary(&["convert", &text(input), "--to", family, "-o", &text(out)])
}

fn held_to_the_game_s_rules(out: &Path) {
    assert_status(&ossuary(&["check", &text(out)]), 0);
    let names: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let has = |name: &str| names.iter().any(|known| known.eq_ignore_ascii_case(name));
    for name in names.iter().filter(|name| name.ends_with(".cmx")) {
        let cmx = Cmx::from_text(&std::fs::read(out.join(name)).unwrap()).unwrap();
        assert_eq!(cmx.version, 300, "{name}");
        for skeleton in &cmx.skeletons {
            let skeleton = skeleton.name.to_text();
            assert!(
                skeleton == "adult" || skeleton == "child",
                "{name}: {skeleton}"
            );
        }
        if cmx.suits.is_empty() && !cmx.skills.is_empty() {
            assert!(
                cmx.skeletons.is_empty(),
                "{name}: an animation file with a skeleton"
            );
        }
        for skill in &cmx.skills {
            let skill_name = skill.name.to_text();
            assert!(
                RELEASED_SKILL_PREFIXES
                    .iter()
                    .any(|prefix| skill_name.starts_with(prefix)),
                "{name}: {skill_name}"
            );
            let keys = format!("{}.cfp", skill.animation);
            if has(&keys) {
                // The keys read as the skill's counts say.
                let counts = formats::sims::cfp::StreamsContext {
                    position_count: formats::sims::cfp::ValueCount(skill.position_count as u32),
                    rotation_count: formats::sims::cfp::ValueCount(skill.rotation_count as u32),
                };
                let bytes = std::fs::read(out.join(&keys)).unwrap();
                formats::sims::cfp::Streams::split(&bytes, &counts)
                    .and_then(|streams| streams.values())
                    .unwrap_or_else(|error| panic!("{keys}: {error}"));
            }
        }
    }
    for name in names.iter().filter(|name| name.ends_with(".skn")) {
        let skn = Skn::from_text(&std::fs::read(out.join(name)).unwrap()).unwrap();
        let texture = skn.texture.to_text();
        if texture != "x" && has(&format!("{texture}.bmp")) {
            let bmp = std::fs::read(out.join(format!("{texture}.bmp"))).unwrap();
            // 8 bits per pixel, as the game's textures are.
            assert_eq!((&bmp[..2], bmp[28]), (b"BM".as_slice(), 8), "{texture}.bmp");
        }
    }
}

#[test]
fn every_prototype_file_converts_to_files_the_game_s_tools_take() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let prototype = corpus.join("sims1-prototype");
    let dir = tempfile::tempdir().unwrap();
    let mut converted = 0;
    for file in tests::files_with_extension(&prototype, "cmx") {
        let out = dir.path().join(file.file_stem().unwrap());
        let output = convert_to("sims-cmx", &file, &out);
        assert_status(&output, 0);
        held_to_the_game_s_rules(&out);
        converted += 1;
        // Every texture the character's meshes name is in the sample but
        // the coffee mug's `cup`: each is written, or warned about.
        if file.ends_with("samnud.cmx") {
            assert_eq!(stderr(&output), "");
            let bmps = std::fs::read_dir(&out)
                .unwrap()
                .filter(|entry| {
                    entry
                        .as_ref()
                        .unwrap()
                        .path()
                        .extension()
                        .is_some_and(|e| e == "bmp")
                })
                .count();
            assert_eq!(bmps, 13);
        }
    }
    assert_eq!(converted, 4);
}

/// Several prototype files, or their folder, convert into one folder as
/// each converts alone: the released game's files, not copies of the
/// prototype's (the folder's meshes on their own convert to nothing and
/// are passed over).
#[test]
fn prototype_files_converted_together_or_as_a_folder_are_converted_as_alone() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let prototype = corpus.join("sims1-prototype");
    let dir = tempfile::tempdir().unwrap();
    let alone = dir.path().join("alone");
    let characters = tests::files_with_extension(&prototype, "cmx");
    for file in &characters {
        let output = convert_to("sims-cmx", file, &alone);
        assert_status(&output, 0);
    }
    let expected = support::files_below(&alone);
    let together = dir.path().join("together");
    let mut args = vec!["convert".to_owned()];
    args.extend(characters.iter().map(|file| text(file)));
    args.extend(["--to", "sims-cmx", "-o"].map(str::to_owned));
    args.push(format!("{}/", text(&together)));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_status(&ossuary(&args), 0);
    let folder = dir.path().join("folder");
    let output = convert_to("sims-cmx", &prototype, &folder);
    assert_status(&output, 0);
    for out in [&together, &folder] {
        assert_eq!(support::files_below(out), expected, "{}", out.display());
        for name in &expected {
            assert!(
                std::fs::read(out.join(name)).unwrap() == std::fs::read(alone.join(name)).unwrap(),
                "{}: {}",
                out.display(),
                name.display()
            );
        }
    }
    held_to_the_game_s_rules(&folder);
}

/// `--to sims-bcf` writes the same character as `--to sims-cmx`, in the
/// binary twins: each `.cmx` a `.bcf` and each `.skn` a `.bmf` holding the
/// same values, the keys (`.cfp`) and textures (`.bmp`) the same bytes.
#[test]
fn the_prototype_in_the_binary_twins_is_the_same_character() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let character = corpus.join("sims1-prototype/samnud.cmx");
    let dir = tempfile::tempdir().unwrap();
    let (texts, binaries) = (dir.path().join("text"), dir.path().join("binary"));
    for (family, out) in [("sims-cmx", &texts), ("sims-bcf", &binaries)] {
        let output = convert_to(family, &character, out);
        assert_status(&output, 0);
    }
    assert_status(&ossuary(&["check", &text(&binaries)]), 0);
    let mut compared = 0;
    for entry in std::fs::read_dir(&texts).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let twin = |extension: &str| {
            std::fs::read(binaries.join(path.with_extension(extension).file_name().unwrap()))
                .unwrap()
        };
        match path.extension().unwrap().to_str().unwrap() {
            "cmx" => {
                let bcf = formats::sims::bcf::Bcf::from_bytes(&twin("bcf")).unwrap();
                let cmx = Cmx::from_text(&bytes).unwrap();
                let from_binary = Cmx {
                    style: cmx.style.clone(),
                    ..bcf.to_cmx()
                };
                assert_eq!(from_binary, cmx, "{name}");
                assert!(
                    bcf.skeletons
                        .iter()
                        .all(|skeleton| skeleton.name.to_text() == "adult"),
                    "{name}"
                );
            }
            "skn" => {
                let bmf = formats::sims::bmf::Bmf::from_bytes(&twin("bmf")).unwrap();
                let skn = Skn::from_text(&bytes).unwrap();
                // The same values; how the text writes its numbers is the text's own.
                let from_binary = Skn {
                    style: skn.style.clone(),
                    ..bmf.to_skn()
                };
                assert_eq!(from_binary, skn, "{name}");
            }
            _ => assert_eq!(
                std::fs::read(binaries.join(&name)).unwrap(),
                bytes,
                "{name}"
            ),
        }
        compared += 1;
    }
    assert_eq!(compared, std::fs::read_dir(&binaries).unwrap().count());
    assert!(compared > 20, "{compared}");
}
