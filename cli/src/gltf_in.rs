//! `ossuary convert IN.glb|IN.gltf --to sims-cmx|sims-bcf|swg-sat -o DIR`:
//! a glTF character back into The Sims' own files (`export::import::sims`
//! says how): a `.skn` per skinned mesh, a suit `.cmx` per suit, a skill
//! `.cmx` and its `.cfp` per animation, its textures as 8-bit BMPs, and
//! with `--write-skeleton` the glTF's skeleton as a skeleton `.cmx` (with
//! `sims-bcf`, `.bmf` and `.bcf` for `.skn` and `.cmx`); or into Star Wars
//! Galaxies' (`export::import::swg`). The files a glTF carries
//! (`export::import::carried`) come back as they were where the glTF did
//! not change them. Every file goes into DIR, all of them or none.

use std::path::{Path, PathBuf};

use export::import::{carried, sims, swg, Asset, ImportError};
use formats::rig::{self, RigError, RigOptions};
use formats::schema::BinarySchema;
use formats::sims::bcf::Bcf;
use formats::sims::bmf::Bmf;
use formats::sims::cmx::Cmx;
use formats::sims::skn::Skn;
use formats::swg::sat::{Appearance, AppearanceVersion};
use formats::swg::skt::Skeleton as Skt;

use crate::error::{CliError, Problem};
use crate::{input, names, output, Context};

/// The skeleton files the released game keeps, looked for beside the glTF
/// when no `--skeleton` is given, in this order.
const GAME_SKELETONS: [&str; 4] = [
    "adult-skeleton.cmx",
    "adult-skeleton.bcf",
    "child-skeleton.cmx",
    "child-skeleton.bcf",
];

/// What `convert` from glTF takes.
pub struct Request<'a> {
    pub input: &'a Path,
    pub folder: &'a Path,
    /// `--skeleton`: the skeleton the suits are meant for.
    pub skeleton: Option<&'a Path>,
    /// `--write-skeleton`: the glTF's own skeleton, written as a new one.
    pub write_skeleton: bool,
    /// `--to sims-bcf`: the binary twins, `.bcf` and `.bmf`, instead of
    /// `.cmx` and `.skn`.
    pub binary: bool,
}

/// A character file in the encoding asked for: `.cmx` text or `.bcf`.
fn character_file(
    path: &Path,
    stem: &str,
    cmx: &Cmx,
    binary: bool,
) -> Result<(String, Vec<u8>), CliError> {
    if binary {
        let bytes = Bcf::from_cmx(cmx).to_bytes();
        Ok((format!("{stem}.bcf"), encoded(path, bytes, "sims-bcf")?))
    } else {
        Ok((
            format!("{stem}.cmx"),
            encoded(path, cmx.to_text(), "sims-cmx")?,
        ))
    }
}

/// A skin file in the encoding asked for: `.skn` text or `.bmf`.
fn skin_file(path: &Path, skn: &Skn, binary: bool) -> Result<(String, Vec<u8>), CliError> {
    let stem = skn.name.to_text();
    if binary {
        let bytes = Bmf::from_skn(skn).to_bytes();
        Ok((format!("{stem}.bmf"), encoded(path, bytes, "sims-bmf")?))
    } else {
        Ok((
            format!("{stem}.skn"),
            encoded(path, skn.to_text(), "sims-skn")?,
        ))
    }
}

fn encoded(
    path: &Path,
    bytes: Result<Vec<u8>, formats::schema::Error>,
    format: &'static str,
) -> Result<Vec<u8>, CliError> {
    bytes.map_err(|source| CliError::input(path, Problem::Encode { format, source }))
}

/// Whether `path` names a glTF asset by its extension.
pub fn is_gltf(path: &Path) -> bool {
    path.extension().is_some_and(|extension| {
        extension.eq_ignore_ascii_case("glb") || extension.eq_ignore_ascii_case("gltf")
    })
}

