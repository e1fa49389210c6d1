//! The 1998 prototype's files in the released game's formats: a version
//! 200 `.cmx` as version 300, its suits' `.msh` meshes as `.skn` skins and
//! its skills' `.bin` keys as `.cfp` streams, so tools that know only the
//! released game (its own, ts1-blender-io, VitaMoo) open the character.
//!
//! The fields version 200 lacks get the values the released game's files
//! hold for them: no property lists; can-blend 0 for a bone that can
//! translate and 1 for every other (as in every bone of the released adult
//! skeleton); wiggle value and power 0; a suit's type and unknown integer
//! 0; a skin's censor flags and unknown integer 0. A mesh becomes a skin
//! with the suit's bone as its one bone and one binding holding every
//! vertex (no blends): posed, it moves exactly as the mesh did. Keys are
//! written as full floats (`cfp::Streams::plain`), which decode to exactly
//! the values the `.bin` held.

use super::bin::{Keys, KeysContext};
use super::cfp::{Streams, StreamsContext, ValueCount};
use super::cmx::{Cmx, Skill, Skin, Suit, RETAIL_VERSION};
use super::msh::Msh;
use super::skn::{Binding, Skn, Vertex};
use super::suit;
use crate::files::{Files, FindError};
use crate::rig::RigError;
use crate::schema::text::{FloatStyle, TextStyle};
use crate::schema::{BinarySchema, RawString};

/// A character, or an animation, in the released game's formats.
#[derive(Debug, Clone, PartialEq)]
pub struct Retail {
    /// The character file, version 300.
    pub cmx: Cmx,
    /// A `.skn` for each prototype mesh its suits name, by the mesh's name
    /// (without extension); a skin already found as `.skn` or `.bmf` is not
    /// converted again.
    pub skins: Vec<(String, Skn)>,
    /// A `.cfp` for each skill whose keys are a `.bin`, by the skill's
    /// animation name (without extension), as the bytes to write.
    pub streams: Vec<(String, Vec<u8>)>,
    /// A mesh or a skill's keys that cannot be found, each one sentence
    /// naming what was looked for: the character file still names it, and
    /// the rest converts.
    pub missing: Vec<String>,
}

/// `cmx` and the files it names (found by `files`) in the released game's
/// formats. A retail file comes back as it is, with nothing to convert.
pub fn to_retail(cmx: &Cmx, files: &Files) -> Result<Retail, RigError> {
    let mut retail = cmx.clone();
    retail.version = RETAIL_VERSION;
    for bone in retail
        .skeletons
        .iter_mut()
        .flat_map(|skeleton| &mut skeleton.bones)
    {
        bone.property_lists.get_or_insert_with(Vec::new);
        bone.can_blend
            .get_or_insert(i32::from(bone.can_translate == 0));
        bone.wiggle_value.get_or_insert(0.0);
        bone.wiggle_power.get_or_insert(0.0);
    }
    for suit in &mut retail.suits {
        suit.suit_type.get_or_insert(0);
        suit.unknown.get_or_insert(0);
        for skin in &mut suit.skins {
            skin.censor_flags.get_or_insert(0);
            skin.unknown.get_or_insert(0);
        }
    }
    let mut missing = Vec::new();
    let mut skins = Vec::new();
    for suit in &cmx.suits {
        for skin in &suit.skins {
            match skin_of_suit(suit, skin, files) {
                Err(RigError::File(error @ FindError::Missing { .. })) => {
                    missing.push(error.to_string());
                }
                found => skins.extend(found?),
            }
        }
    }
    let mut streams = Vec::new();
    for skill in &cmx.skills {
        match skill_stream(skill, files) {
            Err(RigError::File(error @ FindError::Missing { .. })) => {
                missing.push(error.to_string());
            }
            found => streams.extend(found?),
        }
    }
    Ok(Retail {
        cmx: retail,
        skins,
        streams,
        missing,
    })
}

/// A suit's `.msh` mesh as a skin; `None` for a skin already in a retail
/// format.
fn skin_of_suit(
    suit: &Suit,
    skin: &Skin,
    files: &Files,
) -> Result<Option<(String, Skn)>, RigError> {
    let name = skin.name.to_text();
    let found = suit::find_mesh(suit, skin, files)?;
    let is_mesh = found
        .path
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("msh"));
    if !is_mesh {
        return Ok(None);
    }
    let msh = Msh::from_bytes(&found.bytes).map_err(|source| RigError::Referenced {
        path: found.path.clone(),
        source: Box::new(source),
    })?;
    let skn = skin_of_mesh(&msh, &skin.name, &skin.bone)
        .map_err(|message| RigError::Invalid(format!("{}: {message}", found.path.display())))?;
    Ok(Some((name, skn)))
}

