//! Reading a file and deciding its format.

use std::path::Path;

use formats::catalogue;
use formats::format::{Document, Format};

use crate::error::CliError;

pub struct Loaded {
    pub format: &'static Format,
    pub document: Box<dyn Document>,
}

pub fn format_named(name: &str) -> Result<&'static Format, CliError> {
    catalogue::by_name(name).ok_or_else(|| {
        CliError::Usage(format!(
            "unknown format `{name}`; known formats: {}",
            known_names()
        ))
    })
}

pub fn known_names() -> String {
    catalogue::FORMATS
        .iter()
        .map(|format| format.name)
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path)
        .map_err(|e| CliError::Input(format!("{}: cannot read: {e}", path.display())))
}

/// The format named by `--format`, else the one the file's name or bytes show.
pub fn format_of(
    path: &Path,
    bytes: &[u8],
    forced: Option<&str>,
) -> Result<&'static Format, CliError> {
    match forced {
        Some(name) => format_named(name),
        None => catalogue::detect(&path.to_string_lossy(), bytes).ok_or_else(|| {
            CliError::Usage(format!(
                "{}: cannot tell the format from the name or the content; pass --format (one of: {})",
                path.display(),
                known_names()
            ))
        }),
    }
}

pub fn decode(
    path: &Path,
    format: &'static Format,
    bytes: &[u8],
) -> Result<Box<dyn Document>, CliError> {
    (format.decode)(bytes).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))
}

pub fn load(path: &Path, forced: Option<&str>) -> Result<Loaded, CliError> {
    let bytes = read(path)?;
    let format = format_of(path, &bytes, forced)?;
    let document = decode(path, format, &bytes)?;
    Ok(Loaded { format, document })
}
