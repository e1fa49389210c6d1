//! `ossuary convert SKELETON [MESH... | SUIT...] [--anim FILE...] -o
//! OUT.gltf|OUT.glb`: every input into one glTF 2.0 asset.

use std::path::{Path, PathBuf};

use export::assembly::{Assembly, AssemblyError, Dressing};
use export::import::carried::Original;
use export::import::sims::SuitPlace;
use export::Container;
use formats::files::FindError;
use formats::rig::{self, RigError, RigOptions};
use formats::schema::BinarySchema;
use formats::sims::cmx::{Cmx, Skill, RETAIL_VERSION};
use formats::sims::retail;
use formats::sims::skn::Skn;
use formats::swg::lmg::MeshLevels;
use formats::swg::mgn::Mesh as SwgMesh;
use formats::swg::sat::{Appearance, AppearanceVersion};
use formats::swg::skt::Skeleton as Skt;
use skinning::Composition;

use crate::error::{CliError, Problem};
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
    /// The skin tone and images the meshes are dressed with.
    pub dressing: Dressing,
    /// Star Wars Galaxies customization variables' values, by name
    /// (`--custom`).
    pub customization: &'a [(String, i32)],
    /// Whether an input whose meshes need a missing file is left out
    /// (with a warning) rather than failing the asset.
    pub leave_out_missing: bool,
    /// Whether the asset carries the game files it was made of (scene
    /// `extras`), so that `convert` back gives them again: an asset made
    /// to be shown (the viewer's) leaves them out, a fraction of the size.
    pub carry_files: bool,
}