/// A `.msh` as a `.skn`: every vertex record a vertex (its position, uv
/// and normal), the faces as they are, one binding of every vertex to
/// `bone`. Its floats are written as the shortest decimals that read back
/// to the same `f32`s (the `.msh` stored them in binary), so nothing of the
/// mesh is lost; the released game's reader and other tools read them as
/// any decimal.
pub fn skin_of_mesh(msh: &Msh, name: &RawString, bone: &RawString) -> Result<Skn, String> {
    fn pick<T: Copy>(list: &[T], index: i32, what: &str) -> Result<T, String> {
        usize::try_from(index)
            .ok()
            .and_then(|index| list.get(index))
            .copied()
            .ok_or_else(|| format!("{what} index {index} is not one of the {}", list.len()))
    }
    let mut uvs = Vec::with_capacity(msh.vertices.len());
    let mut vertices = Vec::with_capacity(msh.vertices.len());
    for record in &msh.vertices {
        uvs.push(pick(&msh.uvs, record.uv, "texture coordinate")?);
        vertices.push(Vertex {
            position: pick(&msh.positions, record.position, "position")?,
            normal: record.normal,
        });
    }
    let vertex_count = i32::try_from(vertices.len())
        .map_err(|_| format!("{} vertices do not fit a .skn", vertices.len()))?;
    Ok(Skn {
        style: TextStyle {
            float_style: FloatStyle::Shortest,
            ..TextStyle::default()
        },
        name: name.clone(),
        texture: msh.texture.clone(),
        bones: vec![bone.clone()],
        faces: msh.faces.iter().map(|face| face.corners).collect(),
        bindings: vec![Binding {
            bone: 0,
            first_vertex: 0,
            vertex_count,
            first_blend: -1,
            blend_count: 0,
        }],
        uvs,
        blends: Vec::new(),
        vertices,
    })
}

