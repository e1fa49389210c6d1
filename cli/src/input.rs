//! Reading input files and what the posing commands build from them: the
//! format chosen, the document decoded, its skeleton posed (at rest or at a
//! frame of an animation) and its skins deformed. Commands take their inputs
//! from here and never from each other.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use formats::catalogue::Catalogue;
use formats::files::{read_at_most, read_file, Files, DEFAULT_INPUT_LIMIT};
use formats::format::{Document, Format};
use formats::rig::{self, Motion, RigOptions};
use glam::{Affine3A, Vec3};
use skinning::{BlendRule, BoundSkin, Clip, Composition, Pose, PosedSkin, Skeleton};

use crate::capabilities::kind_of_file;
use crate::error::{CliError, Problem};
use formats::capabilities::Capabilities;

/// A decoded input file.
pub struct Input {
    pub path: PathBuf,
    pub format: &'static Format,
    pub document: Box<dyn Document>,
    /// Where the files it refers to are found.
    pub files: Files,
}

pub fn format_named(catalogue: &Catalogue, name: &str) -> Result<&'static Format, CliError> {
    catalogue.by_name(name).ok_or_else(|| {
        CliError::Usage(format!(
            "unknown format `{name}`; known formats: {}",
            known_names(catalogue)
        ))
    })
}

pub fn known_names(catalogue: &Catalogue) -> String {
    catalogue
        .formats()
        .iter()
        .map(|format| format.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// How the command line being run reads files: the files named on it and
/// the files they refer to alike.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The most bytes an input may hold (`--max-input`).
    pub limit: u64,
    /// When set, the only folders (absolute, links resolved) a referenced
    /// file may be read from: `view` serves nothing outside its paths.
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

thread_local! {
    static READING: RefCell<Reading> = RefCell::new(Reading::default());
}

/// Sets how the command line this thread runs reads files.
pub fn set_reading(reading: Reading) {
    READING.with(|cell| *cell.borrow_mut() = reading);
}

pub fn reading() -> Reading {
    READING.with(|cell| cell.borrow().clone())
}

/// The bytes of `path`, at most the input limit of them; `-` reads
/// standard input.
pub fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    let limit = reading().limit;
    let bytes = if path.as_os_str() == "-" {
        read_at_most(std::io::stdin().lock(), limit)
    } else {
        read_file(path, limit)
    };
    bytes.map_err(|error| CliError::input(path, Problem::Read(error)))
}

/// Standard input can be read only once, so `-` may be named once.
pub fn at_most_one_stdin(paths: &[PathBuf]) -> Result<(), CliError> {
    let stdin_count = paths.iter().filter(|path| path.as_os_str() == "-").count();
    if stdin_count > 1 {
        return Err(CliError::Usage(
            "`-` (standard input) is named more than once; it can be read only once".to_owned(),
        ));
    }
    Ok(())
}

/// The format named by `--format`, else the one the file's name or bytes show.
pub fn format_of(
    catalogue: &Catalogue,
    path: &Path,
    bytes: &[u8],
    forced: Option<&str>,
) -> Result<&'static Format, CliError> {
    match forced {
        Some(name) => format_named(catalogue, name),
        None => identify(catalogue, path, bytes).map_err(|problem| CliError::input(path, problem)),
    }
}

/// The format the file's name or bytes show. When neither does, the
/// problem names the formats whose readers accept the bytes anyway, so
/// that `--format` is suggested only where it would help. A reader that
/// accepts even an empty file checks no header (a `.cfp` is tokens and
/// nothing else) and takes almost any bytes, so its accepting these shows
/// nothing: it is not suggested.
pub fn identify(
    catalogue: &Catalogue,
    path: &Path,
    bytes: &[u8],
) -> Result<&'static Format, Problem> {
    catalogue
        .detect(&path.to_string_lossy(), bytes)
        .ok_or_else(|| Problem::Unidentified {
            readable_as: catalogue
                .formats()
                .iter()
                .filter(|format| (format.decode)(&[]).is_err() && (format.decode)(bytes).is_ok())
                .map(|format| format.name)
                .collect(),
        })
}

pub fn decode(
    path: &Path,
    format: &'static Format,
    bytes: &[u8],
) -> Result<Box<dyn Document>, CliError> {
    (format.decode)(bytes).map_err(|error| CliError::input(path, error))
}

