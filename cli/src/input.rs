//! Reading input files and what the posing commands build from them: the
//! format chosen, the document decoded, its skeleton posed (at rest or at a
//! frame of an animation) and its skins deformed. Commands take their inputs
//! from here and never from each other. Files are read as
//! [`export::input`] reads them for the viewer too, within the limit the
//! command line sets for its thread.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use formats::catalogue::Catalogue;
use formats::format::{Document, Format};
use formats::rig::{self, Motion};
use glam::{Affine3A, Vec3};
use skinning::{BlendRule, BoundSkin, Clip, Composition, Pose, PosedSkin, Skeleton};

use crate::error::{CliError, Problem};

pub use export::input::{known_names, Input, Need, Reading};

pub fn format_named(catalogue: &Catalogue, name: &str) -> Result<&'static Format, CliError> {
    Ok(export::input::format_named(catalogue, name)?)
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
    Ok(export::input::read(path, reading().limit)?)
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
    Ok(export::input::format_of(catalogue, path, bytes, forced)?)
}

/// The format the file's name or bytes show ([`export::input::identify`]).
pub fn identify(
    catalogue: &Catalogue,
    path: &Path,
    bytes: &[u8],
) -> Result<&'static Format, Problem> {
    export::input::identify(catalogue, path, bytes)
        .map_err(|readable_as| Problem::Unidentified { readable_as })
}

pub fn decode(
    path: &Path,
    format: &'static Format,
    bytes: &[u8],
) -> Result<Box<dyn Document>, CliError> {
    Ok(export::input::decode(path, format, bytes)?)
}

/// Reads, identifies and decodes a file, as this thread reads files.
pub fn load(catalogue: &Catalogue, path: &Path, forced: Option<&str>) -> Result<Input, CliError> {
    Ok(export::input::load(catalogue, path, forced, &reading())?)
}

/// `input`'s failure: the file, then what is wrong.
fn failed(input: &Input, problem: impl Into<Problem>) -> CliError {
    CliError::input(&input.path, problem)
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
            let clip =
                Clip::bind(&motion, frames, skeleton).map_err(|error| failed(&input, error))?;
            Frame::Joints(
                clip.pose(skeleton, frame)
                    .map_err(|error| failed(&input, error))?,
            )
        }
        Motion::Vertices(mut positions) => Frame::Vertices(
            positions
                .get_mut(frame)
                .map(std::mem::take)
                .unwrap_or_default(),
        ),
        Motion::Incomplete { needs } => {
            return Err(failed(&input, Problem::Incomplete { needs }));
        }
    }))
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
    let skeleton = Skeleton::new(skeleton).map_err(|error| failed(input, error))?;
    let (pose, vertices) = match animation_frame(catalogue, choice, &skeleton)? {
        None => (Pose::rest(&skeleton), None),
        Some(Frame::Joints(pose)) => (pose, None),
        Some(Frame::Vertices(vertices)) => (Pose::rest(&skeleton), Some(vertices)),
    };
    let model = pose
        .model_matrices_by(&skeleton, composition)
        .map_err(|error| failed(input, error))?;
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
