//! `ossuary skin`: a mesh deformed by a skeleton, written as OBJ.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use formats::rig::{self, RigError};
use glam::Vec3;
use skinning::PosedSkin;

use crate::error::CliError;
use crate::input::{self, Input, Need};
use crate::options::{Dressing, Morphing, Posing};
use crate::{output, Context};
use export::assembly::Assembly;
use export::shader;

/// `ossuary skin`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The file with the mesh (`-` for standard input).
    pub mesh: PathBuf,
    /// The skeleton to pose (not needed when MESH holds its own); several make one.
    #[arg(long, value_name = "FILE")]
    pub skeleton: Vec<PathBuf>,
    /// The OBJ to write (`-` for standard output, without the MTL).
    #[arg(short, long, value_name = "OUT.obj")]
    pub output: PathBuf,
    /// Read MESH as this format instead of guessing it.
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
    #[command(flatten)]
    pub posing: Posing,
    #[command(flatten)]
    pub morphing: Morphing,
    /// The images the MTL gives the meshes.
    #[command(flatten)]
    pub dressing: Dressing,
}

pub fn run(context: &mut Context, args: &Args) -> Result<bool, CliError> {
    let (mesh_path, skeleton_paths, output_path) = (&args.mesh, &args.skeleton, &args.output);
    let (format, posing, blends) = (args.format.as_deref(), &args.posing, &args.morphing.blends);
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
    let mesh = posing.load(&catalogue, mesh_path, format)?;
    let skins = mesh.skins(posing.options())?;
    if skins.is_empty() {
        return Err(mesh.wrong_kind(Need::Meshes).into());
    }
    input::check_blends(blends, &skins.iter().collect::<Vec<_>>())?;
    // Where the skins' texture images are looked up.
    let mesh_files = mesh.files.clone();
    let skeleton_inputs = if skeleton_paths.is_empty() {
        vec![mesh]
    } else {
        skeleton_paths
            .iter()
            .map(|path| posing.load(&catalogue, path, None))
            .collect::<Result<Vec<Input>, CliError>>()?
    };
    let (skeleton_input, skeleton) = combined_skeleton(&skeleton_inputs, posing)?;
    let posed = input::pose(
        &catalogue,
        skeleton_input,
        &skeleton,
        &posing.animation(),
        posing.composition(),
    )?;
    let deformed = skins
        .into_iter()
        .map(|skin| {
            let posed = input::deform(mesh_path, &skin, &posed, blends)?;
            Ok((skin, posed))
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    let heading = format!("# ossuary skin: {}\n", mesh_path.display());
    let mut obj = heading.clone();
    if let Some(file_name) = materials_path.as_deref().and_then(Path::file_name) {
        let _ = writeln!(obj, "mtllib {}", file_name.to_string_lossy());
    }
    obj += &write_obj(&deformed, materials_path.is_some())
        .map_err(|error| CliError::input(mesh_path, error))?;
    match materials_path {
        Some(materials_path) => {
            let mut textured = Vec::with_capacity(deformed.len());
            // Dressed as `convert` dresses them.
            let mut assembly = Assembly::new(args.dressing.dressing());
            assembly.customization = args.dressing.custom.clone();
            for (skin, _) in &deformed {
                // A Star Wars Galaxies mesh names a shader: its main texture
                // (untinted: OBJ has no place for the palette colours).
                let image = if skin.texture.as_deref().is_some_and(shader::names_shader) {
                    assembly
                        .shader(&mesh_files, skin)
                        .and_then(|material| material.main_texture.clone())
                } else {
                    assembly
                        .image(mesh_path, &mesh_files, skin)
                        .map_err(CliError::from)?
                        .map(|found| found.path)
                };
                let image = image.map(|path| std::path::absolute(&path).unwrap_or(path));
                textured.push((skin, image));
            }
            assembly.warn_unknown_customization();
            for warning in &assembly.warnings {
                context.warn(warning);
            }
            let mtl = heading + &materials(&textured);
            output::write_files(&[
                (&materials_path, mtl.as_bytes()),
                (output_path, obj.as_bytes()),
            ])?;
        }
        None => output::write(context, output_path, obj.as_bytes())?,
    }
    Ok(true)
}

/// The skeletons of the inputs as one: the first's joints, then each next
/// input's, whose roots stay roots. Returns the first input with it.
fn combined_skeleton<'a>(
    inputs: &'a [Input],
    posing: &Posing,
) -> Result<(&'a Input, rig::Skeleton), CliError> {
    let (first, rest) = inputs
        .split_first()
        .ok_or_else(|| CliError::Usage("no skeleton to pose".to_owned()))?;
    let mut skeleton = first.required_skeleton(posing.options())?;
    for input in rest {
        skeleton
            .attach(input.required_skeleton(posing.options())?, None)
            .map_err(|error| CliError::input(&input.path, error))?;
    }
    Ok((first, skeleton))
}

/// The material name of a skin: its name, with no white space (OBJ and
/// MTL names end at the first).
fn material_name(skin: &rig::Skin) -> String {
    skin.name
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// Wavefront MTL: one white material per skin, with its texture: the
/// image found for it (as glTF export finds it: beside the mesh's file or
/// in a `Textures` folder there, any case; for a Star Wars Galaxies
/// shader, its main texture), by its full path, else the name the skin
/// gives.
fn materials(skins: &[(&rig::Skin, Option<PathBuf>)]) -> String {
    let mut text = String::new();
    for (skin, image) in skins {
        let _ = writeln!(text, "newmtl {}", material_name(skin));
        let _ = writeln!(text, "Kd 1 1 1");
        match (image, &skin.texture) {
            (Some(image), _) => {
                let _ = writeln!(text, "map_Kd {}", image.display());
            }
            (None, Some(texture)) => {
                let _ = writeln!(text, "map_Kd {texture}");
            }
            (None, None) => {}
        }
    }
    text
}

/// Lines written so far of each kind: OBJ numbers each kind from 1 across
/// the whole file.
#[derive(Default)]
struct Written {
    positions: usize,
    normals: usize,
    uvs: usize,
    /// Shared position lists written, with the number of their first line.
    lists: Vec<(String, usize)>,
}

/// Wavefront OBJ, one object per skin: its `v` lines (a shared position
/// list once, where its first skin comes, in the list's order; else one
/// per vertex), then `vn` and `vt` per vertex when the mesh has them, then
/// the faces as in the file, in the skin's material when there is an MTL.
fn write_obj(skins: &[(rig::Skin, PosedSkin)], with_material: bool) -> Result<String, RigError> {
    let mut text = String::new();
    let mut written = Written::default();
    for (skin, posed) in skins {
        let _ = writeln!(text, "o {}", skin.name);
        let position_numbers: Vec<usize> = match &skin.shared_positions {
            Some(shared) => {
                let first = match written.lists.iter().find(|(list, _)| *list == shared.list) {
                    Some(&(_, first)) => first,
                    None => {
                        let first = written.positions + 1;
                        for position in shared_list(skins, shared)? {
                            write_v(&mut text, position);
                        }
                        written.positions += shared.count as usize;
                        written.lists.push((shared.list.clone(), first));
                        first
                    }
                };
                shared
                    .entries
                    .iter()
                    .map(|&entry| first + entry as usize)
                    .collect()
            }
            None => {
                let first = written.positions + 1;
                for &position in &posed.positions {
                    write_v(&mut text, position);
                }
                written.positions += posed.positions.len();
                (first..first + posed.positions.len()).collect()
            }
        };
        for normal in &posed.normals {
            let _ = writeln!(text, "vn {} {} {}", normal.x, normal.y, normal.z);
        }
        // OBJ counts v from the bottom of the image; these games (and
        // glTF) from the top.
        for [u, v] in &skin.uvs {
            let _ = writeln!(text, "vt {u} {}", 1.0 - v);
        }
        if with_material {
            let _ = writeln!(text, "usemtl {}", material_name(skin));
        }
        let (first_normal, first_uv) = (written.normals + 1, written.uvs + 1);
        let corner = |index: u32| {
            let vertex = index as usize;
            let position = position_numbers.get(vertex).copied().unwrap_or_default();
            match (posed.normals.is_empty(), skin.uvs.is_empty()) {
                (false, false) => {
                    format!("{position}/{}/{}", first_uv + vertex, first_normal + vertex)
                }
                (false, true) => format!("{position}//{}", first_normal + vertex),
                (true, false) => format!("{position}/{}", first_uv + vertex),
                (true, true) => position.to_string(),
            }
        };
        for [a, b, c] in &skin.triangles {
            let _ = writeln!(text, "f {} {} {}", corner(*a), corner(*b), corner(*c));
        }
        written.normals += posed.normals.len();
        written.uvs += skin.uvs.len();
    }
    Ok(text)
}

fn write_v(text: &mut String, position: Vec3) {
    let _ = writeln!(text, "v {} {} {}", position.x, position.y, position.z);
}

/// A shared position list as posed: each entry where the first vertex
/// standing at it went, among the skins sharing the list.
fn shared_list(
    skins: &[(rig::Skin, PosedSkin)],
    list: &rig::SharedPositions,
) -> Result<Vec<Vec3>, RigError> {
    let mut entries: Vec<Option<Vec3>> = vec![None; list.count as usize];
    let sharing = skins.iter().filter_map(|(skin, posed)| {
        let shared = skin.shared_positions.as_ref()?;
        (shared.list == list.list).then_some((shared, posed))
    });
    for (shared, posed) in sharing {
        for (&entry, &position) in shared.entries.iter().zip(&posed.positions) {
            if let Some(slot @ None) = entries.get_mut(entry as usize) {
                *slot = Some(position);
            }
        }
    }
    entries
        .iter()
        .enumerate()
        .map(|(entry, position)| {
            position.ok_or_else(|| {
                RigError::Invalid(format!(
                    "entry {entry} of the {} positions of {} has no vertex standing at it, so the \
                     OBJ cannot list the positions as the file does",
                    list.count, list.list
                ))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A skin of `entries.len()` vertices standing at those entries of a
    /// three-entry list, posed where entry k is (k, 0, 0); one triangle.
    fn sharing(name: &str, entries: Vec<u32>) -> (rig::Skin, PosedSkin) {
        let positions: Vec<Vec3> = entries
            .iter()
            .map(|&entry| Vec3::new(entry as f32, 0.0, 0.0))
            .collect();
        let skin = rig::Skin {
            name: name.to_owned(),
            texture: None,
            positions: positions.iter().map(|p| p.to_array()).collect(),
            normals: Vec::new(),
            uvs: vec![[0.5, 0.25]; entries.len()],
            triangles: vec![[0, 1, 0]],
            binding: rig::Binding::Weighted(rig::Weights {
                joints: Vec::new(),
                counts: vec![0; entries.len()],
                influences: Vec::new(),
            }),
            morph_targets: Vec::new(),
            shared_positions: Some(rig::SharedPositions {
                list: "mesh.mgn".to_owned(),
                count: 3,
                entries,
            }),
        };
        let posed = PosedSkin {
            positions,
            normals: Vec::new(),
        };
        (skin, posed)
    }

    #[test]
    fn a_shared_position_list_is_written_once_in_its_order() {
        let skins = [sharing("a", vec![1, 0]), sharing("b", vec![2, 1])];
        let obj = write_obj(&skins, false).unwrap();
        assert_eq!(
            obj,
            "o a\nv 0 0 0\nv 1 0 0\nv 2 0 0\nvt 0.5 0.75\nvt 0.5 0.75\nf 2/1 1/2 2/1\n\
             o b\nvt 0.5 0.75\nvt 0.5 0.75\nf 3/3 2/4 3/3\n"
        );
    }

    #[test]
    fn an_entry_no_vertex_stands_at_is_an_error() {
        let skins = [sharing("a", vec![0, 2])];
        assert_eq!(
            write_obj(&skins, false).unwrap_err().to_string(),
            "entry 1 of the 3 positions of mesh.mgn has no vertex standing at it, so the OBJ \
             cannot list the positions as the file does"
        );
    }
}
