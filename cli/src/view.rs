//! `ossuary view PATH... [--port N] [--open]`: the web page of the
//! `viewer` crate, served until Ctrl-C, its assets and facts made by the
//! same code as `convert` to glTF and `info`.

use std::path::{Path, PathBuf};
use std::sync::mpsc;

use export::Container;
use formats::catalogue::Catalogue;
use formats::rig::{self, RigOptions};
use viewer::listing::family_of;
use viewer::roots::Roots;
use viewer::server::{self, Viewer};
use viewer::{Assets, GltfRequest, Info, Made, Refused, Skill, Variable};

use crate::error::{shown, CliError};
use crate::input::{self, Input};
use crate::options::OutcastOrder;
use crate::{gltf, info, Context};

/// `ossuary view`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The folders (or files) whose characters to show.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The port to listen on, on 127.0.0.1 only (0: a free one).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub port: u16,
    /// Also open the page in the default browser.
    #[arg(long)]
    pub open: bool,
}

/// The most levels of detail looked for.
const MAX_LEVELS: usize = 16;

pub fn run(context: &mut Context, args: &Args) -> Result<bool, CliError> {
    let roots = Roots::new(&args.paths).map_err(|error| CliError::Usage(error.to_string()))?;
    // Files the shown ones refer to are read only under the paths given.
    let folders: Vec<PathBuf> = roots.iter().map(|root| root.path.clone()).collect();
    let assets = CommandLine {
        catalogue: context.catalogue,
        reading: input::Reading {
            within: Some(folders.into()),
            ..input::reading()
        },
    };
    let viewer = Viewer {
        roots,
        catalogue: context.catalogue,
        assets: Box::new(assets),
    };
    // Ctrl-C is caught before the address is printed: whoever reads it may
    // press Ctrl-C at once.
    let (stop, stopped) = mpsc::channel();
    ctrlc::set_handler(move || {
        let _ = stop.send(());
    })
    .map_err(|error| CliError::Usage(format!("cannot wait for Ctrl-C: {error}")))?;
    let running =
        server::start(viewer, args.port).map_err(|error| CliError::Usage(error.to_string()))?;
    context.print(&format!("{}\n", running.url()))?;
    context.stdout.flush().map_err(|source| CliError::Output {
        path: PathBuf::from("-"),
        source,
    })?;
    if args.open {
        if let Err(error) = opener::open_browser(running.url()) {
            context.warn(&format!(
                "cannot open a browser ({error}); open {} by hand",
                running.url()
            ));
        }
    }
    let _ = stopped.recv();
    running.stop();
    Ok(true)
}

/// The command line's own code, answering the page.
struct CommandLine {
    catalogue: Catalogue,
    reading: input::Reading,
}

impl CommandLine {
    /// Runs `command` as a command line would, its warnings kept.
    fn run<T>(
        &self,
        command: impl FnOnce(&mut Context) -> Result<T, CliError>,
    ) -> (Result<T, Refused>, Vec<String>) {
        // Each server thread reads as the command line does, under the
        // paths given only.
        input::set_reading(self.reading.clone());
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let mut context = Context {
            catalogue: self.catalogue,
            stdout: &mut stdout,
            stderr: &mut stderr,
        };
        let result = command(&mut context).map_err(|error| Refused {
            usage: matches!(error, CliError::Usage(_)),
            message: error.to_string(),
        });
        let warnings = String::from_utf8_lossy(&stderr)
            .lines()
            .map(|line| {
                line.strip_prefix("ossuary: warning: ")
                    .unwrap_or(line)
                    .to_owned()
            })
            .collect();
        (result, warnings)
    }
}

impl Assets for CommandLine {
    fn gltf(&self, request: &GltfRequest) -> Result<Made, Refused> {
        let inputs: Vec<PathBuf> = std::iter::once(request.open.clone())
            .chain(request.meshes.iter().cloned())
            .collect();
        let animations: Vec<PathBuf> = request.anim.iter().cloned().collect();
        let skills: Vec<String> = request.skill.iter().cloned().collect();
        let customization = customization_for_export(&request.customization);
        let (glb, warnings) = self.run(|context| {
            let convert = gltf::Request {
                inputs: &inputs,
                animations: &animations,
                skills: &skills,
                blend_weights: &request.blends,
                composition: OutcastOrder::ChildFirst.composition(),
                options: RigOptions { lod: request.lod },
                format: None,
                container: Container::Glb,
                dressing: request.dressing.clone(),
                // Export tints the materials; the viewer applies nothing
                // itself.
                customization: &customization,
                // A part that is missing is left out; the rest is shown.
                leave_out_missing: true,
                carry_files: false,
            };
            gltf::assemble(context, &convert)
        });
        Ok(Made {
            glb: glb?,
            warnings,
        })
    }

