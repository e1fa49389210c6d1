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

/// Writes files that belong together (an OBJ and its MTL, a character and
/// its skins): all of them or none. Every file goes to a temporary name
/// first; then each file already there is moved aside, and each temporary
/// renamed into place. A failure at any step puts back every file that was
/// there before and removes what was written, so the folder is as it was.
pub fn write_files(files: &[(&Path, &[u8])]) -> Result<(), CliError> {
    let mut temporaries = Vec::new();
    let written = files.iter().try_for_each(|&(path, bytes)| {
        let temporary = temporary_beside(path, "tmp")?;
        let result = std::fs::write(&temporary, bytes);
        temporaries.push(temporary);
        result.map_err(|source| cannot_write(path, source))
    });
    let mut kept: Vec<(&Path, PathBuf)> = Vec::new();
    let mut placed: Vec<&Path> = Vec::new();
    let result = written
        .and_then(|()| {
            files.iter().try_for_each(|&(path, _)| {
                if !is_there(path)? {
                    return Ok(());
                }
                let aside = temporary_beside(path, "old")?;
                std::fs::rename(path, &aside).map_err(|source| cannot_write(path, source))?;
                kept.push((path, aside));
                Ok(())
            })
        })
        .and_then(|()| {
            temporaries
                .iter()
                .zip(files)
                .try_for_each(|(temporary, &(path, _))| {
                    std::fs::rename(temporary, path)
                        .map_err(|source| cannot_write(path, source))?;
                    placed.push(path);
                    Ok(())
                })
        });
    if result.is_err() {
        // Best effort, in reverse: what was placed goes, what was there
        // comes back; a temporary already renamed is gone.
        for path in placed
            .iter()
            .copied()
            .chain(temporaries.iter().map(PathBuf::as_path))
        {
            let _ = std::fs::remove_file(path);
        }
        for (path, aside) in &kept {
            let _ = std::fs::rename(aside, path);
        }
    } else {
        for (_, aside) in &kept {
            let _ = std::fs::remove_file(aside);
        }
    }
    result
}

/// Makes the folder `dir`, which lies in `root` (the folder `-o` names),
/// with every folder missing on the way, and returns those made, outermost
/// first (so that a failed write can take them away again). `root` and
/// what holds it are followed as they are (the user named them), but a
/// link already inside `root` on the way to `dir` is refused, naming it:
/// following it (`OUT/appearance` linking to `../outside`) would write
/// outside `-o`. (A link in a file's own place is no way out: a file is
/// put in place by renaming, which replaces the link itself.)
pub fn folders_inside(root: &Path, dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let mut made = Vec::new();
    let ancestors: Vec<&Path> = dir.ancestors().collect();
    for folder in ancestors.into_iter().rev() {
        if folder.as_os_str().is_empty() {
            continue;
        }
        let inside = folder != root && folder.starts_with(root);
        let there = if inside {
            match std::fs::symlink_metadata(folder) {
                Ok(metadata) if metadata.file_type().is_symlink() => {
                    return Err(cannot_write(
                        folder,
                        std::io::Error::other(
                            "a link is in the way, and links inside the output folder are not \
                             followed: nothing is written outside it",
                        ),
                    ))
                }
                Ok(_) => true,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => false,
                Err(source) => return Err(cannot_write(folder, source)),
            }
        } else {
            folder.exists()
        };
        if !there {
            match std::fs::create_dir(folder) {
                Ok(()) => made.push(folder.to_path_buf()),
                // Made meanwhile by another file of a batch, written in
                // parallel.
                Err(error)
                    if error.kind() == std::io::ErrorKind::AlreadyExists
                        && std::fs::symlink_metadata(folder).is_ok_and(|found| found.is_dir()) => {}
                Err(source) => return Err(cannot_write(folder, source)),
            }
        }
    }
    Ok(made)
}

/// Whether a file the group replaces is at `path`. A folder there is
/// refused before any file of the group moves.
fn is_there(path: &Path) -> Result<bool, CliError> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_dir() => Err(cannot_write(
            path,
            std::io::Error::new(std::io::ErrorKind::IsADirectory, "a folder is in the way"),
        )),
        Ok(_) => Ok(true),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(cannot_write(path, source)),
    }
}

fn cannot_write(path: &Path, source: std::io::Error) -> CliError {
    CliError::Output {
        path: path.to_path_buf(),
        source,
    }
}

/// `.NAME.ossuary-PID-N.SUFFIX` beside `path`: unique within this process
/// too, as a batch writes files in parallel.
fn temporary_beside(path: &Path, suffix: &str) -> Result<PathBuf, CliError> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let file_name = path
        .file_name()
        .ok_or_else(|| CliError::Usage(format!("{}: not a file name", path.display())))?;
    let mut temporary_name = OsString::from(".");
    temporary_name.push(file_name);
    temporary_name.push(format!(
        ".ossuary-{}-{}.{suffix}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    Ok(path.with_file_name(temporary_name))
}
