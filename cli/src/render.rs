//! `ossuary render`: a picture of a posed skeleton and the meshes of every
//! file given.

use std::path::{Path, PathBuf};

use ::render::{render_png, ImageSize, RenderJoint, RenderMesh, Scene};
use skinning::{joint_states, PosedSkin};

use crate::error::CliError;
use crate::input::{self, Input};
use crate::{output, Context, Posing};

pub fn run(
    context: &mut Context,
    paths: &[PathBuf],
    output_path: &Path,
    size: ImageSize,
    format: Option<&str>,
    posing: &Posing,
) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    let inputs = paths
        .iter()
        .map(|path| input::load(&catalogue, path, format))
        .collect::<Result<Vec<Input>, CliError>>()?;
    let mut skeleton = None;
    for input in &inputs {
        if let Some(found) = input.skeleton(posing.options())? {
            skeleton = Some((input, found));
            break;
        }
    }
    let Some((skeleton_input, skeleton)) = skeleton else {
        let first = inputs
            .first()
            .ok_or_else(|| CliError::Usage("no file to render".to_owned()))?;
        return Err(first.wrong_kind("skeleton to pose"));
    };
    let posed = input::pose(
        &catalogue,
        skeleton_input,
        &skeleton,
        &posing.animation(),
        posing.composition(),
    )?;
    let mut meshes: Vec<(formats::rig::Skin, PosedSkin)> = Vec::new();
    for input in &inputs {
        for skin in input.skins(posing.options())? {
            let deformed = input::deform(&input.path, &skin, &posed)?;
            meshes.push((skin, deformed));
        }
    }
    let joints: Vec<RenderJoint> = joint_states(&posed.model)
        .iter()
        .zip(posed.skeleton.parents())
        .map(|(state, parent)| RenderJoint {
            position: state.position,
            parent: *parent,
        })
        .collect();
    let render_meshes: Vec<RenderMesh> = meshes
        .iter()
        .map(|(skin, posed)| RenderMesh {
            positions: &posed.positions,
            triangles: &skin.triangles,
        })
        .collect();
    let title = paths
        .iter()
        .map(|path| file_name(path))
        .collect::<Vec<_>>()
        .join(" + ");
    let scene = Scene {
        joints: &joints,
        meshes: &render_meshes,
        title: &title,
        axes: posed.axes,
    };
    let png = render_png(&scene, size).map_err(|error| CliError::input(output_path, error))?;
    output::write(context, output_path, &png)?;
    Ok(true)
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
