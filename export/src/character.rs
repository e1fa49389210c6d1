//! A character made into one glTF asset from its files, as `convert` and
//! the viewer make it: the inputs read ([`crate::input`]), the first
//! skeleton taken, every input's meshes dressed ([`crate::assembly`]), a
//! part whose file is missing left out when asked, the animations chosen,
//! and the game files it was made of carried when asked.

use std::path::PathBuf;

use formats::catalogue::Catalogue;
use formats::files::FindError;
use formats::rig::{self, RigError, RigOptions};
use formats::schema::BinarySchema;
use formats::sims::bcf::Bcf;
use formats::sims::bmf::Bmf;
use formats::sims::cmx::{Cmx, Skill, RETAIL_VERSION};
use formats::sims::retail;
use formats::sims::skn::Skn;
use formats::swg::lmg::MeshLevels;
use formats::swg::mgn::Mesh as SwgMesh;
use formats::swg::sat::{Appearance, AppearanceVersion};
use formats::swg::skt::Skeleton as Skt;
use skinning::Composition;

use crate::assembly::{Assembly, Dressing};
use crate::import::carried::Original;
use crate::import::sims::SuitPlace;
use crate::input::{self, CharacterError, Input, Need, Reading};
use crate::Container;

/// A character to make: its files and how it is dressed and posed.
pub struct Request<'a> {
    /// The files giving the skeleton (the first that has one) and meshes.
    pub inputs: &'a [PathBuf],
    /// The files giving the animations.
    pub animations: &'a [PathBuf],
    /// The animations to take from the `animations` files, by name; every
    /// one when empty.
    pub skills: &'a [String],
    /// The meshes' blend shapes' default weights, by name.
    pub blend_weights: &'a [(String, f32)],
    /// How the joints' turns compose.
    pub composition: Composition,
    pub options: RigOptions,
    /// The format of the inputs, by name, when their names and bytes do
    /// not tell it.
    pub format: Option<&'a str>,
    pub container: Container,
    /// The skin tone and images the meshes are dressed with.
    pub dressing: Dressing,
    /// Star Wars Galaxies customization variables' values, by name.
    pub customization: &'a [(String, i32)],
    /// Whether an input whose meshes need a missing file is left out
    /// (with a warning) rather than failing the asset.
    pub leave_out_missing: bool,
    /// Whether the asset carries the game files it was made of (scene
    /// `extras`), so that the import gives them back: an asset made to be
    /// shown (the viewer's) leaves them out, a fraction of the size.
    pub carry_files: bool,
}

