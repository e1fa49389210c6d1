//! `ossuary skin`: a mesh deformed by a skeleton, written as OBJ.

use std::fmt::Write as _;
use std::path::Path;

use formats::rig;
use skinning::PosedSkin;

use crate::error::CliError;
use crate::input::{self, Need};
use crate::{output, Context, Posing};

pub fn run(
    context: &mut Context,
    mesh_path: &Path,
    skeleton_path: Option<&Path>,
    output_path: &Path,
    format: Option<&str>,
    posing: &Posing,
) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    // An OBJ written to a file gets its materials beside it; standard
    // output carries the OBJ alone.
    let materials_path =
        (output_path.as_os_str() != "-").then(|| output_path.with_extension("mtl"));
    if materials_path.as_deref() == Some(output_path) {
        return Err(CliError::Usage(format!(
            "{}: the OBJ would overwrite its own .mtl; name it .obj",
            output_path.display()
        )));
    }
    let mesh = input::load(&catalogue, mesh_path, format)?;
    let skins = mesh.skins(posing.options())?;
    if skins.is_empty() {
        return Err(mesh.wrong_kind(Need::Meshes));
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
    let heading = format!("# ossuary skin: {}\n", mesh_path.display());
    let mut obj = heading.clone();
    if let Some(file_name) = materials_path.as_deref().and_then(Path::file_name) {
        let _ = writeln!(obj, "mtllib {}", file_name.to_string_lossy());
    }
    let mut first_vertex = 1;
    for skin in &skins {
        let deformed = input::deform(mesh_path, skin, &posed)?;
        write_obj(
            &mut obj,
            skin,
            &deformed,
            first_vertex,
            materials_path.is_some(),
        );
        first_vertex += skin.positions.len();
    }
    match materials_path {
        Some(materials_path) => {
            let mtl = heading + &materials(&skins);
            output::write_files(&[
                (&materials_path, mtl.as_bytes()),
                (output_path, obj.as_bytes()),
            ])?;
        }
        None => output::write(context, output_path, obj.as_bytes())?,
    }
    Ok(true)
}

/// The material name of a skin: its name, with no white space (OBJ and
/// MTL names end at the first).
fn material_name(skin: &rig::Skin) -> String {
    skin.name
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// Wavefront MTL: one white material per skin, with the texture the skin
/// names, as it names it.
fn materials(skins: &[rig::Skin]) -> String {
    let mut text = String::new();
    for skin in skins {
        let _ = writeln!(text, "newmtl {}", material_name(skin));
        let _ = writeln!(text, "Kd 1 1 1");
        if let Some(texture) = &skin.texture {
            let _ = writeln!(text, "map_Kd {texture}");
        }
    }
    text
}

/// Wavefront OBJ: one `v` per vertex in file order (then `vn` and `vt` when
/// the mesh has them), then the faces as in the file, numbered from
/// `first_vertex` (OBJ counts from 1 across the whole file), in the skin's
/// material when there is an MTL.
fn write_obj(
    text: &mut String,
    skin: &rig::Skin,
    posed: &PosedSkin,
    first_vertex: usize,
    with_material: bool,
) {
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
    if with_material {
        let _ = writeln!(text, "usemtl {}", material_name(skin));
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
