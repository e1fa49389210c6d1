//! What is under the paths, grouped as the page shows it: characters (a
//! skeleton and the meshes that go on it), animations, loose meshes.
//!
//! Listing is lazy: a file's format comes from its extension (its first
//! bytes where the extension is shared or missing), and what it holds from
//! its format. Only a format whose files differ in kind (a Sims `.cmx` can
//! be a skeleton, a suit, a skill or several) has its small files decoded,
//! and a loose mesh that names its skeleton (a Star Wars Galaxies `.mgn`)
//! is read for that name; what such a file taught is kept by its identity
//! (length, modification time) and read again only once it changed. Each
//! folder is listed once per listing, however many files name files in it,
//! and what poses a folder's loose meshes is found once for the folder:
//! a folder of 10,000 loose skins or meshes lists in a fraction of a
//! second.
//!
//! A listing is bounded however the folders are made: it walks each folder
//! once, down to [`MAX_DEPTH`] folders below a path given; it stops at
//! [`LIST_DEADLINE`] or when its client has gone; and it opens nothing but
//! regular files (a named pipe would block the open until something wrote
//! to it), listing anything else as a problem.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use export::assembly::{Age, Slot, Suit, Tone};
use formats::capabilities::Capabilities;
use formats::catalogue::Catalogue;
use formats::files::{Files, FoundFile};
use formats::format::Format;
use formats::rig::{Binding, RigOptions};
use serde::Serialize;

use crate::roots::Roots;

/// Bytes read to tell formats apart that share an extension.
const SNIFF_BYTES: u64 = 4096;
/// The largest file decoded while listing, to learn what it holds.
const DECODE_LIMIT: u64 = 4 << 20;
/// Folders below a path given that are listed: game files sit a few levels
/// deep; a deeper folder is listed as a problem, not walked.
pub const MAX_DEPTH: usize = 64;
/// How long a listing may take; past it, the files found so far are listed
/// with a problem saying so.
pub const LIST_DEADLINE: Duration = Duration::from_secs(20);

#[derive(Debug, Default, Serialize)]
pub struct Listing {
    pub characters: Vec<Character>,
    pub animations: Vec<AnimationFile>,
    pub meshes: Vec<LooseMesh>,
    /// The Sims' object files.
    pub objects: Vec<ObjectFile>,
    pub problems: Vec<Problem>,
}

/// An object file, and the names of the objects it defines (`OBJD`, by
/// their catalogue names), each at most 60 characters; none told for a
/// file larger than the listing decodes.
#[derive(Debug, Serialize)]
pub struct ObjectFile {
    pub file: String,
    pub objects: Vec<String>,
}

/// A skeleton that can be drawn, with what goes on it.
#[derive(Debug, Serialize)]
pub struct Character {
    /// The file that names the character.
    pub open: String,
    /// The game family: `sims`, `tso`, `swg`, `bonespro`, `outcast`.
    pub family: String,
    pub format: &'static str,
    /// Meshes beside it that dress it (Sims suits; for The Sims Online's
    /// skeleton, its wardrobe: the appearances, `.apr`, in its folder or an
    /// `Appearances` folder beside it, whose bones it has); empty when the
    /// file brings its own.
    pub meshes: Vec<String>,
    /// Animation files of its family in its folder (itself first, when it
    /// holds animations too) that fit its age (`adult-*`, `child-*`).
    pub animations: Vec<String>,
    /// A retail Sims skeleton's wardrobe: the suits beside it that fit its
    /// age, grouped as the game groups them; empty for other characters.
    pub wardrobe: Vec<Garment>,
    /// The garments' sets worn unless the view says otherwise: the first
    /// body, and a head and hands of the body's sex where there are.
    pub dressed: Vec<String>,
}

/// Suits worn as one: a body, a head, or a pair of hands.
#[derive(Debug, Serialize)]
pub struct Garment {
    /// The suit's code (`b001mafit`), or the hands' pair (`hmo`).
    pub set: String,
    /// `body`, `head` or `hands`.
    pub slot: &'static str,
    pub files: Vec<String>,
    /// The images beside it that dress it, in every skin tone.
    pub images: Vec<Image>,
}

/// An image that dresses a garment, and the skin tone it is for.
#[derive(Debug, Serialize)]
pub struct Image {
    pub file: String,
    /// `lgt`, `med` or `drk`.
    pub tone: &'static str,
}

#[derive(Debug, Serialize)]
pub struct AnimationFile {
    pub file: String,
    pub format: &'static str,
}

/// Meshes no character takes, with the skeleton to pose them on: one of
/// their family beside them, or the one they name (a Star Wars Galaxies
/// `.mgn`). A mesh with neither is listed as a problem, not offered.
#[derive(Debug, Serialize)]
pub struct LooseMesh {
    pub file: String,
    pub format: &'static str,
    pub skeleton: String,
}

#[derive(Debug, Serialize)]
pub struct Problem {
    pub file: String,
    pub message: String,
}

/// A file found, with its format and what it holds.
struct Found {
    rel: String,
    path: PathBuf,
    dir: PathBuf,
    format: &'static Format,
    holds: Capabilities,
}

impl Found {
    fn family(&self) -> &'static str {
        family_of(self.format)
    }

    /// A file that is shown as a character: a skeleton with meshes, or
    /// with no animations (a file with a skeleton and animations only is
    /// an animation that brings its skeleton, a Sims skill file).
    fn is_character(&self) -> bool {
        self.holds.skeleton && (self.holds.meshes || !self.holds.animations)
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

/// Everything under the roots, grouped; `gone` tells whether the client
/// the listing is for has gone.
pub fn list(roots: &Roots, catalogue: &Catalogue, gone: &dyn Fn() -> bool) -> Listing {
    let deadline = Instant::now() + LIST_DEADLINE;
    let mut walk = Walk {
        files: Vec::new(),
        passed: Vec::new(),
        stop: &|| Instant::now() >= deadline || gone(),
        stopped: None,
    };
    for root in roots.iter() {
        walk.root(&root.path);
    }
    let (mut listing, classifying_stopped) = listing_of(roots, catalogue, walk.files, walk.stop);
    let stopped = walk.stopped.or(classifying_stopped).map(|path| {
        let message = format!(
            "the listing took over {} s and stopped here, unfinished: serve a smaller folder",
            LIST_DEADLINE.as_secs()
        );
        (path, message)
    });
    let passed = walk
        .passed
        .into_iter()
        .chain(stopped)
        .filter_map(|(path, message)| {
            Some(Problem {
                file: roots.relative(&path)?,
                message,
            })
        });
    listing.problems.extend(passed);
    listing
}

/// The files given (absolute, links resolved), grouped; those outside
/// the roots are left out. When `stop` says so, the files not yet looked
/// at are left out too, and the first of them is returned.
fn listing_of(
    roots: &Roots,
    catalogue: &Catalogue,
    files: Vec<PathBuf>,
    stop: &dyn Fn() -> bool,
) -> (Listing, Option<PathBuf>) {
    let mut listing = Listing::default();
    let mut kinds: HashMap<&'static str, Capabilities> = HashMap::new();
    let mut found = Vec::new();
    for path in files {
        let Some(rel) = roots.relative(&path) else {
            continue;
        };
        if stop() {
            group(roots, &found, &mut listing);
            return (listing, Some(path));
        }
        match classify(&path, catalogue, &mut kinds) {
            Ok(Some((format, holds))) => found.push(Found {
                rel,
                path: path.clone(),
                dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
                format,
                holds,
            }),
            Ok(None) => {}
            Err(message) => listing.problems.push(Problem { file: rel, message }),
        }
    }
    group(roots, &found, &mut listing);
    (listing, None)
}

/// The files under the paths given, and what was passed over.
struct Walk<'a> {
    /// Absolute, with no links in them.
    files: Vec<PathBuf>,
    /// Paths not listed, and why.
    passed: Vec<(PathBuf, String)>,
    /// Whether to stop walking.
    stop: &'a dyn Fn() -> bool,
    /// The path the walk stopped at.
    stopped: Option<PathBuf>,
}

