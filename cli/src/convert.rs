//! `ossuary convert`: between formats that carry the same data.

use std::path::Path;

use formats::catalogue;
use formats::format::Format;

use crate::error::CliError;
use crate::{input, output};

pub fn run(
    input_path: &Path,
    output_path: &Path,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<bool, CliError> {
    let loaded = input::load(input_path, from)?;
    let target = target_format(output_path, to)?;
    let converted;
    let document = if target.name == loaded.format.name {
        loaded.document.as_ref()
    } else {
        let conversion = catalogue::conversions_from(loaded.format)
            .find(|conversion| conversion.to.is(target))
            .ok_or_else(|| no_conversion(loaded.format, target))?;
        converted = (conversion.convert)(loaded.document.as_any()).ok_or_else(|| {
            CliError::Input(format!(
                "{}: the decoded value is not what the {} conversion expects",
                input_path.display(),
                loaded.format.name
            ))
        })?;
        converted.as_ref()
    };
    let bytes = document.encode().map_err(|e| {
        CliError::Input(format!(
            "{}: cannot write as {}: {e}",
            input_path.display(),
            target.name
        ))
    })?;
    output::write_atomically(output_path, &bytes)?;
    Ok(true)
}

/// `--to`, else the format the output file's extension names.
fn target_format(output_path: &Path, to: Option<&str>) -> Result<&'static Format, CliError> {
    if let Some(name) = to {
        return input::format_named(name);
    }
    let extension = output_path
        .extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    catalogue::FORMATS
        .iter()
        .copied()
        .find(|format| format.extensions.contains(&extension.as_str()))
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{}: cannot tell the output format from the extension; pass --to (one of: {})",
                output_path.display(),
                input::known_names()
            ))
        })
}

fn no_conversion(from: &Format, to: &Format) -> CliError {
    let targets: Vec<&str> = catalogue::conversions_from(from)
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
