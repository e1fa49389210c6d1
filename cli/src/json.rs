//! `ossuary dump` and `ossuary encode`: a file as JSON and back, so that
//! `encode(dump(F))` gives `F` byte for byte.

use std::path::Path;

use formats::files::ReadError;

use crate::error::{CliError, Problem};
use crate::{input, output, Context};

pub fn dump(context: &mut Context, file: &Path, format: Option<&str>) -> Result<bool, CliError> {
    let input = input::load(&context.catalogue, file, format)?;
    let json = input
        .document
        .to_json()
        .map_err(|error| CliError::input(file, Problem::ToJson(error)))?;
    context.print(&format!("{json}\n"))?;
    Ok(true)
}

pub fn encode(
    context: &mut Context,
    json_path: &Path,
    format: &str,
    output_path: &Path,
) -> Result<bool, CliError> {
    let format = input::format_named(&context.catalogue, format)?;
    let bytes = input::read(json_path)?;
    let json = String::from_utf8(bytes).map_err(|error| {
        CliError::input(
            json_path,
            Problem::Read(ReadError::Io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                error,
            ))),
        )
    })?;
    let document = (format.from_json)(&json).map_err(|error| CliError::input(json_path, error))?;
    let bytes = document.encode().map_err(|source| {
        CliError::input(
            json_path,
            Problem::Encode {
                format: format.name,
                source,
            },
        )
    })?;
    output::write(context, output_path, &bytes)?;
    Ok(true)
}
