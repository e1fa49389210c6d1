//! Output files appear whole or not at all; `-` is standard output.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::error::CliError;
use crate::Context;

/// Writes `bytes` to `path`, or to standard output for `-`.
pub fn write(context: &mut Context, path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    if path.as_os_str() == "-" {
        return context.write(bytes);
    }
    write_file(path, bytes)
}

/// Writes `bytes` to a temporary name beside `path`, then renames it over
/// `path`, so a failure never leaves half a file.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    write_files(&[(path, bytes)])
}

/// Writes files that belong together (an OBJ and its MTL): every file to a
/// temporary name first, then each renamed into place. A failure removes
/// what was written, so no file of the group is left without the others.
pub fn write_files(files: &[(&Path, &[u8])]) -> Result<(), CliError> {
    let mut temporaries = Vec::new();
    let written = files.iter().try_for_each(|&(path, bytes)| {
        let temporary = temporary_beside(path)?;
        let result = std::fs::write(&temporary, bytes);
        temporaries.push(temporary);
        result.map_err(|source| cannot_write(path, source))
    });
    let mut renamed = Vec::new();
    let result = written.and_then(|()| {
        temporaries
            .iter()
            .zip(files)
            .try_for_each(|(temporary, &(path, _))| {
                std::fs::rename(temporary, path).map_err(|source| cannot_write(path, source))?;
                renamed.push(path);
                Ok(())
            })
    });
    if result.is_err() {
        for path in temporaries.iter().map(PathBuf::as_path).chain(renamed) {
            // Best effort: a temporary already renamed is gone.
            let _ = std::fs::remove_file(path);
        }
    }
    result
}

fn cannot_write(path: &Path, source: std::io::Error) -> CliError {
    CliError::Output {
        path: path.to_path_buf(),
        source,
    }
}

/// `.NAME.ossuary-PID-N.tmp` beside `path`: unique within this process
/// too, as a batch writes files in parallel.
fn temporary_beside(path: &Path) -> Result<PathBuf, CliError> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let file_name = path
        .file_name()
        .ok_or_else(|| CliError::Usage(format!("{}: not a file name", path.display())))?;
    let mut temporary_name = OsString::from(".");
    temporary_name.push(file_name);
    temporary_name.push(format!(
        ".ossuary-{}-{}.tmp",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    Ok(path.with_file_name(temporary_name))
}
