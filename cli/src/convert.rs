//! `ossuary convert`: between formats that carry the same data, or to glTF
//! (see [`crate::gltf`]).

use std::path::{Path, PathBuf};

use formats::catalogue::Catalogue;
use formats::format::Format;
use formats::rig::RigOptions;

use crate::error::{CliError, Problem};
use crate::{gltf, input, output, Context};

/// The last argument is `--anim` and `--lod`, which only glTF output takes.
pub fn run(
    context: &mut Context,
    inputs: &[PathBuf],
    output_path: &Path,
    from: Option<&str>,
    to: Option<&str>,
    (animations, options): (&[PathBuf], RigOptions),
) -> Result<bool, CliError> {
    if let Some(container) = gltf::container(output_path, to) {
        let request = gltf::Request {
            inputs,
            animations,
            options,
            format: from,
            output: output_path,
            container,
        };
        return gltf::run(context, &request);
    }
    let [input_path] = inputs else {
        return Err(CliError::Usage(format!(
            "{} inputs given; converting between formats takes one (only glTF output takes several)",
            inputs.len()
        )));
    };
    if !animations.is_empty() || options != RigOptions::default() {
        return Err(CliError::Usage(
            "--anim and --lod apply to glTF output only".to_owned(),
        ));
    }
    let catalogue = context.catalogue;
    let loaded = input::load(&catalogue, input_path, from)?;
    let target = target_format(&catalogue, output_path, to)?;
    let converted;
    let document = if target.is(loaded.format) {
        loaded.document.as_ref()
    } else {
        let conversion = catalogue
            .conversions_from(loaded.format)
            .find(|conversion| conversion.to.is(target))
            .ok_or_else(|| no_conversion(&catalogue, loaded.format, target))?;
        converted = (conversion.convert)(loaded.document.as_any()).ok_or_else(|| {
            CliError::Usage(format!(
                "{}: the conversion from {} to {} is registered for another type",
                input_path.display(),
                conversion.from.name,
                conversion.to.name
            ))
        })?;
        converted.as_ref()
    };
    let bytes = document.encode().map_err(|source| {
        CliError::input(
            input_path,
            Problem::Encode {
                format: target.name,
                source,
            },
        )
    })?;
    output::write(context, output_path, &bytes)?;
    Ok(true)
}

/// `--to`, else the format the output file's extension names.
fn target_format(
    catalogue: &Catalogue,
    output_path: &Path,
    to: Option<&str>,
) -> Result<&'static Format, CliError> {
    if let Some(name) = to {
        return input::format_named(catalogue, name);
    }
    catalogue
        .by_extension(&output_path.to_string_lossy())
        .next()
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{}: cannot tell the output format from the extension; pass --to (one of: {}, gltf, glb)",
                output_path.display(),
                input::known_names(catalogue)
            ))
        })
}

fn no_conversion(catalogue: &Catalogue, from: &Format, to: &Format) -> CliError {
    let targets: Vec<&str> = catalogue
        .conversions_from(from)
        .map(|conversion| conversion.to.name)
        .collect();
    let possible = if targets.is_empty() {
        "none".to_owned()
    } else {
        targets.join(", ")
    };
    CliError::Usage(format!(
        "cannot convert {} ({}) to {} ({}); it converts to: {possible}",
        from.title, from.name, to.title, to.name
    ))
}
