//! The Sims' files brought back from those a character was exported from
//! (carried in the glTF, see [`super::carried`]) and what the glTF holds
//! now.
//!
//! A skin keeps its original's numbers where the glTF's are within
//! [`SAME`](super::carried::SAME) of them (export poses vertices from their bones' space and
//! keeps directions only, as glTF's unit normals require, so a stored
//! normal a little off unit length shows as its direction): an unchanged
//! skin comes back byte for byte, an edited one with its edits; a skill's
//! keys come back as their `.cfp` was (compressed or not) when within
//! [`SAME`](super::carried::SAME) (a stored rotation, like a normal, by its direction). A released character file holding more than one kind of
//! record (a skeleton, suits, skills) comes back as that one file,
//! holding the suits and skills the glTF gives.

use std::collections::HashMap;

use formats::rig;
use formats::schema::BinarySchema as _;
use formats::sims::bcf::Bcf;
use formats::sims::bmf::Bmf;
use formats::sims::cfp::{Streams, StreamsContext, ValueCount};
use formats::sims::cmx::{Cmx, RETAIL_VERSION};
use formats::sims::skn::Skn;

use glam::Affine3A;
use skinning::{BlendRule, BoundSkin};

use super::carried::{near, same_direction, unit, Original};
use super::seams::Stored;
use super::sims::{extras_of, SkinExtras, SuitPlace};
use super::sims_files::{SimsCharacter, SkillFile};

/// `derived` (the skin read from the glTF) with its original's numbers
/// where unchanged, and its original's way of writing them. Where the
/// structure changed (a weight painted), a real vertex still carried by
/// the same bone keeps its stored numbers (they are in that bone's space);
/// blend vertices keep theirs only in the same structure.
pub fn kept_skin(original: &Skn, derived: Skn) -> Skn {
    let mut skin = Skn {
        style: original.style.clone(),
        ..derived
    };
    if original.uvs.len() != skin.uvs.len() {
        return skin;
    }
    let same_structure = original.vertices.len() == skin.vertices.len()
        && original.bones == skin.bones
        && original.bindings == skin.bindings
        && original.blends == skin.blends;
    let (old_carriers, new_carriers) = (carriers(original), carriers(&skin));
    for (index, (vertex, old)) in skin.vertices.iter_mut().zip(&original.vertices).enumerate() {
        let real = index < original.uvs.len();
        let same_bone = real
            && old_carriers
                .get(index)
                .is_some_and(|old| new_carriers.get(index).is_some_and(|new| old == new));
        if !(same_structure || same_bone) {
            continue;
        }
        if near(&vertex.position, &old.position) {
            vertex.position = old.position;
        }
        if same_direction(&vertex.normal, &unit(old.normal)) {
            vertex.normal = old.normal;
        }
    }
    for (uv, old) in skin.uvs.iter_mut().zip(&original.uvs) {
        if near(uv, old) {
            *uv = *old;
        }
    }
    skin
}

/// Per real vertex, the name of the bone whose binding carries it (the
/// last binding holding it, as the game reads them).
fn carriers(skin: &Skn) -> Vec<Option<String>> {
    let mut carriers = vec![None; skin.uvs.len()];
    for binding in &skin.bindings {
        let bone = usize::try_from(binding.bone)
            .ok()
            .and_then(|bone| skin.bones.get(bone))
            .map(|bone| bone.to_text());
        let first = usize::try_from(binding.first_vertex).unwrap_or(usize::MAX);
        let count = usize::try_from(binding.vertex_count).unwrap_or(0);
        for carrier in carriers.iter_mut().skip(first).take(count) {
            carrier.clone_from(&bone);
        }
    }
    carriers
}

