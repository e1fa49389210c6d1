//! `ossuary render`: a picture of posed skeletons and the meshes of every
//! file given. Each file with a skeleton stands as a figure of its own; a
//! file with meshes only is posed by the figure before it (or, before any,
//! by the first). Meshes wear their images, chosen as `convert` chooses
//! them (`--texture`, `--tone`); Star Wars Galaxies meshes the base colour
//! their shaders make (`--custom`).

use std::path::{Path, PathBuf};

use ::render::{render_png, Figure, ImageSize, RenderJoint, RenderMesh, Scene, Texture};
use export::assembly::Assembly;
use export::shader;
use export::{ExportError, MeshProblem};
use formats::rig;
use skinning::{joint_states, PosedSkin};

use crate::error::CliError;
use crate::input::{self, Input, Need, Posed};
use crate::options::{Dressing, Morphing, Posing};
use crate::{output, Context};

/// One figure: the file with the skeleton, and every file it poses.
struct Group<'a> {
    skeleton_input: &'a Input,
    skeleton: rig::Skeleton,
    members: Vec<&'a Input>,
}

/// A figure posed, ready to draw.
struct PosedFigure {
    joints: Vec<RenderJoint>,
    meshes: Vec<PosedMesh>,
    axes: rig::Axes,
}

/// A mesh posed, with its image decoded (width, height, RGBA).
struct PosedMesh {
    skin: rig::Skin,
    posed: PosedSkin,
    image: Option<(u32, u32, Vec<u8>)>,
}

/// `ossuary render`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The files to draw.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The PNG to write (`-` for standard output).
    #[arg(short, long, value_name = "OUT.png")]
    pub output: PathBuf,
    /// Picture size in pixels, each side from 64 to 16384.
    #[arg(long, value_name = "WxH", default_value = "800x600", value_parser = parse_size)]
    pub size: ImageSize,
    /// Draw the meshes only, without bones and joints.
    #[arg(long)]
    pub no_bones: bool,
    /// Read the files as this format instead of guessing it.
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
    #[command(flatten)]
    pub posing: Posing,
    #[command(flatten)]
    pub morphing: Morphing,
    /// The images the meshes are drawn with.
    #[command(flatten)]
    pub dressing: Dressing,
}

pub fn run(context: &mut Context, args: &Args) -> Result<bool, CliError> {
    let (paths, output_path, size, bones) = (&args.files, &args.output, args.size, !args.no_bones);
    let (format, posing, blends) = (args.format.as_deref(), &args.posing, &args.morphing.blends);
    let catalogue = context.catalogue;
    input::at_most_one_stdin(paths)?;
    let inputs = paths
        .iter()
        .map(|path| posing.load(&catalogue, path, format))
        .collect::<Result<Vec<Input>, CliError>>()?;
    let groups = group(&inputs, posing)?;
    let figures = groups
        .iter()
        .map(|group| pose_figure(context, group, (posing, blends), &args.dressing))
        .collect::<Result<Vec<PosedFigure>, CliError>>()?;
    let skins: Vec<&rig::Skin> = figures
        .iter()
        .flat_map(|figure| figure.meshes.iter().map(|mesh| &mesh.skin))
        .collect();
    input::check_blends(blends, &skins)?;
    if !bones && figures.iter().all(|figure| figure.meshes.is_empty()) {
        if let Some(first) = inputs.first() {
            return Err(first.wrong_kind(Need::Meshes).into());
        }
    }
    let render_meshes: Vec<Vec<RenderMesh>> = figures
        .iter()
        .map(|figure| {
            figure
                .meshes
                .iter()
                .map(|mesh| RenderMesh {
                    positions: &mesh.posed.positions,
                    triangles: &mesh.skin.triangles,
                    uvs: &mesh.skin.uvs,
                    texture: mesh.image.as_ref().map(|(width, height, rgba)| Texture {
                        width: *width,
                        height: *height,
                        rgba,
                    }),
                })
                .collect()
        })
        .collect();
    let render_figures: Vec<Figure> = figures
        .iter()
        .zip(&render_meshes)
        .map(|(figure, meshes)| Figure {
            joints: &figure.joints,
            meshes,
            axes: figure.axes,
        })
        .collect();
    let title = groups
        .iter()
        .map(|group| {
            group
                .members
                .iter()
                .map(|input| file_name(&input.path))
                .collect::<Vec<_>>()
                .join(" + ")
        })
        .collect::<Vec<_>>()
        .join(" | ");
    let scene = Scene {
        figures: &render_figures,
        title: &title,
        bones,
    };
    let png = render_png(&scene, size).map_err(|error| CliError::input(output_path, error))?;
    output::write(context, output_path, &png)?;
    Ok(true)
}

