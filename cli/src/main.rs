//! `ossuary`: inspect, verify and convert late-1990s game character files.

mod check;
mod convert;
mod error;
mod info;
mod input;
mod joints;
mod output;
mod render;
mod skin;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use error::CliError;

#[derive(Parser)]
#[command(
    name = "ossuary",
    version,
    about = "Inspect, verify and convert late-1990s game character files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a readable summary of each file: format, counts, bone tree.
    Info {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Read the files as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
    },
    /// Print the decoded file as JSON.
    Dump {
        file: PathBuf,
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
    },
    /// Turn JSON (as `dump` prints it) back into a file of the format.
    Encode {
        json: PathBuf,
        #[arg(long, value_name = "NAME")]
        format: String,
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
    },
    /// Convert between formats that carry the same data (e.g. .cmx <-> .bcf,
    /// .skn <-> .bmf); the output format comes from OUT's extension or --to.
    Convert {
        input: PathBuf,
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// Write this format whatever OUT's extension says.
        #[arg(long, value_name = "NAME")]
        to: Option<String>,
        /// Read the input as this format.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
    },
    /// Print the skeleton's joints in model space as JSON: name, parent,
    /// position [x, y, z] and rotation [x, y, z, w], in the file's own axes.
    Joints {
        file: PathBuf,
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
    },
    /// Deform a mesh with its skeleton at rest and write it as OBJ.
    Skin {
        mesh: PathBuf,
        #[arg(long, value_name = "FILE")]
        skeleton: PathBuf,
        #[arg(short, long, value_name = "OUT.obj")]
        output: PathBuf,
        /// Read the mesh as this format.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
    },
    /// Draw the skeleton and meshes (front and side views) to a PNG.
    Render {
        skeleton: PathBuf,
        /// Meshes to deform with the skeleton and draw.
        meshes: Vec<PathBuf>,
        #[arg(short, long, value_name = "OUT.png")]
        output: PathBuf,
        /// Picture size in pixels.
        #[arg(long, value_name = "WxH", default_value = "800x600", value_parser = render::parse_size)]
        size: skinning::render::ImageSize,
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
    },
    /// Decode and re-encode each file (directories are searched) and report
    /// `ok` or the first difference; exits 0 only if all come back identical.
    Check {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Info { files, format } => info::run(&files, format.as_deref()),
        Command::Dump { file, format } => dump(&file, format.as_deref()),
        Command::Encode {
            json,
            format,
            output,
        } => encode(&json, &format, &output),
        Command::Convert {
            input,
            output,
            to,
            format,
        } => convert::run(&input, &output, format.as_deref(), to.as_deref()),
        Command::Joints { file, format } => joints::run(&file, format.as_deref()),
        Command::Skin {
            mesh,
            skeleton,
            output,
            format,
        } => skin::run(&mesh, &skeleton, &output, format.as_deref()),
        Command::Render {
            skeleton,
            meshes,
            output,
            size,
            format,
        } => render::run(&skeleton, &meshes, &output, size, format.as_deref()),
        Command::Check { paths, format } => check::run(&paths, format.as_deref()),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(error) => {
            eprintln!("ossuary: {error}");
            error.exit_code()
        }
    }
}

fn dump(file: &std::path::Path, format: Option<&str>) -> Result<bool, CliError> {
    let loaded = input::load(file, format)?;
    let json = loaded
        .document
        .to_json()
        .map_err(|e| CliError::Input(format!("{}: cannot express as JSON: {e}", file.display())))?;
    println!("{json}");
    Ok(true)
}

fn encode(
    json_path: &std::path::Path,
    format: &str,
    output_path: &std::path::Path,
) -> Result<bool, CliError> {
    let format = input::format_named(format)?;
    let json = std::fs::read_to_string(json_path)
        .map_err(|e| CliError::Input(format!("{}: cannot read: {e}", json_path.display())))?;
    let document = (format.from_json)(&json)
        .map_err(|e| CliError::Input(format!("{}: {e}", json_path.display())))?;
    let bytes = document.encode().map_err(|e| {
        CliError::Input(format!(
            "{}: cannot encode as {}: {e}",
            json_path.display(),
            format.name
        ))
    })?;
    output::write_atomically(output_path, &bytes)?;
    Ok(true)
}