/// The character's skins kept from their carried originals (`<name>.skn`),
/// and each carried character file that held more than a suit made again
/// with the glTF's suits and skills of its own: those suits and skills
/// are then written in it, not in files of their own (their keys still go
/// in their `.cfp`).
pub fn keep_originals(character: &mut SimsCharacter, originals: &[Original]) {
    for skin in &mut character.skins {
        if let Some(original) = carried_skin(originals, &skin.name.to_text()) {
            *skin = kept_skin(&original, skin.clone());
        }
    }
    skins_in_carried_order(character, originals);
    for skill in &mut character.skills {
        keep_stream(skill, originals);
        keep_skill_file(skill, originals);
    }
    for original in originals {
        let Some((stem, file)) = carried_character(original) else {
            continue;
        };
        // A file of one kind comes back as it was already (a suit or a
        // skill file), or is the skeleton the import is given; a
        // prototype's (version 200) comes back as the released game's files.
        let kinds = [
            !file.skeletons.is_empty(),
            !file.suits.is_empty(),
            !file.skills.is_empty(),
        ];
        if kinds.iter().filter(|&&kind| kind).count() < 2 || file.version != RETAIL_VERSION {
            continue;
        }
        combine(character, stem, file);
    }
}

/// Each suit's skins in the order of the carried suit of its name (Blender
/// writes a scene's meshes sorted by name); skins it lacks after them.
fn skins_in_carried_order(character: &mut SimsCharacter, originals: &[Original]) {
    // Per carried suit name (the first of a name), each skin's place in it
    // by the skin's name in lower case.
    let mut carried: HashMap<Vec<u8>, HashMap<String, usize>> = HashMap::new();
    for (_, file) in originals.iter().filter_map(carried_character) {
        for suit in file.suits {
            carried.entry(suit.name.0).or_insert_with(|| {
                let mut places = HashMap::new();
                for (place, skin) in suit.skins.iter().enumerate() {
                    places
                        .entry(skin.name.to_text().to_ascii_lowercase())
                        .or_insert(place);
                }
                places
            });
        }
    }
    for suit in character
        .suits
        .iter_mut()
        .flat_map(|(_, file)| &mut file.suits)
    {
        let Some(places) = carried.get(suit.name.as_bytes()) else {
            continue;
        };
        suit.skins.sort_by_cached_key(|skin| {
            places
                .get(&skin.name.to_text().to_ascii_lowercase())
                .copied()
                .unwrap_or(usize::MAX)
        });
    }
}

/// The skill's keys as its carried `.cfp` holds them (compressed or not,
/// as it was), when the glTF's keys are within [`SAME`](super::carried::SAME) of them.
fn keep_stream(skill: &mut SkillFile, originals: &[Original]) {
    let Some(record) = skill.cmx.as_ref().and_then(|cmx| cmx.skills.first()) else {
        return;
    };
    let (name, bytes) = &skill.stream;
    let Some(original) = originals
        .iter()
        .find(|original| original.file_name().eq_ignore_ascii_case(name))
    else {
        return;
    };
    let counts = StreamsContext {
        position_count: ValueCount(record.position_count.unsigned_abs()),
        rotation_count: ValueCount(record.rotation_count.unsigned_abs()),
    };
    let values = |bytes: &[u8]| Streams::split(bytes, &counts).and_then(|streams| streams.values());
    let (Ok(old), Ok(new)) = (values(&original.bytes), values(bytes)) else {
        return;
    };
    let same = old.translations.len() == new.translations.len()
        && old.rotations.len() == new.rotations.len()
        && old
            .translations
            .iter()
            .zip(&new.translations)
            .all(|(a, b)| near(a, b))
        && old.rotations.iter().zip(&new.rotations).all(|(a, b)| {
            // glTF holds unit rotations: a stored one a little off unit
            // length (the compressed keys') shows as its direction; a
            // rotation and its negation are one turn.
            let a = unit(*a);
            near(&a, b) || near(&a, &b.map(|x| -x))
        });
    if same {
        skill.stream.1 = original.bytes.clone();
    }
}

/// The skill's file as carried (its comment line, its way of writing
/// numbers), when it holds just the skill's record as the glTF gives it.
fn keep_skill_file(skill: &mut SkillFile, originals: &[Original]) {
    let carried = originals.iter().find_map(|original| {
        carried_character(original)
            .filter(|(stem, _)| stem.eq_ignore_ascii_case(&skill.stem))
            .map(|(_, file)| file)
    });
    if let (Some(carried), Some(cmx)) = (carried, &mut skill.cmx) {
        let same = carried.skeletons.is_empty()
            && carried.suits.is_empty()
            && carried.skills == cmx.skills;
        if same {
            *cmx = carried;
        }
    }
}

