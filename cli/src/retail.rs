//! `ossuary convert CHARACTER.cmx --to sims-cmx -o DIR`, for The Sims' 1998
//! prototype: a version 200 character or animation and the files it names,
//! written into DIR in the released game's formats (`formats::sims::retail`
//! says how): the character file as version 300, each `.msh` mesh as a
//! `.skn`, each `.bin` of keys as a `.cfp`, each texture its meshes name as
//! an 8-bit BMP beside them. `--to sims-bcf` writes the binary twins
//! instead: the character as a `.bcf`, each mesh as a `.bmf`.

use std::path::{Path, PathBuf};

use formats::schema::BinarySchema;
use formats::sims::bcf::Bcf;
use formats::sims::bmf::Bmf;
use formats::sims::cmx::{Cmx, PROTOTYPE_VERSION};
use formats::sims::retail;

use crate::error::{CliError, Problem};
use crate::{input, names, output, Context};

/// Converts when the one input is a version 200 `.cmx` and `--to` is
/// `sims-cmx` or `sims-bcf`; `None` (nothing done) otherwise.
pub fn run(
    context: &mut Context,
    inputs: &[PathBuf],
    folder: &Path,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<Option<bool>, CliError> {
    let ([input_path], Some(family @ ("sims-cmx" | "sims-bcf"))) = (inputs, to) else {
        return Ok(None);
    };
    let binary = family == "sims-bcf";
    if input_path.is_dir() {
        return Ok(None);
    }
    let catalogue = context.catalogue;
    let input = input::load(&catalogue, input_path, from)?;
    let Some(cmx) = input.document.as_any().downcast_ref::<Cmx>() else {
        return Ok(None);
    };
    if cmx.version != PROTOTYPE_VERSION {
        return Ok(None);
    }
    if folder.is_file() || folder.as_os_str() == "-" {
        return Err(CliError::Usage(format!(
            "{} is a prototype character: -o names the folder its files are written into \
             (the character file and its meshes), created if missing",
            input_path.display()
        )));
    }
    for warning in write_retail(cmx, &input, folder, binary)? {
        context.warn(&warning);
    }
    Ok(Some(true))
}

/// Whether `document` is a prototype character (version 200) that `--to`
/// `to` asks to write in the released game's formats.
pub fn is_prototype_for(document: &dyn formats::format::Document, to: &str) -> bool {
    matches!(to, "sims-cmx" | "sims-bcf")
        && document
            .as_any()
            .downcast_ref::<Cmx>()
            .is_some_and(|cmx| cmx.version == PROTOTYPE_VERSION)
}

/// Writes the prototype character `cmx` (read from `input`) into `folder`
/// in the released game's formats (binary twins with `binary`); returns
/// the warnings, each naming the input.
pub fn write_retail(
    cmx: &Cmx,
    input: &export::input::Input,
    folder: &Path,
    binary: bool,
) -> Result<Vec<String>, CliError> {
    let input_path = input.path.as_path();
    let converted =
        retail::to_retail(cmx, &input.files).map_err(|error| CliError::input(input_path, error))?;
    let mut warnings: Vec<String> = converted
        .missing
        .iter()
        .map(|missing| format!("{}: left as it is: {missing}", input_path.display()))
        .collect();
    let encode = |bytes: Result<Vec<u8>, formats::schema::Error>, format: &'static str| {
        bytes.map_err(|source| CliError::input(input_path, Problem::Encode { format, source }))
    };
    let name = input_path
        .file_stem()
        .map_or_else(|| "character".into(), |stem| stem.to_string_lossy());
    // Every name but the character's own comes from inside the file: each
    // must be one plain file name, so nothing is written outside `folder`.
    let inside = |what: &str, name: &str, extension: &str| {
        names::plain_file_name(what, name)
            .map(|name| folder.join(format!("{name}.{extension}")))
            .map_err(|unsafe_name| CliError::input(input_path, unsafe_name))
    };
    let character = if binary {
        (
            folder.join(format!("{name}.bcf")),
            encode(Bcf::from_cmx(&converted.cmx).to_bytes(), "sims-bcf")?,
        )
    } else {
        (
            folder.join(format!("{name}.cmx")),
            encode(converted.cmx.to_text(), "sims-cmx")?,
        )
    };
    let mut files: Vec<(PathBuf, Vec<u8>)> = vec![character];
    for (mesh, skn) in &converted.skins {
        files.push(if binary {
            (
                inside("the skin", mesh, "bmf")?,
                encode(Bmf::from_skn(skn).to_bytes(), "sims-bmf")?,
            )
        } else {
            (
                inside("the skin", mesh, "skn")?,
                encode(skn.to_text(), "sims-skn")?,
            )
        });
    }
    for (animation, bytes) in converted.streams {
        files.push((inside("the animation", &animation, "cfp")?, bytes));
    }
    // The prototype's textures are PNGs in `Textures/`; the game and its
    // tools read BMPs beside the skins, named as the skins name them.
    let skins = converted
        .skins
        .iter()
        .map(|(_, skn)| skn.skin())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| CliError::input(input_path, error))?;
    let textures = export::import::bmp::skin_textures(&skins, &input.files)
        .map_err(|error| CliError::input(input_path, error))?;
    for missing in &textures.missing {
        warnings.push(format!(
            "{}: no image found for the texture {missing:?}, beside the file or in a Textures \
             folder beside it; the skins name it, and no BMP of it is written",
            input_path.display()
        ));
    }
    for (texture, bytes) in textures.images {
        let stem = texture.strip_suffix(".bmp").unwrap_or(&texture);
        files.push((inside("the texture", stem, "bmp")?, bytes));
    }
    std::fs::create_dir_all(folder).map_err(|source| CliError::Output {
        path: folder.to_path_buf(),
        source,
    })?;
    let files: Vec<(&Path, &[u8])> = files
        .iter()
        .map(|(path, bytes)| (path.as_path(), bytes.as_slice()))
        .collect();
    output::write_files(&files)?;
    Ok(warnings)
}
