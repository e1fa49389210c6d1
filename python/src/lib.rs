//! `ossuary._ossuary`: the native half of the Python package, a thin layer
//! over the workspace's crates. Files are read, identified and decoded by
//! `export::input` as the command line reads them; values go to Python as
//! the JSON `ossuary dump` prints; `check`, `explain` and `convert` run the
//! command line itself in process; a character's rig is posed by the
//! `skinning` crate. Arrays go out as little-endian bytes with their
//! shapes, which the Python half views as NumPy arrays without copying.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use export::input::{self, CharacterError, Input, Reading};
use formats::catalogue::Catalogue;
use formats::format::Encoding;
use formats::rig::{self, Binding, Motion, RigOptions};
use formats::schema::{Error as SchemaError, Position};
use glam::{Affine3A, Mat4};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use skinning::{BlendRule, BoundSkin, Clip, Pose, Skeleton};

create_exception!(
    _ossuary,
    OssuaryError,
    PyException,
    "A file ossuary cannot read, or a value it cannot write: the message is the \
     command line's sentence; `file`, `byte` (binary) or `line` and `column` (text), \
     and `path` (the field) say where, each None where unknown."
);

/// Where an error is, as far as it is known.
#[derive(Default)]
struct Place {
    file: Option<PathBuf>,
    position: Option<Position>,
    field: Option<String>,
}

impl Place {
    fn of_schema(file: Option<&Path>, error: &SchemaError) -> Place {
        Place {
            file: file.map(Path::to_path_buf),
            position: error.position,
            field: Some(error.path.to_string()).filter(|path| !path.is_empty()),
        }
    }
}

/// An [`OssuaryError`] saying `message`, its attributes set from `place`.
fn raise(py: Python<'_>, message: String, place: Place) -> PyErr {
    let error = OssuaryError::new_err(message);
    let value = error.value(py);
    let (byte, line, column) = match place.position {
        Some(Position::Byte(byte)) => (Some(byte), None, None),
        Some(Position::Text { line, column }) => (None, Some(line), Some(column)),
        None => (None, None, None),
    };
    // An attribute that cannot be set leaves the message as it is.
    let _ = value.setattr("file", place.file.map(|file| file.display().to_string()));
    let _ = value.setattr("byte", byte);
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    let _ = value.setattr("path", place.field);
    error
}

/// A failure to read a character's files, with its place where it has one.
fn character_error(py: Python<'_>, error: CharacterError) -> PyErr {
    let place = match &error {
        CharacterError::Decode { path, source } => Place::of_schema(Some(path), source),
        CharacterError::Read { path, .. }
        | CharacterError::Unidentified { path, .. }
        | CharacterError::Rig { path, .. }
        | CharacterError::WrongKind { path, .. }
        | CharacterError::NoAnimationNamed { path, .. }
        | CharacterError::SeveralAnimations { path, .. } => Place {
            file: Some(path.clone()),
            ..Place::default()
        },
        _ => Place::default(),
    };
    raise(py, error.to_string(), place)
}

/// Every format ossuary reads: name, title, extensions, encoding.
#[pyfunction(name = "formats")]
fn list_formats(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    Catalogue::default()
        .formats()
        .iter()
        .map(|format| {
            let entry = PyDict::new(py);
            entry.set_item("name", format.name)?;
            entry.set_item("title", format.title)?;
            entry.set_item("extensions", format.extensions.to_vec())?;
            let encoding = match format.encoding {
                Encoding::Binary => "binary",
                Encoding::Text => "text",
            };
            entry.set_item("encoding", encoding)?;
            Ok(entry)
        })
        .collect()
}

/// `data` (named `name`, whose extension may tell its format) decoded as
/// `format`, or as the format its name or bytes show: the format's name
/// and the value as the JSON `ossuary dump` prints.
#[pyfunction]
#[pyo3(signature = (data, name, format=None))]
fn decode(
    py: Python<'_>,
    data: &[u8],
    name: PathBuf,
    format: Option<&str>,
) -> PyResult<(&'static str, String)> {
    let catalogue = Catalogue::default();
    let format = input::format_of(&catalogue, &name, data, format)
        .map_err(|error| character_error(py, error))?;
    let document =
        input::decode(&name, format, data).map_err(|error| character_error(py, error))?;
    let json = document
        .to_json()
        .map_err(|error| raise(py, error.to_string(), Place::default()))?;
    Ok((format.name, json))
}