/// The asset of `request`'s character, its files read as `reading` says;
/// each warning is given to `warn` as it is met (once each), a sentence
/// naming the file. The skeleton comes from the first input that has one;
/// every input gives its meshes (a suit the skins it names), each dressed
/// with its image; every animation file gives its animations. A texture
/// without an image gives a plain material and one warning. An input that
/// gives neither the skeleton nor a mesh is the wrong kind of input. With
/// `leave_out_missing`, the meshes of an input that need a file that
/// cannot be found are left out with a warning (the input's skeleton, and
/// the other inputs, are kept), unless the first input has nothing else.
pub fn assemble(
    catalogue: &Catalogue,
    reading: &Reading,
    request: &Request,
    warn: &mut dyn FnMut(String),
) -> Result<Vec<u8>, CharacterError> {
    let inputs = request
        .inputs
        .iter()
        .map(|path| input::load(catalogue, path, request.format, reading))
        .collect::<Result<Vec<Input>, CharacterError>>()?;
    let mut assembly = Assembly::new(request.dressing.clone());
    assembly.customization = request.customization.to_vec();
    for (index, input) in inputs.iter().enumerate() {
        let has_skeleton = match input.skeleton(request.options)? {
            Some(found) => assembly.offer_skeleton(&input.path, found),
            None => false,
        };
        let found = if request.leave_out_missing && (index > 0 || has_skeleton) {
            // Part by part: a part whose file is missing is left out, and
            // the others drawn.
            let (mut kept, mut left_out) = (Vec::new(), false);
            for part in input.skin_parts(request.options) {
                match part.skins {
                    Ok(skins) => kept.extend(skins),
                    Err(missing @ RigError::File(FindError::Missing { .. })) => {
                        assembly.warn(format!("{}: left out: {missing}", input.path.display()));
                        left_out = true;
                    }
                    Err(other) => return Err(input.rig_error(other)),
                }
            }
            if kept.is_empty() && left_out {
                continue;
            }
            kept
        } else {
            input.skins(request.options)?
        };
        if found.is_empty() && !has_skeleton {
            return Err(input.wrong_kind(Need::Meshes));
        }
        let found = own_list_named(input, found);
        assembly.add_skins(&input.path, &input.files, found, &suit_places(input))?;
        if request.carry_files {
            assembly.originals.extend(swg_originals(input, reading)?);
            assembly.originals.extend(sims_originals(input, reading)?);
        }
    }
    let no_skeleton = || match inputs.first() {
        Some(first) => first.wrong_kind(Need::Skeleton),
        None => CharacterError::NoInput,
    };
    if assembly.skeleton.is_none() {
        return Err(no_skeleton());
    }
    let animation_inputs = request
        .animations
        .iter()
        .map(|path| input::load(catalogue, path, None, reading))
        .collect::<Result<Vec<Input>, CharacterError>>()?;
    let animations = chosen_animations(&animation_inputs, request.skills, warn)?;
    let skills = sims_skills(&animation_inputs, &animations);
    // The character files the skills come from are carried too, once each.
    for input in animation_inputs.iter().filter(|_| request.carry_files) {
        for original in sims_originals(input, reading)? {
            if !assembly.originals.contains(&original) {
                assembly.originals.push(original);
            }
        }
    }
    assembly.warn_unknown_customization();
    for warning in &assembly.warnings {
        warn(warning.clone());
    }
    let exported = assembly.export(
        &animations,
        &skills,
        request.blend_weights,
        request.composition,
        request.container,
    );
    Ok(exported.ok_or_else(no_skeleton)??)
}

/// Where the suits of a Sims character file (`.cmx` or `.bcf`) wear each
/// skin, by skin name, for the asset to carry (so the import gives back
/// the same suits).
fn suit_places(input: &Input) -> Vec<(String, SuitPlace)> {
    let document = input.document.as_any();
    let suits = if let Some(cmx) = document.downcast_ref::<Cmx>() {
        &cmx.suits
    } else if let Some(bcf) = document.downcast_ref::<Bcf>() {
        &bcf.suits
    } else {
        return Vec::new();
    };
    let file = input.stem();
    suits
        .iter()
        .flat_map(|suit| {
            let file = file.clone();
            suit.skins.iter().map(move |skin| {
                let place = SuitPlace {
                    suit: suit.name.to_text(),
                    file: file.clone(),
                    suit_type: suit.suit_type.unwrap_or(0),
                    suit_unknown: suit.unknown.unwrap_or(0),
                    bone: skin.bone.to_text(),
                    censor_flags: skin.censor_flags.unwrap_or(0),
                    unknown: skin.unknown.unwrap_or(0),
                };
                (skin.name.to_text(), place)
            })
        })
        .collect()
}

/// The skins of a `.mgn` given alone, their shared position list named by
/// the file's name (as an appearance's meshes are by their paths), so that
/// the import writes them back as that file.
fn own_list_named(input: &Input, mut skins: Vec<rig::Skin>) -> Vec<rig::Skin> {
    if input.document.as_any().is::<SwgMesh>() {
        let name = input.file_name();
        for shared in skins
            .iter_mut()
            .filter_map(|skin| skin.shared_positions.as_mut())
        {
            shared.list = name.clone();
        }
    }
    skins
}

