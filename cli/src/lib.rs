//! `ossuary`: inspect, verify, convert, pose and render late-1990s game
//! character files. The binary runs [`run`] with the standard catalogue; a
//! program (or a test) with formats of its own runs it with its own.

mod batch;
mod check;
mod convert;
mod error;
mod explain;
mod gltf;
mod gltf_in;
mod info;
mod input;
mod joints;
mod json;
mod list_formats;
mod names;
mod options;
mod output;
mod render;
mod retail;
mod skin;
mod sprites;
mod twin;
mod view;

use std::borrow::Cow;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use formats::catalogue::Catalogue;
use formats::schema::printable;
use viewer::messages::bounded;

pub use error::CliError;

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
    Info(batch::FilesArgs),
    /// Print the decoded file as JSON.
    #[command(after_help = "\
Examples:
  ossuary dump humanoid.skel > humanoid.json
  ossuary dump - --format sims-skn < body.skn")]
    Dump(json::DumpArgs),
    /// Turn JSON (as `dump` prints it) back into a file of the format.
    #[command(after_help = "\
Example:
  ossuary encode humanoid.json --format tso-skel -o humanoid.skel")]
    Encode(json::EncodeArgs),
    /// Convert between formats that carry the same data (e.g. .cmx <-> .bcf,
    /// .skn <-> .bmf), one file or whole folders; or a skeleton with its
    /// meshes and animations to one glTF 2.0 asset (.gltf, .glb); or an
    /// object file's 3D meshes (FreeSO's) to one glTF asset.
    #[command(after_help = "\
With folders as inputs, or -o naming a folder, every file is converted into that folder,
mirroring the folders' trees; files that do not convert to --to are reported and passed over.
To glTF, the first input with a skeleton poses the meshes of every input (a suit gives the
skins it names), with every animation of each --anim file (or those --skill names).
A 1998 prototype character (`version 200`) with --to sims-cmx is written into the folder -o
names in the released game's formats: the .cmx as version 300, each .msh as a .skn, each .bin
of keys as a .cfp (with --to sims-bcf: a .bcf and .bmf files). A glTF asset with --to sims-cmx,
sims-bcf or swg-sat goes back into the game's files, in the folder -o names. An object file
(.iff) to glTF gives its 3D meshes (FSOM, which FreeSO adds), a scene for each draw group,
textured by their MTEX images or sprite frames.

Examples:
  ossuary convert adult-skeleton.cmx -o adult-skeleton.bcf
  ossuary convert ../shared/corpus/sims1 -o binary/ --to sims-bmf
  ossuary convert adult-skeleton.cmx xskin-b001mafit_01-PELVIS-BODY.skn -o adult.glb
  ossuary convert samnud.cmx --to sims-cmx -o retail/
  ossuary convert fso_game_door.iff -o door.glb")]
    Convert(convert::Args),
    /// Print the skeleton's joints in model space as JSON: name, parent,
    /// position [x, y, z] and rotation [x, y, z, w], in the file's own axes.
    #[command(after_help = "\
Examples:
  ossuary joints adult-skeleton.cmx
  ossuary joints adult-skeleton.cmx --anim adult-idle1.cmx --frame 30   # a Sims skill, its .cfp beside it")]
    Joints(joints::Args),
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
    Skin(skin::Args),
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
    Render(render::Args),
    /// Decode and re-encode each file and report `ok` or the first
    /// difference; exits 0 only if all come back identical.
    #[command(after_help = "\
Folders are searched (names starting with `.` are passed over). A file named on the command
line that cannot be identified has failed; one found in a folder is counted as not supported.
Several files end with a summary line.

Examples:
  ossuary check humanoid.skel
  ossuary check ../shared/corpus --json | jq -c 'select(.result != \"ok\")'")]
    Check(batch::FilesArgs),
    /// Show where every value of a file came from: its bytes as annotated
    /// hex (for text, its lines) with each value's field path, type and
    /// value; the value holding one byte; or how much of a folder's files
    /// the layouts describe.
    #[command(after_help = "\