impl Walk<'_> {
    /// A path given (absolute, links resolved): a folder, or a file.
    fn root(&mut self, root: &Path) {
        if self.stopped.is_some() {
            return;
        }
        match fs::metadata(root) {
            Ok(metadata) if metadata.is_dir() => {
                self.folder(root, root, 0);
            }
            Ok(metadata) if metadata.is_file() => self.files.push(root.to_path_buf()),
            Ok(metadata) => self
                .passed
                .push((root.to_path_buf(), not_regular(&metadata.file_type()))),
            Err(_) => {}
        }
    }

    /// Every file under `dir`, `depth` folders below `root`, in name
    /// order; false once the walk is to stop. Each path is built from
    /// `dir`, which has no links in it, and the kind of each entry comes
    /// with the folder's entries: resolving each path found instead costs
    /// a look at each of its parts, which made the walk's time grow with
    /// the cube of the depth.
    fn folder(&mut self, root: &Path, dir: &Path, depth: usize) -> bool {
        let Ok(entries) = fs::read_dir(dir) else {
            return true;
        };
        let mut entries: Vec<(PathBuf, fs::FileType)> = entries
            .flatten()
            .filter_map(|entry| Some((entry.path(), entry.file_type().ok()?)))
            .collect();
        entries.sort_by(|(one, _), (other, _)| one.cmp(other));
        for (path, kind) in entries {
            if (self.stop)() {
                self.stopped = Some(path);
                return false;
            }
            if kind.is_dir() {
                if depth >= MAX_DEPTH {
                    let message = format!("folders over {MAX_DEPTH} deep are not listed");
                    self.passed.push((path, message));
                } else if !self.folder(root, &path, depth + 1) {
                    return false;
                }
            } else if kind.is_file() {
                self.files.push(path);
            } else if kind.is_symlink() {
                self.link(root, &path);
            } else {
                self.passed.push((path, not_regular(&kind)));
            }
        }
        true
    }

    /// What a link leads to, when that is a file under `root`. A link to a
    /// folder is not followed: it would walk a folder again, or forever.
    fn link(&mut self, root: &Path, path: &Path) {
        let Ok(target) = path.canonicalize() else {
            return;
        };
        if !target.starts_with(root) {
            return;
        }
        match fs::metadata(&target) {
            Ok(metadata) if metadata.is_file() => self.files.push(target),
            Ok(metadata) if !metadata.is_dir() => self
                .passed
                .push((path.to_path_buf(), not_regular(&metadata.file_type()))),
            _ => {}
        }
    }
}

/// Why a file that is not a regular file is not read.
fn not_regular(kind: &fs::FileType) -> String {
    #[cfg(unix)]
    let what = {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            "a named pipe (FIFO)"
        } else if kind.is_socket() {
            "a socket"
        } else if kind.is_block_device() || kind.is_char_device() {
            "a device"
        } else {
            "not a file"
        }
    };
    #[cfg(not(unix))]
    let what = if kind.is_dir() {
        "a folder"
    } else {
        "not a file"
    };
    format!("{what}, not a regular file: not supported, never read")
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
    let holds = LEARNED_HOLDINGS.of(path, format.name, || {
        let bytes = read_at_most(path, DECODE_LIMIT)?;
        let document = (format.decode)(&bytes).map_err(|error| error.to_string())?;
        Ok(Capabilities::of_document(document.as_ref()))
    })?;
    Ok(Some((format, holds)))
}

/// The first `limit` bytes of a regular file.
fn read_at_most(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    // Should a named pipe have taken the file's place since it was listed,
    // opening it does not wait for something to write to it.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(|error| error.to_string())?;
    let kind = file
        .metadata()
        .map_err(|error| error.to_string())?
        .file_type();
    if !kind.is_file() {
        return Err(not_regular(&kind));
    }
    let mut bytes = Vec::new();
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(|error| error.to_string())?;
    Ok(bytes)
}

/// The files found, by folder.
type Folders<'a> = HashMap<&'a Path, Vec<&'a Found>>;

/// Characters, their meshes and animations, and what is left; files only
/// ever go together within one folder, but for The Sims Online's, which
/// FreeSO keeps in a folder for each kind (`Skeletons`, `Animations`,
/// `Appearances`, ...) side by side.
fn group(roots: &Roots, found: &[Found], listing: &mut Listing) {
    let look = Lookups::new(roots);
    let mut folders: Vec<&Path> = Vec::new();
    let mut in_folder: Folders = HashMap::new();
    for file in found {
        let files = in_folder.entry(&file.dir).or_default();
        if files.is_empty() {
            folders.push(&file.dir);
        }
        files.push(file);
    }
    // Each The Sims Online appearance's skeleton, found once: that
    // skeleton offers it in its wardrobe.
    let appearances: Appearances = found
        .iter()
        .filter(|file| file.format.is(&formats::sims::apr::FORMAT))
        .map(|file| {
            let beside = in_folder
                .get(file.dir.as_path())
                .map_or(&[][..], Vec::as_slice);
            let skeleton = tso_skeleton(&look, beside, &in_folder, file);
            (file.rel.as_str(), skeleton)
        })
        .collect();
    for folder in folders {
        if let Some(files) = in_folder.get(folder) {
            group_folder(&look, files, &in_folder, &appearances, listing);
        }
    }
}

/// The Sims Online's appearances (`.apr`), by their relative paths, and
/// the skeleton each is worn on, or why none fits.
type Appearances<'a> = HashMap<&'a str, Result<String, String>>;

/// The files found in the folder named `name` (without regard to ASCII
/// case) beside `dir`.
fn sibling<'a>(in_folder: &'a Folders<'a>, dir: &Path, name: &str) -> &'a [&'a Found] {
    in_folder
        .iter()
        .find(|(folder, _)| {
            folder.parent() == dir.parent()
                && **folder != dir
                && folder
                    .file_name()
                    .is_some_and(|folder| folder.eq_ignore_ascii_case(name))
        })
        .map_or(&[], |(_, files)| files.as_slice())
}

