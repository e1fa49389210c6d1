//! `ossuary`: inspect, verify, convert, pose and render late-1990s game
//! character files. The binary runs [`run`] with the standard catalogue; a
//! program (or a test) with formats of its own runs it with its own.

mod batch;
mod capabilities;
mod check;
mod convert;
mod error;
mod gltf;
mod info;
mod input;
mod joints;
mod json;
mod list_formats;
mod output;
mod render;
mod retail;
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
    about = "Inspect, verify, convert, pose and render late-1990s game character files",
    after_help = "\
The format of a file comes from its extension, then its content; `ossuary formats` lists them.
`-` stands for standard input (as an input) or standard output (after -o).
Exit status: 0 success, 1 bad input (or `check` found a difference), 2 bad usage.

Examples:
  ossuary info adult-skeleton.cmx
  ossuary check ../shared/corpus
  ossuary render adult-skeleton.cmx body.skn head.skn -o adult.png"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Refuse an input (a file named here, or one it refers to) of more than
    /// this many bytes: 1 GiB unless told, far past any real file, so that
    /// an endless input (`/dev/zero`) is an error, not memory exhaustion.
    /// A number of bytes, or with KiB, MiB or GiB.
    #[arg(
        long,
        global = true,
        value_name = "SIZE",
        default_value = "1GiB",
        value_parser = parse_size_limit
    )]
    max_input: u64,
}

/// Parses `--max-input`: bytes, or a number of KiB, MiB or GiB.
fn parse_size_limit(text: &str) -> Result<u64, String> {
    let (number, unit) = [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        .into_iter()
        .find_map(|(suffix, unit)| text.strip_suffix(suffix).map(|number| (number, unit)))
        .unwrap_or((text, 1));
    number
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|number| number.checked_mul(unit))
        .ok_or_else(|| format!("`{text}` is not a size, e.g. 1048576, 512MiB or 2GiB"))
}

