//! `ossuary skin`: a mesh deformed by its skeleton, written as OBJ.

use std::fmt::Write as _;
use std::path::Path;

use skinning::adapt::{self, FileSkeleton, PosedMesh};

use crate::error::CliError;
use crate::joints::load_skeleton;
use crate::{input, output};

pub fn run(
    mesh_path: &Path,
    skeleton_path: &Path,
    output_path: &Path,
    format: Option<&str>,
) -> Result<bool, CliError> {
    let skeleton = load_skeleton(skeleton_path, None)?;
    let mesh = load_posed_mesh(mesh_path, format, &skeleton)?;
    let title = format!(
        "{} posed on {}",
        mesh_path.display(),
        skeleton_path.display()
    );
    output::write_atomically(output_path, obj(&mesh, &title).as_bytes())?;
    Ok(true)
}

/// The mesh file deformed by the skeleton at rest.
pub fn load_posed_mesh(
    path: &Path,
    format: Option<&str>,
    skeleton: &FileSkeleton,
) -> Result<PosedMesh, CliError> {
    let loaded = input::load(path, format)?;
    adapt::posed_mesh(loaded.document.as_any(), skeleton)
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{}: a {} is not a mesh",
                path.display(),
                loaded.format.title
            ))
        })?
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))
}

/// Wavefront OBJ: one `v`, `vn` and `vt` per real vertex in file order, then
/// the faces (1-based) as in the file.
fn obj(mesh: &PosedMesh, title: &str) -> String {
    let mut text = format!("# ossuary skin: {title}\n");
    for position in &mesh.positions {
        let _ = writeln!(text, "v {} {} {}", position.x, position.y, position.z);
    }
    for normal in &mesh.normals {
        let _ = writeln!(text, "vn {} {} {}", normal.x, normal.y, normal.z);
    }
    for [u, v] in &mesh.uvs {
        let _ = writeln!(text, "vt {u} {v}");
    }
    for face in &mesh.faces {
        let [a, b, c] = face.map(|index| index + 1);
        let _ = writeln!(text, "f {a}/{a}/{a} {b}/{b}/{b} {c}/{c}/{c}");
    }
    text
}