/// The Star Wars Galaxies files an input is made of, for the asset to
/// carry (so that the import gives them back): an appearance's `.sat`
/// itself, each mesh list (`.lmg`) it names with every level's `.mgn`, or
/// each `.mgn` it names directly, and its skeletons (`.skt`), each by the
/// path the files refer to it by; a `.mgn` or `.skt` given alone by its
/// file name. A file that cannot be found is not carried (the import
/// derives what it would have given).
fn swg_originals(input: &Input, reading: &Reading) -> Result<Vec<Original>, CharacterError> {
    let any = input.document.as_any();
    let itself = || -> Result<Original, CharacterError> {
        Ok(Original {
            path: input.file_name(),
            bytes: input::read(&input.path, reading.limit)?,
        })
    };
    if any.is::<SwgMesh>() || any.is::<Skt>() {
        // A mesh or skeleton given alone, by its file name.
        return Ok(vec![itself()?]);
    }
    let Some(appearance) = any.downcast_ref::<Appearance>() else {
        return Ok(Vec::new());
    };
    let AppearanceVersion::V3(contents) = &appearance.version;
    let mut originals = vec![itself()?];
    let mut carry = |files: &formats::files::Files, path: String| {
        let found = files.find(&path, std::slice::from_ref(&path)).ok()?;
        originals.push(Original {
            path,
            bytes: found.bytes.clone(),
        });
        Some(found)
    };
    for attachment in &contents.skeletons {
        carry(&input.files, attachment.skeleton.to_text());
    }
    for mesh in &contents.meshes {
        let Some(found) = carry(&input.files, mesh.to_text()) else {
            continue;
        };
        let Ok(levels) = MeshLevels::from_bytes(&found.bytes) else {
            continue;
        };
        let beside = input.files.beside_found(&found);
        for level in levels.levels() {
            carry(&beside, level);
        }
    }
    Ok(originals)
}

/// The Sims files a character file or skin input is made of, for the
/// asset to carry (so that the import gives them back as they were): the
/// input itself (`.cmx` or `.bcf`, `.skn` or `.bmf`), each skin a
/// character file's suits name (`.skn` beside a `.cmx`, `.bmf` beside a
/// `.bcf`) and each `.cfp` holding its skills' keys, found beside it.
fn sims_originals(input: &Input, reading: &Reading) -> Result<Vec<Original>, CharacterError> {
    let itself = || -> Result<Original, CharacterError> {
        Ok(Original {
            path: input.file_name(),
            bytes: input::read(&input.path, reading.limit)?,
        })
    };
    let document = input.document.as_any();
    if document.is::<Skn>() || document.is::<Bmf>() {
        return Ok(vec![itself()?]);
    }
    let (cmx, skin_extension) = if let Some(cmx) = document.downcast_ref::<Cmx>() {
        if cmx.version != RETAIL_VERSION {
            return Ok(prototype_originals(input, cmx));
        }
        (std::borrow::Cow::Borrowed(cmx), "skn")
    } else if let Some(bcf) = document.downcast_ref::<Bcf>() {
        (std::borrow::Cow::Owned(bcf.to_cmx()), "bmf")
    } else {
        return Ok(Vec::new());
    };
    let mut originals = vec![itself()?];
    let skins = cmx.suits.iter().flat_map(|suit| &suit.skins);
    let files = skins
        .map(|skin| format!("{}.{skin_extension}", skin.name.to_text()))
        .chain(
            cmx.skills
                .iter()
                .map(|skill| format!("{}.cfp", skill.animation.to_text())),
        );
    for file in files {
        if let Ok(found) = input.files.find(&file, std::slice::from_ref(&file)) {
            originals.push(Original {
                path: file,
                bytes: found.bytes,
            });
        }
    }
    Ok(originals)
}

