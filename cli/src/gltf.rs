//! `ossuary convert SKELETON [MESH... | SUIT...] [--anim FILE...] -o
//! OUT.gltf|OUT.glb`: every input into one glTF 2.0 asset, made as the
//! viewer makes it ([`export::character`]); and `ossuary convert FILE.iff
//! -o OUT.glb`: an object file's 3D meshes ([`export::objects`]).

use std::io::Read as _;
use std::path::Path;

pub use export::character::Request;
use export::Container;
use formats::catalogue::Catalogue;
use formats::objects::file::IffFile;

use crate::error::{CliError, Problem};
use crate::{input, output, Context};

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

/// Writes the asset of `request` to `output`, its warnings printed as
/// they are met.
pub fn run(context: &mut Context, request: &Request, output: &Path) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    let bytes =
        export::character::assemble(&catalogue, &input::reading(), request, &mut |warning| {
            context.warn(&warning)
        })?;
    output::write(context, output, &bytes)?;
    Ok(true)
}

/// Whether `path` is an object file (IFF 2.5): `--format` says so, or its
/// extension or first bytes do. Standard input needs `--format sims-iff`
/// (what it holds cannot be looked at twice), and a path that is not a
/// regular file (a named pipe) is not looked into.
pub fn is_object_file(catalogue: &Catalogue, path: &Path, forced: Option<&str>) -> bool {
    let object = &formats::objects::FORMAT;
    if let Some(name) = forced {
        return name == object.name;
    }
    if path.as_os_str() == "-" || !path.is_file() {
        return false;
    }
    let mut first = Vec::new();
    let looked = std::fs::File::open(path).and_then(|file| file.take(64).read_to_end(&mut first));
    looked.is_ok()
        && catalogue
            .detect(&path.to_string_lossy(), &first)
            .is_some_and(|format| format.is(object))
}

/// Writes the 3D meshes (`FSOM`) of the object file at `path` as one
/// asset to `output`, a warning printed for each texture the file lacks.
pub fn run_object(
    context: &mut Context,
    path: &Path,
    forced: Option<&str>,
    container: Container,
    output: &Path,
) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    let input = input::load(&catalogue, path, forced)?;
    let Some(file) = input.document.as_any().downcast_ref::<IffFile>() else {
        return Err(CliError::WrongKind {
            path: path.to_path_buf(),
            kind: export::input::kind_of_file(input.format),
            lacks: "3D mesh (FSOM) of an object file",
            format_never_has: true,
        });
    };
    let shown = path.display().to_string();
    let bytes = export::objects::meshes_asset(file, None, container, &mut |warning| {
        context.warn(&format!("{shown}: {warning}"))
    })
    .map_err(|error| CliError::input(path, Problem::Meshes(error)))?;
    output::write(context, output, &bytes)?;
    Ok(true)
}
