//! The 1998 prototype's real characters and animations in the released
//! game's formats: the character file becomes version 300 and reads as
//! one, each `.msh` a `.skn` giving the same rig data (so it poses to the
//! same positions), each `.bin` a `.cfp` decoding to exactly its floats
//! under the skill's released name; an animation file keeps no skeleton,
//! as no released one does. Runs when `OSSUARY_CORPUS` names the corpus
//! folder.

use formats::files::Files;
use formats::rig::{Rig, RigOptions};
use formats::sims::cmx::{Cmx, RETAIL_VERSION};
use formats::sims::retail::to_retail;
use formats::sims::skn::Skn;

#[test]
fn every_prototype_character_converts_and_poses_as_before() {
    let Some(files) = tests::corpus_files("sims1-prototype", "cmx") else {
        return;
    };
    for path in files {
        let name = path.display();
        let original = Cmx::from_text(&std::fs::read(&path).unwrap()).unwrap();
        let beside = Files::beside(&path);
        let retail = to_retail(&original, &beside).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Only Ross's idle lacks files in the set: its skills' keys, each
        // named with the two files looked for; the rest converts.
        if path.ends_with("Ross-idle1.cmx") {
            assert_eq!(retail.missing.len(), original.skills.len(), "{name}");
            assert!(retail
                .missing
                .iter()
                .all(|message| message.contains(".cfp") && message.contains(".bin")));
        } else {
            assert_eq!(retail.missing, Vec::<String>::new(), "{name}");
        }
        let text = retail.cmx.to_text().unwrap();
        let reread = Cmx::from_text(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(reread.version, RETAIL_VERSION, "{name}");
        // A character keeps its skeleton as rig data (the same bones, rest
        // pose and tree); an animation file keeps none.
        let options = RigOptions::default();
        let skeleton = |cmx: &Cmx| cmx.skeleton(&beside, options).map(|s| s.unwrap());
        if original.suits.is_empty() && !original.skills.is_empty() {
            assert!(skeleton(&original).is_some(), "{name}");
            assert_eq!(skeleton(&reread), None, "{name}");
        } else {
            assert_eq!(skeleton(&reread), skeleton(&original), "{name}");
        }

        // Each converted skin gives the rig data its mesh gave.
        let Some(mesh_skins) = original.skins(&beside, options) else {
            assert!(retail.skins.is_empty(), "{name}");
            continue;
        };
        let mesh_skins = mesh_skins.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(retail.skins.len(), mesh_skins.len(), "{name}");
        for ((mesh_name, skn), from_mesh) in retail.skins.iter().zip(&mesh_skins) {
            let reread = Skn::from_text(&skn.to_text().unwrap())
                .unwrap_or_else(|e| panic!("{name}: {mesh_name}: {e}"));
            let from_skn = reread.skin().unwrap();
            assert_eq!(from_skn.positions, from_mesh.positions, "{mesh_name}");
            assert_eq!(from_skn.normals, from_mesh.normals, "{mesh_name}");
            assert_eq!(from_skn.uvs, from_mesh.uvs, "{mesh_name}");
            assert_eq!(from_skn.triangles, from_mesh.triangles, "{mesh_name}");
            assert_eq!(from_skn.binding, from_mesh.binding, "{mesh_name}");
            assert_eq!(from_skn.texture, from_mesh.texture, "{mesh_name}");
        }
    }
}

#[test]
fn the_greeting_keys_become_a_cfp_of_the_same_floats() {
    let Some(corpus) = tests::corpus_dir() else {
        return;
    };
    let path = corpus.join("sims1-prototype/adult-greet01.cmx");
    let original = Cmx::from_text(&std::fs::read(&path).unwrap()).unwrap();
    let beside = Files::beside(&path);
    let retail = to_retail(&original, &beside).unwrap();
    assert_eq!(retail.streams.len(), original.skills.len());
    // Written beside the converted character, the .cfp animates the skill
    // exactly as the .bin did.
    let dir = std::env::temp_dir().join(format!("ossuary-greet-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (animation, bytes) in &retail.streams {
        std::fs::write(dir.join(format!("{animation}.cfp")), bytes).unwrap();
    }
    let converted = dir.join("adult-greet01.cmx");
    std::fs::write(&converted, retail.cmx.to_text().unwrap()).unwrap();
    let from_cfp = retail
        .cmx
        .animations(&Files::beside(&converted))
        .unwrap()
        .unwrap();
    let mut from_bin = original.animations(&beside).unwrap().unwrap();
    // The same keys, under the released name.
    assert_eq!(from_bin.len(), 1);
    assert_eq!(from_bin[0].name, "adult-greet01");
    from_bin[0].name = "a2o-greet01".to_owned();
    assert_eq!(from_cfp, from_bin);
}