fn group_folder(
    look: &Lookups,
    found: &[&Found],
    in_folder: &Folders,
    appearances: &Appearances,
    listing: &mut Listing,
) {
    let mut taken = vec![false; found.len()];
    // What poses a loose mesh, by family: the first bare skeleton of its
    // family beside it, else the first character of its family beside it
    // (the prototype's `samnud.cmx` for its props). Found once for the
    // folder, not once for each mesh: a folder of thousands of skins.
    let mut posers: HashMap<&str, &Found> = HashMap::new();
    for file in found.iter().filter(|file| file.bare_skeleton()) {
        posers.entry(file.family()).or_insert(file);
    }
    for file in found.iter().filter(|file| file.is_character()) {
        posers.entry(file.family()).or_insert(file);
    }
    // The animations beside the characters, looked through for each.
    let animations: Vec<&Found> = found
        .iter()
        .filter(|file| file.holds.animations && !file.holds.meshes)
        .copied()
        .collect();
    for (index, file) in found.iter().enumerate() {
        if !file.is_character() {
            continue;
        }
        taken[index] = true;
        let age = Age::of_file(file_name(&file.rel));
        let mut meshes = Vec::new();
        let mut suits = Vec::new();
        if file.bare_skeleton() {
            for (other_index, other) in found.iter().enumerate() {
                if !other.holds.meshes || other.holds.skeleton || other.family() != file.family() {
                    continue;
                }
                // Retail Sims suits and skins, by their names, go in the
                // wardrobe of the skeletons of their age.
                let suit = (file.family() == "sims")
                    .then(|| Suit::of_name(file_name(&other.rel)))
                    .flatten();
                if let Some(suit) = suit {
                    taken[other_index] = true;
                    if suit.fits(age) {
                        suits.push((*other, suit));
                    }
                } else if other.format.is(file.format) {
                    // Sims suits dress the skeleton beside them, those
                    // named for an age (`child-censor.cmx`) only the
                    // skeletons of that age; a mesh file of its own
                    // (`.skn`, `.mgn`) stays loose.
                    taken[other_index] = true;
                    if fits(Age::of_file(file_name(&other.rel)), age) {
                        meshes.push(other.rel.clone());
                    }
                }
            }
        }
        // A The Sims Online skeleton's wardrobe: the appearances that fit
        // it, worn together as the page ticks them.
        if file.bare_skeleton() && file.family() == "tso" {
            let mut fitting: Vec<String> = appearances
                .iter()
                .filter(|(_, skeleton)| skeleton.as_ref() == Ok(&file.rel))
                .map(|(appearance, _)| (*appearance).to_owned())
                .collect();
            fitting.sort();
            meshes.extend(fitting);
        }
        let wardrobe = wardrobe(file, &suits);
        let dressed = dressed(&wardrobe);
        // A file holding skills as well as a character offers them first.
        let own = file.holds.animations.then(|| file.rel.clone());
        let is_tso = file.format.is(&formats::sims::skel::FORMAT);
        // Animations kept in a folder of their own beside the skeleton's:
        // FreeSO's `Animations` for The Sims Online, a retail game's
        // `Skills` beside its `Skins`.
        let animations_beside = if is_tso {
            sibling(in_folder, &file.dir, "Animations")
        } else if file.family() == "sims" && file.bare_skeleton() {
            sibling(in_folder, &file.dir, "Skills")
        } else {
            &[]
        };
        // A The Sims Online animation moving a bone the skeleton lacks
        // cannot be shown on it.
        let skeleton_bones = is_tso.then(|| tso_bones(&file.path)).flatten();
        let beside = animations
            .iter()
            .chain(animations_beside)
            .filter(|other| {
                other.holds.animations
                    && !other.holds.meshes
                    && other.family() == file.family()
                    && other.rel != file.rel
                    && fits(Age::of_file(file_name(&other.rel)), age)
                    && (!is_tso || moves_only(&other.path, skeleton_bones.as_deref()))
            })
            .map(|other| other.rel.clone());
        listing.characters.push(Character {
            open: file.rel.clone(),
            family: file.family().to_owned(),
            format: file.format.name,
            meshes,
            animations: own.into_iter().chain(beside).collect(),
            wardrobe,
            dressed,
        });
    }
    for (index, file) in found.iter().enumerate() {
        if taken[index] {
            continue;
        }
        if file.format.is(&formats::objects::FORMAT) {
            match object_names(&file.path) {
                Ok(objects) => listing.objects.push(ObjectFile {
                    file: file.rel.clone(),
                    objects,
                }),
                Err(message) => listing.problems.push(Problem {
                    file: file.rel.clone(),
                    message,
                }),
            }
        } else if file.holds.animations && !file.holds.meshes {
            listing.animations.push(AnimationFile {
                file: file.rel.clone(),
                format: file.format.name,
            });
        } else if file.holds.meshes {
            let beside = posers.get(file.family()).map(|poser| poser.rel.clone());
            let skeleton = if let Some(skeleton) = appearances.get(file.rel.as_str()) {
                match skeleton {
                    // Offered in the wardrobe of the skeleton it fits.
                    Ok(_) => continue,
                    Err(message) => Err(message.clone()),
                }
            } else if file.family() == "tso" {
                tso_skeleton(look, found, in_folder, file)
            } else {
                beside.map_or_else(|| named_skeleton(look, file), Ok)
            };
            match skeleton {
                Ok(skeleton) => listing.meshes.push(LooseMesh {
                    file: file.rel.clone(),
                    format: file.format.name,
                    skeleton,
                }),
                Err(message) => listing.problems.push(Problem {
                    file: file.rel.clone(),
                    message,
                }),
            }
        }
    }
}

/// Why a mesh is not offered: nothing to pose it.
const NO_SKELETON: &str = "a mesh with no skeleton of its family beside it to pose it on";

/// Why a The Sims Online mesh is not offered.
const NO_TSO_SKELETON: &str =
    "a mesh of The Sims Online with no skeleton (.skel) beside it or in a Skeletons folder beside its folder to pose it on";

/// The skeleton a The Sims Online mesh, binding or appearance is posed
/// on: the first beside it, else in a `Skeletons` folder beside its folder
/// (as FreeSO keeps them: `adult.skel`, `child.skel`, `dog.skel`...), that
/// has every bone it binds; else why there is none.
fn tso_skeleton(
    look: &Lookups,
    found: &[&Found],
    in_folder: &Folders,
    mesh: &Found,
) -> Result<String, String> {
    let skeletons: Vec<&Found> = found
        .iter()
        .chain(sibling(in_folder, &mesh.dir, "Skeletons"))
        .filter(|other| other.family() == "tso" && other.bare_skeleton())
        .copied()
        .collect();
    let Some(first) = skeletons.first() else {
        return Err(NO_TSO_SKELETON.to_owned());
    };
    let bound = tso_bound(look, mesh)?;
    let lacks = |skeleton: &Found| {
        // A skeleton that cannot be read says so when it is shown.
        let bones = look.tso_bones(&skeleton.path)?;
        bound.iter().find(|bone| !bones.contains(bone)).cloned()
    };
    match skeletons.iter().find(|skeleton| lacks(skeleton).is_none()) {
        Some(skeleton) => Ok(skeleton.rel.clone()),
        None => Err(format!(
            "binds the bone {}, which the skeleton {} does not have",
            lacks(first).unwrap_or_default(),
            first.rel
        )),
    }
}

/// The bones a The Sims Online mesh, binding or appearance binds, once the
/// files it names are found; else why they cannot be had.
fn tso_bound(look: &Lookups, mesh: &Found) -> Result<Vec<String>, String> {
    let bytes = read_at_most(&mesh.path, DECODE_LIMIT)?;
    let document = (mesh.format.decode)(&bytes).map_err(|error| error.to_string())?;
    let files = look.files_beside(&mesh.path);
    let skins = match document.rig().skins(&files, RigOptions::default()) {
        None => return Ok(Vec::new()),
        Some(skins) => skins.map_err(|error| error.to_string())?,
    };
    let mut bound: Vec<String> = Vec::new();
    for skin in &skins {
        let bones = match &skin.binding {
            Binding::BoneSpace(binding) => &binding.bones,
            Binding::Weighted(weights) => &weights.joints,
        };
        for bone in bones {
            if !bound.contains(bone) {
                bound.push(bone.clone());
            }
        }
    }
    Ok(bound)
}

