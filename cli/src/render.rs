//! `ossuary render`: a picture of a posed skeleton and its meshes.

use std::path::{Path, PathBuf};

use glam::Vec3;
use skinning::adapt::{FileSkeleton, Handedness};
use skinning::handedness::mirror_position;
use skinning::render::{render_png, ImageSize, RenderJoint, RenderMesh, Scene};
use skinning::{joint_states, Pose};

use crate::error::CliError;
use crate::joints::load_skeleton;
use crate::output;
use crate::skin::load_posed_mesh;

pub fn run(
    skeleton_path: &Path,
    mesh_paths: &[PathBuf],
    output_path: &Path,
    size: ImageSize,
    format: Option<&str>,
) -> Result<bool, CliError> {
    let file_skeleton = load_skeleton(skeleton_path, format)?;
    let mirror = |position: Vec3| match file_skeleton.handedness {
        Handedness::Left => mirror_position(position),
        Handedness::Right => position,
    };
    let joints = render_joints(&file_skeleton, skeleton_path, mirror)?;
    let meshes = mesh_paths
        .iter()
        .map(|path| {
            let mut mesh = load_posed_mesh(path, None, &file_skeleton)?;
            mesh.positions
                .iter_mut()
                .for_each(|position| *position = mirror(*position));
            Ok(mesh)
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    let render_meshes: Vec<RenderMesh> = meshes
        .iter()
        .map(|mesh| RenderMesh {
            positions: &mesh.positions,
            triangles: &mesh.faces,
        })
        .collect();
    let names: Vec<String> = std::iter::once(skeleton_path)
        .chain(mesh_paths.iter().map(PathBuf::as_path))
        .map(file_name)
        .collect();
    let title = names.join(" + ");
    let scene = Scene {
        joints: &joints,
        meshes: &render_meshes,
        title: &title,
    };
    let png = render_png(&scene, size)
        .map_err(|e| CliError::Input(format!("{}: {e}", output_path.display())))?;
    output::write_atomically(output_path, &png)?;
    Ok(true)
}

/// Rest-pose joints. Positions go through `mirror`, which turns left-handed
/// files right-handed so the picture shows the figure as the game did (a
/// Sim's left arm on the picture's right in the front view).
fn render_joints(
    file_skeleton: &FileSkeleton,
    path: &Path,
    mirror: impl Fn(Vec3) -> Vec3,
) -> Result<Vec<RenderJoint>, CliError> {
    let skeleton = &file_skeleton.skeleton;
    let model = Pose::rest(skeleton)
        .model_matrices(skeleton)
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
    Ok(joint_states(&model)
        .iter()
        .zip(skeleton.parents())
        .map(|(state, parent)| RenderJoint {
            position: mirror(state.position),
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
