//! `ossuary check`: decode, re-encode, compare.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use formats::catalogue::Catalogue;
use formats::format::{Encoding, Format};

use crate::error::{CliError, Problem};
use crate::{input, Context};

/// A progress line appears on a terminal once this many files are checked.
const PROGRESS_FROM: usize = 20;

enum Verdict {
    Identical,
    /// Where the re-encoded file first differs.
    Differs(String),
    /// The file could not be decoded or re-encoded.
    Failed(String),
}

pub fn run(
    context: &mut Context,
    paths: &[PathBuf],
    forced: Option<&str>,
) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    let forced_format = forced
        .map(|name| input::format_named(&catalogue, name))
        .transpose()?;
    let files = collect_files(&catalogue, paths, forced_format)?;
    let show_progress = files.len() >= PROGRESS_FROM && std::io::stderr().is_terminal();
    let mut all_identical = true;
    for (done, file) in files.iter().enumerate() {
        if show_progress {
            eprint!("\r\x1b[2K[{}/{}] {}", done + 1, files.len(), file.display());
        }
        let verdict = check_file(&catalogue, file, forced)?;
        if show_progress {
            eprint!("\r\x1b[2K");
        }
        let line = match &verdict {
            Verdict::Identical => format!("{}: ok\n", file.display()),
            Verdict::Differs(difference) => format!("{}: {difference}\n", file.display()),
            Verdict::Failed(message) => format!("{message}\n"),
        };
        context.print(&line)?;
        all_identical &= matches!(verdict, Verdict::Identical);
    }
    Ok(all_identical)
}

/// A file's verdict; only a usage problem (unknown format) is an error.
fn check_file(
    catalogue: &Catalogue,
    path: &Path,
    forced: Option<&str>,
) -> Result<Verdict, CliError> {
    let bytes = match input::read(path) {
        Ok(bytes) => bytes,
        Err(error) => return Ok(Verdict::Failed(error.to_string())),
    };
    let format = input::format_of(catalogue, path, &bytes, forced)?;
    let document = match input::decode(path, format, &bytes) {
        Ok(document) => document,
        Err(error) => return Ok(Verdict::Failed(error.to_string())),
    };
    let encoded = match document.encode() {
        Ok(encoded) => encoded,
        Err(error) => {
            return Ok(Verdict::Failed(format!(
                "{}: cannot re-encode: {error}",
                path.display()
            )))
        }
    };
    Ok(match first_difference(&bytes, &encoded) {
        None => Verdict::Identical,
        Some(offset) => Verdict::Differs(describe_difference(format, &bytes, &encoded, offset)),
    })
}

fn first_difference(original: &[u8], encoded: &[u8]) -> Option<usize> {
    original
        .iter()
        .zip(encoded)
        .position(|(a, b)| a != b)
        .or_else(|| (original.len() != encoded.len()).then(|| original.len().min(encoded.len())))
}

fn describe_difference(format: &Format, original: &[u8], encoded: &[u8], offset: usize) -> String {
    let show = |bytes: &[u8]| {
        bytes
            .get(offset)
            .map_or("end of file".to_owned(), |b| format!("0x{b:02x}"))
    };
    match format.encoding {
        Encoding::Binary => format!(
            "differs at byte {offset}: original {}, re-encoded {}",
            show(original),
            show(encoded)
        ),
        Encoding::Text => {
            let before = original.get(..offset).unwrap_or(original);
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let column = offset
                - before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |newline| newline + 1)
                + 1;
            format!("differs at line {line}:{column}")
        }
    }
}

/// The named files, and inside named directories every file (recursively,
/// sorted) whose extension some format claims, or `--format`'s extensions.
fn collect_files(
    catalogue: &Catalogue,
    paths: &[PathBuf],
    forced: Option<&Format>,
) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found)?;
            found.retain(|file| wanted(catalogue, file, forced));
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

fn wanted(catalogue: &Catalogue, file: &Path, forced: Option<&Format>) -> bool {
    let name = file.to_string_lossy();
    let mut claiming = catalogue.by_extension(&name);
    match forced {
        Some(format) => claiming.any(|claimant| claimant.is(format)),
        None => claiming.next().is_some(),
    }
}

fn walk(directory: &Path, found: &mut Vec<PathBuf>) -> Result<(), CliError> {
    let cannot_list = |error| CliError::input(directory, Problem::Read(error));
    let entries = std::fs::read_dir(directory).map_err(cannot_list)?;
    for entry in entries {
        let entry = entry.map_err(cannot_list)?;
        let path = entry.path();
        if path.is_dir() {
            walk(&path, found)?;
        } else {
            found.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_found_at_the_first_byte_or_at_a_length_change() {
        assert_eq!(first_difference(b"abc", b"abc"), None);
        assert_eq!(first_difference(b"abc", b"abd"), Some(2));
        assert_eq!(first_difference(b"abc", b"ab"), Some(2));
    }

    #[test]
    fn text_differences_are_given_as_line_and_column() {
        let format = Format {
            encoding: Encoding::Text,
            ..*formats::catalogue::FORMATS[0]
        };
        let text = describe_difference(&format, b"one\r\ntwo\r\n", b"one\r\ntwx\r\n", 7);
        assert_eq!(text, "differs at line 2:3");
    }
}