/// What one listing has looked up, kept for its other files: a folder's
/// names (each folder is listed once, however many of its thousands of
/// meshes name files in it), the skeletons meshes name, the bones of The
/// Sims Online's skeletons.
struct Lookups<'a> {
    roots: &'a Roots,
    /// Under the roots only, none larger than the listing decodes; the
    /// folders' listings shared by every file's lookups.
    files: Files,
    /// The skeleton file a name given in a folder finds, by folder and
    /// name.
    skeletons: RefCell<HashMap<(PathBuf, String), Option<PathBuf>>>,
    bones: RefCell<HashMap<PathBuf, Option<Vec<String>>>>,
}

impl<'a> Lookups<'a> {
    fn new(roots: &'a Roots) -> Lookups<'a> {
        let folders: Vec<PathBuf> = roots.iter().map(|root| root.path.clone()).collect();
        Lookups {
            roots,
            files: Files::nowhere()
                .within(folders.into())
                .with_limit(DECODE_LIMIT),
            skeletons: RefCell::default(),
            bones: RefCell::default(),
        }
    }

    /// Where the files the file at `path` names are found.
    fn files_beside(&self, path: &Path) -> Files {
        // Only the path of the file found counts: its folder is where
        // the names it gives are looked up.
        let file = FoundFile {
            path: path.to_path_buf(),
            bytes: Vec::new(),
        };
        self.files.beside_found(&file)
    }

    /// The skeleton file `name`, as a mesh in `folder` names it, when it is
    /// under the roots.
    fn skeleton_named(&self, files: &Files, folder: &Path, name: &str) -> Option<PathBuf> {
        let key = (folder.to_path_buf(), name.to_owned());
        if let Some(known) = self.skeletons.borrow().get(&key) {
            return known.clone();
        }
        let found = files
            .find("the skeleton", &[name.to_owned()])
            .ok()
            .map(|found| found.path);
        self.skeletons.borrow_mut().insert(key, found.clone());
        found
    }

    /// The bones of the The Sims Online skeleton at `path`; `None` when
    /// it cannot be read.
    fn tso_bones(&self, path: &Path) -> Option<Vec<String>> {
        if let Some(known) = self.bones.borrow().get(path) {
            return known.clone();
        }
        let bones = tso_bones(path);
        self.bones
            .borrow_mut()
            .insert(path.to_path_buf(), bones.clone());
        bones
    }
}

/// The bones of the The Sims Online skeleton at `path`; `None` when it
/// cannot be read.
fn tso_bones(path: &Path) -> Option<Vec<String>> {
    use formats::schema::BinarySchema as _;
    let bytes = read_at_most(path, DECODE_LIMIT).ok()?;
    let skeleton = formats::sims::skel::Skeleton::from_bytes(&bytes).ok()?;
    Some(
        skeleton
            .bones
            .iter()
            .map(|bone| bone.name.to_string())
            .collect(),
    )
}

/// Whether the The Sims Online animation at `path` moves only bones in
/// `bones` (any, when the skeleton could not be read); one too large to
/// decode while listing is taken to.
fn moves_only(path: &Path, bones: Option<&[String]>) -> bool {
    use formats::schema::BinarySchema as _;
    let Some(bones) = bones else {
        return true;
    };
    if fs::metadata(path).is_ok_and(|metadata| metadata.len() > DECODE_LIMIT) {
        return true;
    }
    let Ok(bytes) = read_at_most(path, DECODE_LIMIT) else {
        return false;
    };
    formats::sims::anim::Anim::from_bytes(&bytes).is_ok_and(|anim| {
        anim.motions
            .iter()
            .all(|motion| bones.iter().any(|bone| *bone == motion.bone.to_string()))
    })
}

/// Whether an animation of `animation`'s age fits a skeleton of
/// `skeleton`'s (either unknown fits).
fn fits(animation: Option<Age>, skeleton: Option<Age>) -> bool {
    animation.is_none() || skeleton.is_none() || animation == skeleton
}

/// The last part of a relative path.
fn file_name(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap_or(rel)
}

/// The skeleton a mesh names (a Star Wars Galaxies `.mgn` names its
/// skeletons, `appearance/skeleton/all_b.skt`, and a mesh list `.lmg` its
/// meshes), when it is under the roots; else why the mesh cannot be shown.
fn named_skeleton(look: &Lookups, mesh: &Found) -> Result<String, String> {
    use formats::swg::{lmg, mgn};
    let no_skeleton = || NO_SKELETON.to_owned();
    let names = if mesh.format.is(&mgn::FORMAT) {
        LEARNED_SKELETONS.of(&mesh.path, mgn::FORMAT.name, || {
            mgn_skeletons(&read_at_most(&mesh.path, DECODE_LIMIT)?)
        })?
    } else if mesh.format.is(&lmg::FORMAT) {
        // A mesh list's levels are meshes of the same skeletons: its most
        // detailed one says which.
        let bytes = read_at_most(&mesh.path, DECODE_LIMIT)?;
        let document = (mesh.format.decode)(&bytes).map_err(|error| error.to_string())?;
        let Some(first) = document
            .as_any()
            .downcast_ref::<lmg::MeshLevels>()
            .and_then(|levels| levels.levels().into_iter().next())
        else {
            return Err(no_skeleton());
        };
        let found = look
            .files_beside(&mesh.path)
            .find("its most detailed level", std::slice::from_ref(&first))
            .map_err(|error| error.to_string())?;
        mgn_skeletons(&found.bytes).map_err(|error| {
            format!("its most detailed level, {}: {error}", found.path.display())
        })?
    } else {
        // Only a Star Wars Galaxies mesh or mesh list names its skeleton.
        return Err(no_skeleton());
    };
    let name = match names.as_slice() {
        [] => return Err(no_skeleton()),
        [one] => one.clone(),
        // Where the others attach is written in an appearance (`.sat`),
        // not in the mesh.
        several => {
            return Err(format!(
                "names the skeletons {}, which only an appearance (.sat) puts together: open one that wears it",
                several.join(", ")
            ))
        }
    };
    match look.skeleton_named(&look.files_beside(&mesh.path), &mesh.dir, &name) {
        Some(found) => look.roots.relative(&found).ok_or_else(no_skeleton),
        None => Err(format!(
            "names the skeleton {name}, which is not under the paths served"
        )),
    }
}

/// The skeletons a Star Wars Galaxies mesh (`.mgn`) names.
fn mgn_skeletons(bytes: &[u8]) -> Result<Vec<String>, String> {
    use formats::swg::mgn;
    let document = (mgn::FORMAT.decode)(bytes).map_err(|error| error.to_string())?;
    let Some(mesh) = document.as_any().downcast_ref::<mgn::Mesh>() else {
        return Err(NO_SKELETON.to_owned());
    };
    Ok(mesh
        .body()
        .skeletons
        .iter()
        .map(|name| name.to_text())
        .collect())
}

/// What reading a file taught the listing, kept for the listings after
/// it by the file's identity (path, length, modification time) and the
/// format it was read as: the page lists the paths each time it loads,
/// and a folder of thousands of meshes is read again only where a file
/// changed.
struct Learned<T> {
    known: Mutex<HashMap<LearnedFrom, (FileIdentity, T)>>,
}

/// A file, and the format it was read as.
type LearnedFrom = (PathBuf, &'static str);

/// A file's length and modification time.
type FileIdentity = (u64, Option<SystemTime>);

/// The most files whose lessons are kept; past it, all are forgotten and
/// learned again.
const MOST_LEARNED: usize = 100_000;

/// The names of the objects an object file defines, as the listing
/// shows them (see [`ObjectFile`]), kept while the file is unchanged.
fn object_names(path: &Path) -> Result<Vec<String>, String> {
    let format = &formats::objects::FORMAT;
    if fs::metadata(path).map_err(|error| error.to_string())?.len() > DECODE_LIMIT {
        return Ok(Vec::new());
    }
    LEARNED_OBJECTS.of(path, format.name, || {
        let bytes = read_at_most(path, DECODE_LIMIT)?;
        let document = (format.decode)(&bytes).map_err(|error| error.to_string())?;
        let file = document
            .as_any()
            .downcast_ref::<formats::objects::file::IffFile>()
            .ok_or_else(|| "not an object file".to_owned())?;
        Ok(file
            .objects()
            .iter()
            .map(|object| formats::schema::quoted(object.name.to_text().as_bytes()))
            .collect())
    })
}

/// What each Sims character file (`.cmx`, `.bcf`) holds.
static LEARNED_HOLDINGS: LazyLock<Learned<Result<Capabilities, String>>> =
    LazyLock::new(Learned::default);
/// The objects each object file defines.
static LEARNED_OBJECTS: LazyLock<Learned<Result<Vec<String>, String>>> =
    LazyLock::new(Learned::default);
/// The skeletons each Star Wars Galaxies mesh names.
static LEARNED_SKELETONS: LazyLock<Learned<Result<Vec<String>, String>>> =
    LazyLock::new(Learned::default);

impl<T> Default for Learned<T> {
    fn default() -> Self {
        Learned {
            known: Mutex::default(),
        }
    }
}

impl<T: Clone> Learned<T> {
    /// What the file at `path`, read as `format`, teaches (`learn`), kept
    /// while the file is unchanged.
    fn of(&self, path: &Path, format: &'static str, learn: impl FnOnce() -> T) -> T {
        let Ok(metadata) = fs::metadata(path) else {
            return learn();
        };
        let identity = (metadata.len(), metadata.modified().ok());
        let key = (path.to_path_buf(), format);
        let lock = || self.known.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((known, value)) = lock().get(&key) {
            if *known == identity {
                return value.clone();
            }
        }
        let value = learn();
        let mut known = lock();
        if known.len() >= MOST_LEARNED {
            known.clear();
        }
        known.insert(key, (identity, value.clone()));
        value
    }
}

/// The garments of a retail skeleton (`skeleton`): `suits`
/// grouped by set, each with the images beside it. Where a set has a suit
/// file (`.cmx`, `.bcf`), the suit wears its skins and they are not listed
/// again.
fn wardrobe(skeleton: &Found, suits: &[(&Found, Suit)]) -> Vec<Garment> {
    let mut sets: Vec<(&Suit, Vec<&Found>)> = Vec::new();
    let mut set_at: HashMap<&str, usize> = HashMap::new();
    for (file, suit) in suits {
        match set_at.get(suit.set.as_str()) {
            Some(&at) => sets[at].1.push(file),
            None => {
                set_at.insert(&suit.set, sets.len());
                sets.push((suit, vec![file]));
            }
        }
    }
    let in_folder = Images::in_folder(&skeleton.dir);
    let folder = skeleton
        .rel
        .rsplit_once('/')
        .map_or(String::new(), |(folder, _)| format!("{folder}/"));
    let mut garments: Vec<Garment> = sets
        .into_iter()
        .map(|(suit, files)| {
            let has_suit = files.iter().any(|file| !file.format.name.ends_with("skn"));
            let files = files
                .into_iter()
                .filter(|file| !has_suit || !file.format.name.ends_with("skn"))
                .map(|file| file.rel.clone())
                .collect();
            let images = Tone::ALL
                .into_iter()
                .flat_map(|tone| in_folder.of(suit, tone).map(move |name| (tone, name)))
                .map(|(tone, name)| Image {
                    file: format!("{folder}{name}"),
                    tone: tone.code(),
                })
                .collect();
            Garment {
                set: suit.set.clone(),
                slot: slot_name(suit.slot),
                files,
                images,
            }
        })
        .collect();
    garments.sort_by(|one, other| {
        (slot_order(one.slot), &one.set).cmp(&(slot_order(other.slot), &other.set))
    });
    garments
}

/// The BMP images of a folder, sorted by their names in lower case. A
/// retail folder holds thousands of suits: each finds its images by a
/// search here, where [`export::assembly::suit_images`] lists the folder
/// again for each.
struct Images(Vec<(String, String)>);

impl Images {
    fn in_folder(folder: &Path) -> Images {
        let mut names: Vec<(String, String)> = fs::read_dir(folder)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| entry.file_name().into_string().ok())
            .map(|name| (name.to_ascii_lowercase(), name))
            .filter(|(lower, _)| lower.ends_with(".bmp"))
            .collect();
        names.sort_by(|(one, _), (other, _)| one.cmp(other));
        Images(names)
    }

    /// What [`export::assembly::suit_images`] gives: the images that dress
    /// `suit` in `tone`.
    fn of(&self, suit: &Suit, tone: Tone) -> impl Iterator<Item = &str> {
        let start = format!("{}{tone}", suit.texture_prefix());
        let first = self.0.partition_point(|(lower, _)| *lower < start);
        self.0
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(move |(lower, _)| lower.starts_with(&start))
            .map(|(_, name)| name.as_str())
    }
}

fn slot_name(slot: Slot) -> &'static str {
    match slot {
        Slot::Body => "body",
        Slot::Head => "head",
        Slot::Hands => "hands",
    }
}

