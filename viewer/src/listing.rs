//! What is under the paths, grouped as the page shows it: characters (a
//! skeleton and the meshes that go on it), animations, loose meshes.
//!
//! Listing is lazy: a file's format comes from its extension (its first
//! bytes where the extension is shared or missing), and what it holds from
//! its format. Only a format whose files differ in kind (a Sims `.cmx` can
//! be a skeleton, a suit, a skill or several) has its small files decoded.

use std::collections::HashMap;
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use formats::capabilities::Capabilities;
use formats::catalogue::Catalogue;
use formats::format::Format;
use serde::Serialize;

use crate::roots::Roots;

/// Bytes read to tell formats apart that share an extension.
const SNIFF_BYTES: u64 = 4096;
/// The largest file decoded while listing, to learn what it holds.
const DECODE_LIMIT: u64 = 4 << 20;

#[derive(Debug, Default, Serialize)]
pub struct Listing {
    pub characters: Vec<Character>,
    pub animations: Vec<AnimationFile>,
    pub meshes: Vec<LooseMesh>,
    pub problems: Vec<Problem>,
}

/// A skeleton that can be drawn, with what goes on it.
#[derive(Debug, Serialize)]
pub struct Character {
    /// The file that names the character.
    pub open: String,
    /// The game family: `sims`, `tso`, `swg`, `bonespro`, `outcast`.
    pub family: String,
    pub format: &'static str,
    /// Meshes beside it that dress it (Sims suits); empty when the file
    /// brings its own.
    pub meshes: Vec<String>,
    /// Animation files of its family in its folder (itself first, when it
    /// holds animations too).
    pub animations: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct AnimationFile {
    pub file: String,
    pub format: &'static str,
}

/// Meshes no character takes, with a skeleton of their family beside them
/// to pose them on, when there is one.
#[derive(Debug, Serialize)]
pub struct LooseMesh {
    pub file: String,
    pub format: &'static str,
    pub skeleton: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Problem {
    pub file: String,
    pub message: String,
}

/// A file found, with its format and what it holds.
struct Found {
    rel: String,
    dir: PathBuf,
    format: &'static Format,
    holds: Capabilities,
}

impl Found {
    fn family(&self) -> &'static str {
        family_of(self.format)
    }

    /// A skeleton with no meshes of its own: dressed by the meshes beside it.
    fn bare_skeleton(&self) -> bool {
        self.holds.skeleton && !self.holds.meshes && !self.holds.animations
    }
}

/// The family a format belongs to: its name up to the first `-`.
pub fn family_of(format: &Format) -> &'static str {
    format.name.split('-').next().unwrap_or(format.name)
}

/// Everything under the roots, grouped.
pub fn list(roots: &Roots, catalogue: &Catalogue) -> Listing {
    let mut files = Vec::new();
    for root in roots.iter() {
        walk(&root.path, &root.path, &mut files);
    }
    listing_of(roots, catalogue, files)
}

/// The files given (absolute, links resolved), grouped; those outside
/// the roots are left out.
fn listing_of(roots: &Roots, catalogue: &Catalogue, files: Vec<PathBuf>) -> Listing {
    let mut listing = Listing::default();
    let mut kinds: HashMap<&'static str, Capabilities> = HashMap::new();
    let mut found = Vec::new();
    for path in files {
        let Some(rel) = roots.relative(&path) else {
            continue;
        };
        match classify(&path, catalogue, &mut kinds) {
            Ok(Some((format, holds))) => found.push(Found {
                rel,
                dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
                format,
                holds,
            }),
            Ok(None) => {}
            Err(message) => listing.problems.push(Problem { file: rel, message }),
        }
    }
    group(&found, &mut listing);
    listing
}

/// Every file under `dir`, in name order, skipping links that lead out of
/// `root`.
fn walk(root: &Path, dir: &Path, files: &mut Vec<PathBuf>) {
    if dir.is_file() {
        files.push(dir.to_path_buf());
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|entry| entry.path()).collect();
    paths.sort();
    for path in paths {
        let Ok(canonical) = path.canonicalize() else {
            continue;
        };
        if !canonical.starts_with(root) {
            continue;
        }
        if canonical.is_dir() {
            // A link to a folder already walked would walk it again.
            if path.is_symlink() {
                continue;
            }
            walk(root, &canonical, files);
        } else {
            files.push(canonical);
        }
    }
}