/// Converts the glTF into the Sims' files in `request.folder`.
pub fn run_sims(context: &mut Context, request: &Request) -> Result<bool, CliError> {
    let path = request.input;
    let fail = |error: ImportError| CliError::input(path, Problem::Import(error));
    let bytes = input::read(path)?;
    let external = files_beside(path);
    let asset = Asset::read(&bytes, &external).map_err(fail)?;
    let originals = carried::originals(&asset);
    let binary = request.binary;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let skeleton = if request.write_skeleton {
        let written = match game_skeleton_beside(path) {
            // No carried skeleton to turn the joints as the game does: the
            // game's own beside the glTF turns them, not the rig's bones.
            Some(beside) if carried_skeleton(path, &originals)?.is_none() => {
                let turns = input::load(&context.catalogue, &beside, None)?
                    .required_skeleton(RigOptions::default())?;
                sims::new_skeleton(&asset, "adult", Some(&turns)).map_err(fail)?
            }
            _ => sims::skeleton_of(&asset, "adult", &originals).map_err(fail)?,
        };
        let file = sims::skeleton_file(written);
        let skeleton = rig_skeleton(path, &file)?;
        files.push(character_file(path, "adult-skeleton", &file, binary)?);
        skeleton
    } else {
        game_skeleton(context, path, request.skeleton, &originals)?
    };
    let character = sims::import(&asset, &skeleton, &originals, &external).map_err(fail)?;
    for warning in &character.warnings {
        context.warn(&format!("{}: {warning}", path.display()));
    }
    for skn in &character.skins {
        files.push(skin_file(path, skn, binary)?);
    }
    for (stem, cmx) in &character.suits {
        files.push(character_file(path, stem, cmx, binary)?);
    }
    for skill in character.skills {
        if let Some(cmx) = &skill.cmx {
            files.push(character_file(path, &skill.stem, cmx, binary)?);
        }
        files.push(skill.stream);
    }
    files.extend(character.textures);
    write_group(path, request.folder, &files, sims_place)?;
    Ok(true)
}

/// Converts the glTF into Star Wars Galaxies' files in `request.folder`:
/// a `.mgn` and a `.lmg` per mesh, and a `.sat` named as the glTF, for the
/// skeleton `--skeleton` names (SWG has no one skeleton file every
/// character shares): a `.skt`, or an appearance (`.sat`) whose skeletons
/// the new one takes as it names them; without it, the skeletons the glTF
/// carries (written back as they were) while its joints are theirs; or,
/// with `--write-skeleton` (or when its joints moved), the glTF's own
/// skeleton written as `<name>.skt`.
pub fn run_swg(context: &mut Context, request: &Request) -> Result<bool, CliError> {
    let path = request.input;
    let fail = |error: ImportError| CliError::input(path, Problem::Import(error));
    let catalogue = context.catalogue;
    let stem = path.file_stem().map_or_else(
        || "character".into(),
        |stem| stem.to_string_lossy().into_owned(),
    );
    let skeleton_input = match request.skeleton {
        Some(skeleton_path) => Some((input::load(&catalogue, skeleton_path, None)?, skeleton_path)),
        None => None,
    };
    let named = match &skeleton_input {
        Some((skeleton_input, skeleton_path)) => {
            Some(skeleton_files(skeleton_input, skeleton_path)?)
        }
        None => None,
    };
    let bytes = input::read(path)?;
    let external = files_beside(path);
    let asset = Asset::read(&bytes, &external).map_err(fail)?;
    let mut originals = carried::originals(&asset);
    // A glTF that lost the carried files (Blender's exporter leaves out
    // `extras` by default) takes them from the game's tree the appearance
    // named by --skeleton lies in.
    if originals.is_empty() {
        if let Some((skeleton_input, skeleton_path)) = &skeleton_input {
            originals = tree_originals(skeleton_input, skeleton_path)?;
        }
    }
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    // The skeleton: --skeleton's; else, unless --write-skeleton asks for
    // the glTF's own, the carried one while the glTF's joints are its.
    let carried_skeletons = if named.is_none() && !request.write_skeleton {
        swg::carried_skeletons(&asset, &originals)
    } else {
        None
    };
    // Said once the character is read: an error would be the one sentence.
    let mut skeleton_warning = None;
    let skeletons = match (named, carried_skeletons) {
        (Some(skeletons), _) => skeletons,
        (None, Some(Ok(carried))) => carried
            .into_iter()
            .map(|(file, original)| {
                files.push((original.file_name().to_owned(), original.bytes));
                file
            })
            .collect(),
        (None, changed) => {
            // The glTF's own skeleton, read first: a joint it cannot hold
            // is the one error said.
            let skt = swg::skeleton_of(&asset).map_err(fail)?;
            match changed {
                Some(Err(why)) => {
                    skeleton_warning = Some(format!(
                    "{}: the skeleton it was exported with cannot come back ({why}); the glTF's \
                     own is written as {stem}.skt, each joint's rest rotation in BPRO",
                    path.display()
                ))
                }
                _ if !request.write_skeleton => {
                    return Err(CliError::Usage(format!(
                        "{}: name the skeleton its meshes are for with --skeleton FILE.skt (or an \
                         appearance), or write the glTF's own with --write-skeleton",
                        path.display()
                    )))
                }
                _ => {}
            }
            let file = format!("{stem}.skt");
            let joints = skeleton_names(path, &skt)?;
            files.push((file.clone(), encoded(path, skt.to_bytes(), "swg-skt")?));
            vec![swg::SkeletonFile {
                attachment: swg::skeleton_at_root(&file),
                joints,
            }]
        }
    };
    let character = swg::import(&asset, &skeletons, &originals).map_err(fail)?;
    if let Some(warning) = skeleton_warning {
        context.warn(&warning);
    }
    for warning in &character.warnings {
        context.warn(&format!("{}: {warning}", path.display()));
    }
    for mesh in &character.meshes {
        files.push((
            mesh.file.clone(),
            encoded(path, mesh.mesh.to_bytes(), "swg-mgn")?,
        ));
        if let Some((list_file, levels)) = &mesh.list {
            if !files
                .iter()
                .any(|(name, _)| name.eq_ignore_ascii_case(list_file))
            {
                files.push((
                    list_file.clone(),
                    encoded(path, levels.to_bytes(), "swg-lmg")?,
                ));
            }
        }
    }
    for original in character.unchanged {
        let name = original.file_name().to_owned();
        if !files
            .iter()
            .any(|(known, _)| known.eq_ignore_ascii_case(&name))
        {
            files.push((name, original.bytes));
        }
    }
    // The appearance keeps the name it was exported under, carried in the
    // glTF; a character made elsewhere is named after the glTF.
    let sat = character
        .appearance_file
        .clone()
        .unwrap_or_else(|| format!("{stem}.sat"));
    files.push((
        sat,
        encoded(path, character.appearance.to_bytes(), "swg-sat")?,
    ));
    write_group(path, request.folder, &files, swg_place)?;
    Ok(true)
}

