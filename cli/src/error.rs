//! The CLI's failures, each shown as one sentence naming the file, and their
//! exit codes: 2 for a command line that asks for something impossible, 1
//! for input that is unreadable, invalid or of the wrong kind.

use std::path::PathBuf;
use std::process::ExitCode;

use formats::format::{DecodeError, EncodeError, JsonError};
use formats::rig::RigError;
use render::RenderError;
use skinning::{ClipError, JobError, SkeletonError, SkinError};

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The command line asks for something impossible (exit 2).
    #[error("{0}")]
    Usage(String),
    /// An input is unreadable, invalid or of the wrong kind (exit 1).
    #[error("{}: {problem}", shown(.path))]
    Input { path: PathBuf, problem: Problem },
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
    #[error("cannot read: {0}")]
    Read(std::io::Error),
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error(transparent)]
    Json(#[from] JsonError),
    #[error("cannot express as JSON: {0}")]
    ToJson(serde_json::Error),
    #[error("cannot encode as {format}: {source}")]
    Encode {
        format: &'static str,
        source: EncodeError,
    },
    /// The file is fine, but not what the command needs.
    #[error("a {title} file has no {lacks}")]
    WrongKind {
        title: &'static str,
        lacks: &'static str,
    },
    #[error(transparent)]
    Rig(#[from] RigError),
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
    /// Boxed: export errors are large and rare.
    #[error(transparent)]
    Export(#[from] Box<export::ExportError>),
}

/// `-` stands for standard input or output.
fn shown(path: &std::path::Path) -> String {
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
            problem: problem.into(),
        }
    }

    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Usage(_) => ExitCode::from(2),
            CliError::Input { .. } | CliError::Output { .. } => ExitCode::from(1),
        }
    }
}
