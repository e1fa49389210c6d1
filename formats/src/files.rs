//! Finding the files a document refers to: a suit's skins, a skill's
//! animation data, an appearance's meshes and skeletons.
//!
//! The games ran on case-insensitive file systems and their data relies on
//! it (a suit names `xskin-c001fa_mercedes-HEAD-HEAD` for the file
//! `xskin-C001FA_Mercedes-HEAD-HEAD.skn`), so names are matched without
//! regard to ASCII case, one path component at a time.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// How many bytes an input may hold, unless told otherwise: far past any
/// real file of these games, and a bound on the memory an endless input
/// (`/dev/zero`, a pipe that never closes) can take.
pub const DEFAULT_INPUT_LIMIT: u64 = 1 << 30;

/// An input larger than its limit.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    #[error("the input holds more than {limit} bytes (the limit; raise it with --max-input)")]
    TooLarge { limit: u64 },
}

/// Reads `reader` to its end, refusing past `limit` bytes. The vector
/// grows by one block at a time, never by doubling (which would reserve
/// twice the limit), and a large allocation grows in place (the allocator
/// remaps its pages rather than copying them), so an endless input holds at
/// most the limit and one block before it is refused.
pub fn read_at_most(reader: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    const BLOCK: u64 = 16 << 20;
    let mut reader = reader.take(limit.saturating_add(1));
    let mut bytes = Vec::new();
    loop {
        bytes.reserve_exact(BLOCK as usize);
        let read = (&mut reader).take(BLOCK).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > limit {
            return Err(ReadError::TooLarge { limit });
        }
        if read == 0 {
            return Ok(bytes);
        }
    }
}

/// The bytes of the file at `path`, at most `limit` of them. A regular
/// file's size is known before reading, and its bytes go into one vector
/// of that size; anything else (a device, a pipe) as [`read_at_most`].
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let file = std::fs::File::open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return read_at_most(file, limit);
    }
    if metadata.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    // A file that grows while it is read stops one byte past the limit.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// Where a document's references are looked up: beside the file that holds
/// them, and under a root folder.
#[derive(Debug, Clone)]
pub struct Files {
    /// The folder of the referring file; `None` for input without a file
    /// (standard input, values built in code), where nothing can be found.
    folder: Option<PathBuf>,
    /// Where references with folders in them (`appearance/mesh/x.lmg`) are
    /// looked up first.
    root: Option<PathBuf>,
    /// The most bytes a referenced file may hold.
    limit: u64,
    /// When set, the only folders (absolute, links resolved) a referenced
    /// file may lie in: a candidate elsewhere is not looked at, and one
    /// whose links lead elsewhere is not read.
    within: Option<Arc<[PathBuf]>>,
    /// The folders listed so far, shared by every `Files` made from this
    /// one, so a folder is listed once however many names are looked up in
    /// it (a suit naming 3,000 missing skins beside 20,000 files).
    listings: Listings,
}

impl Default for Files {
    fn default() -> Self {
        Files {
            folder: None,
            root: None,
            limit: DEFAULT_INPUT_LIMIT,
            within: None,
            listings: Listings::default(),
        }
    }
}

/// Folders' listings, shared.
#[derive(Debug, Clone, Default)]
struct Listings(Arc<Mutex<HashMap<PathBuf, Listing>>>);

/// A folder's entries by their names in ASCII lower case (the first entry
/// listed wins where two differ only in case).
type Listing = HashMap<String, OsString>;