Every byte of a binary file (IFF tags, sizes and padding included) belongs to exactly one value;
in a text file, every line. A file that does not decode gives its error and the bytes around it.

Examples:
  ossuary explain humanoid.skel
  ossuary explain all_b.skt --at 0x84
  ossuary explain body.skn --json > spans.json
  ossuary explain --coverage ../shared/corpus")]
    Explain(explain::Args),
    /// Show every character and object file under the paths in a web page: characters posed,
    /// animated and textured in 3D; objects by draw group, direction and zoom, sprite frame by
    /// frame, and as FreeSO's 3D meshes; served on 127.0.0.1 until Ctrl-C.
    #[command(after_help = "\
The page lists the characters (a skeleton with the meshes that go on it), animations, loose
meshes and The Sims' object files under the paths; only files under them are served. Its address
holds what it shows: ?open=FILE&anim=FILE&skill=NAME&frame=N&lod=N opens that view directly, and
for an object file ?open=FILE&show=group|sprite|mesh&group=ID&direction=D&zoom=Z&sprite=SPR2-ID&frame=N.

Examples:
  ossuary view ../shared/corpus
  ossuary view characters/ --port 8080 --open")]
    View(view::Args),
    /// Write an object file's pictures as PNG images: every sprite frame, its z-buffer, and
    /// every view of every draw group composed as the game draws the object; or, with
    /// --replace, write the object file again with frames made from PNG images.
    #[command(after_help = "\
Into the folder -o names (made if missing), all of them or none:
  SPR2-<id>-<frame>.png        a frame of the sprite (SPR2) of that chunk id, RGBA in its palette's
                               colours, clear where the game draws nothing, its 5-bit alpha as 0..255
  SPR2-<id>-<frame>-z.png      its z-buffer, grey (0 nearest), where the frame has one
  SPR#-<id>-<frame>.png        a frame of an older sprite (SPR#), which has no z-buffer or alpha
  DGRP-<id>-<direction>-<zoom>.png
                               a view of the draw group of that id, its sprites laid as the game
                               lays them; direction 1 right back, 4 right front, 16 left front,
                               64 left back; zoom 1 far, 2 middle, 3 near
A frame without pixels (0 x 0) is passed over.

With --replace SPR2-<id>-<frame>=IMAGE.png (repeatable), -o names the object file to write: each
frame is run-length encoded from its image as the game's tools encode frames, and the sprite's
offsets and sizes and the resource map are written to match. A colour the frame's palette holds
is kept exactly; one it lacks takes the palette's nearest colour (a warning says how many pixels
moved). Alpha 0 is clear, 255 opaque, and any other alpha is stored in the 5 bits a frame holds
(the nearest of 32 levels). The z-buffer comes from IMAGE-z.png beside the image, else, where the
image keeps the frame's size, from the frame as it was. SPR# frames cannot be replaced.

Examples:
  ossuary sprites chair.iff -o chair/
  ossuary sprites chair.iff --replace SPR2-100-0=chair/SPR2-100-0.png -o chair-new.iff")]
    Sprites(sprites::Args),
    /// List the formats: names, extensions, conversions, what each can do.
    #[command(after_help = "\
Example:
  ossuary formats")]
    Formats,
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

    /// Writes text for people to standard output, with anything a
    /// terminal would act on (names read from files may hold escape
    /// sequences) escaped.
    fn print(&mut self, text: &str) -> Result<(), CliError> {
        self.write(printable(text).as_bytes())
    }

    /// Writes JSON text (as serde_json writes it) to standard output, with
    /// anything a terminal would act on escaped as JSON escapes it
    /// (`\u007f`), so that it stays JSON every reader takes.
    fn print_json(&mut self, json: &str) -> Result<(), CliError> {
        self.write(json_for_terminals(json).as_bytes())
    }

    /// [`Context::print_json`] of the JSON `write` serializes, written out
    /// as it comes (a big file's map is many times the file as JSON). An
    /// error writing it is the command's (a closed pipe ends it); one
    /// serializing it is `write`'s, returned inside.
    fn print_json_streamed(
        &mut self,
        write: impl FnOnce(&mut dyn Write) -> serde_json::Result<()>,
    ) -> Result<serde_json::Result<()>, CliError> {
        let mut out = JsonOut {
            context: self,
            pending: Vec::new(),
            failed: None,
        };
        let serialized = write(&mut out).and_then(|()| {
            out.pending.push(b'\n');
            out.flush().map_err(serde_json::Error::io)
        });
        match out.failed {
            Some(error) => Err(error),
            None => Ok(serialized),
        }
    }

    /// One warning line, [`shown`]. A warning that cannot be written is
    /// dropped: the command's own output matters more.
    fn warn(&mut self, message: &str) {
        let _ = writeln!(self.stderr, "ossuary: warning: {}", shown(message));
    }
}

