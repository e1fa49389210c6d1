//! Output files appear whole or not at all.

use std::path::Path;

use crate::error::CliError;

/// Writes to a temporary name beside the target, then renames it over the
/// target, so a failure never leaves half a file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let file_name = path
        .file_name()
        .ok_or_else(|| CliError::Usage(format!("{}: not a file name", path.display())))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(file_name);
    temporary_name.push(format!(".ossuary-{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary_name);
    let result = std::fs::write(&temporary, bytes).and_then(|()| std::fs::rename(&temporary, path));
    result.map_err(|e| {
        // Best effort: the temporary may not exist if the write itself failed.
        let _ = std::fs::remove_file(&temporary);
        CliError::Input(format!("{}: cannot write: {e}", path.display()))
    })
}
