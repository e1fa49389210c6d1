//! `ossuary joints`: a skeleton's joints in model space, as JSON.

use std::path::PathBuf;

use serde_json::{json, Value};
use skinning::joint_states;

use crate::error::{CliError, Problem};
use crate::input::{self, Posed};
use crate::options::Posing;
use crate::Context;

/// `ossuary joints`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The file with the skeleton (`-` for standard input).
    pub file: PathBuf,
    /// Read FILE as this format instead of guessing it.
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
    #[command(flatten)]
    pub posing: Posing,
}

pub fn run(context: &mut Context, args: &Args) -> Result<bool, CliError> {
    let (file, posing) = (&args.file, &args.posing);
    let input = posing.load(&context.catalogue, file, args.format.as_deref())?;
    let skeleton = input.required_skeleton(posing.options())?;
    let posed = input::pose(
        &context.catalogue,
        &input,
        &skeleton,
        &posing.animation(),
        posing.composition(),
    )?;
    if posed.vertices.is_some() {
        let animation = posing.anim.as_deref().unwrap_or(file);
        return Err(CliError::input(animation, Problem::NoJointMotion));
    }
    let text = serde_json::to_string_pretty(&joints_json(&posed)).unwrap_or_default();
    context.print_json(&format!("{text}\n"))?;
    Ok(true)
}

/// One object per joint in file order: name, parent name (or null), and
/// model-space position and rotation in the file's own axes. The rotation is
/// a column-vector quaternion (x, y, z, w) with w >= 0.
fn joints_json(posed: &Posed) -> Value {
    let names = posed.skeleton.names();
    let joints: Vec<Value> = joint_states(&posed.model)
        .iter()
        .zip(names.iter().zip(posed.skeleton.parents()))
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
    Value::Array(joints)
}
