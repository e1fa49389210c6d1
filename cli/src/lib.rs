//! `ossuary`: inspect, verify, convert, pose and render late-1990s game
//! character files. The binary runs [`run`] with the standard catalogue; a
//! program (or a test) with formats of its own runs it with its own.

mod check;
mod convert;
mod error;
mod info;
mod input;
mod joints;
mod json;
mod output;
mod render;
mod skin;

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use formats::catalogue::Catalogue;
use formats::rig::RigOptions;
use skinning::Composition;

pub use error::CliError;
use input::AnimationChoice;

#[derive(Parser)]
#[command(
    name = "ossuary",
    version,
    about = "Inspect, verify, convert, pose and render late-1990s game character files"
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
        /// Read the file as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
    },
    /// Turn JSON (as `dump` prints it) back into a file of the format.
    Encode {
        json: PathBuf,
        /// The format to write.
        #[arg(long, value_name = "NAME")]
        format: String,
        /// The file to write (`-` for standard output).
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
    },
    /// Convert between formats that carry the same data (e.g. .cmx <-> .bcf,
    /// .skn <-> .bmf); the output format comes from OUT's extension or --to.
    Convert {
        input: PathBuf,
        /// The file to write (`-` for standard output, with --to).
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// Write this format whatever OUT's extension says.
        #[arg(long, value_name = "NAME")]
        to: Option<String>,
        /// Read the input as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
    },
    /// Print the skeleton's joints in model space as JSON: name, parent,
    /// position [x, y, z] and rotation [x, y, z, w], in the file's own axes.
    Joints {
        file: PathBuf,
        /// Read FILE as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
        #[command(flatten)]
        posing: Posing,
    },
    /// Deform a mesh with a skeleton and write it as OBJ.
    Skin {
        mesh: PathBuf,
        /// The skeleton to pose (not needed when MESH holds its own).
        #[arg(long, value_name = "FILE")]
        skeleton: Option<PathBuf>,
        /// The file to write (`-` for standard output).
        #[arg(short, long, value_name = "OUT.obj")]
        output: PathBuf,
        /// Read MESH as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
        #[command(flatten)]
        posing: Posing,
    },
    /// Draw the posed skeleton and meshes (front and side views) to a PNG.
    Render {
        /// The first file with a skeleton poses the others' meshes.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The file to write (`-` for standard output).
        #[arg(short, long, value_name = "OUT.png")]
        output: PathBuf,
        /// Picture size in pixels.
        #[arg(long, value_name = "WxH", default_value = "800x600", value_parser = render::parse_size)]
        size: ::render::ImageSize,
        /// Read the files as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
        #[command(flatten)]
        posing: Posing,
    },
    /// Decode and re-encode each file (directories are searched) and report
    /// `ok` or the first difference; exits 0 only if all come back identical.
    Check {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Read the files as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
    },
}

/// The options every posing command takes.
#[derive(Args)]
struct Posing {
    /// Pose with an animation from this file instead of the rest pose.
    #[arg(long, value_name = "FILE")]
    anim: Option<PathBuf>,
    /// The frame of the animation, counted from 0.
    #[arg(long, value_name = "N", requires = "anim")]
    frame: Option<usize>,
    /// Which animation, for a file that holds several.
    #[arg(long, value_name = "NAME", requires = "anim")]
    skill: Option<String>,
    /// Level of detail of skeletons and meshes: 0 is the most detailed.
    #[arg(long, value_name = "N", default_value_t = 0)]
    lod: usize,
    /// How an Outcast skeleton composes its joints' turns: a child's turn
    /// first, then its parent's (the default), or literally as the
    /// document's pseudo-code does.
    #[arg(long, value_name = "ORDER", value_enum, default_value_t = OutcastOrder::ChildFirst)]
    outcast_order: OutcastOrder,
}

/// `--outcast-order`.
#[derive(Clone, Copy, ValueEnum)]
enum OutcastOrder {
    ChildFirst,
    Literal,
}

impl Posing {
    fn animation(&self) -> AnimationChoice<'_> {
        AnimationChoice {
            file: self.anim.as_deref(),
            frame: self.frame,
            name: self.skill.as_deref(),
        }
    }

    fn options(&self) -> RigOptions {
        RigOptions { lod: self.lod }
    }

    fn composition(&self) -> Composition {
        match self.outcast_order {
            OutcastOrder::ChildFirst => Composition::Hierarchy,
            OutcastOrder::Literal => Composition::LiteralPivots,
        }
    }
}

/// Where a command's results go and which formats it knows.
pub struct Context<'a> {
    pub catalogue: Catalogue,
    pub stdout: &'a mut dyn Write,
}

impl Context<'_> {
    /// Writes to standard output; a closed pipe ends the command (see [`run`]).
    fn print(&mut self, text: &str) -> Result<(), CliError> {
        self.stdout
            .write_all(text.as_bytes())
            .map_err(|source| CliError::Output {
                path: PathBuf::from("-"),
                source,
            })
    }
}

/// Runs one command line (`args` starts with the program name). Errors go
/// to `stderr` as one sentence; the result is the exit status.
pub fn run(
    catalogue: Catalogue,
    args: impl IntoIterator<Item = OsString>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            // Help and version are not errors and go to standard output.
            let text = error.render().to_string();
            let target: &mut dyn Write = if error.use_stderr() { stderr } else { stdout };
            let _ = target.write_all(text.as_bytes());
            return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
        }
    };
    let mut context = Context { catalogue, stdout };
    let result = dispatch(&mut context, cli.command);
    let flushed = context.stdout.flush().map_err(|source| CliError::Output {
        path: PathBuf::from("-"),
        source,
    });
    match result.and_then(|all_good| flushed.map(|()| all_good)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        // A reader that stopped reading (`ossuary dump x | head`) is not an
        // error: end quietly with the status a shell gives a closed pipe.
        Err(CliError::Output { path, source })
            if path == Path::new("-") && source.kind() == std::io::ErrorKind::BrokenPipe =>
        {
            ExitCode::from(141)
        }
        Err(error) => {
            let _ = writeln!(stderr, "ossuary: {error}");
            error.exit_code()
        }
    }
}

fn dispatch(context: &mut Context, command: Command) -> Result<bool, CliError> {
    match command {
        Command::Info { files, format } => info::run(context, &files, format.as_deref()),
        Command::Dump { file, format } => json::dump(context, &file, format.as_deref()),
        Command::Encode {
            json,
            format,
            output,
        } => json::encode(context, &json, &format, &output),
        Command::Convert {
            input,
            output,
            to,
            format,
        } => convert::run(context, &input, &output, format.as_deref(), to.as_deref()),
        Command::Joints {
            file,
            format,
            posing,
        } => joints::run(context, &file, format.as_deref(), &posing),
        Command::Skin {
            mesh,
            skeleton,
            output,
            format,
            posing,
        } => skin::run(
            context,
            &mesh,
            skeleton.as_deref(),
            &output,
            format.as_deref(),
            &posing,
        ),
        Command::Render {
            files,
            output,
            size,
            format,
            posing,
        } => render::run(context, &files, &output, size, format.as_deref(), &posing),
        Command::Check { paths, format } => check::run(context, &paths, format.as_deref()),
    }
}
