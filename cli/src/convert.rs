//! `ossuary convert`: its arguments, and which conversion they ask for:
//! to glTF ([`crate::gltf`]: a character, or an object file's 3D meshes), a
//! 1998 prototype character to the released
//! formats ([`crate::retail`]), or between formats that carry the same data
//! ([`crate::twin`]).

use std::path::PathBuf;

use formats::rig::RigOptions;

use crate::error::CliError;
use crate::options::{Dressing, Morphing, OutcastOrder};
use crate::{gltf, gltf_in, retail, twin, Context};

/// `ossuary convert`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The files, or folders, to convert (`-` for standard input); for glTF, the skeleton, then meshes or suits.
    #[arg(required = true, value_name = "IN")]
    pub inputs: Vec<PathBuf>,
    /// The file to write (`-` for standard output, with --to), or the folder to write into.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Write this format whatever OUT's extension says (`gltf`, `glb` or a format name; needed for a folder).
    #[arg(long, value_name = "NAME")]
    pub to: Option<String>,
    /// Read the inputs as this format instead of guessing it.
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
    /// glTF only: animations to include, every one each file holds.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub anim: Vec<PathBuf>,
    /// glTF only: take only the animation of this name from the --anim files
    /// (repeatable). Without it every animation whose data is found is taken,
    /// and one whose data is missing is left out with a warning.
    #[arg(long, value_name = "NAME", requires = "anim")]
    pub skill: Vec<String>,
    /// From glTF: the skeleton the suits are meant for (else the game's
    /// `adult-skeleton.cmx` or `child-skeleton.cmx` beside the glTF).
    #[arg(long, value_name = "FILE", conflicts_with = "write_skeleton")]
    pub skeleton: Option<PathBuf>,
    /// From glTF: write the glTF's own skeleton as a new skeleton file.
    #[arg(long)]
    pub write_skeleton: bool,
    /// glTF only: level of detail of skeletons and meshes, 0 the most detailed.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub lod: usize,
    /// glTF only: the meshes' blend shapes are exported as morph targets; this
    /// gives one its default weight by name, e.g. `blend_fat=0.5` (others 0).
    #[command(flatten)]
    pub morphing: Morphing,
    /// glTF only: how an Outcast skeleton composes its joints' turns (as
    /// `joints --outcast-order`); the asset's nodes then hold the locals that
    /// give those poses.
    #[arg(long, value_name = "ORDER", value_enum, default_value_t = OutcastOrder::ChildFirst)]
    pub outcast_order: OutcastOrder,
    /// glTF only: the images the meshes are dressed with.
    #[command(flatten)]
    pub dressing: Dressing,
}

impl Args {
    /// Whether an option only glTF output takes is given.
    fn asks_for_gltf_options(&self) -> bool {
        !self.anim.is_empty()
            || !self.skill.is_empty()
            || !self.morphing.blends.is_empty()
            || !matches!(self.outcast_order, OutcastOrder::ChildFirst)
            || self.lod != 0
            || self.dressing.given()
    }
}

pub fn run(context: &mut Context, args: &Args) -> Result<bool, CliError> {
    let (from, to) = (args.format.as_deref(), args.to.as_deref());
    if let ([input], Some(family @ ("sims-cmx" | "sims-bcf"))) = (args.inputs.as_slice(), to) {
        if gltf_in::is_gltf(input) {
            let request = gltf_in::Request {
                input,
                folder: &args.output,
                skeleton: args.skeleton.as_deref(),
                write_skeleton: args.write_skeleton,
                binary: family == "sims-bcf",
            };
            return gltf_in::run_sims(context, &request);
        }
    }
    if let ([input], Some("swg-sat")) = (args.inputs.as_slice(), to) {
        if gltf_in::is_gltf(input) {
            let request = gltf_in::Request {
                input,
                folder: &args.output,
                skeleton: args.skeleton.as_deref(),
                write_skeleton: args.write_skeleton,
                binary: false,
            };
            return gltf_in::run_swg(context, &request);
        }
    }
    if args.skeleton.is_some() || args.write_skeleton {
        return Err(CliError::Usage(
            "--skeleton and --write-skeleton apply to a glTF input converted to the game's files"
                .to_owned(),
        ));
    }
    if let Some(container) = gltf::container(&args.output, to) {
        let catalogue = context.catalogue;
        if let [input] = args.inputs.as_slice() {
            if gltf::is_object_file(&catalogue, input, from) {
                if args.asks_for_gltf_options() {
                    return Err(CliError::Usage(
                        "--anim, --skill, --blend, --outcast-order, --lod and the dressing \
                         options apply to characters, not to an object file's meshes"
                            .to_owned(),
                    ));
                }
                return gltf::run_object(context, input, from, container, &args.output);
            }
        }
        let request = gltf::Request {
            inputs: &args.inputs,
            animations: &args.anim,
            skills: &args.skill,
            blend_weights: &args.morphing.blends,
            composition: args.outcast_order.composition(),
            options: RigOptions { lod: args.lod },
            format: from,
            container,
            dressing: args.dressing.dressing(),
            customization: &args.dressing.custom,
            leave_out_missing: false,
            carry_files: true,
        };
        return gltf::run(context, &request, &args.output);
    }
    if let Some(done) = retail::run(context, &args.inputs, &args.output, from, to)? {
        return Ok(done);
    }
    if args.asks_for_gltf_options() {
        return Err(CliError::Usage(
            "--anim, --skill, --blend, --outcast-order and --lod apply to glTF output only"
                .to_owned(),
        ));
    }
    twin::run(context, &args.inputs, &args.output, from, to)
}
