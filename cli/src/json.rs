//! `ossuary dump` and `ossuary encode`: a file as JSON and back, so that
//! `encode(dump(F))` gives `F` byte for byte.

use std::path::PathBuf;

use formats::files::ReadError;

use crate::error::{decode_error, CliError, Problem};
use crate::{input, output, Context};

/// `ossuary dump`'s arguments.
#[derive(clap::Args)]
pub struct DumpArgs {
    /// The file to decode (`-` for standard input).
    pub file: PathBuf,
    /// Read the file as this format instead of guessing it.
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
}

/// `ossuary encode`'s arguments.
#[derive(clap::Args)]
pub struct EncodeArgs {
    /// JSON as `dump` prints it (`-` for standard input).
    pub json: PathBuf,
    /// The format to write.
    #[arg(long, value_name = "NAME")]
    pub format: String,
    /// The file to write (`-` for standard output).
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
}

pub fn dump(context: &mut Context, args: &DumpArgs) -> Result<bool, CliError> {
    let file = &args.file;
    let bytes = input::read(file)?;
    let format = input::format_of(&context.catalogue, file, &bytes, args.format.as_deref())?;
    let document = (format.decode)(&bytes).map_err(|error| decode_error(file, &bytes, error))?;
    let json = document
        .to_json()
        .map_err(|error| CliError::input(file, Problem::ToJson(error)))?;
    context.print_json(&format!("{json}\n"))?;
    Ok(true)
}

pub fn encode(context: &mut Context, args: &EncodeArgs) -> Result<bool, CliError> {
    let (json_path, output_path) = (&args.json, &args.output);
    let format = input::format_named(&context.catalogue, &args.format)?;
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