/// The files of the game the appearance `input` names, read from the tree
/// it lies in (the folder holding `appearance/`), each by the path the
/// files refer to it by: the `.sat` itself, its skeletons, each mesh list
/// with every level's `.mgn` (or each `.mgn` it names directly). None when
/// `input` is not an appearance. A named file missing from the tree, or
/// named by an absolute path or one climbing out with `..`, is refused.
fn tree_originals(input: &input::Input, path: &Path) -> Result<Vec<carried::Original>, CliError> {
    let Some(appearance) = input.document.as_any().downcast_ref::<Appearance>() else {
        return Ok(Vec::new());
    };
    let AppearanceVersion::V3(contents) = &appearance.version;
    let mut originals = vec![carried::Original {
        path: input.file_name(),
        bytes: input::read(path)?,
    }];
    let mut read = |files: &formats::files::Files,
                    named_by: &Path,
                    named: String|
     -> Result<formats::files::FoundFile, CliError> {
        if !inside_tree(&named) {
            return Err(CliError::input(
                named_by,
                RigError::Invalid(format!(
                    "it names \"{}\", which lies outside the game's folder tree",
                    formats::schema::quoted(named.as_bytes())
                )),
            ));
        }
        let found = files
            .find(
                &format!("the file \"{}\"", formats::schema::quoted(named.as_bytes())),
                std::slice::from_ref(&named),
            )
            .map_err(|error| CliError::input(named_by, RigError::from(error)))?;
        originals.push(carried::Original {
            path: named,
            bytes: found.bytes.clone(),
        });
        Ok(found)
    };
    for attachment in &contents.skeletons {
        read(&input.files, path, attachment.skeleton.to_text())?;
    }
    for mesh in &contents.meshes {
        let found = read(&input.files, path, mesh.to_text())?;
        let Ok(levels) = formats::swg::lmg::MeshLevels::from_bytes(&found.bytes) else {
            continue;
        };
        let beside = input.files.beside_found(&found);
        for level in levels.levels() {
            read(&beside, &found.path, level)?;
        }
    }
    Ok(originals)
}

/// Whether a path a game file names stays inside the tree: relative, and
/// never climbing out with `..`.
fn inside_tree(named: &str) -> bool {
    let absolute = named.starts_with(['/', '\\']) || named.get(1..2) == Some(":");
    !absolute && !named.split(['/', '\\']).any(|part| part == "..")
}

