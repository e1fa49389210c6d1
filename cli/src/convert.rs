//! `ossuary convert`: between formats that carry the same data.

use std::path::Path;

use formats::catalogue::Catalogue;
use formats::format::Format;

use crate::error::{CliError, Problem};
use crate::{input, output, Context};

pub fn run(
    context: &mut Context,
    input_path: &Path,
    output_path: &Path,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<bool, CliError> {
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
                "{}: cannot tell the output format from the extension; pass --to (one of: {})",
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