fn slot_order(slot: &str) -> usize {
    ["body", "head", "hands"]
        .iter()
        .position(|name| *name == slot)
        .unwrap_or(3)
}

/// The sets worn by default, so that a skeleton opens as a whole Sim: the
/// first body for which there is a head of its sex (else the first body),
/// then the first head of the body's sex (else the first), and hands: of
/// the body's sex where there are (suits, or the loose skins no suit
/// holds, as VitaMoo dresses its women in `hflo` and `hfro`), else unisex
/// ones (`HULO`, `HURO`), else any; open hands before other shapes.
fn dressed(wardrobe: &[Garment]) -> Vec<String> {
    let sex = |garment: &Garment| {
        let file = garment.files.first()?;
        Suit::of_name(file_name(file)).map(|suit| suit.sex)
    };
    let of_slot = |slot: &'static str| wardrobe.iter().filter(move |garment| garment.slot == slot);
    let body = of_slot("body")
        .find(|body| of_slot("head").any(|head| sex(head) == sex(body)))
        .or_else(|| of_slot("body").next());
    let body_sex = body.and_then(sex);
    let head = of_slot("head")
        .find(|head| body_sex.is_some() && sex(head) == body_sex)
        .or_else(|| of_slot("head").next());
    // A pair's set is `h`, its sex and its shape (`hfo`: a woman's open
    // hands).
    let hands = of_slot("hands").min_by_key(|hands| {
        let of_sex = match sex(hands) {
            found if body_sex.is_some() && found == body_sex => 0,
            Some('u') => 1,
            _ => 2,
        };
        (of_sex, !hands.set.ends_with('o'))
    });
    body.into_iter()
        .chain(head)
        .chain(hands)
        .map(|garment| garment.set.clone())
        .collect()
}