impl Listings {
    /// The entry of `folder` named `name` without regard to ASCII case. A
    /// folder that cannot be listed has no entries.
    fn find(&self, folder: &Path, name: &str) -> Option<OsString> {
        // A panic elsewhere cannot leave the map half-written: each insert
        // is one call.
        let mut listings = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let listing = listings.entry(folder.to_path_buf()).or_insert_with(|| {
            let mut names = HashMap::new();
            for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
                let file_name = entry.file_name();
                names
                    .entry(file_name.to_string_lossy().to_ascii_lowercase())
                    .or_insert(file_name);
            }
            names
        });
        listing.get(&name.to_ascii_lowercase()).cloned()
    }

    /// The entry of `folder` whose name in ASCII lower case `matches`, the
    /// first in byte order where several do (so the choice does not depend
    /// on the order the folder lists them in).
    fn find_matching(&self, folder: &Path, matches: &dyn Fn(&str) -> bool) -> Option<OsString> {
        // Listing goes through `find`, which lists the folder once.
        self.find(folder, "");
        let listings = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        listings
            .get(folder)?
            .iter()
            .filter(|(lower, _)| matches(lower))
            .min_by(|(a, _), (b, _)| a.cmp(b))
            .map(|(_, name)| name.clone())
    }
}

/// A referenced file that cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    #[error("cannot find {what}; looked for {}", list_paths(.tried))]
    Missing { what: String, tried: Vec<PathBuf> },
    #[error("{}: {source}", .path.display())]
    Unreadable { path: PathBuf, source: ReadError },
}

fn list_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|path| path.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A referenced file, read.
#[derive(Debug, Clone)]
pub struct FoundFile {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

impl Files {
    /// The most bytes a referenced file may hold: files chosen beside
    /// the references (an image chosen for a mesh) are held to it too.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// References of a document read from `path`.
    pub fn beside(path: &Path) -> Files {
        Files {
            folder: Some(path.parent().map_or_else(PathBuf::new, Path::to_path_buf)),
            ..Files::default()
        }
    }

    /// References of a document that has no file: none can be found.
    pub fn nowhere() -> Files {
        Files::default()
    }

    /// Looks references with folders up under `root` first.
    pub fn with_root(self, root: Option<PathBuf>) -> Files {
        Files { root, ..self }
    }

    /// Refuses referenced files of more than `limit` bytes
    /// ([`DEFAULT_INPUT_LIMIT`] unless told).
    pub fn with_limit(self, limit: u64) -> Files {
        Files { limit, ..self }
    }

    /// Reads referenced files only inside `folders` (absolute, links
    /// resolved), as a server showing some folders must.
    pub fn within(self, folders: Arc<[PathBuf]>) -> Files {
        Files {
            within: Some(folders),
            ..self
        }
    }

    /// References of a file found through these: beside it, same root,
    /// limit and folders.
    pub fn beside_found(&self, found: &FoundFile) -> Files {
        Files {
            root: self.root.clone(),
            limit: self.limit,
            within: self.within.clone(),
            listings: self.listings.clone(),
            ..Files::beside(&found.path)
        }
    }

    /// Reads the first of `names` that exists. A name with folders
    /// (`appearance/mesh/x.lmg`, always with `/`) is looked up under the
    /// root, then under the referring file's folder and each folder above
    /// it; then every name's last component beside the referring file.
    /// `what` names the reference in the error, which lists every path tried.
    pub fn find(&self, what: &str, names: &[String]) -> Result<FoundFile, FindError> {
        self.read_first(what, self.candidates(names))
    }

