//! `ossuary convert SKELETON [MESH... | SUIT...] [--anim FILE...] -o
//! OUT.gltf|OUT.glb`: every input into one glTF 2.0 asset, made as the
//! viewer makes it ([`export::character`]).

use std::path::Path;

pub use export::character::Request;
use export::Container;

use crate::error::CliError;
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
