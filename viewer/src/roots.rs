//! The folders (and files) `ossuary view` was given, and the one way a
//! request's relative path becomes a file under them.

use std::path::{Path, PathBuf};

/// One path given on the command line.
#[derive(Debug, Clone)]
pub struct Root {
    /// What the page calls it: its last component.
    pub name: String,
    /// The path, made absolute with links resolved.
    pub path: PathBuf,
    pub is_dir: bool,
}

/// The paths given; every file served lies under one of them.
#[derive(Debug, Clone)]
pub struct Roots {
    roots: Vec<Root>,
}

#[derive(Debug, thiserror::Error)]
pub enum RootError {
    #[error("{path}: {source}")]
    Missing {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0} and another path given are both called {1:?}: give their folder instead")]
    SameName(PathBuf, String),
}

impl Roots {
    pub fn new(paths: &[PathBuf]) -> Result<Roots, RootError> {
        let mut roots: Vec<Root> = Vec::with_capacity(paths.len());
        for path in paths {
            let canonical = path.canonicalize().map_err(|source| RootError::Missing {
                path: path.clone(),
                source,
            })?;
            let name = canonical.file_name().map_or_else(
                || "/".to_owned(),
                |name| name.to_string_lossy().into_owned(),
            );
            if roots.iter().any(|root| root.name == name) {
                return Err(RootError::SameName(path.clone(), name));
            }
            roots.push(Root {
                name,
                is_dir: canonical.is_dir(),
                path: canonical,
            });
        }
        Ok(Roots { roots })
    }

    pub fn iter(&self) -> impl Iterator<Item = &Root> {
        self.roots.iter()
    }

    /// Whether a relative path starts with the root's name: with one folder
    /// given, paths are relative to it; otherwise they start with the name
    /// of the path given.
    pub fn named(&self) -> bool {
        !matches!(self.roots.as_slice(), [only] if only.is_dir)
    }

    /// The relative path the page uses for `file` (absolute, under a root).
    pub fn relative(&self, file: &Path) -> Option<String> {
        self.roots.iter().find_map(|root| {
            let inside = file.strip_prefix(&root.path).ok()?;
            let parts: Vec<String> = inside
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect();
            let mut rel = if self.named() {
                vec![root.name.clone()]
            } else {
                Vec::new()
            };
            rel.extend(parts);
            Some(rel.join("/"))
        })
    }

    /// The file a request's relative path names, or `None` for anything
    /// that is not plainly a path under a root: empty parts, `.` or `..`,
    /// an absolute path, a backslash or NUL, a file that does not exist, or
    /// a link leading outside every root.
    pub fn resolve(&self, rel: &str) -> Option<PathBuf> {
        if rel.is_empty() || rel.contains(['\\', '\0']) {
            return None;
        }
        let parts: Vec<&str> = rel.split('/').collect();
        // Split at `/`, a part is one plain name: an empty part (an absolute
        // path, `//`, a trailing `/`), `.` and `..` are not.
        if parts.iter().any(|part| matches!(*part, "" | "." | "..")) {
            return None;
        }
        let (root, inside) = if self.named() {
            let (first, rest) = parts.split_first()?;
            (self.roots.iter().find(|root| root.name == *first)?, rest)
        } else {
            (self.roots.first()?, parts.as_slice())
        };
        let mut path = root.path.clone();
        if !root.is_dir && !inside.is_empty() {
            return None;
        }
        path.extend(inside);
        let canonical = path.canonicalize().ok()?;
        (canonical.starts_with(&root.path) && canonical.is_file()).then_some(canonical)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> (tempfile::TempDir, Roots) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/a.cmx"), "x").unwrap();
        let roots = Roots::new(&[dir.path().join("sub")]).unwrap();
        (dir, roots)
    }

    #[test]
    fn a_plain_path_under_the_folder_resolves() {
        let (_dir, roots) = folder();
        let file = roots.resolve("a.cmx").unwrap();
        assert!(file.ends_with("sub/a.cmx"));
        assert_eq!(roots.relative(&file).as_deref(), Some("a.cmx"));
    }

    #[test]
    fn escapes_are_refused() {
        let (dir, roots) = folder();
        std::fs::write(dir.path().join("secret"), "x").unwrap();
        for rel in [
            "../secret",
            "./a.cmx",
            "/etc/passwd",
            "sub/../a.cmx",
            "a.cmx/",
            "..\\secret",
            "a.cmx\0",
            "",
            "missing.cmx",
        ] {
            assert_eq!(roots.resolve(rel), None, "{rel:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_leading_outside_is_refused() {
        let (dir, roots) = folder();
        std::fs::write(dir.path().join("secret"), "x").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret"), dir.path().join("sub/link")).unwrap();
        assert_eq!(roots.resolve("link"), None);
    }

    #[test]
    fn with_several_paths_the_first_part_names_one() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["one", "two"] {
            std::fs::create_dir(dir.path().join(name)).unwrap();
            std::fs::write(dir.path().join(name).join("f.skn"), "x").unwrap();
        }
        let roots = Roots::new(&[dir.path().join("one"), dir.path().join("two")]).unwrap();
        let file = roots.resolve("two/f.skn").unwrap();
        assert!(file.ends_with("two/f.skn"));
        assert_eq!(roots.relative(&file).as_deref(), Some("two/f.skn"));
        assert_eq!(roots.resolve("f.skn"), None);
    }
}
