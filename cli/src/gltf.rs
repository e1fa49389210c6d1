//! `ossuary convert SKELETON [MESH... | SUIT...] [--anim FILE...] -o
//! OUT.gltf|OUT.glb`: every input into one glTF 2.0 asset.

use std::path::{Path, PathBuf};

use export::import::sims::SuitPlace;
use export::{Character, Container, ExportError, Mesh};
use formats::files::{FindError, FoundFile};
use formats::rig::{self, RigError, RigOptions};
use formats::sims::cmx::{Cmx, Skill};
use skinning::Composition;

use crate::error::CliError;
use crate::input::{self, Input, Need};
use crate::{output, Context};

/// The glTF container `--to` names, else the one OUT's extension names;
/// `None` when the output is not glTF.
pub fn container(output_path: &Path, to: Option<&str>) -> Option<Container> {
    let name = match to {
        Some(name) => name.to_owned(),
        None => output_path
            .extension()?
            .to_string_lossy()
            .to_ascii_lowercase(),
    };
    match name.as_str() {
        "gltf" => Some(Container::Gltf),
        "glb" => Some(Container::Glb),
        _ => None,
    }
}

/// What `convert` to glTF takes besides its inputs.
pub struct Request<'a> {
    pub inputs: &'a [PathBuf],
    pub animations: &'a [PathBuf],
    /// `--skill`: the animations to take from the `--anim` files, by name;
    /// every one when empty.
    pub skills: &'a [String],
    /// `--blend`: the meshes' blend shapes' default weights, by name.
    pub blend_weights: &'a [(String, f32)],
    /// `--outcast-order`: how the joints' turns compose.
    pub composition: Composition,
    pub options: RigOptions,
    pub format: Option<&'a str>,
    pub container: Container,
}

/// A skin and the file it came from.
struct Skin<'a> {
    input: &'a Input,
    skin: rig::Skin,
    texture: Option<FoundFile>,
    suit: Option<SuitPlace>,
}

/// Where the suits of a Sims character file wear each skin, by skin name,
/// for the asset to carry (so the import gives back the same suits).
fn suit_places(input: &Input) -> Vec<(String, SuitPlace)> {
    let Some(cmx) = input.document.as_any().downcast_ref::<Cmx>() else {
        return Vec::new();
    };
    let file = input
        .path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    cmx.suits
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

/// The animations of the `--anim` files, with the file each came from:
/// those `--skill` names (each must be found, its keys too), else every one
/// whose data can be had, with one warning for each left out because its
/// data is missing (naming the files looked for).
fn chosen_animations<'r>(
    context: &mut Context,
    request: &Request<'r>,
) -> Result<Vec<(&'r Path, rig::Animation)>, CliError> {
    let catalogue = context.catalogue;
    let mut chosen = Vec::new();
    let mut found_names = Vec::new();
    let mut all_names = Vec::new();
    for path in request.animations {
        let input = input::load(&catalogue, path, None)?;
        let named = input.named_animations()?;
        all_names.push(format!("{}: {}", path.display(), input::names(&named)));
        for named in named {
            let wanted = request.skills.is_empty() || request.skills.contains(&named.name);
            if !wanted {
                continue;
            }
            match named.animation {
                Ok(animation) => chosen.push((path.as_path(), animation)),
                Err(RigError::File(missing @ FindError::Missing { .. }))
                    if request.skills.is_empty() =>
                {
                    context.warn(&format!(
                        "{}: animation {:?} left out: {missing}",
                        path.display(),
                        named.name
                    ));
                }
                Err(error) => return Err(CliError::input(path, error)),
            }
            found_names.push(named.name);
        }
    }
    if let Some(unknown) = request
        .skills
        .iter()
        .find(|skill| !found_names.contains(skill))
    {
        return Err(CliError::Usage(format!(
            "no --anim file has an animation named {unknown:?}; they have: {}",
            all_names.join("; ")
        )));
    }
    Ok(chosen)
}