    fn info(
        &self,
        open: &Path,
        meshes: &[PathBuf],
        anim: Option<&Path>,
        lod: usize,
    ) -> Result<Info, Refused> {
        let (info, warnings) = self.run(|context| {
            let catalogue = context.catalogue;
            let input = input::load(&catalogue, open, None)?;
            let animated = match anim {
                Some(anim) => Some(input::load(&catalogue, anim, None)?),
                None => None,
            };
            let info = facts(&input, animated.as_ref().unwrap_or(&input), lod)?;
            let worn = load_all(&catalogue, meshes)?;
            let variables = variables_of(std::iter::once(&input).chain(&worn), lod);
            Ok(Info { variables, ..info })
        });
        Ok(Info { warnings, ..info? })
    }

    fn variables(
        &self,
        open: &Path,
        meshes: &[PathBuf],
        lod: usize,
    ) -> Result<Vec<Variable>, Refused> {
        let (variables, _) = self.run(|context| {
            let input = input::load(&context.catalogue, open, None)?;
            let worn = load_all(&context.catalogue, meshes)?;
            Ok(variables_of(std::iter::once(&input).chain(&worn), lod))
        });
        variables
    }
}

fn load_all(catalogue: &Catalogue, paths: &[PathBuf]) -> Result<Vec<Input>, CliError> {
    paths
        .iter()
        .map(|path| input::load(catalogue, path, None))
        .collect()
}

/// The chosen customization as export takes it (`--custom`'s values).
/// The server has checked each value against its variable's choices (a
/// palette's entries, a run of textures), all well within an `i32`.
fn customization_for_export(chosen: &[(String, u32)]) -> Vec<(String, i32)> {
    chosen
        .iter()
        .map(|(name, value)| (name.clone(), i32::try_from(*value).unwrap_or(i32::MAX)))
        .collect()
}

/// The customization variables of the shaders the meshes of `inputs` name
/// at level `lod`, each name once (the first shader naming it says what it
/// chooses), as export applies them: palette entries tinting a texture
/// factor, and texture switches. A shader or palette that cannot be had
/// gives no variables: making the asset says why.
fn variables_of<'a>(inputs: impl Iterator<Item = &'a Input>, lod: usize) -> Vec<Variable> {
    let mut variables: Vec<Variable> = Vec::new();
    // Only Star Wars Galaxies meshes name shaders: no other file's skins
    // are made for this.
    for input in inputs.filter(|input| family_of(input.format) == "swg") {
        let Ok(skins) = input.skins(RigOptions { lod }) else {
            continue;
        };
        let names = skins.iter().filter_map(|skin| skin.texture.as_deref());
        for variable in export::shader::variables(names, &input.files) {
            if !variables
                .iter()
                .any(|known| known.name.eq_ignore_ascii_case(&variable.name))
            {
                variables.push(variable);
            }
        }
    }
    variables
}

/// What `info` says of `input`, its levels and the blend targets of its
/// meshes at level `lod` (a level may have fewer), and the skills of
/// `animated`.
fn facts(input: &Input, animated: &Input, lod: usize) -> Result<Info, CliError> {
    let summary = info::summary(
        &shown(&input.path),
        input.format.title,
        input.format.name,
        &input.document.describe(),
    );
    let skins = input.skins(RigOptions { lod }).unwrap_or_default();
    let mut blends: Vec<String> = Vec::new();
    for target in skins.iter().flat_map(|skin| &skin.morph_targets) {
        if !blends.contains(&target.name) {
            blends.push(target.name.clone());
        }
    }
    // A level exists when the file's skeleton and meshes can be had at it.
    let lods = (0..MAX_LEVELS)
        .take_while(|&lod| {
            let options = RigOptions { lod };
            input.skeleton(options).is_ok() && input.skins(options).is_ok()
        })
        .count()
        .max(1);
    let skills = match animated.named_animations() {
        Ok(named) => named
            .into_iter()
            .map(|named| match named.animation {
                // Frames that need another file's to pose anything (a
                // BonesPro `Mesh (bones c.s)` export) cannot be shown alone.
                Ok(rig::Animation {
                    motion: rig::Motion::Incomplete { needs },
                    ..
                }) => Skill {
                    name: named.name,
                    times: Vec::new(),
                    problem: Some(format!(
                        "its frames pose nothing on their own: {needs} is needed"
                    )),
                },
                Ok(animation) => Skill {
                    name: named.name,
                    times: animation.times,
                    problem: None,
                },
                Err(error) => Skill {
                    name: named.name,
                    times: Vec::new(),
                    problem: Some(error.to_string()),
                },
            })
            .collect(),
        // A file without animations has no skills to offer.
        Err(_) => Vec::new(),
    };
    let axes = match input.skeleton(RigOptions::default()) {
        Ok(Some(skeleton)) => match skeleton.axes {
            rig::Axes::LeftHandedYUp => "left-handed-y-up",
            rig::Axes::RightHandedZUp => "right-handed-z-up",
            rig::Axes::RightHandedYUp => "right-handed-y-up",
        },
        _ => "",
    };
    Ok(Info {
        facts: summary.lines().map(str::to_owned).collect(),
        lods,
        blends,
        skills,
        warnings: Vec::new(),
        axes: axes.to_owned(),
        variables: Vec::new(),
    })
}
