//! Output files appear whole or not at all; `-` is standard output.

use std::path::Path;

use crate::error::CliError;
use crate::Context;

/// Writes `bytes` to `path`: to a temporary name beside it, then renamed
/// over it, so a failure never leaves half a file. `-` writes to standard
/// output instead.
pub fn write(context: &mut Context, path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    if path.as_os_str() == "-" {
        return context
            .stdout
            .write_all(bytes)
            .map_err(|source| CliError::Output {
                path: path.to_path_buf(),
                source,
            });
    }
    let file_name = path
        .file_name()
        .ok_or_else(|| CliError::Usage(format!("{}: not a file name", path.display())))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(file_name);
    temporary_name.push(format!(".ossuary-{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary_name);
    let result = std::fs::write(&temporary, bytes).and_then(|()| std::fs::rename(&temporary, path));
    result.map_err(|source| {
        // Best effort: the temporary may not exist if the write itself failed.
        let _ = std::fs::remove_file(&temporary);
        CliError::Output {
            path: path.to_path_buf(),
            source,
        }
    })
}