/// The figures: each input with a skeleton starts one, and the inputs
/// without one join the figure before them (those before any, the first).
fn group<'a>(inputs: &'a [Input], posing: &Posing) -> Result<Vec<Group<'a>>, CliError> {
    let mut groups: Vec<Group> = Vec::new();
    let mut before_any = Vec::new();
    for input in inputs {
        match (input.skeleton(posing.options())?, groups.last_mut()) {
            (Some(skeleton), _) => groups.push(Group {
                skeleton_input: input,
                skeleton,
                members: vec![input],
            }),
            (None, Some(figure)) => figure.members.push(input),
            (None, None) => before_any.push(input),
        }
    }
    match groups.first_mut() {
        Some(first) => {
            before_any.append(&mut first.members);
            first.members = before_any;
            Ok(groups)
        }
        None => Err(match inputs.first() {
            Some(first) => first.wrong_kind(Need::Skeleton).into(),
            None => CliError::Usage("no file to render".to_owned()),
        }),
    }
}

fn pose_figure(
    context: &mut Context,
    group: &Group,
    (posing, blends): (&Posing, &[(String, f32)]),
    dressing: &Dressing,
) -> Result<PosedFigure, CliError> {
    let posed: Posed = input::pose(
        &context.catalogue,
        group.skeleton_input,
        &group.skeleton,
        &posing.animation(),
        posing.composition(),
    )?;
    // Dressed as `convert` dresses them.
    let mut assembly = Assembly::new(dressing.dressing());
    assembly.customization = dressing.custom.clone();
    let mut meshes = Vec::new();
    for input in &group.members {
        for skin in input.skins(posing.options())? {
            let deformed = input::deform(&input.path, &skin, &posed, blends)?;
            if skin.texture.as_deref().is_some_and(shader::names_shader) {
                let image = assembly.shader(&input.files, &skin).and_then(|material| {
                    let pixels = material.base_colour.clone()?;
                    Some((pixels.width, pixels.height, pixels.rgba))
                });
                meshes.push(PosedMesh {
                    skin,
                    posed: deformed,
                    image,
                });
                continue;
            }
            let image = match assembly
                .image(&input.path, &input.files, &skin)
                .map_err(CliError::from)?
            {
                Some(found) => Some(export::rgba(&found).map_err(|source| {
                    CliError::input(
                        &input.path,
                        Box::new(ExportError::Mesh {
                            index: meshes.len(),
                            name: skin.name.clone(),
                            problem: MeshProblem::Texture {
                                path: found.path.clone(),
                                source,
                            },
                        }),
                    )
                })?),
                None => None,
            };
            meshes.push(PosedMesh {
                skin,
                posed: deformed,
                image,
            });
        }
    }
    assembly.warn_unknown_customization();
    for warning in &assembly.warnings {
        context.warn(warning);
    }
    let joints = joint_states(&posed.model)
        .iter()
        .zip(posed.skeleton.parents())
        .map(|(state, parent)| RenderJoint {
            position: state.position,
            parent: *parent,
        })
        .collect();
    Ok(PosedFigure {
        joints,
        meshes,
        axes: posed.axes,
    })
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// Parses `WxH`, e.g. `800x600`, within the renderer's limits.
pub fn parse_size(text: &str) -> Result<ImageSize, String> {
    let not_a_size = || format!("`{text}` is not WIDTHxHEIGHT, e.g. 800x600");
    let (width, height) = text.split_once(['x', 'X']).ok_or_else(not_a_size)?;
    let number = |part: &str| part.trim().parse::<u32>().map_err(|_| not_a_size());
    ImageSize::new(number(width)?, number(height)?).map_err(|error| error.to_string())
}
