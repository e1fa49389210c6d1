//! Shared helpers for the cross-format tests in `tests/` and the CLI's tests.

use std::path::{Path, PathBuf};

pub mod freeso_sprites;
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

/// An IFF chunk: its tag, its payload's size (big-endian u32), the payload.
pub fn iff_chunk(tag: &[u8; 4], payload: &[u8]) -> Vec<u8> {
    let size = u32::try_from(payload.len()).expect("a chunk under 4 GiB");
    [&tag[..], &size.to_be_bytes(), payload].concat()
}

/// An IFF `FORM` of type `form_type` around `children`.
pub fn iff_form(form_type: &[u8; 4], children: &[u8]) -> Vec<u8> {
    iff_chunk(b"FORM", &[&form_type[..], children].concat())
}

/// `depth` forms, each the only child of the one around it, their types
/// taken in turn from `types`: input that nests as deep as it likes.
pub fn nested_forms(depth: usize, types: &[&[u8; 4]]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for level in (0..depth).rev() {
        bytes = iff_form(types[level % types.len()], &bytes);
    }
    bytes
}

/// How deep [`deeply_nested_variants`] nests its forms.
pub const NESTING_DEPTH: usize = 10_000;

/// Files of an IFF format nested [`NESTING_DEPTH`] forms deep, made from
/// one of its files (`sample`, a `FORM` whose first child is a `FORM`):
/// chains of the sample's own two outer form types, of its outer type alone
/// and of an unknown type, and the sample with an unknown chain as an extra
/// child of its second form, where layouts keep unknown children.
pub fn deeply_nested_variants(sample: &[u8]) -> Vec<Vec<u8>> {
    let field = |at: usize| -> [u8; 4] {
        sample
            .get(at..at + 4)
            .and_then(|bytes| bytes.try_into().ok())
            .expect("a form header")
    };
    let (outer, inner) = (field(8), field(20));
    let inner_end = 20 + u32::from_be_bytes(field(16)) as usize;
    let unknown_chain = nested_forms(NESTING_DEPTH, &[b"XXXX"]);
    let inner_children = [&sample[24..inner_end], &unknown_chain[..]].concat();
    vec![
        nested_forms(NESTING_DEPTH, &[&outer, &inner]),
        nested_forms(NESTING_DEPTH, &[&outer]),
        unknown_chain,
        iff_form(
            &outer,
            &[&iff_form(&inner, &inner_children), &sample[inner_end..]].concat(),
        ),
    ]
}