/// The joint names of a skeleton written here.
fn skeleton_names(path: &Path, skt: &Skt) -> Result<Vec<String>, CliError> {
    let level = skt.levels().into_iter().next().ok_or_else(|| {
        CliError::input(
            path,
            RigError::Invalid("the skeleton written has no joints".to_owned()),
        )
    })?;
    let skeleton = level
        .skeleton()
        .map_err(|error| CliError::input(path, error))?;
    Ok(skeleton
        .joints
        .into_iter()
        .map(|joint| joint.name)
        .collect())
}

/// The skeleton files `--skeleton` gives, with their joints: an
/// appearance's, as it attaches them (the Twi'lek's face under her body's
/// `head`), or one `.skt` at the root.
fn skeleton_files(input: &input::Input, path: &Path) -> Result<Vec<swg::SkeletonFile>, CliError> {
    let fail = |error: RigError| CliError::input(path, error);
    let names = |skeleton: rig::Skeleton| -> Vec<String> {
        skeleton
            .joints
            .into_iter()
            .map(|joint| joint.name)
            .collect()
    };
    let Some(appearance) = input.document.as_any().downcast_ref::<Appearance>() else {
        let file = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let skeleton = input.required_skeleton(RigOptions::default())?;
        return Ok(vec![swg::SkeletonFile {
            attachment: swg::skeleton_at_root(&file),
            joints: names(skeleton),
        }]);
    };
    let AppearanceVersion::V3(contents) = &appearance.version;
    let mut files = Vec::with_capacity(contents.skeletons.len());
    for attachment in &contents.skeletons {
        let skeleton_path = attachment.skeleton.to_text();
        let found = input
            .files
            .find(
                &format!("the skeleton {skeleton_path}"),
                std::slice::from_ref(&skeleton_path),
            )
            .map_err(|error| fail(error.into()))?;
        let skt = Skt::from_bytes(&found.bytes)
            .map_err(|source| CliError::input(&found.path, Problem::Decode(source)))?;
        let level = skt.levels().into_iter().next().ok_or_else(|| {
            fail(RigError::Invalid(format!(
                "{skeleton_path} holds no skeleton"
            )))
        })?;
        files.push(swg::SkeletonFile {
            attachment: attachment.clone(),
            joints: names(level.skeleton().map_err(fail)?),
        });
    }
    Ok(files)
}

/// What a `.gltf` at `path` reads of the buffers and images it names
/// beside itself: a plain file name only, and a regular file only (never a
/// named pipe or a device, which would never end), within the input limit.
fn files_beside(path: &Path) -> impl Fn(&str) -> Option<Vec<u8>> {
    let beside = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let limit = input::reading().limit;
    move |uri: &str| export::import::read_beside(&beside, uri, limit).ok()
}

/// The game's skeleton file beside the glTF at `path`, if there is one.
fn game_skeleton_beside(path: &Path) -> Option<PathBuf> {
    let beside = path.parent().unwrap_or(Path::new(""));
    GAME_SKELETONS
        .iter()
        .map(|name| beside.join(name))
        .find(|candidate| candidate.is_file())
}

/// The skeleton the suits are meant for: `--skeleton`'s, else the game's
/// skeleton file found beside the glTF, else the first skeleton of a
/// character file the glTF carries (ossuary's own export of it).
fn game_skeleton(
    context: &mut Context,
    path: &Path,
    named: Option<&Path>,
    originals: &[carried::Original],
) -> Result<rig::Skeleton, CliError> {
    let catalogue = context.catalogue;
    let found;
    let skeleton_path = match named {
        Some(named) => named,
        None => {
            let on_disk = game_skeleton_beside(path);
            if on_disk.is_none() {
                if let Some(skeleton) = carried_skeleton(path, originals)? {
                    return Ok(skeleton);
                }
            }
            found = on_disk.ok_or_else(|| {
                CliError::Usage(format!(
                    "{}: no skeleton for its suits: name one with --skeleton FILE, put the \
                         game's adult-skeleton.cmx (or child-skeleton.cmx) beside it, or write \
                         the glTF's own with --write-skeleton",
                    path.display()
                ))
            })?;
            found.as_path()
        }
    };
    Ok(input::load(&catalogue, skeleton_path, None)?.required_skeleton(RigOptions::default())?)
}