/// The file `json` (as `decode` gives it) describes, in `format`: the
/// bytes `ossuary encode` writes.
#[pyfunction]
fn encode<'py>(py: Python<'py>, json: &str, format: &str) -> PyResult<Bound<'py, PyBytes>> {
    let format = input::format_named(&Catalogue::default(), format)
        .map_err(|error| character_error(py, error))?;
    let document = (format.from_json)(json).map_err(|error| {
        let place = Place {
            position: Some(Position::Text {
                line: error.line,
                column: error.column,
            }),
            field: Some(error.path.clone()),
            ..Place::default()
        };
        raise(py, error.message.clone(), place)
    })?;
    let bytes = document
        .encode()
        .map_err(|error| raise(py, error.to_string(), Place::of_schema(None, &error)))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Runs the command line with `args` (without the program's name), in
/// process: its exit status, standard output and standard error.
#[pyfunction]
fn run(py: Python<'_>, args: Vec<OsString>) -> (u8, Vec<u8>, Vec<u8>) {
    py.detach(|| {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let args = std::iter::once(OsString::from("ossuary")).chain(args);
        let code = ossuary::run(Catalogue::default(), args, &mut out, &mut err);
        let status = [0, 1, 2]
            .into_iter()
            .find(|&status| code == ExitCode::from(status))
            .unwrap_or(1);
        (status, out, err)
    })
}

/// A character: the skeleton of the first input that has one, the meshes
/// of every input, the animations of the animation file.
#[pyclass(module = "ossuary._ossuary", frozen)]
struct Character {
    skeleton: Skeleton,
    skins: Vec<CharacterSkin>,
    clips: Vec<(String, Vec<f32>, Clip)>,
    /// The matrices of the skeleton at rest.
    rest: Vec<Affine3A>,
}

struct CharacterSkin {
    skin: rig::Skin,
    bound: BoundSkin,
    file: PathBuf,
}

/// Little-endian bytes of `values`.
fn bytes_of<T: Copy, const N: usize>(
    values: impl IntoIterator<Item = T>,
    to_bytes: fn(T) -> [u8; N],
) -> Vec<u8> {
    values.into_iter().flat_map(to_bytes).collect()
}

/// Matrices as rows of four floats, row after row (`m @ [x, y, z, 1]`).
fn matrix_bytes(matrices: &[Affine3A]) -> Vec<u8> {
    bytes_of(
        matrices
            .iter()
            .flat_map(|matrix| Mat4::from(*matrix).transpose().to_cols_array()),
        f32::to_le_bytes,
    )
}

fn floats<const N: usize>(values: &[[f32; N]]) -> Vec<u8> {
    bytes_of(values.iter().flatten().copied(), f32::to_le_bytes)
}

fn vectors(values: &[glam::Vec3]) -> Vec<u8> {
    bytes_of(
        values.iter().flat_map(|value| value.to_array()),
        f32::to_le_bytes,
    )
}

/// One mesh posed: its positions and normals, float32 bytes, 3 a vertex.
type PosedSkin = (Vec<u8>, Vec<u8>);

impl Character {
    /// The skin's joints and weights per vertex, `width` of each (joint -1
    /// and weight 0 where a vertex has fewer): a weighted skin's
    /// influences; a Sims skin's bone, and the bone of the blend vertex
    /// that pulls the vertex, weighted as the pull.
    fn influences(&self, skin: &rig::Skin) -> (usize, Vec<i32>, Vec<f32>) {
        let vertices = skin.positions.len();
        let find = |name: &str| self.skeleton.find(name).map_or(-1, |index| index as i32);
        let mut per_vertex: Vec<Vec<(i32, f32)>> = vec![Vec::new(); vertices];
        match &skin.binding {
            Binding::Weighted(weights) => {
                let joints: Vec<i32> = weights.joints.iter().map(|name| find(name)).collect();
                let mut influences = weights.influences.iter();
                for (vertex, &count) in per_vertex.iter_mut().zip(&weights.counts) {
                    vertex.extend(influences.by_ref().take(count as usize).map(|influence| {
                        let joint = joints.get(influence.joint as usize).copied().unwrap_or(-1);
                        (joint, influence.weight)
                    }));
                }
            }
            Binding::BoneSpace(space) => {
                let bones: Vec<i32> = space.bones.iter().map(|name| find(name)).collect();
                for range in &space.ranges {
                    let bone = bones.get(range.bone as usize).copied().unwrap_or(-1);
                    for vertex in range.vertices.clone() {
                        if let Some(vertex) = per_vertex.get_mut(vertex as usize) {
                            vertex.push((bone, 1.0));
                        }
                    }
                    for blend in range.blends.clone() {
                        let Some(pull) = space.blends.get(blend as usize) else {
                            continue;
                        };
                        if let Some(vertex) = per_vertex.get_mut(pull.vertex as usize) {
                            if let Some(own) = vertex.first_mut() {
                                own.1 -= pull.weight;
                            }
                            vertex.push((bone, pull.weight));
                        }
                    }
                }
            }
        }
        let width = per_vertex.iter().map(Vec::len).max().unwrap_or(0).max(1);
        let mut joints = vec![-1; vertices * width];
        let mut weights = vec![0.0; vertices * width];
        for (index, vertex) in per_vertex.iter().enumerate() {
            for (slot, &(joint, weight)) in vertex.iter().enumerate() {
                joints[index * width + slot] = joint;
                weights[index * width + slot] = weight;
            }
        }
        (width, joints, weights)
    }
}

#[pymethods]
impl Character {
    /// Joint names, in the skeleton's order.
    fn joint_names(&self) -> Vec<String> {
        self.skeleton.names().to_vec()
    }

    /// Each joint's parent (-1 for a root), as int32 bytes.
    fn parents(&self) -> Vec<u8> {
        bytes_of(
            self.skeleton
                .parents()
                .iter()
                .map(|parent| parent.map_or(-1, |parent| parent as i32)),
            i32::to_le_bytes,
        )
    }

    /// Each joint's rest transform relative to its parent, as float32 4x4
    /// row-major bytes.
    fn rest_locals(&self) -> Vec<u8> {
        matrix_bytes(self.skeleton.rest_locals())
    }

    /// Each joint's rest transform in model space, likewise.
    fn rest_model(&self) -> Vec<u8> {
        matrix_bytes(&self.rest)
    }

    /// How the file's axes lie: `left-handed-y-up`, `right-handed-z-up` or
    /// `right-handed-y-up`.
    fn axes(&self) -> &'static str {
        match self.skeleton.axes() {
            rig::Axes::LeftHandedYUp => "left-handed-y-up",
            rig::Axes::RightHandedZUp => "right-handed-z-up",
            rig::Axes::RightHandedYUp => "right-handed-y-up",
        }
    }

    /// Each mesh at rest, in model space: a dict of its name, file,
    /// texture, vertex and triangle counts, the bytes of its positions,
    /// normals (float32, 3 a vertex), uvs (2 a vertex), triangles (uint32,
    /// 3 each), joints (int32) and weights (float32), `width` of each a
    /// vertex, and its blend targets (name to float32 offsets, 3 a vertex).
    fn skins<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.skins
            .iter()
            .map(|entry| {
                let skin = &entry.skin;
                let posed = entry
                    .bound
                    .deform(&self.rest, BlendRule::Game)
                    .map_err(|error| raise(py, error.to_string(), Place::default()))?;
                let (width, joints, weights) = self.influences(skin);
                let mesh = PyDict::new(py);
                mesh.set_item("name", &skin.name)?;
                mesh.set_item("file", entry.file.display().to_string())?;
                mesh.set_item("texture", &skin.texture)?;
                mesh.set_item("vertices", skin.positions.len())?;
                mesh.set_item("triangle_count", skin.triangles.len())?;
                mesh.set_item("positions", PyBytes::new(py, &vectors(&posed.positions)))?;
                mesh.set_item("normals", PyBytes::new(py, &vectors(&posed.normals)))?;
                mesh.set_item("uvs", PyBytes::new(py, &floats(&skin.uvs)))?;
                let triangles =
                    bytes_of(skin.triangles.iter().flatten().copied(), u32::to_le_bytes);
                mesh.set_item("triangles", PyBytes::new(py, &triangles))?;
                mesh.set_item("width", width)?;
                mesh.set_item(
                    "joints",
                    PyBytes::new(py, &bytes_of(joints, i32::to_le_bytes)),
                )?;
                mesh.set_item(
                    "weights",
                    PyBytes::new(py, &bytes_of(weights, f32::to_le_bytes)),
                )?;
                let targets = PyDict::new(py);
                for target in &skin.morph_targets {
                    let mut offsets = vec![[0.0f32; 3]; skin.positions.len()];
                    for offset in &target.positions {
                        if let Some(slot) = offsets.get_mut(offset.vertex as usize) {
                            *slot = offset.offset;
                        }
                    }
                    targets.set_item(&target.name, PyBytes::new(py, &floats(&offsets)))?;
                }
                mesh.set_item("blend_targets", targets)?;
                Ok(mesh)
            })
            .collect()
    }

    /// Each animation: its name, each frame's time in seconds (float32
    /// bytes) and its frame count.
    fn clips(&self) -> Vec<(String, Vec<u8>, usize)> {
        self.clips
            .iter()
            .map(|(name, times, clip)| {
                (
                    name.clone(),
                    bytes_of(times.iter().copied(), f32::to_le_bytes),
                    clip.frames(),
                )
            })
            .collect()
    }

    /// The skeleton at frame `frame` of clip `clip` (at rest for None):
    /// the joints' model matrices (float32 4x4 row-major bytes), and each
    /// mesh's deformed positions and normals (float32 bytes, 3 a vertex).
    #[pyo3(signature = (clip=None, frame=0))]
    fn pose(
        &self,
        py: Python<'_>,
        clip: Option<usize>,
        frame: usize,
    ) -> PyResult<(Vec<u8>, Vec<PosedSkin>)> {
        let fail = |message: String| raise(py, message, Place::default());
        let pose = match clip {
            None => Pose::rest(&self.skeleton),
            Some(index) => {
                let (name, _, clip) = self.clips.get(index).ok_or_else(|| {
                    fail(format!(
                        "there is no clip {index}: the character has {}",
                        self.clips.len()
                    ))
                })?;
                if frame >= clip.frames() {
                    return Err(fail(format!(
                        "frame {frame} is past the end of {name}: it has {} frame(s), counted from 0",
                        clip.frames()
                    )));
                }
                clip.pose(&self.skeleton, frame)
                    .map_err(|error| fail(error.to_string()))?
            }
        };
        let model = pose
            .model_matrices(&self.skeleton)
            .map_err(|error| fail(error.to_string()))?;
        let skins = self
            .skins
            .iter()
            .map(|entry| {
                entry
                    .bound
                    .deform(&model, BlendRule::Game)
                    .map(|posed| (vectors(&posed.positions), vectors(&posed.normals)))
                    .map_err(|error| fail(error.to_string()))
            })
            .collect::<PyResult<_>>()?;
        Ok((matrix_bytes(&model), skins))
    }
}