#[derive(Subcommand)]
enum Command {
    /// Print a readable summary of each file: format, counts, bone tree.
    #[command(after_help = "\
Folders are searched (names starting with `.` are passed over); a file that cannot be read is
reported and the others go on. Several files end with a summary line.

Examples:
  ossuary info adult-skeleton.cmx
  ossuary info ../shared/corpus --json")]
    Info {
        /// Files, and folders to search.
        #[arg(required = true, value_name = "FILE|DIR")]
        paths: Vec<PathBuf>,
        /// Read the files as this format instead of guessing it (in folders: the files
        /// with its extensions).
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
        /// Print one JSON object per file, then one with the summary.
        #[arg(long)]
        json: bool,
    },
    /// Print the decoded file as JSON.
    #[command(after_help = "\
Examples:
  ossuary dump humanoid.skel > humanoid.json
  ossuary dump - --format sims-skn < body.skn")]
    Dump {
        /// The file to decode (`-` for standard input).
        file: PathBuf,
        /// Read the file as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
    },
    /// Turn JSON (as `dump` prints it) back into a file of the format.
    #[command(after_help = "\
Example:
  ossuary encode humanoid.json --format tso-skel -o humanoid.skel")]
    Encode {
        /// JSON as `dump` prints it (`-` for standard input).
        json: PathBuf,
        /// The format to write.
        #[arg(long, value_name = "NAME")]
        format: String,
        /// The file to write (`-` for standard output).
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
    },
    /// Convert between formats that carry the same data (e.g. .cmx <-> .bcf,
    /// .skn <-> .bmf), one file or whole folders; or a skeleton with its
    /// meshes and animations to one glTF 2.0 asset (.gltf, .glb).
    #[command(after_help = "\
With folders as inputs, or -o naming a folder, every file is converted into that folder,
mirroring the folders' trees; files that do not convert to --to are reported and passed over.
To glTF, the first input with a skeleton poses the meshes of every input (a suit gives the
skins it names), with every animation of each --anim file (or those --skill names).
A 1998 prototype character (`version 200`) with --to sims-cmx is written into the folder -o
names in the released game's formats: the .cmx as version 300, each .msh as a .skn, each .bin
of keys as a .cfp.

Examples:
  ossuary convert adult-skeleton.cmx -o adult-skeleton.bcf
  ossuary convert ../shared/corpus/sims1 -o binary/ --to sims-bmf
  ossuary convert adult-skeleton.cmx xskin-b001mafit_01-PELVIS-BODY.skn -o adult.glb
  ossuary convert samnud.cmx --to sims-cmx -o retail/")]
    Convert {
        /// The files, or folders, to convert (`-` for standard input); for glTF, the skeleton, then meshes or suits.
        #[arg(required = true, value_name = "IN")]
        inputs: Vec<PathBuf>,
        /// The file to write (`-` for standard output, with --to), or the folder to write into.
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// Write this format whatever OUT's extension says (`gltf`, `glb` or a format name; needed for a folder).
        #[arg(long, value_name = "NAME")]
        to: Option<String>,
        /// Read the inputs as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
        /// glTF only: animations to include, every one each file holds.
        #[arg(long, value_name = "FILE", num_args = 1..)]
        anim: Vec<PathBuf>,
        /// glTF only: take only the animation of this name from the --anim files
        /// (repeatable). Without it every animation whose data is found is taken,
        /// and one whose data is missing is left out with a warning.
        #[arg(long, value_name = "NAME", requires = "anim")]
        skill: Vec<String>,
        /// glTF only: level of detail of skeletons and meshes, 0 the most detailed.
        #[arg(long, value_name = "N", default_value_t = 0)]
        lod: usize,
        /// glTF only: the meshes' blend shapes are exported as morph targets; this
        /// gives one its default weight by name, e.g. `blend_fat=0.5` (others 0).
        #[command(flatten)]
        morphing: Morphing,
        /// glTF only: how an Outcast skeleton composes its joints' turns (as
        /// `joints --outcast-order`); the asset's nodes then hold the locals that
        /// give those poses.
        #[arg(long, value_name = "ORDER", value_enum, default_value_t = OutcastOrder::ChildFirst)]
        outcast_order: OutcastOrder,
    },
    /// Print the skeleton's joints in model space as JSON: name, parent,
    /// position [x, y, z] and rotation [x, y, z, w], in the file's own axes.
    #[command(after_help = "\
Examples:
  ossuary joints adult-skeleton.cmx
  ossuary joints adult-skeleton.cmx --anim adult-idle1.cmx --frame 30   # a Sims skill, its .cfp beside it")]
    Joints {
        /// The file with the skeleton (`-` for standard input).
        file: PathBuf,
        /// Read FILE as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
        #[command(flatten)]
        posing: Posing,
    },
    /// Deform a mesh with a skeleton and write it as OBJ (with an MTL
    /// beside it naming the textures).
    #[command(after_help = "\
Several --skeleton files make one skeleton: the first's joints, then each next file's, whose
roots stay roots. A mesh whose file keeps its positions apart from its vertices (SWG) writes
that list as its `v` lines, in file order.

Examples:
  ossuary skin body.skn --skeleton adult-skeleton.cmx -o body.obj   # also writes body.mtl
  ossuary skin B001FAFat_01.cmx --skeleton adult-skeleton.cmx -o suit.obj   # a suit's skins
  ossuary skin twk_f_head_l0.mgn --skeleton all_b.skt --skeleton hum_f_face.skt -o head.obj")]
    Skin {
        /// The file with the mesh (`-` for standard input).
        mesh: PathBuf,
        /// The skeleton to pose (not needed when MESH holds its own); several make one.
        #[arg(long, value_name = "FILE")]
        skeleton: Vec<PathBuf>,
        /// The OBJ to write (`-` for standard output, without the MTL).
        #[arg(short, long, value_name = "OUT.obj")]
        output: PathBuf,
        /// Read MESH as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
        #[command(flatten)]
        posing: Posing,
        #[command(flatten)]
        morphing: Morphing,
    },
    /// Draw the posed skeletons and meshes (front and side views, with a
    /// height ruler) to a PNG.
    #[command(after_help = "\
Each file with a skeleton is a figure; files with meshes only (or suits, which give the skins
they name) are posed by the figure before them. Figures stand side by side at one scale.

Examples:
  ossuary render adult-skeleton.cmx body.skn head.skn -o adult.png
  ossuary render adult-skeleton.cmx B001FAFat_01.cmx --anim adult-walking-frantic-loop.cmx \
      --frame 10 -o walk.png
  ossuary render all_b.skt hum_f_face.skt -o skeletons.png --size 1600x900
  ossuary render appearance/twk_f.sat --lod 1 --blend blend_fat=0.5 -o twilek.png")]
    Render {
        /// The files to draw.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The PNG to write (`-` for standard output).
        #[arg(short, long, value_name = "OUT.png")]
        output: PathBuf,
        /// Picture size in pixels, each side from 64 to 16384.
        #[arg(long, value_name = "WxH", default_value = "800x600", value_parser = render::parse_size)]
        size: ::render::ImageSize,
        /// Draw the meshes only, without bones and joints.
        #[arg(long)]
        no_bones: bool,
        /// Read the files as this format instead of guessing it.
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
        #[command(flatten)]
        posing: Posing,
        #[command(flatten)]
        morphing: Morphing,
    },
    /// Decode and re-encode each file and report `ok` or the first
    /// difference; exits 0 only if all come back identical.
    #[command(after_help = "\
Folders are searched (names starting with `.` are passed over). A file named on the command
line that cannot be identified has failed; one found in a folder is counted as not supported.
Several files end with a summary line.

Examples:
  ossuary check humanoid.skel
  ossuary check ../shared/corpus --json | jq -c 'select(.result != \"ok\")'")]
    Check {
        /// Files, and folders to search.
        #[arg(required = true, value_name = "FILE|DIR")]
        paths: Vec<PathBuf>,
        /// Read the files as this format instead of guessing it (in folders: the files
        /// with its extensions).
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
        /// Print one JSON object per file, then one with the summary.
        #[arg(long)]
        json: bool,
    },
    /// List the formats: names, extensions, conversions, what each can do.
    #[command(after_help = "\
Example:
  ossuary formats")]
    Formats,
}