/// The first skeleton of a carried character file, as rig data.
fn carried_skeleton(
    path: &Path,
    originals: &[carried::Original],
) -> Result<Option<rig::Skeleton>, CliError> {
    let file = originals.iter().find_map(|original| {
        export::import::sims_original::carried_character(original)
            .map(|(_, cmx)| cmx)
            .filter(|cmx| !cmx.skeletons.is_empty())
    });
    file.map(|file| rig_skeleton(path, &file)).transpose()
}

/// A skeleton file written here, as rig data.
fn rig_skeleton(path: &Path, file: &Cmx) -> Result<rig::Skeleton, CliError> {
    use formats::rig::Rig;
    file.skeleton(&formats::files::Files::nowhere(), RigOptions::default())
        .transpose()
        .map_err(|error| CliError::input(path, error))?
        .ok_or_else(|| CliError::input(path, Problem::Import(ImportError::NoSkin)))
}

/// Where Star Wars Galaxies looks a file up under the folder holding
/// `appearance/`, by its kind: the appearance in `appearance/`, mesh lists
/// and meshes in `appearance/mesh/`, skeletons in `appearance/skeleton/`,
/// as the `.sat` and `.lmg` written name them. `-o` is then the game's data
/// folder (or a copy of its tree) the character drops into.
fn swg_place(name: &str) -> &'static str {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".skt") {
        "appearance/skeleton"
    } else if lower.ends_with(".lmg") || lower.ends_with(".mgn") {
        "appearance/mesh"
    } else {
        "appearance"
    }
}

/// The Sims find a character's files beside each other: all in `-o`.
fn sims_place(_name: &str) -> &'static str {
    ""
}

/// Writes every file into its place under `folder` (`place` names it from
/// the file's name), all of them or none; the folders are made only when
/// every name is fit to write.
fn write_group(
    path: &Path,
    folder: &Path,
    files: &[(String, Vec<u8>)],
    place: fn(&str) -> &'static str,
) -> Result<(), CliError> {
    if folder.is_file() || folder.as_os_str() == "-" {
        return Err(CliError::Usage(format!(
            "{}: -o names the folder the game's files are written into, created if missing",
            path.display()
        )));
    }
    let mut names: Vec<String> = Vec::new();
    for (name, _) in files {
        names::plain_file_name("the file", name)
            .map_err(|unsafe_name| CliError::input(path, unsafe_name))?;
        let lower = name.to_lowercase();
        if names.contains(&lower) {
            return Err(CliError::input(
                path,
                Problem::Import(ImportError::Name(format!(
                    "two files would be named \"{}\" (the game finds files without regard to case)",
                    formats::schema::quoted(name.as_bytes())
                ))),
            ));
        }
        names.push(lower);
    }
    let paths: Vec<PathBuf> = files
        .iter()
        .map(|(name, _)| folder.join(place(name)).join(name))
        .collect();
    // The folders this call makes, outermost first, so that a failed group
    // takes them away again.
    let mut made: Vec<PathBuf> = Vec::new();
    let mut places: Vec<&str> = files.iter().map(|(name, _)| place(name)).collect();
    places.sort_unstable();
    places.dedup();
    for place in places {
        match output::folders_inside(folder, &folder.join(place)) {
            Ok(more) => made.extend(more),
            Err(error) => {
                remove_folders(&made);
                return Err(error);
            }
        }
    }
    let group: Vec<(&Path, &[u8])> = paths
        .iter()
        .zip(files)
        .map(|(path, (_, bytes))| (path.as_path(), bytes.as_slice()))
        .collect();
    let written = output::write_files(&group);
    if written.is_err() {
        remove_folders(&made);
    }
    written
}

/// Best effort: a failed group left nothing in the folders it made, so
/// they go too, innermost first.
fn remove_folders(made: &[PathBuf]) {
    for made in made.iter().rev() {
        let _ = std::fs::remove_dir(made);
    }
}

#[cfg(test)]
mod tests {
    use super::inside_tree;

    #[test]
    fn a_path_named_by_an_appearance_stays_inside_the_tree() {
        assert!(inside_tree("appearance/mesh/twk_f_body.lmg"));
        assert!(inside_tree("appearance\\skeleton\\all_b.skt"));
        for outside in [
            "../secret.skt",
            "appearance/../../secret.skt",
            "appearance\\..\\..\\secret.skt",
            "/etc/passwd",
            "\\windows\\system.ini",
            "C:/game/all_b.skt",
        ] {
            assert!(!inside_tree(outside), "{outside}");
        }
    }
}