/// The character of `inputs` (the first with a skeleton gives it; every
/// one gives its meshes, `lod` their level of detail) with the animations
/// of `anim` (every one, or the one named `skill`); `format` for inputs
/// whose names and bytes do not tell it.
#[pyfunction]
#[pyo3(signature = (inputs, anim=None, skill=None, lod=0, format=None))]
fn character(
    py: Python<'_>,
    inputs: Vec<PathBuf>,
    anim: Option<PathBuf>,
    skill: Option<String>,
    lod: usize,
    format: Option<String>,
) -> PyResult<Character> {
    let catalogue = Catalogue::default();
    let reading = Reading::default();
    let options = RigOptions { lod };
    let fail = |error: CharacterError| character_error(py, error);
    let loaded = inputs
        .iter()
        .map(|path| input::load(&catalogue, path, format.as_deref(), &reading))
        .collect::<Result<Vec<Input>, _>>()
        .map_err(fail)?;
    let mut skeleton = None;
    let mut skins = Vec::new();
    for input in &loaded {
        if skeleton.is_none() {
            skeleton = input.skeleton(options).map_err(fail)?;
        }
        skins.extend(
            input
                .skins(options)
                .map_err(fail)?
                .into_iter()
                .map(|skin| (input.path.clone(), skin)),
        );
    }
    let first = loaded
        .first()
        .ok_or_else(|| fail(CharacterError::NoInput))?;
    let skeleton = skeleton.ok_or_else(|| fail(first.wrong_kind(input::Need::Skeleton)))?;
    let skeleton = Skeleton::new(&skeleton)
        .map_err(|error| fail(first.rig_error(rig::RigError::Invalid(error.to_string()))))?;
    let skins = skins
        .into_iter()
        .map(|(file, skin)| {
            let bound = BoundSkin::bind(&skin, &skeleton).map_err(|error| {
                raise(
                    py,
                    format!("{}: {error}", file.display()),
                    Place {
                        file: Some(file.clone()),
                        ..Place::default()
                    },
                )
            })?;
            Ok(CharacterSkin { skin, bound, file })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let clips = match anim {
        None => Vec::new(),
        Some(path) => {
            let input = input::load(&catalogue, &path, None, &reading).map_err(fail)?;
            let animations = match skill.as_deref() {
                Some(name) => vec![input.chosen_animation(Some(name)).map_err(fail)?],
                None => input
                    .named_animations()
                    .map_err(fail)?
                    .into_iter()
                    .map(|named| named.animation.map_err(|error| input.rig_error(error)))
                    .collect::<Result<_, _>>()
                    .map_err(fail)?,
            };
            animations
                .into_iter()
                .map(|animation| {
                    let Motion::Joints(motion) = &animation.motion else {
                        return Err(raise(
                            py,
                            format!(
                                "{}: the animation {} moves no joints (vertices only, or frames \
                                 that need another file); convert it to glTF to see it",
                                path.display(),
                                animation.name
                            ),
                            Place {
                                file: Some(path.clone()),
                                ..Place::default()
                            },
                        ));
                    };
                    let clip =
                        Clip::bind(motion, animation.times.len(), &skeleton).map_err(|error| {
                            raise(py, format!("{}: {error}", path.display()), Place::default())
                        })?;
                    Ok((animation.name.clone(), animation.times.clone(), clip))
                })
                .collect::<PyResult<_>>()?
        }
    };
    let rest = Pose::rest(&skeleton)
        .model_matrices(&skeleton)
        .map_err(|error| raise(py, error.to_string(), Place::default()))?;
    Ok(Character {
        skeleton,
        skins,
        clips,
        rest,
    })
}

/// The files the viewer dresses the character `path` names with when it
/// opens it (its own meshes, and its folder's wardrobe's default sets: a
/// body, a head of its sex and hands), as paths.
#[pyfunction]
fn dressing(py: Python<'_>, path: PathBuf) -> PyResult<Vec<PathBuf>> {
    let fail = |message: String| {
        raise(
            py,
            message,
            Place {
                file: Some(path.clone()),
                ..Place::default()
            },
        )
    };
    let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(fail(format!("{}: not a file's path", path.display())));
    };
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let roots = viewer::roots::Roots::new(&[folder.to_path_buf()])
        .map_err(|error| fail(format!("{}: {error}", folder.display())))?;
    let name = name.to_string_lossy();
    let catalogue = Catalogue::default();
    let meshes = py.detach(|| viewer::listing::meshes_of(&roots, &catalogue, &name, &|| false));
    Ok(meshes.iter().filter_map(|rel| roots.resolve(rel)).collect())
}

#[pymodule]
fn _ossuary(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("OssuaryError", module.py().get_type::<OssuaryError>())?;
    module.add_function(wrap_pyfunction!(list_formats, module)?)?;
    module.add_function(wrap_pyfunction!(decode, module)?)?;
    module.add_function(wrap_pyfunction!(encode, module)?)?;
    module.add_function(wrap_pyfunction!(run, module)?)?;
    module.add_function(wrap_pyfunction!(character, module)?)?;
    module.add_function(wrap_pyfunction!(dressing, module)?)?;
    module.add_class::<Character>()?;
    Ok(())
}