/// The options every posing command takes.
#[derive(Args)]
struct Posing {
    /// Pose with an animation from this file instead of the rest pose.
    #[arg(long, value_name = "FILE")]
    anim: Option<PathBuf>,
    /// The frame of the animation, counted from 0 (the first, by default).
    #[arg(long, value_name = "N", requires = "anim")]
    frame: Option<usize>,
    /// Which animation, for a file that holds several.
    #[arg(long, value_name = "NAME", requires = "anim")]
    skill: Option<String>,
    /// Level of detail of skeletons and meshes: 0 is the most detailed.
    #[arg(long, value_name = "N", default_value_t = 0)]
    lod: usize,
    /// Where the files a document refers to by folder (`appearance/mesh/x.lmg`) are
    /// looked up first; the folders above the document's own come next.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// How an Outcast skeleton composes its joints' turns about their rest
    /// positions: `child-first` turns each joint by its own turn, then by its
    /// ancestors' (the default, which keeps a limb joined); `literal` applies
    /// a parent's accumulated turn first, then each child's about its rest
    /// pivot, which moves joints two or more levels down.
    #[arg(long, value_name = "ORDER", value_enum, default_value_t = OutcastOrder::ChildFirst)]
    outcast_order: OutcastOrder,
}

/// The options of commands that deform meshes.
#[derive(Args)]
struct Morphing {
    /// Weight a mesh's morph target (blend shape) by name, e.g. `blend_fat=0.5`
    /// (1 is the whole target); targets not named keep weight 0.
    #[arg(long = "blend", value_name = "NAME=W", value_parser = parse_blend)]
    blends: Vec<(String, f32)>,
}

/// Parses `NAME=W`.
fn parse_blend(text: &str) -> Result<(String, f32), String> {
    let (name, weight) = text
        .rsplit_once('=')
        .filter(|(name, _)| !name.is_empty())
        .ok_or_else(|| format!("`{text}` is not NAME=WEIGHT, e.g. blend_fat=0.5"))?;
    let weight: f32 = weight
        .trim()
        .parse()
        .ok()
        .filter(|weight: &f32| weight.is_finite())
        .ok_or_else(|| format!("`{weight}` in `{text}` is not a number"))?;
    Ok((name.to_owned(), weight))
}