/// A carried character file (`stem.cmx`, or `stem.bcf` as the `.cmx` of
/// the same data, its numbers unrounded) with its stem.
pub fn carried_character(original: &Original) -> Option<(&str, Cmx)> {
    let name = original.file_name();
    let (stem, extension) = name.rsplit_once('.')?;
    let file = if extension.eq_ignore_ascii_case("cmx") {
        Cmx::from_text(&original.bytes).ok()?
    } else if extension.eq_ignore_ascii_case("bcf") {
        Bcf::from_bytes(&original.bytes).ok()?.to_cmx()
    } else {
        return None;
    };
    Some((stem, file))
}

/// A carried skin's vertices where the skeleton rests them, in the game's
/// axes (as the glTF's are read back), and its triangles: what a mesh
/// whose vertices Blender split along seams is mapped back to
/// (the seam matching of `import/seams.rs`).
pub struct StoredSkin {
    pub vertices: Vec<Stored>,
    pub triangles: Vec<[usize; 3]>,
}

/// The carried skin `name` as rig data (`name.skn`, or `name.bmf` as its `.skn`), read once for
/// what a mesh takes from it ([`carried_extras`], [`stored_vertices`]).
pub fn carried_rig_skin(originals: &[Original], name: &str) -> Option<rig::Skin> {
    carried_skin(originals, name)?.skin().ok()
}

/// A carried skin posed at rest (`rest_model`, the skeleton's model
/// matrices); `None` where it does not pose.
pub fn stored_vertices(
    skin: &rig::Skin,
    skeleton: &skinning::Skeleton,
    rest_model: &[Affine3A],
) -> Option<StoredSkin> {
    let posed = BoundSkin::bind(skin, skeleton)
        .ok()?
        .deform(rest_model, BlendRule::Game)
        .ok()?;
    if posed.positions.len() != skin.uvs.len() {
        return None;
    }
    let vertices = posed
        .positions
        .iter()
        .zip(&skin.uvs)
        .enumerate()
        .map(|(vertex, (&position, &uv))| Stored {
            position,
            normal: posed
                .normals
                .get(vertex)
                .copied()
                .unwrap_or_default()
                .normalize_or_zero(),
            uv,
        })
        .collect();
    let triangles = skin
        .triangles
        .iter()
        .map(|triangle| triangle.map(|corner| corner as usize))
        .collect();
    Some(StoredSkin {
        vertices,
        triangles,
    })
}

/// The extras the export gives a carried skin (for a mesh whose own
/// Blender left out).
pub fn carried_extras(skin: &rig::Skin) -> Option<SkinExtras> {
    let rig::Binding::BoneSpace(bone_space) = &skin.binding else {
        return None;
    };
    Some(extras_of(skin, bone_space))
}

/// Where the carried character files wear each skin, by the skin's name
/// in lower case: the first suit listing it (for mesh nodes whose extras
/// Blender left out). Each file is read once.
pub fn carried_places(originals: &[Original]) -> HashMap<String, SuitPlace> {
    let mut places = HashMap::new();
    for (stem, file) in originals.iter().filter_map(carried_character) {
        for suit in &file.suits {
            for skin in &suit.skins {
                places
                    .entry(skin.name.to_text().to_ascii_lowercase())
                    .or_insert_with(|| SuitPlace {
                        suit: suit.name.to_text(),
                        file: stem.to_owned(),
                        suit_type: suit.suit_type.unwrap_or_default(),
                        suit_unknown: suit.unknown.unwrap_or_default(),
                        bone: skin.bone.to_text(),
                        censor_flags: skin.censor_flags.unwrap_or_default(),
                        unknown: skin.unknown.unwrap_or_default(),
                    });
            }
        }
    }
    places
}

/// The carried skin of this name (`name.skn`, or `name.bmf` as the `.skn`
/// of the same data).
fn carried_skin(originals: &[Original], name: &str) -> Option<Skn> {
    originals.iter().find_map(|original| {
        let (stem, extension) = original.file_name().rsplit_once('.')?;
        if !stem.eq_ignore_ascii_case(name) {
            return None;
        }
        if extension.eq_ignore_ascii_case("skn") {
            Skn::from_text(&original.bytes).ok()
        } else if extension.eq_ignore_ascii_case("bmf") {
            Some(Bmf::from_bytes(&original.bytes).ok()?.to_skn())
        } else {
            None
        }
    })
}

