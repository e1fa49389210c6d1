//! Input files as the command line and the viewer read them: the format
//! chosen, the document decoded, the files it refers to found beside it
//! (under the allowed folders only), and what it gives: its skeleton,
//! meshes and animations. Failures are sentences naming the file, the same
//! wherever they are shown.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use formats::capabilities::Capabilities;
use formats::catalogue::Catalogue;
use formats::files::{read_at_most, read_file, Files, ReadError, DEFAULT_INPUT_LIMIT};
use formats::format::{Document, Format};
use formats::rig::{self, RigError, RigOptions};

use crate::assembly::AssemblyError;

/// How files are read: the files named and the files they refer to alike.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The most bytes a file may hold.
    pub limit: u64,
    /// When set, the only folders (absolute, links resolved) a referenced
    /// file may be read from: the viewer serves nothing outside its paths.
    pub within: Option<Arc<[PathBuf]>>,
}

impl Default for Reading {
    fn default() -> Self {
        Reading {
            limit: DEFAULT_INPUT_LIMIT,
            within: None,
        }
    }
}

/// What is asked of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    Skeleton,
    Meshes,
    Animation,
}

impl Need {
    /// What a file without it lacks: "skeleton to pose".
    pub fn lacks(self) -> &'static str {
        match self {
            Need::Skeleton => "skeleton to pose",
            Need::Meshes => "mesh",
            Need::Animation => "animation",
        }
    }

    /// Whether files of `format` can have it at all.
    pub fn possible_in(self, format: &Format) -> bool {
        let capabilities = Capabilities::of(format);
        match self {
            Need::Skeleton => capabilities.skeleton,
            Need::Meshes => capabilities.meshes,
            Need::Animation => capabilities.animations,
        }
    }
}

/// Why a character's files cannot be read, or assembled.
#[derive(Debug, thiserror::Error)]
pub enum CharacterError {
    #[error("{}: {source}", .path.display())]
    Read { path: PathBuf, source: ReadError },
    /// Neither the name nor the content shows the format.
    #[error("{}: {}", .path.display(), unidentified(.readable_as))]
    Unidentified {
        path: PathBuf,
        /// The formats whose readers accept the bytes all the same.
        readable_as: Vec<&'static str>,
    },
    #[error("unknown format `{name}`; known formats: {known}")]
    UnknownFormat { name: String, known: String },
    /// Boxed: decoding errors are large (a field path, an offset, a
    /// message) and rare.
    #[error("{}: {source}", .path.display())]
    Decode {
        path: PathBuf,
        source: Box<formats::schema::Error>,
    },
    #[error("{}: {source}", .path.display())]
    Rig { path: PathBuf, source: RigError },
    /// A file that is fine, but lacks what is asked of it.
    #[error("{}", wrong_kind(&.path.display().to_string(), .kind, .lacks, *.format_never_has))]
    WrongKind {
        path: PathBuf,
        /// The format's title with an article: "a Sims skin".
        kind: String,
        /// What is needed: "skeleton to pose".
        lacks: &'static str,
        /// Whether no file of the format has one (else just this file).
        format_never_has: bool,
    },
    #[error(
        "{} has no animation named \"{}\"; it has: {names}",
        .path.display(),
        crate::quoted(.name)
    )]
    NoAnimationNamed {
        path: PathBuf,
        name: String,
        names: String,
    },
    #[error("{} holds several animations; choose one with --skill NAME: {names}", .path.display())]
    SeveralAnimations { path: PathBuf, names: String },
    #[error(
        "no --anim file has an animation named \"{}\"; they have: {names}",
        crate::quoted(.name)
    )]
    NoSkillNamed { name: String, names: String },
    #[error("no file to convert")]
    NoInput,
    #[error(transparent)]
    Assembly(#[from] AssemblyError),
}

impl CharacterError {
    /// Whether the request asks for something that does not exist (a name,
    /// a format), rather than a file being unreadable or of the wrong kind.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            CharacterError::UnknownFormat { .. }
                | CharacterError::NoAnimationNamed { .. }
                | CharacterError::SeveralAnimations { .. }
                | CharacterError::NoSkillNamed { .. }
                | CharacterError::NoInput
        )
    }
}

/// What a person calls a file of the format, with an article: "a Sims
/// skin" for "The Sims skin", "an Outcast skeleton".
pub fn kind_of_file(format: &Format) -> String {
    let title = format.title.strip_prefix("The ").unwrap_or(format.title);
    let starts_with_vowel = title
        .chars()
        .next()
        .is_some_and(|first| "AEIOUaeiou".contains(first));
    let article = if starts_with_vowel { "an" } else { "a" };
    format!("{article} {title}")
}