/// A file's format and what it holds; `None` when no format claims it.
fn classify(
    path: &Path,
    catalogue: &Catalogue,
    kinds: &mut HashMap<&'static str, Capabilities>,
) -> Result<Option<(&'static Format, Capabilities)>, String> {
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let by_extension: Vec<&'static Format> = catalogue.by_extension(&name).collect();
    let format = match by_extension.as_slice() {
        [] => return Ok(None),
        [only] => *only,
        _ => match catalogue.detect(&name, &read_at_most(path, SNIFF_BYTES)?) {
            Some(format) => format,
            None => return Ok(None),
        },
    };
    let of_format = *kinds
        .entry(format.name)
        .or_insert_with(|| Capabilities::of(format));
    let kinds_held = [of_format.skeleton, of_format.meshes, of_format.animations]
        .into_iter()
        .filter(|&held| held)
        .count();
    if kinds_held <= 1 {
        return Ok(Some((format, of_format)));
    }
    let size = fs::metadata(path).map_err(|error| error.to_string())?.len();
    if size > DECODE_LIMIT {
        return Ok(Some((format, of_format)));
    }
    let bytes = read_at_most(path, DECODE_LIMIT)?;
    let document = (format.decode)(&bytes).map_err(|error| error.to_string())?;
    Ok(Some((format, Capabilities::of_document(document.as_ref()))))
}

fn read_at_most(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let file = fs::File::open(path).map_err(|error| error.to_string())?;
    let mut bytes = Vec::new();
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(|error| error.to_string())?;
    Ok(bytes)
}

/// Characters, their meshes and animations, and what is left; files only
/// ever go together within one folder.
fn group(found: &[Found], listing: &mut Listing) {
    let mut folders: Vec<&Path> = Vec::new();
    let mut in_folder: HashMap<&Path, Vec<&Found>> = HashMap::new();
    for file in found {
        let files = in_folder.entry(&file.dir).or_default();
        if files.is_empty() {
            folders.push(&file.dir);
        }
        files.push(file);
    }
    for folder in folders {
        if let Some(files) = in_folder.get(folder) {
            group_folder(files, listing);
        }
    }
}

fn group_folder(found: &[&Found], listing: &mut Listing) {
    let mut taken = vec![false; found.len()];
    for (index, file) in found.iter().enumerate() {
        // A file with a skeleton and animations but no meshes is an
        // animation that brings its skeleton (a Sims skill file).
        let character = file.holds.skeleton && (file.holds.meshes || !file.holds.animations);
        if !character {
            continue;
        }
        taken[index] = true;
        let mut meshes = Vec::new();
        if file.bare_skeleton() {
            for (other_index, other) in found.iter().enumerate() {
                // Sims suits dress the skeleton beside them; a mesh file of
                // its own (`.skn`, `.mgn`) stays loose.
                let dresses =
                    other.holds.meshes && !other.holds.skeleton && other.format.is(file.format);
                if dresses {
                    meshes.push(other.rel.clone());
                    taken[other_index] = true;
                }
            }
        }
        // A file holding skills as well as a character offers them first.
        let own = file.holds.animations.then(|| file.rel.clone());
        let beside = found
            .iter()
            .filter(|other| {
                other.holds.animations
                    && !other.holds.meshes
                    && other.family() == file.family()
                    && other.rel != file.rel
            })
            .map(|other| other.rel.clone());
        listing.characters.push(Character {
            open: file.rel.clone(),
            family: file.family().to_owned(),
            format: file.format.name,
            meshes,
            animations: own.into_iter().chain(beside).collect(),
        });
    }
    for (index, file) in found.iter().enumerate() {
        if taken[index] {
            continue;
        }
        if file.holds.animations && !file.holds.meshes {
            listing.animations.push(AnimationFile {
                file: file.rel.clone(),
                format: file.format.name,
            });
        } else if file.holds.meshes {
            let skeleton = found
                .iter()
                .find(|other| other.bare_skeleton() && other.family() == file.family())
                .map(|other| other.rel.clone());
            listing.meshes.push(LooseMesh {
                file: file.rel.clone(),
                format: file.format.name,
                skeleton,
            });
        }
    }
}

/// The meshes that dress the character `open` names, as the listing of
/// its folder gives them (only that folder is looked at: files only ever
/// go together within one).
pub fn meshes_of(roots: &Roots, catalogue: &Catalogue, open: &str) -> Vec<String> {
    let Some(folder) = roots
        .resolve(open)
        .and_then(|path| path.parent().map(Path::to_path_buf))
    else {
        return Vec::new();
    };
    let Ok(entries) = fs::read_dir(&folder) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .filter_map(|entry| entry.path().canonicalize().ok())
        .filter(|path| path.is_file() && path.parent() == Some(folder.as_path()))
        .collect();
    files.sort();
    listing_of(roots, catalogue, files)
        .characters
        .into_iter()
        .find(|character| character.open == open)
        .map(|character| character.meshes)
        .unwrap_or_default()
}