/// Per animation, the Sims skill record it came from (found by name in the
/// `--anim` files that are Sims character files), for the asset to carry.
fn sims_skills(
    context: &Context,
    request: &Request,
    animations: &[rig::Animation],
) -> Result<Vec<Option<Skill>>, CliError> {
    let catalogue = context.catalogue;
    let mut records: Vec<Skill> = Vec::new();
    for path in request.animations {
        let input = input::load(&catalogue, path, None)?;
        if let Some(cmx) = input.document.as_any().downcast_ref::<Cmx>() {
            records.extend(cmx.skills.iter().cloned());
        }
    }
    Ok(animations
        .iter()
        .map(|animation| {
            records
                .iter()
                .find(|skill| skill.name.to_text() == animation.name)
                .cloned()
        })
        .collect())
}

/// Writes the asset [`assemble`] makes to `output`.
pub fn run(context: &mut Context, request: &Request, output: &Path) -> Result<bool, CliError> {
    let bytes = assemble(context, request)?;
    output::write(context, output, &bytes)?;
    Ok(true)
}

/// The asset, as `convert` and `view` make it. The skeleton comes from the
/// first input that has one; every input gives its meshes (a suit the
/// skins it names); every `--anim` file gives all its animations. A texture
/// a mesh names without an image found for it gives a plain material and
/// one warning. An input that gives neither the skeleton nor a mesh is the
/// wrong kind of input.
pub fn assemble(context: &mut Context, request: &Request) -> Result<Vec<u8>, CliError> {
    let catalogue = context.catalogue;
    let inputs = request
        .inputs
        .iter()
        .map(|path| input::load(&catalogue, path, request.format))
        .collect::<Result<Vec<Input>, CliError>>()?;
    let mut skeleton = None;
    let mut skins = Vec::new();
    // Each texture without an image is warned about once.
    let mut missing_textures: Vec<String> = Vec::new();
    for input in &inputs {
        let has_skeleton = skeleton.is_none()
            && match input.skeleton(request.options)? {
                Some(found) => {
                    skeleton = Some((input, found));
                    true
                }
                None => false,
            };
        let found = input.skins(request.options)?;
        let places = suit_places(input);
        if found.is_empty() && !has_skeleton {
            return Err(input.wrong_kind(Need::Meshes));
        }
        for skin in found {
            let texture = export::find_texture(&skin, &input.files)
                .map_err(|error| CliError::input(&input.path, error))?;
            if let (None, Some(name)) = (&texture, &skin.texture) {
                if !missing_textures.contains(name) {
                    context.warn(&format!(
                        "{}: no image found for the texture {name:?} (of {}), beside the file \
                         or in a Textures folder beside it; its meshes get a plain material",
                        input.path.display(),
                        skin.name
                    ));
                    missing_textures.push(name.clone());
                }
            }
            let suit = places
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(&skin.name))
                .map(|(_, place)| place.clone());
            skins.push(Skin {
                input,
                skin,
                texture,
                suit,
            });
        }
    }
    let Some((skeleton_input, skeleton)) = skeleton else {
        let first = inputs
            .first()
            .ok_or_else(|| CliError::Usage("no file to convert".to_owned()))?;
        return Err(first.wrong_kind(Need::Skeleton));
    };
    let animations = chosen_animations(context, request)?;
    let (animation_paths, animations): (Vec<&Path>, Vec<rig::Animation>) =
        animations.into_iter().unzip();
    let skills = sims_skills(context, request, &animations)?;
    let character = Character {
        skeleton: &skeleton,
        meshes: skins
            .iter()
            .map(|skin| Mesh {
                skin: &skin.skin,
                texture: skin.texture.clone(),
                suit: skin.suit.clone(),
            })
            .collect(),
        animations: &animations,
        sims_skills: &skills,
        blend_weights: request.blend_weights,
        composition: request.composition,
    };
    let bytes = export::export(&character, request.container).map_err(|error| {
        // Name the file the failing part came from.
        let path = match &error {
            ExportError::Mesh { index, .. } => {
                skins.get(*index).map(|skin| skin.input.path.as_path())
            }
            ExportError::Animation { index, .. } => animation_paths.get(*index).copied(),
            _ => None,
        };
        CliError::input(path.unwrap_or(&skeleton_input.path), Box::new(error))
    })?;
    Ok(bytes)
}
