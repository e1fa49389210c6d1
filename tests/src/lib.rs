//! Shared helpers for the cross-format tests in `tests/` and the CLI's tests.

use std::path::{Path, PathBuf};

pub mod round_trip;

/// The workspace's root folder.
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent()
        .map_or_else(|| here.to_path_buf(), Path::to_path_buf)
}

/// The project's synthetic sample files (`cargo xtask regen` writes them).
pub fn fixtures_dir() -> PathBuf {
    workspace_root().join("tests/fixtures")
}

/// The real files in `../shared/corpus`, when `OSSUARY_CORPUS` names them.
/// `None` when the variable is unset (corpus tests then skip); a variable
/// naming a missing folder fails the test, so CI cannot silently skip. A
/// relative path is taken from the workspace root, where the README's test
/// command is typed: cargo runs each crate's tests from that crate's folder.
pub fn corpus_dir() -> Option<PathBuf> {
    let named = PathBuf::from(std::env::var_os("OSSUARY_CORPUS")?);
    let dir = if named.is_relative() {
        workspace_root().join(named)
    } else {
        named
    };
    assert!(
        dir.is_dir(),
        "OSSUARY_CORPUS names {}, but that folder does not exist",
        dir.display()
    );
    Some(dir)
}

/// The corpus files with this extension under `family` (e.g. `sims1`), in
/// every folder below it, sorted; `None` when `OSSUARY_CORPUS` is unset.
/// A family folder without such files fails the test.
pub fn corpus_files(family: &str, extension: &str) -> Option<Vec<PathBuf>> {
    let folder = corpus_dir()?.join(family);
    let files = files_with_extension(&folder, extension);
    assert!(
        !files.is_empty(),
        "no .{extension} files in {}",
        folder.display()
    );
    Some(files)
}

/// Every file below `dir` (in subfolders too) with the given extension
/// (ignoring case), sorted.
pub fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries =
            std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path
                .extension()
                .and_then(|ext| ext.to_str())
                .is_some_and(|ext| ext.eq_ignore_ascii_case(extension))
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// `bytes` with the four at `at` overwritten by `value`: a corrupted file.
pub fn patched(mut bytes: Vec<u8>, at: usize, value: [u8; 4]) -> Vec<u8> {
    bytes.splice(at..at + 4, value);
    bytes
}
