//! The CLI's two kinds of failure and their exit codes.

use std::fmt;
use std::process::ExitCode;

#[derive(Debug)]
pub enum CliError {
    /// The command line asks for something impossible (exit 2).
    Usage(String),
    /// An input file is unreadable or invalid, or output failed (exit 1).
    Input(String),
}

impl CliError {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Usage(_) => ExitCode::from(2),
            CliError::Input(_) => ExitCode::from(1),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) | CliError::Input(message) => f.write_str(message),
        }
    }
}