/// `file` (carried as `stem.cmx` or `stem.bcf`) with the glTF's suits and skills that it
/// held, in place of their own files.
fn combine(character: &mut SimsCharacter, stem: &str, mut file: Cmx) {
    if let Some(at) = character
        .suits
        .iter()
        .position(|(suit_file, _)| suit_file.eq_ignore_ascii_case(stem))
    {
        let (_, suits) = character.suits.remove(at);
        file.suits = suits.suits;
    }
    for skill in &mut file.skills {
        let own = character.skills.iter_mut().find(|found| {
            found
                .cmx
                .as_ref()
                .and_then(|cmx| cmx.skills.first())
                .is_some_and(|record| record.name == skill.name)
        });
        if let Some(SkillFile { cmx, .. }) = own {
            if let Some(record) = cmx.take().and_then(|cmx| cmx.skills.into_iter().next()) {
                *skill = record;
            }
        }
    }
    character.suits.push((stem.to_owned(), file));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::carried::SAME;

    fn humanoid_skin() -> Skn {
        let path = ::tests::workspace_root().join("tests/fixtures/xskin-humanoid-L_ARM-ARM.skn");
        Skn::from_text(&std::fs::read(path).unwrap()).unwrap()
    }

    #[test]
    fn a_skin_keeps_its_stored_numbers_where_the_gltf_s_are_within_same() {
        let original = humanoid_skin();
        // What glTF gives back: unit normals, positions a little off, and
        // one vertex moved.
        let mut derived = original.clone();
        for vertex in &mut derived.vertices {
            vertex.normal = unit(vertex.normal);
            vertex.position[1] += SAME / 4.0;
        }
        derived.vertices[0].position[0] += 0.5;
        let back = kept_skin(&original, derived.clone());
        assert_eq!(back.vertices[0].position, derived.vertices[0].position);
        assert_eq!(back.vertices[1..], original.vertices[1..]);
        assert_eq!(back.vertices[0].normal, original.vertices[0].normal);
        // Another structure (vertices 1 to 3 carried by L_HAND, a weight
        // painted): a real vertex still carried by its bone keeps its
        // stored numbers, the others and the blend vertices are the glTF's.
        let mut other = derived;
        other.bindings[0].vertex_count = 1;
        other.bindings[1].first_vertex = 1;
        other.bindings[1].vertex_count = 7;
        let back = kept_skin(&original, other.clone());
        assert_eq!(back.vertices[0].position, other.vertices[0].position);
        assert_eq!(back.vertices[0].normal, original.vertices[0].normal);
        assert_eq!(back.vertices[1..4], other.vertices[1..4]);
        assert_eq!(back.vertices[4..8], original.vertices[4..8]);
        assert_eq!(back.vertices[8..], other.vertices[8..]);
        assert_eq!(back.style, original.style);
    }

    #[test]
    fn a_file_of_a_skeleton_suits_and_skills_comes_back_as_one_file() {
        let file = formats::sims::cmx::humanoid();
        let suit = Cmx {
            skeletons: Vec::new(),
            skills: Vec::new(),
            ..file.clone()
        };
        let skill = Cmx {
            skeletons: Vec::new(),
            suits: Vec::new(),
            ..file.clone()
        };
        let mut character = SimsCharacter {
            suits: vec![("humanoid".to_owned(), suit)],
            skills: vec![SkillFile {
                stem: "humanoid-wave".to_owned(),
                cmx: Some(skill),
                stream: ("xskill-humanoid-wave.cfp".to_owned(), Vec::new()),
            }],
            ..SimsCharacter::default()
        };
        let originals = [Original {
            path: "humanoid.cmx".to_owned(),
            bytes: file.to_text().unwrap(),
        }];
        keep_originals(&mut character, &originals);
        assert_eq!(character.suits, [("humanoid".to_owned(), file)]);
        // The skill is written in it; its keys still go in their .cfp.
        assert!(character.skills[0].cmx.is_none());
        assert_eq!(character.skills[0].stream.0, "xskill-humanoid-wave.cfp");
    }
}