/// `--outcast-order`.
#[derive(Clone, Copy, ValueEnum)]
enum OutcastOrder {
    ChildFirst,
    Literal,
}

impl OutcastOrder {
    fn composition(self) -> Composition {
        match self {
            OutcastOrder::ChildFirst => Composition::Hierarchy,
            OutcastOrder::Literal => Composition::LiteralPivots,
        }
    }
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

    /// Reads, identifies and decodes a file, its references looked up
    /// under `--root` first.
    fn load(
        &self,
        catalogue: &Catalogue,
        path: &Path,
        format: Option<&str>,
    ) -> Result<input::Input, CliError> {
        Ok(input::load(catalogue, path, format)?.with_root(self.root.as_deref()))
    }

    fn composition(&self) -> Composition {
        self.outcast_order.composition()
    }
}

/// Where a command's results go and which formats it knows.
pub struct Context<'a> {
    pub catalogue: Catalogue,
    pub stdout: &'a mut dyn Write,
    /// Where warnings go: what a command did in place of what it could not
    /// do, the command going on.
    pub stderr: &'a mut dyn Write,
}

impl Context<'_> {
    /// Writes to standard output; a closed pipe ends the command (see [`run`]).
    fn write(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        self.stdout
            .write_all(bytes)
            .map_err(|source| CliError::Output {
                path: PathBuf::from("-"),
                source,
            })
    }

    fn print(&mut self, text: &str) -> Result<(), CliError> {
        self.write(text.as_bytes())
    }

    /// One warning line. A warning that cannot be written is dropped: the
    /// command's own output matters more.
    fn warn(&mut self, message: &str) {
        let _ = writeln!(self.stderr, "ossuary: warning: {message}");
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
    input::set_input_limit(cli.max_input);
    let mut context = Context {
        catalogue,
        stdout,
        stderr: &mut *stderr,
    };
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
        Command::Info {
            paths,
            format,
            json,
        } => info::run(context, &paths, format.as_deref(), json),
        Command::Dump { file, format } => json::dump(context, &file, format.as_deref()),
        Command::Encode {
            json,
            format,
            output,
        } => json::encode(context, &json, &format, &output),
        Command::Convert {
            inputs,
            output,
            to,
            format,
            anim,
            skill,
            lod,
            morphing,
            outcast_order,
        } => convert::run(
            context,
            &inputs,
            &output,
            format.as_deref(),
            to.as_deref(),
            &convert::GltfChoices {
                animations: &anim,
                skills: &skill,
                options: RigOptions { lod },
                blend_weights: &morphing.blends,
                composition: outcast_order.composition(),
            },
        ),
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
            morphing,
        } => skin::run(
            context,
            &mesh,
            &skeleton,
            &output,
            format.as_deref(),
            (&posing, &morphing.blends),
        ),
        Command::Render {
            files,
            output,
            size,
            no_bones,
            format,
            posing,
            morphing,
        } => render::run(
            context,
            &files,
            &output,
            size,
            format.as_deref(),
            (&posing, &morphing.blends),
            !no_bones,
        ),
        Command::Check {
            paths,
            format,
            json,
        } => check::run(context, &paths, format.as_deref(), json),
        Command::Formats => list_formats::run(context),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_weights_are_name_equals_number() {
        assert_eq!(
            parse_blend("blend_fat=0.5"),
            Ok(("blend_fat".to_owned(), 0.5))
        );
        assert_eq!(parse_blend("a=b=-1"), Ok(("a=b".to_owned(), -1.0)));
        assert!(parse_blend("=1").is_err());
        assert!(parse_blend("blend_fat").is_err());
        assert_eq!(
            parse_blend("blend_fat=lots"),
            Err("`lots` in `blend_fat=lots` is not a number".to_owned())
        );
        assert!(parse_blend("blend_fat=inf").is_err());
    }
}