/// The skill's `.bin` keys as `.cfp` bytes; `None` when its keys are a
/// `.cfp` already.
fn skill_stream(skill: &Skill, files: &Files) -> Result<Option<(String, Vec<u8>)>, RigError> {
    let name = skill.animation.to_text();
    let found = files.find(
        &format!("the animation data of skill {}", skill.name.quoted()),
        &[format!("{name}.cfp"), format!("{name}.bin")],
    )?;
    let is_bin = found
        .path
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("bin"));
    if !is_bin {
        return Ok(None);
    }
    let count = |field: &str, value: i32| {
        u32::try_from(value).map_err(|_| {
            RigError::Invalid(format!(
                "skill {}: {field} {value} is negative",
                skill.name.quoted()
            ))
        })
    };
    let counts = KeysContext {
        position_count: count("position_count", skill.position_count)?,
        rotation_count: count("rotation_count", skill.rotation_count)?,
    };
    let referenced = |source| RigError::Referenced {
        path: found.path.clone(),
        source: Box::new(source),
    };
    let values = Keys::split(&found.bytes, &counts)
        .map_err(referenced)?
        .values();
    let stream_counts = StreamsContext {
        position_count: ValueCount(counts.position_count),
        rotation_count: ValueCount(counts.rotation_count),
    };
    let bytes = Streams::plain(&values)
        .to_bytes_with(&stream_counts)
        .map_err(referenced)?;
    Ok(Some((name, bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::Rig;
    use crate::sims::bin::{self, Bin};
    use crate::sims::cfp::Values;
    use crate::sims::cmx::{self, PROTOTYPE_VERSION};
    use crate::sims::msh;

    /// A folder holding the synthetic prototype humanoid (version 200), its
    /// arm as a `.msh` and its wave as a `.bin`, named as the file names them.
    fn prototype_folder(test: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("ossuary-retail-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let character = cmx::prototype_humanoid();
        let mesh = &character.suits[0].skins[0].name;
        std::fs::write(
            dir.join(format!("{mesh}.msh")),
            msh::arm_block().to_bytes().unwrap(),
        )
        .unwrap();
        let animation = &character.skills[0].animation;
        std::fs::write(
            dir.join(format!("{animation}.bin")),
            bin::humanoid_wave().to_bytes().unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join("humanoid.cmx"), character.to_text().unwrap()).unwrap();
        dir
    }

    #[test]
    fn a_prototype_character_becomes_version_300_with_the_retail_values() {
        let dir = prototype_folder("cmx");
        let mut character = cmx::prototype_humanoid();
        assert_eq!(character.version, PROTOTYPE_VERSION);
        character.skeletons[0].bones[1].can_translate = 0;
        let retail = to_retail(&character, &Files::beside(&dir.join("humanoid.cmx"))).unwrap();
        assert_eq!(retail.cmx.version, RETAIL_VERSION);
        let bones = &retail.cmx.skeletons[0].bones;
        // A bone that can translate does not blend, as the released
        // skeleton's root and pelvis; one that cannot does.
        assert_eq!((bones[0].can_translate, bones[0].can_blend), (1, Some(0)));
        assert_eq!((bones[1].can_translate, bones[1].can_blend), (0, Some(1)));
        assert!(bones
            .iter()
            .all(|bone| bone.property_lists == Some(Vec::new())
                && bone.wiggle_value == Some(0.0)
                && bone.wiggle_power == Some(0.0)));
        let skin = &retail.cmx.suits[0].skins[0];
        assert_eq!((skin.censor_flags, skin.unknown), (Some(0), Some(0)));
        // Read back as a released game's file, the same bones and skills.
        let text = retail.cmx.to_text().unwrap();
        let reread = Cmx::from_text(&text).unwrap();
        assert_eq!(reread, retail.cmx);
        assert_eq!(reread.skills, character.skills);
        assert_eq!(
            reread.skeletons[0]
                .bones
                .iter()
                .map(|bone| (&bone.name, bone.translation, bone.rotation))
                .collect::<Vec<_>>(),
            character.skeletons[0]
                .bones
                .iter()
                .map(|bone| (&bone.name, bone.translation, bone.rotation))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_mesh_becomes_a_skin_that_poses_as_it_did() {
        let dir = prototype_folder("skin");
        let character = cmx::prototype_humanoid();
        let files = Files::beside(&dir.join("humanoid.cmx"));
        let retail = to_retail(&character, &files).unwrap();
        let [(name, skn)] = retail.skins.as_slice() else {
            panic!("one skin: {:?}", retail.skins);
        };
        assert_eq!(name, "xskin-humanoid-L_ARM-ARM");
        // Written and read as a .skn, the same skin, float for float.
        let reread = Skn::from_text(&skn.to_text().unwrap()).unwrap();
        assert_eq!(reread.vertices, skn.vertices);
        let mesh = msh::arm_block();
        let from_mesh = mesh.skin(name, "L_ARM").unwrap();
        let from_skn = reread.skin().unwrap();
        assert_eq!(from_skn.positions, from_mesh.positions);
        assert_eq!(from_skn.normals, from_mesh.normals);
        assert_eq!(from_skn.uvs, from_mesh.uvs);
        assert_eq!(from_skn.triangles, from_mesh.triangles);
        assert_eq!(from_skn.binding, from_mesh.binding);
        assert_eq!(from_skn.texture, from_mesh.texture);
        // The character's own skins, through the suit, agree as well.
        let suit_skins = character
            .skins(&files, Default::default())
            .unwrap()
            .unwrap();
        assert_eq!(suit_skins[0].positions, from_skn.positions);
    }

    #[test]
    fn bin_keys_become_a_cfp_of_exactly_the_same_floats() {
        let dir = prototype_folder("keys");
        let character = cmx::prototype_humanoid();
        let retail = to_retail(&character, &Files::beside(&dir.join("humanoid.cmx"))).unwrap();
        let [(name, bytes)] = retail.streams.as_slice() else {
            panic!("one stream");
        };
        assert_eq!(name, "xskill-humanoid-wave");
        let skill = &character.skills[0];
        let counts = StreamsContext {
            position_count: ValueCount(skill.position_count as u32),
            rotation_count: ValueCount(skill.rotation_count as u32),
        };
        let values: Values = Streams::split(bytes, &counts).unwrap().values().unwrap();
        assert_eq!(Bin::from(&values), bin::humanoid_wave());
    }

    #[test]
    fn files_that_cannot_be_found_are_listed_and_the_rest_converts() {
        let dir = prototype_folder("missing");
        let character = cmx::prototype_humanoid();
        let animation = &character.skills[0].animation;
        std::fs::remove_file(dir.join(format!("{animation}.bin"))).unwrap();
        let retail = to_retail(&character, &Files::beside(&dir.join("humanoid.cmx"))).unwrap();
        assert_eq!(retail.skins.len(), 1);
        assert!(retail.streams.is_empty());
        let [message] = retail.missing.as_slice() else {
            panic!("one missing file: {:?}", retail.missing);
        };
        assert!(
            message.contains("xskill-humanoid-wave.cfp")
                && message.contains("xskill-humanoid-wave.bin"),
            "{message}"
        );
    }

    #[test]
    fn a_retail_character_has_nothing_to_convert() {
        let character = cmx::humanoid();
        let retail = to_retail(
            &Cmx {
                suits: Vec::new(),
                skills: Vec::new(),
                ..character.clone()
            },
            &Files::nowhere(),
        )
        .unwrap();
        assert_eq!(retail.cmx.skeletons, character.skeletons);
        assert!(retail.skins.is_empty() && retail.streams.is_empty());
    }
}