/// Where the suits of a Sims character file wear each skin, by skin name,
/// for the asset to carry (so the import gives back the same suits).
fn suit_places(input: &Input) -> Vec<(String, SuitPlace)> {
    let Some(cmx) = input.document.as_any().downcast_ref::<Cmx>() else {
        return Vec::new();
    };
    let file = input.stem();
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

/// The skins of a `.mgn` given alone, their shared position list named by
/// the file's name (as an appearance's meshes are by their paths), so that
/// the import writes them back as that file.
fn own_list_named(input: &Input, mut skins: Vec<rig::Skin>) -> Vec<rig::Skin> {
    if input.document.as_any().is::<SwgMesh>() {
        let name = input
            .path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
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
/// file name. A file that cannot be found is not
/// carried (the import derives what it would have given).
fn swg_originals(input: &Input) -> Result<Vec<Original>, CliError> {
    let file_name = || {
        input
            .path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let any = input.document.as_any();
    if any.is::<SwgMesh>() || any.is::<Skt>() {
        // A mesh or skeleton given alone, by its file name.
        return Ok(vec![Original {
            path: file_name(),
            bytes: input::read(&input.path)?,
        }]);
    }
    let Some(appearance) = any.downcast_ref::<Appearance>() else {
        return Ok(Vec::new());
    };
    let AppearanceVersion::V3(contents) = &appearance.version;
    let mut originals = vec![Original {
        path: file_name(),
        bytes: input::read(&input.path)?,
    }];
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
/// input itself (`.cmx` or `.skn`), each `.skn` a `.cmx`'s suits name and
/// each `.cfp` holding its skills' keys, found beside it.
fn sims_originals(input: &Input) -> Result<Vec<Original>, CliError> {
    let named = |path: &Path| -> Result<Original, CliError> {
        Ok(Original {
            path: path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default(),
            bytes: input::read(path)?,
        })
    };
    if input.document.as_any().is::<Skn>() {
        return Ok(vec![named(&input.path)?]);
    }
    let Some(cmx) = input.document.as_any().downcast_ref::<Cmx>() else {
        return Ok(Vec::new());
    };
    if cmx.version != RETAIL_VERSION {
        return Ok(prototype_originals(input, cmx));
    }
    let mut originals = vec![named(&input.path)?];
    let skins = cmx.suits.iter().flat_map(|suit| &suit.skins);
    let files = skins
        .map(|skin| format!("{}.skn", skin.name.to_text()))
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
    // Per skill as the file names it, the record carried: a prototype's
    // as the released game's files name it (so that the import gives back
    // what `convert --to sims-cmx` writes).
    let mut records: Vec<(String, Skill)> = Vec::new();
    for path in request.animations {
        let input = input::load(&catalogue, path, None)?;
        if let Some(cmx) = input.document.as_any().downcast_ref::<Cmx>() {
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
    Ok(animations
        .iter()
        .map(|animation| {
            records
                .iter()
                .find(|(name, _)| *name == animation.name)
                .map(|(_, skill)| skill.clone())
        })
        .collect())
}

/// Writes the asset [`assemble`] makes to `output`.
pub fn run(context: &mut Context, request: &Request, output: &Path) -> Result<bool, CliError> {
    let bytes = assemble(context, request)?;
    output::write(context, output, &bytes)?;
    Ok(true)
}

/// The asset, as `convert` and `view` make it ([`export::assembly`]). The
/// skeleton comes from the first input that has one; every input gives its
/// meshes (a suit the skins it names), each dressed with its image; every
/// `--anim` file gives all its animations. A texture without an image gives
/// a plain material and one warning. An input that gives neither the
/// skeleton nor a mesh is the wrong kind of input. With
/// `leave_out_missing`, the meshes of an input that need a file that
/// cannot be found are left out with a warning (the input's skeleton, and
/// the other inputs, are kept), unless the first input has nothing else.
pub fn assemble(context: &mut Context, request: &Request) -> Result<Vec<u8>, CliError> {
    let catalogue = context.catalogue;
    let inputs = request
        .inputs
        .iter()
        .map(|path| input::load(&catalogue, path, request.format))
        .collect::<Result<Vec<Input>, CliError>>()?;
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
                        let problem = Problem::Rig(missing);
                        assembly.warn(format!("{}: left out: {problem}", input.path.display()));
                        left_out = true;
                    }
                    Err(other) => return Err(CliError::input(&input.path, Problem::Rig(other))),
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
        assembly
            .add_skins(&input.path, &input.files, found, &suit_places(input))
            .map_err(assembly_error)?;
        if request.carry_files {
            assembly.originals.extend(swg_originals(input)?);
            assembly.originals.extend(sims_originals(input)?);
        }
    }
    if assembly.skeleton.is_none() {
        let first = inputs
            .first()
            .ok_or_else(|| CliError::Usage("no file to convert".to_owned()))?;
        return Err(first.wrong_kind(Need::Skeleton));
    }
    let animations: Vec<(PathBuf, rig::Animation)> = chosen_animations(context, request)?
        .into_iter()
        .map(|(path, animation)| (path.to_path_buf(), animation))
        .collect();
    let clips: Vec<rig::Animation> = animations
        .iter()
        .map(|(_, animation)| animation.clone())
        .collect();
    let skills = sims_skills(context, request, &clips)?;
    // The character files the skills come from are carried too, once each.
    for path in request.animations.iter().filter(|_| request.carry_files) {
        let input = input::load(&context.catalogue, path, None)?;
        for original in sims_originals(&input)? {
            if !assembly.originals.contains(&original) {
                assembly.originals.push(original);
            }
        }
    }
    assembly.warn_unknown_customization();
    for warning in &assembly.warnings {
        context.warn(warning);
    }
    let exported = assembly.export(
        &animations,
        &skills,
        request.blend_weights,
        request.composition,
        request.container,
    );
    match exported {
        Some(bytes) => bytes.map_err(assembly_error),
        None => Err(CliError::Usage("no skeleton to export".to_owned())),
    }
}

/// An assembly's failure as the command line reports it: the file, then
/// what is wrong.
pub fn assembly_error(error: AssemblyError) -> CliError {
    match error {
        AssemblyError::File { path, source } => CliError::input(&path, source),
        AssemblyError::Image { path, source, .. } => CliError::input(&path, Problem::Read(source)),
        AssemblyError::Export { path, source } => CliError::input(&path, source),
    }
}