/// The meshes that dress the character `open` names unless the view says
/// otherwise (its meshes, and its wardrobe's default sets), as the listing of
/// its folder gives them (only that folder is looked at: files only ever
/// go together within one); `gone` tells whether the client they are for
/// has gone.
pub fn meshes_of(
    roots: &Roots,
    catalogue: &Catalogue,
    open: &str,
    gone: &dyn Fn() -> bool,
) -> Vec<String> {
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
    let deadline = Instant::now() + LIST_DEADLINE;
    listing_of(roots, catalogue, files, &|| {
        Instant::now() >= deadline || gone()
    })
    .0
    .characters
    .into_iter()
    .find(|character| character.open == open)
    .map(|character| {
        let worn = character
            .wardrobe
            .iter()
            .filter(|garment| character.dressed.contains(&garment.set))
            .flat_map(|garment| garment.files.iter().cloned());
        character.meshes.iter().cloned().chain(worn).collect()
    })
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    fn never() -> bool {
        false
    }

    /// The files listed as meshes with no skeleton to pose them, and the
    /// other problems.
    fn needing_a_skeleton(listing: &Listing) -> (Vec<&str>, Vec<&Problem>) {
        let (skins, others): (Vec<&Problem>, Vec<&Problem>) = listing
            .problems
            .iter()
            .partition(|problem| problem.message == NO_SKELETON);
        (
            skins.iter().map(|skin| skin.file.as_str()).collect(),
            others,
        )
    }

    /// A file of `format` holding `holds`, in `dir`.
    fn found(dir: &Path, name: &str, format: &'static Format, holds: [bool; 3]) -> Found {
        let [skeleton, meshes, animations] = holds;
        Found {
            rel: name.to_owned(),
            path: dir.join(name),
            dir: dir.to_path_buf(),
            format,
            holds: Capabilities {
                skeleton,
                meshes,
                animations,
            },
        }
    }

    #[test]
    fn hands_are_of_the_body_s_sex_else_unisex_open_before_other_shapes() {
        let garment = |(slot, set, file): (&'static str, &str, &str)| Garment {
            set: set.to_owned(),
            slot,
            files: vec![file.to_owned()],
            images: Vec::new(),
        };
        let woman = [
            ("body", "b001fafat", "B001FAFat_01.cmx"),
            ("head", "c003fa", "C003FA_longhair.cmx"),
        ];
        let worn = |hands: &[&str]| {
            let hands = hands.iter().map(|file| {
                let suit = Suit::of_name(file).unwrap();
                ("hands", suit.set, *file)
            });
            let wardrobe: Vec<Garment> = woman
                .iter()
                .map(|&(slot, set, file)| (slot, set.to_owned(), file))
                .chain(hands)
                .map(|(slot, set, file)| garment((slot, &set, file)))
                .collect();
            dressed(&wardrobe)[2].clone()
        };
        let (fist, open) = (
            "xskin-hflc-L_HAND-FISTFL.skn",
            "xskin-hflo-L_HAND-HANDFL.skn",
        );
        let (men, unisex, pointing) = ("xskin-hmlo-L_HAND-HANDML.skn", "HULO.cmx", "HULP.cmx");
        assert_eq!(worn(&[fist, open, men, unisex]), "hfo");
        assert_eq!(worn(&[fist, men, unisex]), "hfc");
        assert_eq!(worn(&[men, pointing, unisex]), "huo");
        assert_eq!(worn(&[men, pointing]), "hup");
        assert_eq!(worn(&[men]), "hmo");
    }

    #[test]
    fn a_retail_skeleton_is_offered_its_wardrobe_grouped_and_dressed() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path().canonicalize().unwrap();
        for image in [
            "B001MAFitlgt_relax.bmp",
            "B001MAFitdrk_relax.bmp",
            "B001MAFitdrk_beach.bmp",
            "HUAOmed.bmp",
            "C002FClgt_Lisa01.bmp",
        ] {
            std::fs::write(dir.join(image), "x").unwrap();
        }
        let skeleton = [true, false, false];
        let mesh = [false, true, false];
        let animation = [true, false, true];
        let (cmx, skn) = (&formats::sims::cmx::FORMAT, &formats::sims::skn::FORMAT);
        let files = [
            found(&dir, "adult-skeleton.cmx", cmx, skeleton),
            found(&dir, "child-skeleton.cmx", cmx, skeleton),
            found(&dir, "adult-idle1.cmx", cmx, animation),
            found(&dir, "child-idle1.cmx", cmx, animation),
            found(&dir, "B001FAFat_01.cmx", cmx, mesh),
            found(&dir, "xskin-b001fafat_01-PELVIS-BODY.skn", skn, mesh),
            found(&dir, "xskin-b001mafit_01-PELVIS-BODY.skn", skn, mesh),
            found(&dir, "xskin-c001ma_ross-HEAD-HEADB.skn", skn, mesh),
            found(&dir, "xskin-c002fc_lisa-HEAD-HEAD.skn", skn, mesh),
            found(&dir, "xskin-hflo-L_HAND-HANDFL.skn", skn, mesh),
            found(&dir, "xskin-hmlo-L_HAND-HANDML.skn", skn, mesh),
            found(&dir, "xskin-hmro-R_HAND-HANDMR.skn", skn, mesh),
            found(&dir, "a-prop.cmx", cmx, mesh),
        ];
        let roots = Roots::new(std::slice::from_ref(&dir)).unwrap();
        let mut listing = Listing::default();
        let files: Vec<&Found> = files.iter().collect();
        let in_folder: Folders = HashMap::from([(dir.as_path(), files.clone())]);
        let look = Lookups::new(&roots);
        group_folder(&look, &files, &in_folder, &HashMap::new(), &mut listing);
        let adult = &listing.characters[0];
        assert_eq!(adult.open, "adult-skeleton.cmx");
        // Animations of its age only; the prop suit stays a plain mesh.
        assert_eq!(adult.animations, ["adult-idle1.cmx"]);
        assert_eq!(adult.meshes, ["a-prop.cmx"]);
        let garments: Vec<(&str, &str, Vec<&str>)> = adult
            .wardrobe
            .iter()
            .map(|garment| {
                let files = garment.files.iter().map(String::as_str).collect();
                (garment.slot, garment.set.as_str(), files)
            })
            .collect();
        assert_eq!(
            garments,
            [
                // The suit wears its skin, which is not offered again.
                ("body", "b001fafat", vec!["B001FAFat_01.cmx"]),
                (
                    "body",
                    "b001mafit",
                    vec!["xskin-b001mafit_01-PELVIS-BODY.skn"]
                ),
                ("head", "c001ma", vec!["xskin-c001ma_ross-HEAD-HEADB.skn"]),
                ("hands", "hfo", vec!["xskin-hflo-L_HAND-HANDFL.skn"]),
                (
                    "hands",
                    "hmo",
                    vec![
                        "xskin-hmlo-L_HAND-HANDML.skn",
                        "xskin-hmro-R_HAND-HANDMR.skn"
                    ]
                ),
            ]
        );
        // A whole Sim by default: the body that has a head of its sex.
        assert_eq!(adult.dressed, ["b001mafit", "c001ma", "hmo"]);
        let images: Vec<(&str, &str)> = adult.wardrobe[1]
            .images
            .iter()
            .map(|image| (image.file.as_str(), image.tone))
            .collect();
        assert_eq!(
            images,
            [
                ("B001MAFitlgt_relax.bmp", "lgt"),
                ("B001MAFitdrk_beach.bmp", "drk"),
                ("B001MAFitdrk_relax.bmp", "drk")
            ]
        );
        assert_eq!(adult.wardrobe[4].images[0].file, "HUAOmed.bmp");
        // The child is offered the child's head only, and the hands an
        // adult wears, in the same images.
        let child = &listing.characters[1];
        assert_eq!(child.animations, ["child-idle1.cmx"]);
        let sets: Vec<&str> = child
            .wardrobe
            .iter()
            .map(|garment| garment.set.as_str())
            .collect();
        assert_eq!(sets, ["c002fc", "hfo", "hmo"]);
        let files = |garment: &Garment| -> Vec<String> {
            garment
                .images
                .iter()
                .map(|image| image.file.clone())
                .collect()
        };
        assert_eq!(files(&child.wardrobe[2]), files(&adult.wardrobe[4]));
        assert!(!files(&child.wardrobe[2]).is_empty());
        assert_eq!(child.wardrobe[0].images[0].file, "C002FClgt_Lisa01.bmp");
        assert!(listing.meshes.is_empty() && listing.problems.is_empty());
    }

    /// The Sims Online's files in FreeSO's folders, from the fixtures.
    fn tso_folders(dir: &Path, with_skeletons: bool) {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
        for (folder, name) in [
            ("Appearances", "humanoid-arm.000010020000000c.apr"),
            ("Bindings", "humanoid-arm.000010010000000b.bnd"),
            ("Meshes", "humanoid-arm.0000100000000009.mesh"),
            ("Animations", "a2o-humanoid-wave.anim"),
        ] {
            std::fs::create_dir_all(dir.join(folder)).unwrap();
            std::fs::copy(fixtures.join(name), dir.join(folder).join(name)).unwrap();
        }
        if !with_skeletons {
            return;
        }
        std::fs::create_dir_all(dir.join("Skeletons")).unwrap();
        let humanoid = std::fs::read(fixtures.join("humanoid.skel")).unwrap();
        std::fs::write(dir.join("Skeletons/humanoid.skel"), &humanoid).unwrap();
        // A skeleton without the arm the wave moves.
        use formats::schema::BinarySchema as _;
        let mut armless = formats::sims::skel::Skeleton::from_bytes(&humanoid).unwrap();
        armless
            .bones
            .retain(|bone| bone.name.to_string() != "L_ARM");
        std::fs::write(
            dir.join("Skeletons/a-armless.skel"),
            armless.to_bytes().unwrap(),
        )
        .unwrap();
    }

    #[test]
    fn the_sims_online_s_files_are_offered_on_the_skeletons_in_freeso_s_folders() {
        let dir = tempfile::tempdir().unwrap();
        tso_folders(dir.path(), true);
        let roots = Roots::new(&[dir.path().to_path_buf()]).unwrap();
        let listing = list(&roots, &Catalogue::default(), &never);
        let characters: Vec<(&str, Vec<&str>)> = listing
            .characters
            .iter()
            .map(|character| {
                let animations = character.animations.iter().map(String::as_str);
                (character.open.as_str(), animations.collect())
            })
            .collect();
        // The wave moves the arm: it is not offered to the armless.
        assert_eq!(
            characters,
            [
                ("Skeletons/a-armless.skel", vec![]),
                (
                    "Skeletons/humanoid.skel",
                    vec!["Animations/a2o-humanoid-wave.anim"]
                ),
            ]
        );
        // The arm's appearance is in the wardrobe of the first skeleton
        // that has the bone it binds, and only there.
        let wardrobes: Vec<(&str, &[String])> = listing
            .characters
            .iter()
            .map(|character| (character.open.as_str(), character.meshes.as_slice()))
            .collect();
        assert_eq!(
            wardrobes,
            [
                ("Skeletons/a-armless.skel", &[][..]),
                (
                    "Skeletons/humanoid.skel",
                    &["Appearances/humanoid-arm.000010020000000c.apr".to_owned()][..]
                ),
            ]
        );
        // Its binding and mesh stay loose, on that skeleton.
        let meshes: Vec<(&str, &str)> = listing
            .meshes
            .iter()
            .map(|mesh| (mesh.file.as_str(), mesh.skeleton.as_str()))
            .collect();
        assert_eq!(
            meshes,
            [
                (
                    "Bindings/humanoid-arm.000010010000000b.bnd",
                    "Skeletons/humanoid.skel"
                ),
                (
                    "Meshes/humanoid-arm.0000100000000009.mesh",
                    "Skeletons/humanoid.skel"
                ),
            ]
        );
        assert!(listing.problems.is_empty(), "{:?}", listing.problems);
    }

    #[test]
    fn the_sims_online_s_meshes_binding_bones_the_skeleton_lacks_are_listed_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        tso_folders(dir.path(), true);
        std::fs::remove_file(dir.path().join("Skeletons/humanoid.skel")).unwrap();
        // And a binding whose mesh is not there.
        use formats::schema::BinarySchema as _;
        let bindings = dir.path().join("Bindings");
        let bytes = std::fs::read(bindings.join("humanoid-arm.000010010000000b.bnd")).unwrap();
        let mut binding = formats::sims::bnd::Bnd::from_bytes(&bytes).unwrap();
        if let Some(mesh) = &mut binding.mesh {
            mesh.id.file = 0x1005;
        }
        let other = bindings.join("other-arm.000010040000000b.bnd");
        std::fs::write(other, binding.to_bytes().unwrap()).unwrap();
        let roots = Roots::new(&[dir.path().to_path_buf()]).unwrap();
        let listing = list(&roots, &Catalogue::default(), &never);
        assert!(listing.meshes.is_empty(), "{:?}", listing.meshes);
        let problems: Vec<(&str, &str)> = listing
            .problems
            .iter()
            .map(|problem| (problem.file.as_str(), problem.message.as_str()))
            .collect();
        let lacks =
            "binds the bone L_ARM, which the skeleton Skeletons/a-armless.skel does not have";
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert_eq!(
            problems[..2],
            [
                ("Appearances/humanoid-arm.000010020000000c.apr", lacks),
                ("Bindings/humanoid-arm.000010010000000b.bnd", lacks),
            ]
        );
        assert_eq!(problems[2].0, "Bindings/other-arm.000010040000000b.bnd");
        assert!(
            problems[2]
                .1
                .starts_with("cannot find the mesh 0000100500000009"),
            "{problems:?}"
        );
        assert_eq!(
            problems[3],
            ("Meshes/humanoid-arm.0000100000000009.mesh", lacks)
        );
    }

    #[test]
    fn the_sims_online_s_meshes_without_a_skeleton_are_listed_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        tso_folders(dir.path(), false);
        let roots = Roots::new(&[dir.path().to_path_buf()]).unwrap();
        let listing = list(&roots, &Catalogue::default(), &never);
        assert!(listing.characters.is_empty() && listing.meshes.is_empty());
        let problems: Vec<(&str, &str)> = listing
            .problems
            .iter()
            .map(|problem| (problem.file.as_str(), problem.message.as_str()))
            .collect();
        assert_eq!(
            problems,
            [
                (
                    "Appearances/humanoid-arm.000010020000000c.apr",
                    NO_TSO_SKELETON
                ),
                (
                    "Bindings/humanoid-arm.000010010000000b.bnd",
                    NO_TSO_SKELETON
                ),
                ("Meshes/humanoid-arm.0000100000000009.mesh", NO_TSO_SKELETON),
            ]
        );
    }

    #[test]
    fn a_mesh_list_is_offered_on_the_skeleton_its_most_detailed_level_names() {
        let dir = tempfile::tempdir().unwrap();
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
        for (folder, name) in [
            ("appearance/mesh", "humanoid.lmg"),
            ("appearance/mesh", "humanoid.mgn"),
            ("appearance/skeleton", "humanoid.skt"),
        ] {
            std::fs::create_dir_all(dir.path().join(folder)).unwrap();
            std::fs::copy(fixtures.join(name), dir.path().join(folder).join(name)).unwrap();
        }
        let roots = Roots::new(&[dir.path().to_path_buf()]).unwrap();
        let listing = list(&roots, &Catalogue::default(), &never);
        let meshes: Vec<(&str, &str)> = listing
            .meshes
            .iter()
            .map(|mesh| (mesh.file.as_str(), mesh.skeleton.as_str()))
            .collect();
        let skeleton = "appearance/skeleton/humanoid.skt";
        assert_eq!(
            meshes,
            [
                ("appearance/mesh/humanoid.lmg", skeleton),
                ("appearance/mesh/humanoid.mgn", skeleton)
            ]
        );
        // Without its level, the list cannot be shown, and says why.
        std::fs::remove_file(dir.path().join("appearance/mesh/humanoid.mgn")).unwrap();
        let listing = list(&roots, &Catalogue::default(), &never);
        assert!(listing.meshes.is_empty());
        assert_eq!(listing.problems.len(), 1, "{:?}", listing.problems);
        assert!(
            listing.problems[0]
                .message
                .starts_with("cannot find its most detailed level"),
            "{:?}",
            listing.problems
        );
    }

    #[test]
    fn what_a_file_taught_is_kept_while_it_is_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.cmx");
        std::fs::write(&file, "one").unwrap();
        let learned: Learned<String> = Learned::default();
        let read = || std::fs::read_to_string(&file).unwrap();
        assert_eq!(learned.of(&file, "sims-cmx", read), "one");
        // The same length and modification time: taken as the same file,
        // not read again.
        let time = std::fs::metadata(&file).unwrap().modified().unwrap();
        std::fs::write(&file, "two").unwrap();
        let handle = std::fs::File::options().write(true).open(&file).unwrap();
        handle.set_modified(time).unwrap();
        assert_eq!(learned.of(&file, "sims-cmx", read), "one");
        // Read as another format, it is another lesson.
        assert_eq!(learned.of(&file, "sims-bcf", read), "two");
        // Changed: read again.
        handle.set_modified(time + Duration::from_secs(5)).unwrap();
        assert_eq!(learned.of(&file, "sims-cmx", read), "two");
    }

    #[test]
    fn a_suit_s_images_are_those_export_dresses_it_with() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "B001MAFitlgt_relax.bmp",
            "b001mafitLGT_beach.BMP",
            "B001MAFitmed_relax.bmp",
            "B001MAFitlgt_relax.png",
            "B001MAFa",
            "C001MAlgt_Ross.bmp",
            "HUAOdrk.bmp",
            "HUAOlgt.bmp",
            "huaclgt.bmp",
            "zzz.bmp",
        ] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        let images = Images::in_folder(dir.path());
        for name in [
            "xskin-b001mafit_01-PELVIS-BODY.skn",
            "xskin-C001MA_Ross-HEAD-HEADB.skn",
            "xskin-hmlo-L_HAND-HANDML.skn",
            "xskin-hurc-R_HAND-FISTCR.skn",
            "xskin-b002fafat_01-PELVIS-BODY.skn",
        ] {
            let suit = Suit::of_name(name).unwrap();
            for tone in Tone::ALL {
                let expected = export::assembly::suit_images(dir.path(), &suit, tone);
                assert_eq!(
                    images.of(&suit, tone).collect::<Vec<_>>(),
                    expected,
                    "{name} {tone}"
                );
            }
        }
    }

    #[test]
    fn a_folder_nested_past_the_limit_is_reported_not_walked() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("top.skn"), "x").unwrap();
        // 1,600 deep, as in the issue: the old walk took 107 s on it.
        let mut deep = dir.path().to_path_buf();
        deep.extend(std::iter::repeat_n("d", 1600));
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("deep.skn"), "x").unwrap();
        let mut limit = "d/".repeat(MAX_DEPTH);
        limit += "d";
        std::fs::write(dir.path().join(&limit).with_file_name("last.skn"), "x").unwrap();
        let roots = Roots::new(&[dir.path().to_path_buf()]).unwrap();
        let started = Instant::now();
        let listing = list(&roots, &Catalogue::default(), &never);
        eprintln!("listed 1,600 folders deep in {:?}", started.elapsed());
        // Skins with no skeleton beside them are listed as such.
        let (skins, passed) = needing_a_skeleton(&listing);
        let last = format!("{}last.skn", "d/".repeat(MAX_DEPTH));
        assert_eq!(skins, [last.as_str(), "top.skn"]);
        assert!(listing.meshes.is_empty());
        assert_eq!(passed.len(), 1, "{:?}", listing.problems);
        assert_eq!(passed[0].file, limit);
        assert_eq!(
            passed[0].message,
            format!("folders over {MAX_DEPTH} deep are not listed")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_listed_as_not_supported_without_being_opened() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.skn"), "x").unwrap();
        // A `.cmx` is decoded to learn what it holds: opening it blocked
        // until something wrote to the pipe.
        let made = std::process::Command::new("mkfifo")
            .arg(dir.path().join("b.cmx"))
            .status()
            .unwrap();
        assert!(made.success());
        let roots = Roots::new(&[dir.path().to_path_buf()]).unwrap();
        let (done, listed) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(list(&roots, &Catalogue::default(), &never));
        });
        let listing = listed.recv_timeout(Duration::from_secs(5)).unwrap();
        let (skins, passed) = needing_a_skeleton(&listing);
        assert_eq!(skins, ["a.skn"]);
        assert_eq!(passed.len(), 1, "{:?}", listing.problems);
        assert_eq!(passed[0].file, "b.cmx");
        assert_eq!(
            passed[0].message,
            "a named pipe (FIFO), not a regular file: not supported, never read"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_put_in_a_files_place_is_not_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("b.cmx");
        let made = std::process::Command::new("mkfifo")
            .arg(&pipe)
            .status()
            .unwrap();
        assert!(made.success());
        let (done, read) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(read_at_most(&pipe, SNIFF_BYTES));
        });
        let refused = read.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(
            refused,
            Err("a named pipe (FIFO), not a regular file: not supported, never read".to_owned())
        );
    }

    #[test]
    fn a_listing_whose_client_has_gone_stops() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/a.skn"), "x").unwrap();
        let roots = Roots::new(&[dir.path().to_path_buf()]).unwrap();
        let listing = list(&roots, &Catalogue::default(), &|| true);
        assert!(listing.meshes.is_empty());
        assert_eq!(listing.problems.len(), 1, "{:?}", listing.problems);
        assert_eq!(listing.problems[0].file, "sub");
        assert!(listing.problems[0].message.contains("stopped here"));
    }
}