/// "x.skn is a Sims skin, which has no skeleton to pose" when no file of
/// the format has what is needed, else "... is a Sims skin with no ...".
pub fn wrong_kind(shown_path: &str, kind: &str, lacks: &str, format_never_has: bool) -> String {
    if format_never_has {
        format!("{shown_path} is {kind}, which has no {lacks}")
    } else {
        format!("{shown_path} is {kind} with no {lacks}")
    }
}

/// Why the format of a file cannot be told, and what `--format` would help.
pub fn unidentified(readable_as: &[&str]) -> String {
    let plain = "cannot tell the format from the name or the content";
    match readable_as {
        [] => format!("{plain}; `ossuary formats` lists the formats ossuary reads"),
        names => format!(
            "{plain}, but it reads as {}: pass --format {}",
            names.join(", "),
            names.first().copied().unwrap_or_default()
        ),
    }
}

/// The format called `name`.
pub fn format_named(catalogue: &Catalogue, name: &str) -> Result<&'static Format, CharacterError> {
    catalogue
        .by_name(name)
        .ok_or_else(|| CharacterError::UnknownFormat {
            name: name.to_owned(),
            known: known_names(catalogue),
        })
}

/// The names of every format, comma-separated.
pub fn known_names(catalogue: &Catalogue) -> String {
    catalogue
        .formats()
        .iter()
        .map(|format| format.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The bytes of `path`, at most `limit` of them; `-` reads standard input.
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, CharacterError> {
    let bytes = if path.as_os_str() == "-" {
        read_at_most(std::io::stdin().lock(), limit)
    } else {
        read_file(path, limit)
    };
    bytes.map_err(|source| CharacterError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The format the file's name or bytes show. When neither does, the error
/// names the formats whose readers accept the bytes anyway, so that
/// `--format` is suggested only where it would help. A reader that accepts
/// even an empty file checks no header (a `.cfp` is tokens and nothing
/// else) and takes almost any bytes, so its accepting these shows nothing:
/// it is not suggested.
pub fn identify(
    catalogue: &Catalogue,
    path: &Path,
    bytes: &[u8],
) -> Result<&'static Format, Vec<&'static str>> {
    catalogue
        .detect(&path.to_string_lossy(), bytes)
        .ok_or_else(|| {
            catalogue
                .formats()
                .iter()
                .filter(|format| (format.decode)(&[]).is_err() && (format.decode)(bytes).is_ok())
                .map(|format| format.name)
                .collect()
        })
}

/// The format named `forced`, else the one the file's name or bytes show.
pub fn format_of(
    catalogue: &Catalogue,
    path: &Path,
    bytes: &[u8],
    forced: Option<&str>,
) -> Result<&'static Format, CharacterError> {
    match forced {
        Some(name) => format_named(catalogue, name),
        None => {
            identify(catalogue, path, bytes).map_err(|readable_as| CharacterError::Unidentified {
                path: path.to_path_buf(),
                readable_as,
            })
        }
    }
}

/// `bytes` (of `path`) decoded as `format`.
pub fn decode(
    path: &Path,
    format: &'static Format,
    bytes: &[u8],
) -> Result<Box<dyn Document>, CharacterError> {
    (format.decode)(bytes).map_err(|source| CharacterError::Decode {
        path: path.to_path_buf(),
        source: Box::new(source),
    })
}

/// A decoded input file.
pub struct Input {
    pub path: PathBuf,
    pub format: &'static Format,
    pub document: Box<dyn Document>,
    /// Where the files it refers to are found.
    pub files: Files,
}

/// Reads, identifies (or takes the format named `forced`) and decodes a file.
pub fn load(
    catalogue: &Catalogue,
    path: &Path,
    forced: Option<&str>,
    reading: &Reading,
) -> Result<Input, CharacterError> {
    let bytes = read(path, reading.limit)?;
    let format = format_of(catalogue, path, &bytes, forced)?;
    let document = decode(path, format, &bytes)?;
    let files = if path.as_os_str() == "-" {
        Files::nowhere()
    } else {
        let files = Files::beside(path).with_limit(reading.limit);
        match &reading.within {
            Some(folders) => files.within(Arc::clone(folders)),
            None => files,
        }
    };
    Ok(Input {
        path: path.to_path_buf(),
        format,
        document,
        files,
    })
}

/// The names of `animations`, comma-separated.
pub fn names(animations: &[rig::NamedAnimation]) -> String {
    // A message stays one line whatever the file holds: each name quoted,
    // the first few listed.
    const LISTED: usize = 20;
    let mut names: Vec<String> = animations
        .iter()
        .take(LISTED)
        .map(|animation| crate::quoted(&animation.name))
        .collect();
    if animations.len() > LISTED {
        names.push(format!("and {} more", animations.len() - LISTED));
    }
    names.join(", ")
}

impl Input {
    /// The input's file name without its extension (empty for none).
    pub fn stem(&self) -> String {
        self.path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The input's file name (empty for none).
    pub fn file_name(&self) -> String {
        self.path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The same input, its references with folders looked up under `root` first.
    pub fn with_root(self, root: Option<&Path>) -> Input {
        Input {
            files: self.files.with_root(root.map(Path::to_path_buf)),
            ..self
        }
    }

    /// The error of a reference of this file that cannot be had.
    pub fn rig_error(&self, source: RigError) -> CharacterError {
        CharacterError::Rig {
            path: self.path.clone(),
            source,
        }
    }

    /// The error for a file that lacks what is needed.
    pub fn wrong_kind(&self, need: Need) -> CharacterError {
        CharacterError::WrongKind {
            path: self.path.clone(),
            kind: kind_of_file(self.format),
            lacks: need.lacks(),
            format_never_has: !need.possible_in(self.format),
        }
    }

    /// The file's skeleton, if it has one.
    pub fn skeleton(&self, options: RigOptions) -> Result<Option<rig::Skeleton>, CharacterError> {
        self.document
            .rig()
            .skeleton(&self.files, options)
            .transpose()
            .map_err(|error| self.rig_error(error))
    }

    /// The file's skeleton; a file without one is the wrong kind of input.
    pub fn required_skeleton(&self, options: RigOptions) -> Result<rig::Skeleton, CharacterError> {
        self.skeleton(options)?
            .ok_or_else(|| self.wrong_kind(Need::Skeleton))
    }

    /// The file's meshes (none if it has none).
    pub fn skins(&self, options: RigOptions) -> Result<Vec<rig::Skin>, CharacterError> {
        self.document
            .rig()
            .skins(&self.files, options)
            .transpose()
            .map(Option::unwrap_or_default)
            .map_err(|error| self.rig_error(error))
    }

    /// The file's meshes part by part (each file it names read on its own),
    /// each as it could be read.
    pub fn skin_parts(&self, options: RigOptions) -> Vec<rig::SkinPart> {
        self.document
            .rig()
            .skin_parts(&self.files, options)
            .unwrap_or_default()
    }

    /// The file's animations one by one, each as it could be read; a file
    /// without any is the wrong kind of input.
    pub fn named_animations(&self) -> Result<Vec<rig::NamedAnimation>, CharacterError> {
        self.document
            .rig()
            .named_animations(&self.files)
            .ok_or_else(|| self.wrong_kind(Need::Animation))
    }

    /// The animation named `name` (or the file's only one, without a name),
    /// read alone: the others' data is not needed. An error lists the names.
    pub fn chosen_animation(&self, name: Option<&str>) -> Result<rig::Animation, CharacterError> {
        let mut named = self.named_animations()?;
        let position = match (name, named.len()) {
            (Some(name), _) => named
                .iter()
                .position(|animation| animation.name == name)
                .ok_or_else(|| CharacterError::NoAnimationNamed {
                    path: self.path.clone(),
                    name: name.to_owned(),
                    names: names(&named),
                })?,
            (None, 1) => 0,
            (None, 0) => return Err(self.wrong_kind(Need::Animation)),
            (None, _) => {
                return Err(CharacterError::SeveralAnimations {
                    path: self.path.clone(),
                    names: names(&named),
                })
            }
        };
        named
            .swap_remove(position)
            .animation
            .map_err(|error| self.rig_error(error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_no_format_says_so_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, b"\x01\x02 nothing").unwrap();
        let catalogue = Catalogue::default();
        let error = load(&catalogue, &path, None, &Reading::default())
            .err()
            .unwrap();
        assert!(!error.is_usage());
        assert_eq!(
            error.to_string(),
            format!(
                "{}: cannot tell the format from the name or the content; `ossuary formats` \
                 lists the formats ossuary reads",
                path.display()
            )
        );
        let error = load(&catalogue, &path, Some("nope"), &Reading::default())
            .err()
            .unwrap();
        assert!(error.is_usage());
        assert!(error.to_string().starts_with("unknown format `nope`"));
    }

    #[test]
    fn kinds_take_their_article() {
        let catalogue = Catalogue::default();
        let kinds: Vec<String> = catalogue
            .formats()
            .iter()
            .map(|format| kind_of_file(format))
            .collect();
        assert!(kinds.contains(&"a Sims skin".to_owned()), "{kinds:?}");
        assert!(
            kinds.iter().any(|kind| kind.starts_with("an ")),
            "{kinds:?}"
        );
    }
}
