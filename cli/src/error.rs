//! The CLI's failures, each shown as one sentence naming the file, and their
//! exit codes: 2 for a command line that asks for something impossible, 1
//! for input that is unreadable, invalid or of the wrong kind.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use export::assembly::AssemblyError;
use export::input::{unidentified, wrong_kind, CharacterError};
use formats::files::ReadError;
use formats::format::JsonError;
use formats::rig::RigError;
use formats::schema::{self, Position};
use render::RenderError;
use skinning::{ClipError, JobError, SkeletonError, SkinError};

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The command line asks for something impossible (exit 2).
    #[error("{0}")]
    Usage(String),
    /// An input is unreadable, invalid or of the wrong kind (exit 1).
    #[error("{}: {problem}", shown(.path))]
    Input {
        path: PathBuf,
        problem: Box<Problem>,
    },
    /// A file is fine, but not what the command needs (exit 1), e.g.
    /// "x.skn is a Sims skin, which has no skeleton to pose".
    #[error("{}", wrong_kind(&shown(.path), .kind, .lacks, *.format_never_has))]
    WrongKind {
        path: PathBuf,
        /// The format's title with an article: "a Sims skin".
        kind: String,
        /// What the command needs: "skeleton to pose".
        lacks: &'static str,
        /// Whether no file of the format has one (else just this file).
        format_never_has: bool,
    },
    /// An input that does not decode (exit 1), the bytes around its error
    /// shown below its sentence.
    #[error("{error}\n{}", bytes_shown(.around))]
    Undecoded {
        error: Box<CliError>,
        /// [`formats::explain::bytes_around`]'s lines.
        around: String,
    },
    /// An output cannot be written (exit 1).
    #[error("{}: cannot write: {source}", .path.display())]
    Output {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What is wrong with an input file.
#[derive(Debug, thiserror::Error)]
pub enum Problem {
    #[error("{0}")]
    Read(ReadError),
    /// Neither the name nor the content shows the format.
    #[error("{}", unidentified(.readable_as))]
    Unidentified {
        /// The formats whose readers accept the bytes all the same.
        readable_as: Vec<&'static str>,
    },
    /// The bytes do not decode: the error holds the offset (or line and
    /// column) and the field path.
    #[error(transparent)]
    Decode(#[from] schema::Error),
    #[error(transparent)]
    Json(#[from] JsonError),
    #[error("cannot express as JSON: {0}")]
    ToJson(serde_json::Error),
    #[error("cannot encode as {format}: {source}")]
    Encode {
        format: &'static str,
        source: schema::Error,
    },
    #[error(transparent)]
    Rig(#[from] RigError),
    /// An animation whose frames need another file's to pose anything.
    #[error("its frames pose nothing on their own: {needs} is needed")]
    Incomplete { needs: String },
    /// An animation of vertices where joints are asked for.
    #[error("the animation moves vertices, not bones, so it gives no joint positions")]
    NoJointMotion,
    #[error(transparent)]
    Skeleton(#[from] SkeletonError),
    #[error(transparent)]
    Clip(#[from] ClipError),
    #[error(transparent)]
    Pose(#[from] JobError),
    #[error(transparent)]
    Skin(#[from] SkinError),
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A glTF that cannot become the game's files.
    #[error(transparent)]
    Import(#[from] export::import::ImportError),
    /// A texture that cannot be written as the game's BMP.
    #[error(transparent)]
    Texture(#[from] export::import::bmp::BmpError),
    /// A name inside the file that cannot name an output file.
    #[error(transparent)]
    UnsafeName(#[from] crate::names::UnsafeName),
    /// Boxed: export errors are large and rare.
    #[error(transparent)]
    Export(#[from] Box<export::ExportError>),
    /// An object's picture that cannot be drawn: `place` names the chunk
    /// (`SPR2 100 frame 3`).
    #[error("{place}: {source}")]
    Picture {
        place: String,
        source: export::objects::PictureError,
    },
    /// A sprite frame that cannot be found, drawn or made.
    #[error(transparent)]
    Sprite(#[from] formats::objects::sprites::SpriteError),
    /// An image that cannot be read or written.
    #[error(transparent)]
    Image(#[from] export::TextureError),
    /// A z-buffer image of another size than its image.
    #[error(
        "the z-buffer is {} x {} pixels, its image {} x {}",
        .depth.0, .depth.1, .image.0, .image.1
    )]
    DepthSize {
        depth: (u32, u32),
        image: (u32, u32),
    },
    /// A frame with a z-buffer replaced by an image of another size, with
    /// no z-buffer beside it.
    #[error(
        "{frame} has a z-buffer of {} x {} pixels and the image is another size: put its \
         z-buffer beside it (the image's name with -z.png, a grey PNG of its size, as \
         `ossuary sprites` writes them)",
        .size.0, .size.1
    )]
    NoDepth { frame: String, size: (u32, u32) },
    /// An object's 3D meshes that cannot become a glTF asset.
    #[error(transparent)]
    Meshes(#[from] export::objects::MeshesError),
}

/// The bytes around a decoding error, as shown below its sentence.
pub fn bytes_shown(around: &str) -> String {
    format!("the bytes around its error:\n{}", around.trim_end())
}

/// `path`'s decoding `error`, with the bytes around it where it has a byte
/// offset: a modder sees the field's bytes without a hex editor.
pub fn decode_error(path: &Path, bytes: &[u8], error: schema::Error) -> CliError {
    let around = formats::explain::bytes_around(bytes, &error);
    let error = CliError::input(path, Problem::Decode(error));
    match around {
        Some(around) => CliError::Undecoded {
            error: Box::new(error),
            around,
        },
        None => error,
    }
}

impl From<CharacterError> for CliError {
    /// A character's failure as the command line reports it: the file,
    /// then what is wrong; a name that does not exist is a bad usage.
    fn from(error: CharacterError) -> CliError {
        if error.is_usage() {
            return CliError::Usage(error.to_string());
        }
        match error {
            CharacterError::Read { path, source } => CliError::input(path, Problem::Read(source)),
            CharacterError::Unidentified { path, readable_as } => {
                CliError::input(path, Problem::Unidentified { readable_as })
            }
            CharacterError::Decode { path, source } => CliError::input(path, *source),
            CharacterError::Rig { path, source } => CliError::input(path, source),
            CharacterError::WrongKind {
                path,
                kind,
                lacks,
                format_never_has,
            } => CliError::WrongKind {
                path,
                kind,
                lacks,
                format_never_has,
            },
            CharacterError::Assembly(error) => error.into(),
            usage => CliError::Usage(usage.to_string()),
        }
    }
}

impl From<AssemblyError> for CliError {
    /// An assembly's failure as the command line reports it: the file,
    /// then what is wrong.
    fn from(error: AssemblyError) -> CliError {
        match error {
            AssemblyError::File { path, source } => CliError::input(path, source),
            AssemblyError::Image { path, source, .. } => {
                CliError::input(path, Problem::Read(source))
            }
            AssemblyError::Export { path, source } => CliError::input(path, source),
        }
    }
}

/// `-` stands for standard input or output.
pub fn shown(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    }
}

impl CliError {
    pub fn input(path: impl Into<PathBuf>, problem: impl Into<Problem>) -> CliError {
        CliError::Input {
            path: path.into(),
            problem: Box::new(problem.into()),
        }
    }

    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Usage(_) => ExitCode::from(2),
            CliError::Undecoded { error, .. } => error.exit_code(),
            CliError::Input { .. } | CliError::WrongKind { .. } | CliError::Output { .. } => {
                ExitCode::from(1)
            }
        }
    }
}

/// An error taken apart for `--json`: what, where and in which field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    pub message: String,
    pub position: Option<Position>,
    pub field: Option<String>,
}

impl Problem {
    /// The problem's parts; only decoding errors know a position and field.
    pub fn located(&self) -> Located {
        match self {
            Problem::Decode(error) => Located {
                message: error.kind.to_string(),
                position: error.position,
                field: (!error.path.is_empty()).then(|| error.path.to_string()),
            },
            other => Located {
                message: other.to_string(),
                position: None,
                field: None,
            },
        }
    }
}