    /// Reads the file whose name `matches` (given in ASCII lower case) in
    /// the referring file's folder, or else in a folder named one of
    /// `siblings` (without regard to case) beside that folder: how The Sims
    /// Online's files find each other, by the ids that end their names
    /// (`../Meshes/FSO-Accessory-CapeBlack.883209d300000009.mesh`). Returns
    /// it with its name relative to the referring file's folder's parent
    /// when it lies in a sibling (`Meshes/...`), else its bare name.
    /// `pattern` stands for the names in the error, which lists every
    /// folder looked in (`Meshes/*.883209d300000009.mesh`).
    pub fn find_matching(
        &self,
        what: &str,
        siblings: &[&str],
        pattern: &str,
        matches: &dyn Fn(&str) -> bool,
    ) -> Result<(FoundFile, String), FindError> {
        let Some(folder) = &self.folder else {
            return Err(FindError::Missing {
                what: what.to_owned(),
                tried: Vec::new(),
            });
        };
        let named = if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder
        };
        let folder = std::path::absolute(named).unwrap_or_else(|_| named.to_path_buf());
        // (folder, the name's prefix relative to the referring folder's parent)
        let mut folders: Vec<(PathBuf, Option<OsString>)> = vec![(folder.clone(), None)];
        if let Some(parent) = folder.parent() {
            for sibling in siblings {
                if let Some(name) = self.listings.find(parent, sibling) {
                    let path = parent.join(&name);
                    if path.is_dir() && folders.iter().all(|(known, _)| *known != path) {
                        folders.push((path, Some(name)));
                    }
                }
            }
        }
        let mut tried = Vec::new();
        for (folder, sibling) in folders {
            let Some(name) = self.listings.find_matching(&folder, matches) else {
                tried.push(folder.join(pattern));
                continue;
            };
            let found = self.read_first(what, vec![folder.join(&name)])?;
            let name = name.to_string_lossy();
            let relative = match sibling {
                Some(sibling) => format!("{}/{name}", sibling.to_string_lossy()),
                None => name.into_owned(),
            };
            return Ok((found, relative));
        }
        Err(FindError::Missing {
            what: what.to_owned(),
            tried,
        })
    }

    /// Reads the first of `names` that exists in the referring file's
    /// folder, a name with folders (`Textures/a.png`) below it; nothing
    /// above it or under the root is looked at. `what` names the reference
    /// in the error, which lists every path tried.
    pub fn find_beside(&self, what: &str, names: &[String]) -> Result<FoundFile, FindError> {
        let candidates: Vec<PathBuf> = match &self.folder {
            Some(folder) => names
                .iter()
                .map(|name| folder.join(relative_path(name)))
                .collect(),
            None => Vec::new(),
        };
        self.read_first(what, candidates)
    }

    fn candidates(&self, names: &[String]) -> Vec<PathBuf> {
        let mut candidates = Vec::new();
        for name in names {
            let relative = relative_path(name);
            if relative.components().count() > 1 {
                candidates.extend(self.root.iter().map(|root| root.join(&relative)));
                if let Some(folder) = &self.folder {
                    // A document named relative to the working directory
                    // has folders above it that its path does not spell
                    // out (`twk_f.sat`'s folder is the empty path).
                    let named = if folder.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        folder
                    };
                    let folder = std::path::absolute(named).unwrap_or_else(|_| folder.clone());
                    candidates.extend(folder.ancestors().map(|above| above.join(&relative)));
                }
            }
        }
        if let Some(folder) = &self.folder {
            for name in names {
                if let Some(file_name) = relative_path(name).file_name() {
                    candidates.push(folder.join(file_name));
                }
            }
        }
        candidates
    }

    /// Reads the first candidate that exists, matched without regard to
    /// case, among those the folders allow.
    fn read_first(&self, what: &str, candidates: Vec<PathBuf>) -> Result<FoundFile, FindError> {
        let mut tried = Vec::new();
        for candidate in candidates {
            if !self.allows(&candidate) {
                continue;
            }
            let found = find_ignoring_case(&candidate, &self.listings)
                .filter(|path| path.canonicalize().is_ok_and(|path| self.allows(&path)));
            if let Some(path) = found {
                let bytes =
                    read_file(&path, self.limit).map_err(|source| FindError::Unreadable {
                        path: path.clone(),
                        source,
                    })?;
                return Ok(FoundFile { path, bytes });
            }
            if !tried.contains(&candidate) {
                tried.push(candidate);
            }
        }
        Err(FindError::Missing {
            what: what.to_owned(),
            tried,
        })
    }

    /// Whether `path` lies in one of the folders files may be read from
    /// (every path does when none are set). `path` is compared as written:
    /// a candidate is absolute once its folder is.
    fn allows(&self, path: &Path) -> bool {
        self.within.as_ref().is_none_or(|folders| {
            let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
            folders.iter().any(|folder| absolute.starts_with(folder))
        })
    }
}

