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
//!
//! Names and layout follow the released game, as its tools look for them
//! (ts1-blender-io's importer binds a skill to the skeleton its name's first
//! letters name, and refuses other names): every skeleton is named `adult`
//! or `child` ([`Figure`]); a skill is named `a2o-...` or `c2o-...` and its
//! keys `xskill-A2O-...` or `xskill-C2O-...` ([`released_skill_name`]), the
//! prototype's names kept in the file's comment line; an animation file (skills
//! and no suits) holds no skeleton, as no released animation file does.

use super::bin::{Keys, KeysContext};
use super::cfp::{Streams, StreamsContext, ValueCount};
use super::cmx::{fill_retail_fields, Cmx, Skill, Skin, Suit, RETAIL_VERSION};
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
    /// A `.cfp` for each skill whose keys are found (a `.bin` converted, a
    /// `.cfp` as it is), by the converted skill's animation name (without
    /// extension), as the bytes to write.
    pub streams: Vec<(String, Vec<u8>)>,
    /// A mesh or a skill's keys that cannot be found, each one sentence
    /// naming what was looked for: the character file still names it, and
    /// the rest converts.
    pub missing: Vec<String>,
}

/// The figure a skeleton is for: the released game has one skeleton of each,
/// named `adult` and `child`, and names its skills after them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    Adult,
    Child,
}

/// How released skill names begin (ts1-blender-io refuses any other): the
/// figure they are for, `a2o-` an adult's, `c2o-` a child's, `k2`, `d2`, `f2`
/// cats', dogs' and other animals', `effects-` the effects skeleton's.
const RELEASED_SKILL_PREFIXES: [&[u8]; 6] = [b"a2", b"c2", b"k2", b"d2", b"f2", b"effects-"];

impl Figure {
    /// A child's when a skeleton or skill of the file is named `child...`
    /// (the prototype names its animations `adult-...` and `child-...`, and
    /// some skeletons `adult`); an adult's otherwise, as every known
    /// prototype character is.
    pub fn of(cmx: &Cmx) -> Figure {
        let names = cmx
            .skeletons
            .iter()
            .map(|skeleton| &skeleton.name)
            .chain(cmx.skills.iter().map(|skill| &skill.name));
        for name in names {
            if starts_with_ignoring_case(name.as_bytes(), b"child") {
                return Figure::Child;
            }
        }
        Figure::Adult
    }

    /// The released skeleton's name.
    pub fn skeleton_name(self) -> &'static str {
        match self {
            Figure::Adult => "adult",
            Figure::Child => "child",
        }
    }

    /// How the figure's released skill names begin.
    fn skill_prefix(self) -> &'static [u8] {
        match self {
            Figure::Adult => b"a2o-",
            Figure::Child => b"c2o-",
        }
    }
}

fn starts_with_ignoring_case(text: &[u8], start: &[u8]) -> bool {
    text.get(..start.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(start))
}

/// A skill's name and its keys' (animation) name as the released game would
/// give them, for a skill of a `figure`'s file: a released name is kept;
/// the prototype's `adult-X` becomes `a2o-X` and `child-X` `c2o-X`; any
/// other name gets the figure's prefix (`ross-idle1-start` becomes
/// `a2o-ross-idle1-start`). The keys are then named `xskill-` and the new
/// name with its prefix in capitals (`xskill-A2O-greet01`), as the released
/// `a2o-idle1`'s are `xskill-A2O-idle1`.
pub fn released_skill_name(skill: &Skill, figure: Figure) -> (RawString, RawString) {
    let name = skill.name.as_bytes();
    if RELEASED_SKILL_PREFIXES
        .iter()
        .any(|prefix| starts_with_ignoring_case(name, prefix))
    {
        return (skill.name.clone(), skill.animation.clone());
    }
    let rest = [
        (b"adult-".as_slice(), Figure::Adult),
        (b"child-".as_slice(), Figure::Child),
    ]
    .into_iter()
    .find_map(|(prototype_prefix, named)| {
        starts_with_ignoring_case(name, prototype_prefix).then(|| {
            (
                name.get(prototype_prefix.len()..).unwrap_or_default(),
                named,
            )
        })
    });
    let (rest, figure) = rest.unwrap_or((name, figure));
    let prefix = figure.skill_prefix();
    let released = [prefix, rest].concat();
    let animation = [b"xskill-", prefix.to_ascii_uppercase().as_slice(), rest].concat();
    (RawString(released), RawString(animation))
}

