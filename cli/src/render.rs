//! `ossuary render`: a picture of a posed skeleton and its meshes.

use std::path::Path;

use skinning::adapt::{FileSkeleton, Handedness};
use skinning::handedness::mirror_position;
use skinning::render::{render_png, ImageSize, RenderJoint, Scene};
use skinning::{joint_states, model_matrices};

use crate::error::CliError;
use crate::joints::load_skeleton;
use crate::output;

pub fn run(
    skeleton_path: &Path,
    output_path: &Path,
    size: ImageSize,
    format: Option<&str>,
) -> Result<bool, CliError> {
    let file_skeleton = load_skeleton(skeleton_path, format)?;
    let joints = render_joints(&file_skeleton, skeleton_path)?;
    let title = file_name(skeleton_path);
    let scene = Scene {
        joints: &joints,
        meshes: &[],
        title: &title,
    };
    let png = render_png(&scene, size)
        .map_err(|e| CliError::Input(format!("{}: {e}", output_path.display())))?;
    output::write_atomically(output_path, &png)?;
    Ok(true)
}

/// Rest-pose joints, mirrored to right-handed axes when the file is
/// left-handed, so the picture shows the figure as the game did (a Sim's
/// left arm on the picture's right in the front view).
fn render_joints(file_skeleton: &FileSkeleton, path: &Path) -> Result<Vec<RenderJoint>, CliError> {
    let skeleton = &file_skeleton.skeleton;
    let model = model_matrices(skeleton, skeleton.rest_locals())
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
    Ok(joint_states(&model)
        .iter()
        .zip(skeleton.parents())
        .map(|(state, parent)| RenderJoint {
            position: match file_skeleton.handedness {
                Handedness::Left => mirror_position(state.position),
                Handedness::Right => state.position,
            },
            parent: *parent,
        })
        .collect())
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// Parses `WxH`, e.g. `800x600`.
pub fn parse_size(text: &str) -> Result<ImageSize, String> {
    let (width, height) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{text}` is not WIDTHxHEIGHT, e.g. 800x600"))?;
    let number = |part: &str| {
        part.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{text}` is not WIDTHxHEIGHT, e.g. 800x600"))
    };
    Ok(ImageSize {
        width: number(width)?,
        height: number(height)?,
    })
}
