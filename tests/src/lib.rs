//! Shared helpers for the cross-format tests in `tests/`.

use std::path::PathBuf;

/// The project's synthetic sample files (`cargo xtask regen` writes them).
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The real files in `../shared/corpus`, when `OSSUARY_CORPUS` names them.
/// `None` when the variable is unset (corpus tests then skip); a variable
/// naming a missing folder fails the test, so CI cannot silently skip.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("OSSUARY_CORPUS")?);
    assert!(
        dir.is_dir(),
        "OSSUARY_CORPUS is set to {} but that folder does not exist",
        dir.display()
    );
    Some(dir)
}

/// Every file in `dir` with the given extension, sorted.
pub fn files_with_extension(dir: &std::path::Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| {
            path.extension()
                .and_then(|ext| ext.to_str())
                .is_some_and(|ext| ext.eq_ignore_ascii_case(extension))
        })
        .collect();
    files.sort();
    files
}