/// A prototype character file's conversion into the released game's files
/// (what `convert --to sims-cmx` writes of it), for the asset to carry: the
/// import gives back those; none when it cannot be converted.
fn prototype_originals(input: &Input, cmx: &Cmx) -> Vec<Original> {
    let Ok(converted) = retail::to_retail(cmx, &input.files) else {
        return Vec::new();
    };
    let stem = input.stem();
    let text = |path: String, bytes: Result<Vec<u8>, formats::schema::Error>| {
        bytes.ok().map(|bytes| Original { path, bytes })
    };
    let cmx = text(format!("{stem}.cmx"), converted.cmx.to_text());
    let skins = converted
        .skins
        .iter()
        .map(|(mesh, skn)| text(format!("{mesh}.skn"), skn.to_text()));
    let streams = converted.streams.into_iter().map(|(animation, bytes)| {
        Some(Original {
            path: format!("{animation}.cfp"),
            bytes,
        })
    });
    std::iter::once(cmx)
        .chain(skins)
        .chain(streams)
        .flatten()
        .collect()
}

/// The animations of the animation files, with the file each came from:
/// those `skills` names (each must be found, its keys too), else every one
/// whose data can be had, with one warning for each left out because its
/// data is missing (naming the files looked for).
fn chosen_animations(
    inputs: &[Input],
    skills: &[String],
    warn: &mut dyn FnMut(String),
) -> Result<Vec<(PathBuf, rig::Animation)>, CharacterError> {
    let mut chosen = Vec::new();
    let mut found_names = Vec::new();
    let mut all_names = Vec::new();
    for input in inputs {
        let path = &input.path;
        let named = input.named_animations()?;
        all_names.push(format!("{}: {}", path.display(), input::names(&named)));
        for named in named {
            let wanted = skills.is_empty() || skills.contains(&named.name);
            if !wanted {
                continue;
            }
            match named.animation {
                Ok(animation) => chosen.push((path.clone(), animation)),
                Err(RigError::File(missing @ FindError::Missing { .. })) if skills.is_empty() => {
                    warn(format!(
                        "{}: animation \"{}\" left out: {missing}",
                        path.display(),
                        crate::quoted(&named.name)
                    ));
                }
                Err(error) => return Err(input.rig_error(error)),
            }
            found_names.push(named.name);
        }
    }
    if let Some(unknown) = skills.iter().find(|skill| !found_names.contains(skill)) {
        return Err(CharacterError::NoSkillNamed {
            name: unknown.clone(),
            names: all_names.join("; "),
        });
    }
    Ok(chosen)
}

/// Per animation, the Sims skill record it came from (found by name in the
/// animation files that are Sims character files, `.cmx` or `.bcf`), for
/// the asset to carry.
fn sims_skills(inputs: &[Input], animations: &[(PathBuf, rig::Animation)]) -> Vec<Option<Skill>> {
    // Per skill as the file names it, the record carried: a prototype's
    // as the released game's files name it (so that the import gives back
    // what `convert --to sims-cmx` writes).
    let mut records: Vec<(String, Skill)> = Vec::new();
    for input in inputs {
        let document = input.document.as_any();
        if let Some(bcf) = document.downcast_ref::<Bcf>() {
            records.extend(
                bcf.skills
                    .iter()
                    .map(|skill| (skill.name.to_text(), skill.clone())),
            );
        } else if let Some(cmx) = document.downcast_ref::<Cmx>() {
            let released = retail::to_retail(cmx, &input.files)
                .map(|converted| converted.cmx.skills)
                .unwrap_or_else(|_| cmx.skills.clone());
            records.extend(
                cmx.skills
                    .iter()
                    .map(|skill| skill.name.to_text())
                    .zip(released),
            );
        }
    }
    animations
        .iter()
        .map(|(_, animation)| {
            records
                .iter()
                .find(|(name, _)| *name == animation.name)
                .map(|(_, skill)| skill.clone())
        })
        .collect()
}
