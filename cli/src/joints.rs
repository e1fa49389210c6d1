//! `ossuary joints`: model-space joints of a skeleton at rest, as JSON.

use std::path::Path;

use serde_json::{json, Value};
use skinning::adapt::{self, FileSkeleton};
use skinning::{joint_states, Pose};

use crate::error::CliError;
use crate::input;

pub fn run(file: &Path, format: Option<&str>) -> Result<bool, CliError> {
    let skeleton = load_skeleton(file, format)?;
    println!("{}", joints_json(&skeleton, file)?);
    Ok(true)
}

/// The file's skeleton, or an error if it has none or it is not a tree.
pub fn load_skeleton(file: &Path, format: Option<&str>) -> Result<FileSkeleton, CliError> {
    let loaded = input::load(file, format)?;
    adapt::skeleton_of(loaded.document.as_any())
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{}: a {} has no skeleton to pose",
                file.display(),
                loaded.format.title
            ))
        })?
        .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))
}

/// One object per joint in file order: name, parent name (or null), and
/// model-space position and rotation in the file's own axes. The rotation is
/// a column-vector quaternion (x, y, z, w) with w >= 0.
fn joints_json(file_skeleton: &FileSkeleton, file: &Path) -> Result<String, CliError> {
    let skeleton = &file_skeleton.skeleton;
    let model = Pose::rest(skeleton)
        .model_matrices(skeleton)
        .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
    let names = skeleton.names();
    let joints: Vec<Value> = joint_states(&model)
        .iter()
        .zip(names.iter().zip(skeleton.parents()))
        .map(|(state, (name, parent))| {
            let parent = parent.and_then(|index| names.get(index as usize));
            let rotation = if state.rotation.w < 0.0 {
                -state.rotation
            } else {
                state.rotation
            };
            json!({
                "name": name,
                "parent": parent,
                "position": state.position.to_array(),
                "rotation": rotation.to_array(),
            })
        })
        .collect();
    serde_json::to_string_pretty(&joints)
        .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))
}