/// Reads, identifies and decodes a file.
pub fn load(catalogue: &Catalogue, path: &Path, forced: Option<&str>) -> Result<Input, CliError> {
    let bytes = read(path)?;
    let format = format_of(catalogue, path, &bytes, forced)?;
    let document = decode(path, format, &bytes)?;
    let files = if path.as_os_str() == "-" {
        Files::nowhere()
    } else {
        let reading = reading();
        let files = Files::beside(path).with_limit(reading.limit);
        match reading.within {
            Some(folders) => files.within(folders),
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

impl Input {
    /// The input's file name without its extension (empty for none).
    pub fn stem(&self) -> String {
        self.path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The same input, its references with folders looked up under `root` first.
    pub fn with_root(self, root: Option<&Path>) -> Input {
        Input {
            files: self.files.with_root(root.map(Path::to_path_buf)),
            ..self
        }
    }

    fn fail(&self, problem: impl Into<Problem>) -> CliError {
        CliError::input(&self.path, problem)
    }

    /// The error for a file that lacks what the command needs.
    pub fn wrong_kind(&self, need: Need) -> CliError {
        let capabilities = Capabilities::of(self.format);
        let (lacks, format_has) = match need {
            Need::Skeleton => ("skeleton to pose", capabilities.skeleton),
            Need::Meshes => ("mesh", capabilities.meshes),
            Need::Animation => ("animation", capabilities.animations),
        };
        CliError::WrongKind {
            path: self.path.clone(),
            kind: kind_of_file(self.format),
            lacks,
            format_never_has: !format_has,
        }
    }

    /// The file's skeleton, if it has one.
    pub fn skeleton(&self, options: RigOptions) -> Result<Option<rig::Skeleton>, CliError> {
        self.document
            .rig()
            .skeleton(&self.files, options)
            .transpose()
            .map_err(|error| self.fail(error))
    }

    /// The file's skeleton; a file without one is the wrong kind of input.
    pub fn required_skeleton(&self, options: RigOptions) -> Result<rig::Skeleton, CliError> {
        self.skeleton(options)?
            .ok_or_else(|| self.wrong_kind(Need::Skeleton))
    }

    /// The file's meshes (none if it has none).
    pub fn skins(&self, options: RigOptions) -> Result<Vec<rig::Skin>, CliError> {
        self.document
            .rig()
            .skins(&self.files, options)
            .transpose()
            .map(Option::unwrap_or_default)
            .map_err(|error| self.fail(error))
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
    pub fn named_animations(&self) -> Result<Vec<rig::NamedAnimation>, CliError> {
        self.document
            .rig()
            .named_animations(&self.files)
            .ok_or_else(|| self.wrong_kind(Need::Animation))
    }

    /// The animation named `name` (or the file's only one, without a name),
    /// read alone: the others' data is not needed. An error lists the names.
    pub fn chosen_animation(&self, name: Option<&str>) -> Result<rig::Animation, CliError> {
        let mut named = self.named_animations()?;
        let position = match (name, named.len()) {
            (Some(name), _) => named
                .iter()
                .position(|animation| animation.name == name)
                .ok_or_else(|| {
                    CliError::Usage(format!(
                        "{} has no animation named {name:?}; it has: {}",
                        self.path.display(),
                        names(&named)
                    ))
                })?,
            (None, 1) => 0,
            (None, 0) => return Err(self.wrong_kind(Need::Animation)),
            (None, _) => {
                return Err(CliError::Usage(format!(
                    "{} holds several animations; choose one with --skill NAME: {}",
                    self.path.display(),
                    names(&named)
                )))
            }
        };
        named
            .swap_remove(position)
            .animation
            .map_err(|error| self.fail(error))
    }
}

/// What a command needs from a file.
#[derive(Debug, Clone, Copy)]
pub enum Need {
    Skeleton,
    Meshes,
    Animation,
}

/// The animation a posing command is asked for.
pub struct AnimationChoice<'a> {
    pub file: Option<&'a Path>,
    /// `--frame`, from 0.
    pub frame: Option<usize>,
    /// `--skill`: which of a file's animations.
    pub name: Option<&'a str>,
}

/// What an animation makes of one frame.
pub enum Frame {
    /// Joint transforms replacing the rest pose.
    Joints(Pose),
    /// The mesh's vertex positions themselves.
    Vertices(Vec<[f32; 3]>),
}

/// A skeleton in the pose the command asked for.
pub struct Posed {
    pub skeleton: Skeleton,
    pub model: Vec<Affine3A>,
    /// Vertex positions an animation gives directly, if it does.
    pub vertices: Option<Vec<[f32; 3]>>,
    pub axes: rig::Axes,
}

/// The chosen animation's frame, or `None` without `--anim`. Files named by
/// options are identified by extension, then by content (`--format` is for
/// the command's own inputs).
pub fn animation_frame(
    catalogue: &Catalogue,
    choice: &AnimationChoice,
    skeleton: &Skeleton,
) -> Result<Option<Frame>, CliError> {
    let Some(path) = choice.file else {
        return Ok(None);
    };
    let input = load(catalogue, path, None)?;
    let animation = input.chosen_animation(choice.name)?;
    let frames = animation.times.len();
    let frame = choice.frame.unwrap_or(0);
    if frame >= frames {
        return Err(CliError::Usage(format!(
            "--frame {frame} is past the end of {}: its animation has {frames} frame(s), counted from 0",
            path.display()
        )));
    }
    Ok(Some(match animation.motion {
        Motion::Joints(motion) => {
            let clip = Clip::bind(&motion, frames, skeleton).map_err(|error| input.fail(error))?;
            Frame::Joints(
                clip.pose(skeleton, frame)
                    .map_err(|error| input.fail(error))?,
            )
        }
        Motion::Vertices(mut positions) => Frame::Vertices(
            positions
                .get_mut(frame)
                .map(std::mem::take)
                .unwrap_or_default(),
        ),
        Motion::Incomplete { needs } => {
            return Err(input.fail(Problem::Incomplete { needs }));
        }
    }))
}

pub fn names(animations: &[rig::NamedAnimation]) -> String {
    animations
        .iter()
        .map(|animation| animation.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `skeleton` (from `input`) posed at rest or at the chosen frame, its
/// joints composed as `composition` says.
pub fn pose(
    catalogue: &Catalogue,
    input: &Input,
    skeleton: &rig::Skeleton,
    choice: &AnimationChoice,
    composition: Composition,
) -> Result<Posed, CliError> {
    let skeleton = Skeleton::new(skeleton).map_err(|error| input.fail(error))?;
    let (pose, vertices) = match animation_frame(catalogue, choice, &skeleton)? {
        None => (Pose::rest(&skeleton), None),
        Some(Frame::Joints(pose)) => (pose, None),
        Some(Frame::Vertices(vertices)) => (Pose::rest(&skeleton), Some(vertices)),
    };
    let model = pose
        .model_matrices_by(&skeleton, composition)
        .map_err(|error| input.fail(error))?;
    Ok(Posed {
        axes: skeleton.axes(),
        skeleton,
        model,
        vertices,
    })
}

/// Every `--blend` name must be a morph target of one of the skins.
pub fn check_blends(blends: &[(String, f32)], skins: &[&rig::Skin]) -> Result<(), CliError> {
    let mut targets: Vec<&str> = skins
        .iter()
        .flat_map(|skin| &skin.morph_targets)
        .map(|target| target.name.as_str())
        .collect();
    targets.sort_unstable();
    targets.dedup();
    match blends
        .iter()
        .find(|(name, _)| !targets.contains(&name.as_str()))
    {
        None => Ok(()),
        Some((name, _)) if targets.is_empty() => Err(CliError::Usage(format!(
            "--blend {name}: the meshes have no morph targets"
        ))),
        Some((name, _)) => Err(CliError::Usage(format!(
            "--blend {name}: no mesh has a morph target of that name; they have: {}",
            targets.join(", ")
        ))),
    }
}

/// A skin, its morph targets weighted by `blends` (`--blend`), deformed by
/// a posed skeleton: positions and normals in the file's own axes. `path`
/// names the file the skin came from, for errors.
pub fn deform(
    path: &Path,
    skin: &rig::Skin,
    posed: &Posed,
    blends: &[(String, f32)],
) -> Result<PosedSkin, CliError> {
    let fail = |problem: Problem| CliError::input(path, problem);
    let deformed = BoundSkin::bind(skin, &posed.skeleton)
        .and_then(|bound| bound.morphed(blends).deform(&posed.model, BlendRule::Game))
        .map_err(|error| fail(error.into()))?;
    let positions = match &posed.vertices {
        Some(vertices) if vertices.len() == skin.positions.len() => {
            vertices.iter().copied().map(Vec3::from_array).collect()
        }
        Some(vertices) => {
            return Err(fail(Problem::Skin(skinning::SkinError::VertexData {
                positions: skin.positions.len(),
                what: "animated positions",
                count: vertices.len(),
            })))
        }
        None => deformed.positions,
    };
    Ok(PosedSkin {
        positions,
        normals: deformed.normals,
    })
}