/// `cmx` and the files it names (found by `files`) in the released game's
/// formats. A retail file comes back as it is, with nothing to convert.
pub fn to_retail(cmx: &Cmx, files: &Files) -> Result<Retail, RigError> {
    let mut retail = cmx.clone();
    if cmx.version == RETAIL_VERSION {
        return Ok(Retail {
            cmx: retail,
            skins: Vec::new(),
            streams: Vec::new(),
            missing: Vec::new(),
        });
    }
    retail.version = RETAIL_VERSION;
    let figure = Figure::of(cmx);
    if cmx.suits.is_empty() && !cmx.skills.is_empty() {
        // An animation: the character it moves brings the skeleton.
        retail.skeletons.clear();
    }
    for skeleton in &mut retail.skeletons {
        skeleton.name = RawString::from(figure.skeleton_name());
    }
    let mut renamed = Vec::new();
    for skill in &mut retail.skills {
        let (name, animation) = released_skill_name(skill, figure);
        if name != skill.name {
            renamed.push(format!("{name} was {}", skill.name));
        }
        skill.name = name;
        skill.animation = animation;
    }
    if !renamed.is_empty() {
        // The one comment line the format has keeps the prototype's names.
        let note = format!(
            " (ossuary, from the 1998 prototype: {})",
            renamed.join(", ")
        );
        retail.comment.0.extend_from_slice(note.as_bytes());
    }
    fill_retail_fields(&mut retail.skeletons, &mut retail.suits, |bone| {
        i32::from(bone.can_translate == 0)
    });
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
    for (skill, released) in cmx.skills.iter().zip(&retail.skills) {
        match skill_stream(skill, &released.animation, files) {
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

/// The skill's keys as `.cfp` bytes named `released` (the name the
/// converted skill gives them): a `.bin` converted, a `.cfp` as it is.
fn skill_stream(
    skill: &Skill,
    released: &RawString,
    files: &Files,
) -> Result<Option<(String, Vec<u8>)>, RigError> {
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
        return Ok(Some((released.to_text(), found.bytes)));
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
    Ok(Some((released.to_text(), bytes)))
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
        // The skills move the same bones by the same keys; only their
        // names are the released game's.
        let unnamed = |skills: &[Skill]| -> Vec<Skill> {
            skills
                .iter()
                .map(|skill| Skill {
                    name: RawString::default(),
                    animation: RawString::default(),
                    ..skill.clone()
                })
                .collect()
        };
        assert_eq!(unnamed(&reread.skills), unnamed(&character.skills));
        assert_eq!(reread.skills[0].name, RawString::from("a2o-humanoid-wave"));
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
        assert_eq!(name, "xskill-A2O-humanoid-wave");
        assert_eq!(retail.cmx.skills[0].animation.to_text(), *name);
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

    fn skill(name: &str, animation: &str) -> Skill {
        Skill {
            name: RawString::from(name),
            animation: RawString::from(animation),
            ..cmx::humanoid().skills[0].clone()
        }
    }

    #[test]
    fn skills_get_the_names_of_released_skills() {
        let released = |name: &str, animation: &str, figure| {
            let (name, animation) = released_skill_name(&skill(name, animation), figure);
            (name.to_text(), animation.to_text())
        };
        let pair = |name: &str, animation: &str| (name.to_owned(), animation.to_owned());
        assert_eq!(
            released("adult-greet01", "xskill-adult-greet01", Figure::Adult),
            pair("a2o-greet01", "xskill-A2O-greet01")
        );
        // The name's own figure wins over the file's.
        assert_eq!(
            released("Child-jump", "xskill-child-jump", Figure::Adult),
            pair("c2o-jump", "xskill-C2O-jump")
        );
        assert_eq!(
            released("ross-idle1-start", "xskill-ross-idle1-start", Figure::Child),
            pair("c2o-ross-idle1-start", "xskill-C2O-ross-idle1-start")
        );
        // A released name is kept with its keys' name.
        assert_eq!(
            released("a2o-idle1", "xskill-A2O-idle1", Figure::Child),
            pair("a2o-idle1", "xskill-A2O-idle1")
        );
        assert_eq!(
            released("effects-smoke", "smoke", Figure::Adult),
            pair("effects-smoke", "smoke")
        );
    }

    #[test]
    fn skeletons_are_named_for_their_figure() {
        let mut character = cmx::prototype_humanoid();
        character.skeletons[0].name = RawString::from("new");
        assert_eq!(Figure::of(&character), Figure::Adult);
        let retail = to_retail(&character, &Files::nowhere()).unwrap();
        assert_eq!(retail.cmx.skeletons[0].name, RawString::from("adult"));
        character.skills[0].name = RawString::from("child-wave");
        assert_eq!(Figure::of(&character), Figure::Child);
        let retail = to_retail(&character, &Files::nowhere()).unwrap();
        assert_eq!(retail.cmx.skeletons[0].name, RawString::from("child"));
    }

    #[test]
    fn an_animation_file_loses_its_skeleton_and_keeps_the_old_names_in_its_comment() {
        let dir = prototype_folder("animation");
        let mut animation = cmx::prototype_humanoid();
        animation.suits.clear();
        animation.skills[0].name = RawString::from("adult-wave");
        let retail = to_retail(&animation, &Files::beside(&dir.join("humanoid.cmx"))).unwrap();
        assert!(retail.cmx.skeletons.is_empty());
        assert_eq!(retail.cmx.skills[0].name, RawString::from("a2o-wave"));
        assert_eq!(
            retail.cmx.comment.to_text(),
            " Character File. Copyright 1997, Maxis Inc. \
             (ossuary, from the 1998 prototype: a2o-wave was adult-wave)"
        );
        // The keys were found under the prototype's name, and are written
        // under the new one.
        assert_eq!(retail.streams[0].0, "xskill-A2O-wave");
        // Written and read back, still one comment line.
        let text = retail.cmx.to_text().unwrap();
        assert_eq!(Cmx::from_text(&text).unwrap(), retail.cmx);
        assert!(text.starts_with(b"// Character File. Copyright 1997, Maxis Inc. (ossuary"));
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