/// Standard output for [`Context::print_json_streamed`]: JSON text kept
/// until about 64 KiB of it is whole characters, then written out as
/// [`Context::print_json`] writes it.
struct JsonOut<'c, 'a> {
    context: &'c mut Context<'a>,
    pending: Vec<u8>,
    /// The error writing to standard output gave, for the command.
    failed: Option<CliError>,
}

impl JsonOut<'_, '_> {
    /// Writes out the pending text up to its last whole character.
    fn write_out(&mut self) -> std::io::Result<()> {
        let whole = match std::str::from_utf8(&self.pending) {
            Ok(text) => text.len(),
            Err(error) => error.valid_up_to(),
        };
        let text = String::from_utf8_lossy(self.pending.get(..whole).unwrap_or_default());
        if let Err(error) = self.context.print_json(&text) {
            self.failed = Some(error);
            return Err(std::io::Error::other("standard output failed"));
        }
        self.pending.drain(..whole);
        Ok(())
    }
}

impl Write for JsonOut<'_, '_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        if self.pending.len() >= 64 * 1024 {
            self.write_out()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.write_out()
    }
}

/// A message as the terminal shows it: each name it quotes at most 60
/// characters and the whole bounded ([`bounded`]), whatever the code that
/// made it copied of an input, and nothing in it that a terminal would act
/// on ([`printable`]).
fn shown(message: &str) -> String {
    printable(&bounded(message)).into_owned()
}

/// `json` with every character [`printable`] would escape written as a
/// JSON escape (`\u007f`, `\u202e`) instead. serde_json already escapes
/// the C0 controls inside strings and writes line breaks only between
/// values, so each such character stands inside a string, where the
/// escape means the same character; every one is in the Basic
/// Multilingual Plane, so four digits hold it.
fn json_for_terminals(json: &str) -> Cow<'_, str> {
    if matches!(printable(json), Cow::Borrowed(_)) {
        return Cow::Borrowed(json);
    }
    let mut escaped = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        let mut one = [0; 4];
        match printable(c.encode_utf8(&mut one)) {
            Cow::Borrowed(same) => escaped.push_str(same),
            Cow::Owned(_) => escaped.push_str(&format!("\\u{:04x}", u32::from(c))),
        }
    }
    Cow::Owned(escaped)
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
    input::set_reading(input::Reading {
        limit: cli.max_input,
        within: None,
    });
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
            let _ = writeln!(stderr, "ossuary: {}", shown(&error.to_string()));
            error.exit_code()
        }
    }
}

fn dispatch(context: &mut Context, command: Command) -> Result<bool, CliError> {
    match &command {
        Command::Info(args) => info::run(context, args),
        Command::Dump(args) => json::dump(context, args),
        Command::Encode(args) => json::encode(context, args),
        Command::Convert(args) => convert::run(context, args),
        Command::Joints(args) => joints::run(context, args),
        Command::Skin(args) => skin::run(context, args),
        Command::Render(args) => render::run(context, args),
        Command::Check(args) => check::run(context, args),
        Command::Explain(args) => explain::run(context, args),
        Command::View(args) => view::run(context, args),
        Command::Sprites(args) => sprites::run(context, args),
        Command::Formats => list_formats::run(context),
    }
}
