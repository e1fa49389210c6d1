//! `ossuary skin`: a mesh deformed by a skeleton, written as OBJ.

use std::fmt::Write as _;
use std::path::Path;

use formats::rig;
use skinning::PosedSkin;

use crate::error::CliError;
use crate::{input, output, Context, Posing};

pub fn run(
    context: &mut Context,
    mesh_path: &Path,
    skeleton_path: Option<&Path>,
    output_path: &Path,
    format: Option<&str>,
    posing: &Posing,
) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    let mesh = input::load(&catalogue, mesh_path, format)?;
    let skins = mesh.skins(posing.options())?;
    if skins.is_empty() {
        return Err(mesh.wrong_kind("mesh"));
    }
    let skeleton_input = match skeleton_path {
        Some(path) => input::load(&catalogue, path, None)?,
        None => mesh,
    };
    let skeleton = skeleton_input.required_skeleton(posing.options())?;
    let posed = input::pose(
        &catalogue,
        &skeleton_input,
        &skeleton,
        &posing.animation(),
        posing.composition(),
    )?;
    let mut text = format!("# ossuary skin: {}\n", mesh_path.display());
    let mut first_vertex = 1;
    for skin in &skins {
        let deformed = input::deform(mesh_path, skin, &posed)?;
        write_obj(&mut text, skin, &deformed, first_vertex);
        first_vertex += skin.positions.len();
    }
    output::write(context, output_path, text.as_bytes())?;
    Ok(true)
}

/// Wavefront OBJ: one `v` per vertex in file order (then `vn` and `vt` when
/// the mesh has them), then the faces as in the file, numbered from
/// `first_vertex` (OBJ counts from 1 across the whole file).
fn write_obj(text: &mut String, skin: &rig::Skin, posed: &PosedSkin, first_vertex: usize) {
    let _ = writeln!(text, "o {}", skin.name);
    for position in &posed.positions {
        let _ = writeln!(text, "v {} {} {}", position.x, position.y, position.z);
    }
    for normal in &posed.normals {
        let _ = writeln!(text, "vn {} {} {}", normal.x, normal.y, normal.z);
    }
    for [u, v] in &skin.uvs {
        let _ = writeln!(text, "vt {u} {v}");
    }
    let corner = |index: u32| {
        let number = index as usize + first_vertex;
        match (posed.normals.is_empty(), skin.uvs.is_empty()) {
            (false, false) => format!("{number}/{number}/{number}"),
            (false, true) => format!("{number}//{number}"),
            (true, false) => format!("{number}/{number}"),
            (true, true) => number.to_string(),
        }
    };
    for [a, b, c] in &skin.triangles {
        let _ = writeln!(text, "f {} {} {}", corner(*a), corner(*b), corner(*c));
    }
}