/// A reference as a relative path: `/` and `\` both separate folders, and
/// nothing may climb out with `..` or start from the root.
fn relative_path(name: &str) -> PathBuf {
    name.split(['/', '\\'])
        .filter(|part| !part.is_empty() && *part != "." && *part != "..")
        .collect()
}

/// The existing path whose components equal `path`'s without regard to
/// ASCII case (an exact match wins); folders are listed through `listings`.
fn find_ignoring_case(path: &Path, listings: &Listings) -> Option<PathBuf> {
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    let mut found = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(name) => {
                let exact = found.join(name);
                if exact.exists() {
                    found = exact;
                    continue;
                }
                let folder = if found.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    found.as_path()
                };
                found.push(listings.find(folder, &name.to_string_lossy())?);
            }
            other => found.push(other.as_os_str()),
        }
    }
    found.is_file().then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_may_hold_the_limit_and_not_a_byte_more() {
        assert_eq!(read_at_most(&[7u8; 10][..], 10).unwrap(), [7; 10]);
        assert!(matches!(
            read_at_most(&[7u8; 11][..], 10),
            Err(ReadError::TooLarge { limit: 10 })
        ));
        // An endless reader stops one byte past the limit.
        assert!(matches!(
            read_at_most(std::io::repeat(0), 1 << 20),
            Err(ReadError::TooLarge { limit }) if limit == 1 << 20
        ));
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ossuary-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn names_are_found_beside_the_referrer_without_regard_to_case() {
        let dir = scratch("case");
        std::fs::write(dir.join("xskin-C001FA_Mercedes-HEAD-HEAD.skn"), b"skin").unwrap();
        let files = Files::beside(&dir.join("suit.cmx"));
        let found = files
            .find(
                "the skin",
                &["xskin-c001fa_mercedes-HEAD-HEAD.skn".to_owned()],
            )
            .unwrap();
        assert_eq!(found.bytes, b"skin");
        assert!(found.path.ends_with("xskin-C001FA_Mercedes-HEAD-HEAD.skn"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_is_listed_once_however_many_names_are_looked_up() {
        let dir = scratch("listed-once");
        for index in 0..50 {
            std::fs::write(dir.join(format!("File{index}.skn")), b"skin").unwrap();
        }
        let files = Files::beside(&dir.join("suit.cmx"));
        for index in 0..200 {
            let missing = files.find("a skin", &[format!("missing{index}.skn")]);
            assert!(matches!(missing, Err(FindError::Missing { .. })));
        }
        let found = files.find("a skin", &["file7.SKN".to_owned()]).unwrap();
        assert!(found.path.ends_with("File7.skn"));
        // Found through a file found by these: the same listings.
        let beside = files.beside_found(&found);
        assert!(beside.find("a skin", &["FILE8.skn".to_owned()]).is_ok());
        let listed = files.listings.0.lock().unwrap();
        assert_eq!(listed.keys().collect::<Vec<_>>(), [&dir]);
        drop(listed);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn references_with_folders_are_found_above_the_referrer_and_under_the_root() {
        let dir = scratch("folders");
        let mesh = dir.join("game/appearance/mesh");
        std::fs::create_dir_all(&mesh).unwrap();
        std::fs::write(mesh.join("body.lmg"), b"lmg").unwrap();
        let reference = ["appearance/mesh/body.lmg".to_owned()];

        let from_sat = Files::beside(&dir.join("game/appearance/char.sat"));
        assert_eq!(
            from_sat.find("the mesh list", &reference).unwrap().bytes,
            b"lmg"
        );

        let elsewhere = Files::beside(&dir.join("other/char.sat"));
        assert!(elsewhere.find("the mesh list", &reference).is_err());
        let rooted = elsewhere.with_root(Some(dir.join("game")));
        assert_eq!(
            rooted.find("the mesh list", &reference).unwrap().bytes,
            b"lmg"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_file_names_every_path_tried() {
        let dir = scratch("missing");
        let files = Files::beside(&dir.join("suit.cmx"));
        let error = files
            .find(
                "the skin xskin-a",
                &["xskin-a.skn".to_owned(), "xskin-a.bmf".to_owned()],
            )
            .unwrap_err();
        let message = error.to_string();
        assert!(
            message.starts_with("cannot find the skin xskin-a; looked for "),
            "{message}"
        );
        assert!(
            message.contains("xskin-a.skn") && message.contains("xskin-a.bmf"),
            "{message}"
        );
        assert!(Files::nowhere().find("x", &["x".to_owned()]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn names_beside_are_found_in_the_folder_and_below_it_only() {
        let dir = scratch("beside");
        std::fs::create_dir_all(dir.join("chars/TEXTURES")).unwrap();
        std::fs::write(dir.join("chars/TEXTURES/MfemHead.PNG"), b"png").unwrap();
        std::fs::create_dir_all(dir.join("Textures")).unwrap();
        std::fs::write(dir.join("Textures/above.png"), b"above").unwrap();
        let files = Files::beside(&dir.join("chars/samnud.cmx"));
        let names = |name: &str| [format!("{name}.png"), format!("Textures/{name}.png")];
        let found = files
            .find_beside("the texture", &names("mfemhead"))
            .unwrap();
        assert_eq!(found.bytes, b"png");
        // The folder above holds `Textures/above.png`: not beside, not found.
        let error = files
            .find_beside("the texture above", &names("above"))
            .unwrap_err();
        assert!(error.to_string().contains("Textures/above.png"), "{error}");
        assert!(Files::nowhere().find_beside("x", &names("x")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn within_folders_nothing_outside_them_is_read() {
        let dir = scratch("within").canonicalize().unwrap();
        let served = dir.join("served");
        std::fs::create_dir_all(served.join("appearance")).unwrap();
        std::fs::create_dir_all(dir.join("appearance/mesh")).unwrap();
        std::fs::write(dir.join("appearance/mesh/body.lmg"), b"above").unwrap();
        std::fs::write(dir.join("secret.skn"), b"secret").unwrap();
        let within: Arc<[PathBuf]> = Arc::from([served.clone()]);
        let files = Files::beside(&served.join("appearance/char.sat")).within(within.clone());
        // Found above the folder served without the limit, not with it.
        let reference = ["appearance/mesh/body.lmg".to_owned()];
        assert!(Files::beside(&served.join("appearance/char.sat"))
            .find("the mesh list", &reference)
            .is_ok());
        let error = files.find("the mesh list", &reference).unwrap_err();
        assert!(
            !error
                .to_string()
                .contains(&dir.join("appearance").display().to_string()),
            "a path outside was looked at: {error}"
        );
        #[cfg(unix)]
        {
            // A link beside the referrer that leads outside.
            let link = served.join("appearance/link.skn");
            std::os::unix::fs::symlink(dir.join("secret.skn"), &link).unwrap();
            assert_eq!(std::fs::read(&link).unwrap(), b"secret");
            assert!(files.find("the skin", &["link.skn".to_owned()]).is_err());
            assert!(files
                .find_beside("the skin", &["link.skn".to_owned()])
                .is_err());
        }
        std::fs::write(served.join("appearance/skin.skn"), b"inside").unwrap();
        assert_eq!(
            files
                .find("the skin", &["skin.skn".to_owned()])
                .unwrap()
                .bytes,
            b"inside"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn references_cannot_climb_out() {
        assert_eq!(
            relative_path("../../etc/passwd"),
            PathBuf::from("etc/passwd")
        );
        assert_eq!(
            relative_path("appearance\\mesh\\a.mgn"),
            PathBuf::from("appearance/mesh/a.mgn")
        );
    }
}
